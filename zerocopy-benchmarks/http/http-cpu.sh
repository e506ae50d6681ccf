#!/usr/bin/env bash
# Requests per second and the server's CPU per request, for servers that are already running,
# in alternating rounds: one wrk run per server per round, with `perf stat` on the server's
# processes for all but the first and last half second of it (docs/http-server.md, "After the
# per-request work").
#
#   zerocopy-benchmarks/http/http-cpu.sh CONNECTIONS ROUNDS SECONDS NAME:PORT:PID[,PID...] ...
#
# For nginx give its worker processes' PIDs (pgrep -f "nginx: worker" | paste -sd,). FILE (default
# 4k.bin) is the path requested. Prints one line per run: requests per second, CPU microseconds and
# context switches per request, and the CPUs the server used. Needs wrk and perf. CLIENT_CPUS
# (common.sh): wrk runs there under `taskset -c`, with a thread per CPU (unset: anywhere, -t2).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
CONNECTIONS=${1:?connections}
ROUNDS=${2:?rounds}
SECONDS_=${3:?seconds per run, at least 2}
shift 3
WORK=$(mktemp -d /tmp/zerocopy-http-cpu.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
for round in $(seq "$ROUNDS"); do
  for spec in "$@"; do
    IFS=: read -r name port pids <<<"$spec"
    client_wrk -t"$(wrk_threads "$CONNECTIONS")" -c"$CONNECTIONS" -d"${SECONDS_}"s "http://127.0.0.1:$port/${FILE:-4k.bin}" >"$WORK/wrk" &
    wrk_pid=$!
    sleep 0.5
    perf stat -x, -e task-clock,context-switches -p "$pids" -o "$WORK/perf" -- sleep $((SECONDS_ - 1))
    wait $wrk_pid
    rps=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk")
    awk -F, -v rps="$rps" -v s=$((SECONDS_ - 1)) -v name="$name" -v r="$round" '
      $3 ~ /^task-clock/ { cpu = $1 } $3 ~ /^context-switches/ { cs = $1 }
      END { printf "round %d %-12s %8.0f req/s %7.2f us/req %5.2f cs/req %5.2f CPUs\n",
            r, name, rps, cpu * 1000 / (rps * s), cs / (rps * s), cpu / (s * 1000) }' "$WORK/perf"
  done
done
