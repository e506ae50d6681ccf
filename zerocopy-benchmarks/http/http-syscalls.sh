#!/usr/bin/env bash
# System calls per request: http-server (both engines) and nginx, without and with its
# open_file_cache, serving one file, or with FILES=N one of N distinct files (docs/fixed-cost.md).
#
#   [FILES=N] [CONNS=64] zerocopy-benchmarks/http/http-syscalls.sh [FILE_BYTES] [SECONDS]     (defaults: 4096, 4)
#
# With FILES=N the root holds N files of FILE_BYTES and each request asks for one of them at random
# (wrk-statuses.lua), so that with N over the caches' bound (1,000 for both) they must evict; the
# runs then print their statuses (the strace and at-speed runs also wrk's socket errors).
#
# Starts each server on 127.0.0.1, attaches strace -c -f to it (nginx: to its workers) while wrk
# sends keep-alive GETs over CONNS connections, and divides each call's count by the
# requests wrk completed, naming every call. strace slows the server, so that its reads always
# find a request waiting. Before that, where perf is installed, runs without strace under `perf
# stat` give the server's CPU, context switches and (where the kernel's syscall tracepoints can be
# read) calls per request at full speed. Installs nginx-light, wrk and strace with apt-get if missing; needs the examples jar (README's demo
# command) and JDK 25 (JDK25, default: Temurin's). CPU sets (common.sh): SERVER_CPUS for the
# servers (nginx a worker per CPU, the JVMs -XX:ActiveProcessorCount to match), CLIENT_CPUS for wrk.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
BYTES=${1:-4096}
SECONDS_=${2:-4}
zerocopy-benchmarks/http/need.sh wrk strace nginx:nginx-light
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
CONNS=${CONNS:-64}
raise_open_files 4096
WORK=$(mktemp -d /tmp/zerocopy-http-syscalls.XXXXXX)
trap cleanup EXIT
mkdir -p "$WORK/root" "$WORK/nginx/logs"
chmod 755 "$WORK" "$WORK/root"
head -c "$BYTES" /dev/urandom >"$WORK/root/f.bin" # the file asked for without FILES, and to see a server start
if [ -n "${FILES:-}" ]; then
  many_files "$WORK/root" "$BYTES" "$FILES"
  echo "$(cpu_layout); $FILES files of $BYTES bytes, each request one at random; $CONNS connections; $(date -u '+%Y-%m-%d %H:%M UTC')"
fi
NGINX_WORKERS=$SERVER_NGINX_WORKERS zerocopy-benchmarks/http/nginx-conf.sh "$WORK" "$WORK/root" 18191 >"$WORK/nginx/nginx.conf"

# statuses SERVER_NAME WRK_OUTPUT_FILE: with FILES, the run's statuses (wrk-statuses.lua) and wrk's
# socket errors, time-outs and non-2xx-or-3xx responses
statuses() {
  [ -n "${FILES:-}" ] || return 0
  local errors timeouts non2xx
  read -r _ _ _ _ _ errors timeouts non2xx < <(parse_wrk <"$2")
  echo "$1 $(sed -n 's/^statuses: //p' "$2"); socket errors $errors, time-outs $timeouts, non-2xx or 3xx $non2xx"
}

# at_speed SERVER_NAME PORT PIDS: every system call per request, and the few in which the servers
# differ, counted by the kernel's tracepoints during one wrk run (perf stat): strace slows a server
# so much that a read never finds its socket empty, which at full speed it often does
at_speed() {
  local events=raw_syscalls:sys_enter call
  for call in read recvfrom epoll_ctl epoll_wait futex; do events+=,syscalls:sys_enter_$call; done
  client_wrk_files -t"$(wrk_threads "$CONNS")" -c"$CONNS" -d"${SECONDS_}"s "http://127.0.0.1:$2/f.bin" >"$WORK/wrk" &
  local client=$!
  sleep 0.5
  perf stat -x, -e "$events" -p "$3" -o "$WORK/perf" -- sleep $((SECONDS_ - 1))
  wait $client
  awk -F, -v rps="$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk")" -v s=$((SECONDS_ - 1)) -v name="$1" '
    BEGIN { printf "%-12s at full speed, calls per request:", name }
    $1 ~ /^[0-9]/ { n = $3; sub(/^raw_syscalls:sys_enter$/, "all", n); sub(/^syscalls:sys_enter_/, "", n)
                    printf " %s=%.2f", n, $1 / (rps * s) }
    END { print "" }' "$WORK/perf"
  statuses "$1" "$WORK/wrk"
}

