#!/usr/bin/env bash
# Latency beside throughput: nginx and both engines of http-server under wrk --latency, with a
# verdict per cell of ours (DESIGN.md section 9, "Tail latency is a promise too").
#
#   zerocopy-benchmarks/http/http-latency.sh                                  (takes the CPU lock)
#   SERVER_CPUS=0-3 CLIENT_CPUS=8-15 zerocopy-benchmarks/http/http-latency.sh (16 CPUs, pinned)
#   ROUNDS=1 DURATION=1 WARMUP=1 CONNECTIONS=64 FILES=4k.bin zerocopy-benchmarks/http/http-latency.sh
#                                                                    (a check that it runs: ~15 s)
#
# Installs nginx-light and wrk with apt-get if they are missing, builds the examples jar if it is
# missing, generates 4 KiB and 1 MiB files, raises `ulimit -n` for 1,000 connections, and starts
# on 127.0.0.1 the SERVERS (default "nginx threads event-loop"): nginx as http.sh runs it
# (nginx-conf.sh: sendfile, tcp_nopush, 2 workers, or one per CPU of SERVER_CPUS) and http-server's
# two engines on JDK 25 (JDK25) with the library's default strategy and SERVER_JAVA_OPTS (extra JVM
# options, to compare JDK settings: e.g. "-XX:+UseZGC" or "-Djdk.virtualThreadScheduler.parallelism=8").
# Each server is warmed up (WARMUP seconds of wrk at 64 connections per file, default 8); then
# ROUNDS rounds (3), each running every file (FILES, default "4k.bin 1m.bin") at every connection
# count (4 KiB: 64 256 1000, 1 MiB: 64 256; CONNECTIONS overrides both) against every server, in an
# order rotated from round to round: `wrk -tT -cC -dDURATIONs --timeout TIMEOUT --latency`
# (DURATION 5, TIMEOUT 5s; T 2, or one per CPU of CLIENT_CPUS). FILES may also name 10000x4k:
# 10,000 distinct 4 KiB files, each request one at random (wrk-statuses.lua), at 64 256 1000, more
# than a cache of open files of 1,000 holds.
# Writes OUT (zerocopy-examples/target/bench-latency): latency.csv (one row per wrk run: requests/s,
# p50, p99 and slowest in ms, time-outs, errors = socket errors + non-2xx/3xx responses),
# wrk-output.txt (wrk's own output, every run) and latency.md (medians per server beside nginx's
# and a PASS/FAIL verdict per cell of ours; the rule is in http-latency-summary.py). CPU sets as in
# common.sh: SERVER_CPUS (nginx and ours, with -XX:ActiveProcessorCount to match), CLIENT_CPUS
# (wrk); unset, nothing is pinned.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
take_cpu_lock "$@"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5}
WARMUP=${WARMUP:-8}
TIMEOUT=${TIMEOUT:-5s}
OUT=${OUT:-zerocopy-examples/target/bench-latency}
SERVER_JAVA_OPTS=${SERVER_JAVA_OPTS:-}
read -r -a SERVERS <<<"${SERVERS:-nginx threads event-loop}"
read -r -a FILES <<<"${FILES:-4k.bin 1m.bin}"
connections_for() { # file
  if [ -n "${CONNECTIONS:-}" ]; then echo "$CONNECTIONS"; elif [ "$1" = 1m.bin ]; then echo 64 256; else echo 64 256 1000; fi
}
declare -A PORT=([nginx]=18401 [threads]=18402 [event-loop]=18403)
for s in "${SERVERS[@]}"; do [ -n "${PORT[$s]:-}" ] || { echo "unknown server $s (nginx, threads, event-loop)" >&2; exit 1; }; done
for f in "${FILES[@]}"; do case $f in 4k.bin | 1m.bin | 10000x4k) ;; *) echo "unknown file $f (4k.bin, 1m.bin, 10000x4k)" >&2; exit 1 ;; esac; done

most=0
for f in "${FILES[@]}"; do for c in $(connections_for "$f"); do most=$((c > most ? c : most)); done; done
raise_open_files $((most + 1024)) # before the servers start: they inherit it

zerocopy-benchmarks/http/need.sh wrk curl nginx:nginx-light
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
need_jdk_and_jar

mkdir -p "$OUT"
make_root latency 4k.bin:4096 1m.bin:$((1 << 20))
if [[ " ${FILES[*]} " == *" 10000x4k "* ]]; then # f0.bin to f9999.bin, which wrk-statuses.lua asks for at random
  many_files "$ROOT" 4096 10000
