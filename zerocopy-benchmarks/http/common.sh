# Shell functions and settings the HTTP benchmark scripts share; sourced, not run:
#
#   . "$(dirname "${BASH_SOURCE[0]}")/common.sh"
#
# CPU sets, each a `taskset -c` list ("0-3", "0,2,4-7"); unset or empty, nothing is pinned and every
# script behaves as it did before they existed:
#   SERVER_CPUS  nginx (as a server) and http-server, jwebserver: run under `taskset -c`; nginx gets
#                one worker per CPU (else 2), the JVMs -XX:ActiveProcessorCount=<CPUs in the set>
#   PROXY_CPUS   the nginx reverse proxy of http-receivers.sh; one worker per CPU (else 2)
#   CLIENT_CPUS  wrk: under `taskset -c`, with one thread per CPU (never more than connections;
#                unset, -t2, or -t1 at one connection)
# On a machine with 16 CPUs: SERVER_CPUS=0-3 PROXY_CPUS=4-7 CLIENT_CPUS=8-15.
# SERVER_CPUS and CLIENT_CPUS should not overlap; the scripts do not check it.
SERVER_CPUS=${SERVER_CPUS:-}
PROXY_CPUS=${PROXY_CPUS:-}
CLIENT_CPUS=${CLIENT_CPUS:-}
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAR=${JAR:-zerocopy-examples/target/zerocopy-examples.jar}

# cpu_count LIST: how many CPUs a taskset list names (fails on a list this machine cannot run on)
cpu_count() { taskset -c "$1" nproc; }

# pinned PREFIX_ARRAY CPUS: sets the array to `taskset -c CPUS`, or to nothing when CPUS is empty.
# An array rather than a function, so that `"${SERVER_ON[@]}" cmd &` leaves cmd's PID in $!.
pinned() {
  local -n prefix=$1
  prefix=()
  if [ -n "$2" ]; then
    cpu_count "$2" >/dev/null || { echo "cannot run on CPUs '$2' (this machine has $(nproc --all))" >&2; exit 1; }
    prefix=(taskset -c "$2")
  fi
}
pinned SERVER_ON "$SERVER_CPUS"
pinned PROXY_ON "$PROXY_CPUS"
pinned CLIENT_ON "$CLIENT_CPUS"

# nginx workers: one per CPU of its set, else 2 (NGINX_WORKERS is what nginx-conf.sh reads)
SERVER_NGINX_WORKERS=2
PROXY_NGINX_WORKERS=2
[ -z "$SERVER_CPUS" ] || SERVER_NGINX_WORKERS=$(cpu_count "$SERVER_CPUS")
[ -z "$PROXY_CPUS" ] || PROXY_NGINX_WORKERS=$(cpu_count "$PROXY_CPUS")
# the JVM sizes its GC threads, compiler threads and the event loop's selector threads by this
SERVER_JVM_CPU_FLAGS=()
[ -z "$SERVER_CPUS" ] || SERVER_JVM_CPU_FLAGS=(-XX:ActiveProcessorCount="$SERVER_NGINX_WORKERS")
# http-server on JDK 25, pinned: "${SERVER_JAVA[@]}" [JVM options] -jar "$JAR" http-server ... &
SERVER_JAVA=("${SERVER_ON[@]}" "$JDK25/bin/java" "${SERVER_JVM_CPU_FLAGS[@]}")
CLIENT_THREADS=2
[ -z "$CLIENT_CPUS" ] || CLIENT_THREADS=$(cpu_count "$CLIENT_CPUS")

# wrk_threads CONNECTIONS: wrk's -t (wrk refuses more threads than connections)
wrk_threads() { echo $(($1 < CLIENT_THREADS ? $1 : CLIENT_THREADS)); }

# client_wrk ARGS...: wrk on the client CPUs
client_wrk() { "${CLIENT_ON[@]}" wrk "$@"; }

# client_wrk_files ARGS...: client_wrk, and with WRK_FILES=N set (many_files), through
# wrk-statuses.lua: each request asks for one of /f0.bin to /f<N-1>.bin at random, whatever the
# URL's path, and wrk prints a "statuses:" line at the end
WRK_STATUSES_LUA=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/wrk-statuses.lua
client_wrk_files() {
  if [ -n "${WRK_FILES:-}" ]; then client_wrk -s "$WRK_STATUSES_LUA" "$@"; else client_wrk "$@"; fi
}

# many_files DIR SIZE N: N files of SIZE bytes in DIR, f0.bin to f<N-1>.bin (copies of one random
# file), and WRK_FILES=N exported for client_wrk_files and wrk-statuses.lua
many_files() {
  head -c "$2" /dev/urandom >"$1/f0.bin"
  # a tee per 256 names, not a cp per file: 10,000 cp processes took minutes on a busy machine
  seq -f "$1/f%.0f.bin" 1 $(($3 - 1)) | xargs -r -n 256 sh -c 'tee -- "$@" <"$0" >/dev/null' "$1/f0.bin"
  export WRK_FILES=$3
}