# count SERVER_NAME PORT PID...: strace the PIDs during one wrk run, print calls per request
count() {
  local name=$1 port=$2
  shift 2
  wait_serving "http://127.0.0.1:$port/f.bin" || { tail -5 "$WORK"/*.log >&2; exit 1; }
  client_wrk_files -t"$(wrk_threads "$CONNS")" -c"$CONNS" -d2s "http://127.0.0.1:$port/f.bin" >/dev/null # warm up
  local args=()
  for pid in "$@"; do args+=(-p "$pid"); done
  if command -v perf >/dev/null; then
    # without strace, which slows the server: CPU and context switches per request
    FILE=f.bin zerocopy-benchmarks/http/http-cpu.sh "$CONNS" 1 "$SECONDS_" "$name:$port:$(IFS=,; echo "$*")"
    if perf stat -e raw_syscalls:sys_enter -- true >/dev/null 2>&1; then
      at_speed "$name" "$port" "$(IFS=,; echo "$*")"
    fi
  fi
  strace -c -f -o "$WORK/$name.strace" "${args[@]}" &
  local tracer=$!
  sleep 1 # strace attaches
  local requests
  client_wrk_files -t"$(wrk_threads "$CONNS")" -c"$CONNS" -d"${SECONDS_}"s "http://127.0.0.1:$port/f.bin" >"$WORK/wrk"
  requests=$(awk '/requests in/ {print $1}' "$WORK/wrk")
  kill -INT $tracer; wait $tracer 2>/dev/null || true
  statuses "$name" "$WORK/wrk"
  python3 - "$WORK/$name.strace" "$requests" "$name" <<'PY'
import sys
calls = {}
for line in open(sys.argv[1]):
    f = line.split()
    if len(f) >= 5 and f[0][0].isdigit() and f[-1] != 'total':
        calls[f[-1]] = int(f[3])
n = int(sys.argv[2])
print(f"{sys.argv[3]:12s} {n:7d} requests: " + " ".join(f"{k}={v / n:.2f}" for k, v in sorted(calls.items(), key=lambda kv: -kv[1]) if v / n >= 0.05))
PY
}

"${SERVER_ON[@]}" "$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" >"$WORK/nginx.log" 2>&1 &
PIDS+=($!)
sleep 0.5
count nginx 18191 $(pgrep -P "${PIDS[0]}")
# nginx again with its cache of open files (a work folder of its own for its pid and logs)
mkdir -p "$WORK/cache/nginx/logs"
NGINX_OPEN_FILE_CACHE=1 NGINX_WORKERS=$SERVER_NGINX_WORKERS zerocopy-benchmarks/http/nginx-conf.sh \
  "$WORK/cache" "$WORK/root" 18190 >"$WORK/cache/nginx/nginx.conf"
"${SERVER_ON[@]}" "$NGINX" -p "$WORK/cache/nginx" -c "$WORK/cache/nginx/nginx.conf" >"$WORK/nginx-cache.log" 2>&1 &
PIDS+=($!)
sleep 0.5
count nginx+cache 18190 $(pgrep -P "${PIDS[-1]}")
port=18192
for engine in threads event-loop; do
  "${SERVER_JAVA[@]}" -jar "$JAR" http-server --root "$WORK/root" --port $port --engine $engine \
      --max-connections 4096 >"$WORK/$engine.log" 2>&1 &
  PIDS+=($!)
  count "$engine" $port "${PIDS[-1]}"
  port=$((port + 1))
done