fi
cat "$ROOT"/*.bin >/dev/null # into the page cache
trap cleanup EXIT

ports=()
for s in "${SERVERS[@]}"; do ports+=("${PORT[$s]}"); done
ports_free "${ports[@]}"
for s in "${SERVERS[@]}"; do
  if [ "$s" = nginx ]; then
    NGINX_WORKERS=$SERVER_NGINX_WORKERS zerocopy-benchmarks/http/nginx-conf.sh "$WORK" "$ROOT" "${PORT[nginx]}" \
      >"$WORK/nginx/nginx.conf"
    "${SERVER_ON[@]}" "$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" >"$WORK/nginx.log" 2>&1 &
  else
    # shellcheck disable=SC2086
    "${SERVER_JAVA[@]}" $SERVER_JAVA_OPTS -jar "$JAR" http-server --root "$ROOT" --port "${PORT[$s]}" --engine "$s" \
      --max-connections 4096 >"$WORK/$s.log" 2>&1 &
  fi
  PIDS+=($!)
done
for s in "${SERVERS[@]}"; do
  for _ in $(seq 150); do curl -sf -o /dev/null "http://127.0.0.1:${PORT[$s]}/4k.bin" && continue 2; sleep 0.1; done
  echo "$s did not start" >&2
  cat "$WORK"/*.log >&2
  exit 1
done

# run_wrk SERVER FILE CONNECTIONS SECONDS [--latency]: wrk's output, also appended to wrk-output.txt;
# FILE 10000x4k asks for one of the 10,000 files at random (wrk-statuses.lua)
run_wrk() {
  local out path=$2 script=()
  if [ "$2" = 10000x4k ]; then path=f0.bin script=(-s zerocopy-benchmarks/http/wrk-statuses.lua); fi
  out=$(WRK_FILES=10000 client_wrk -t"$(wrk_threads "$3")" -c"$3" -d"$4"s --timeout "$TIMEOUT" "${script[@]}" "${@:5}" \
    "http://127.0.0.1:${PORT[$1]}/$path") || return
  printf '== %s %s %s connections\n%s\n' "$1" "$2" "$3" "$out" >>"$OUT/wrk-output.txt"
  echo "$out"
}

: >"$OUT/wrk-output.txt"
if [ "$WARMUP" != 0 ]; then
  echo "warming up: ${WARMUP} s of wrk at 64 connections per file, per server"
  for s in "${SERVERS[@]}"; do
    for f in "${FILES[@]}"; do run_wrk "$s" "$f" 64 "$WARMUP" >/dev/null; done
  done
fi

CSV="$OUT/latency.csv"
echo "round,server,file,connections,rps,p50_ms,p99_ms,max_ms,timeouts,errors" >"$CSV"
for round in $(seq "$ROUNDS"); do
  for f in "${FILES[@]}"; do
    for c in $(connections_for "$f"); do
      for i in "${!SERVERS[@]}"; do
        s=${SERVERS[$(((i + round) % ${#SERVERS[@]}))]} # rotated from round to round
        out=$(run_wrk "$s" "$f" "$c" "$DURATION" --latency)
        read -r rps _ p50 p99 max errors timeouts non2xx <<<"$(parse_wrk <<<"$out")"
        echo "$round,$s,$f,$c,$rps,$p50,$p99,$max,$timeouts,$((errors + non2xx))" | tee -a "$CSV"
      done
    done
  done
done

python3 zerocopy-benchmarks/http/http-latency-summary.py "$CSV" "$OUT/latency.md"
{
  echo
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs ($(lscpu | sed -n 's/^Model name: *//p')), Linux $(uname -r)"
  echo "nginx: $("$NGINX" -v 2>&1 | sed 's/.*: //') (workers: $SERVER_NGINX_WORKERS); wrk: $(wrk -v 2>&1 | head -1 | cut -d' ' -f2); ours: $("$JDK25/bin/java" -version 2>&1 | head -1), default strategy; SERVER_JAVA_OPTS=${SERVER_JAVA_OPTS:-(none)}"
  echo "$(cpu_layout)"
  echo "wrk -t$CLIENT_THREADS (at most one per connection) --timeout $TIMEOUT --latency; ${DURATION} s per run; $ROUNDS rounds, servers in a rotated order; warm-up ${WARMUP} s per file and server at 64 connections; ulimit -n $(ulimit -n)"
} >>"$OUT/latency.md"
cat "$OUT/latency.md"