# cpu_layout [proxy]: one line that says where things ran (the proxy's CPUs too, if asked)
cpu_layout() {
  local proxy=
  [ -z "${1:-}" ] || proxy=", proxy ${PROXY_CPUS:-any} (workers: $PROXY_NGINX_WORKERS)"
  if [ -z "$SERVER_CPUS$PROXY_CPUS$CLIENT_CPUS" ]; then
    echo "CPUs: nothing pinned; servers and wrk share all $(nproc) CPUs"
  else
    echo "CPUs: servers ${SERVER_CPUS:-any} (nginx workers: $SERVER_NGINX_WORKERS${SERVER_CPUS:+, JVMs -XX:ActiveProcessorCount=$SERVER_NGINX_WORKERS})$proxy, wrk ${CLIENT_CPUS:-any} (threads: up to $CLIENT_THREADS); $(nproc) CPUs in all"
  fi
}

# take_cpu_lock "$@": runs the calling script again under /tmp/zerocopy-cpu.lock (exclusive), so
# that two benchmarks never share the CPUs; returns at once when it already holds the lock
take_cpu_lock() {
  if [ -z "${ZEROCOPY_BENCH_LOCKED:-}" ]; then
    exec env ZEROCOPY_BENCH_LOCKED=1 flock -x /tmp/zerocopy-cpu.lock "$(readlink -f "$0")" "$@"
  fi
}

# need_jdk_and_jar: JDK 25 must be there; the examples jar is built if missing
need_jdk_and_jar() {
  [ -x "$JDK25/bin/java" ] || { echo "no JDK 25 at $JDK25" >&2; exit 1; }
  if [ ! -f "$JAR" ]; then
    JAVA_HOME="$JDK25" ./mvnw -B -q package -DskipTests -pl zerocopy-examples -am
  fi
}

# ports_free PORT...: exits if anything listens on one of them
ports_free() {
  local port
  for port in "$@"; do
    if ss -ltn "sport = :$port" | grep -q LISTEN; then echo "port $port is taken" >&2; exit 1; fi
  done
}

# wait_serving URL: polls URL for up to 30 s until it answers with a success; fails otherwise (a
# server that did not start: its log says why)
wait_serving() {
  local _
  for _ in $(seq 300); do curl -sf -o /dev/null "$1" && return 0; sleep 0.1; done
  echo "nothing serves $1 after 30 s" >&2
  return 1
}

# Everything started in the background goes into PIDS; cleanup stops it and removes WORK.
PIDS=()
WORK=
cleanup() {
  local pid
  for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
  [ -z "$WORK" ] || rm -rf "$WORK"
}

# raise_open_files N: lifts `ulimit -n` to at least N (wrk and a server each hold a descriptor per
# connection; 1,024, a common default, is too few at 1,000 connections). Call it before starting
# the servers, which inherit it.
raise_open_files() {
  local want=$1
  nofile_enough() { [ "$(ulimit -"$1"n)" = unlimited ] || [ "$(ulimit -"$1"n)" -ge "$want" ]; }
  nofile_enough S && return 0
  if nofile_enough H; then ulimit -Sn "$want"; else ulimit -n "$want" 2>/dev/null || true; fi # the hard limit: root only
  nofile_enough S || { echo "ulimit -n is $(ulimit -Sn) (hard $(ulimit -Hn)); $want needed" >&2; exit 1; }
}

# parse_wrk < wrk's output (run with --latency): prints "rps bytes_per_s p50_ms p99_ms max_ms
# socket_errors timeouts non2xx", socket errors being connect + read + write. Latencies are of the
# requests that completed: wrk leaves timed-out ones out of them.
parse_wrk() {
  awk '
    function bytes(v,  n, u) { n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
      return n * (u == "KB" ? 1024 : u == "MB" ? 1048576 : u == "GB" ? 1073741824 : u == "TB" ? 1099511627776 : 1) }
    function ms(v,  n, u) { n = v + 0; u = v; sub(/^[0-9.]+/, "", u)
      return n * (u == "us" ? 0.001 : u == "s" ? 1000 : u == "m" ? 60000 : u == "h" ? 3600000 : 1) }
    $1 == "Latency" && $2 ~ /^[0-9]/ && max == "" { max = ms($4) }
    /^ +50%/ { p50 = ms($2) }
    /^ +99%/ { p99 = ms($2) }
    /^Requests\/sec:/ { rps = $2 }
    /^Transfer\/sec:/ { bps = bytes($2) }
    /Socket errors:/ { gsub(/,/, ""); errors = $4 + $6 + $8; timeouts = $10 }
    /Non-2xx or 3xx responses:/ { non2xx = $5 }
    END { printf "%s %.0f %.3f %.3f %.3f %d %d %d\n", rps, bps, p50, p99, max, errors, timeouts, non2xx }'
}

# A work folder under /tmp (WORK) with the root to serve (ROOT, which nginx's unprivileged workers
# can read) and nginx's log folder, and in the root one random file per NAME:BYTES given.
make_root() { # folder name, then NAME:BYTES ...
  WORK=$(mktemp -d "/tmp/zerocopy-bench-$1.XXXXXX")
  shift
  ROOT="$WORK/root"
  mkdir -p "$ROOT" "$WORK/nginx/logs"
  chmod 755 "$WORK" "$ROOT"
  local f
  for f in "$@"; do head -c "${f#*:}" /dev/urandom >"$ROOT/${f%%:*}"; done
}
