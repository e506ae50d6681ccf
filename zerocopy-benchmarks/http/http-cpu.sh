#!/usr/bin/env bash
# Requests per second and the server's CPU per request, for servers that are already running,
# in alternating rounds: one wrk run per server per round, with `perf stat` on the server's
# processes for all but the first and last half second of it (docs/http-server.md, "After the
# per-request work").
#
#   zerocopy-benchmarks/http/http-cpu.sh CONNECTIONS ROUNDS SECONDS NAME:PORT:PID[,PID...] ...
#
# For nginx give its worker processes' PIDs (pgrep -f "nginx: worker" | paste -sd,). FILE (default
# 4k.bin) is the path requested; with WRK_FILES=N set, each request asks for one of /f0.bin to
# /f<N-1>.bin at random instead (wrk-statuses.lua), and the run's statuses are printed. Prints one
# line per run: requests per second, CPU microseconds and context switches per request, the CPUs the server used, and the CPU per request split into user
# and system time (/proc/PID/stat, in 10 ms clock ticks: coarse for short runs). Needs wrk; without
# perf (or where perf cannot count, as under gVisor) the CPU per request is the clock ticks' and the
# context switches are not counted (0). CLIENT_CPUS (common.sh): wrk runs there under `taskset -c`,
# with a thread per CPU (unset: anywhere, -t2).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
CONNECTIONS=${1:?connections}
ROUNDS=${2:?rounds}
SECONDS_=${3:?seconds per run, at least 2}
shift 3
# user_sys PID[,PID...]: the processes' user and system CPU so far, in clock ticks (/proc/PID/stat)
user_sys() {
  local pid user=0 sys=0 u s
  for pid in ${1//,/ }; do
    read -r u s < <(awk '{print $14, $15}' "/proc/$pid/stat")
    user=$((user + u)) sys=$((sys + s))
  done
  echo "$user $sys"
}
WORK=$(mktemp -d /tmp/zerocopy-http-cpu.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
for round in $(seq "$ROUNDS"); do
  for spec in "$@"; do
    IFS=: read -r name port pids <<<"$spec"
    client_wrk_files -t"$(wrk_threads "$CONNECTIONS")" -c"$CONNECTIONS" -d"${SECONDS_}"s "http://127.0.0.1:$port/${FILE:-4k.bin}" >"$WORK/wrk" &
    wrk_pid=$!
    sleep 0.5
    read -r user0 sys0 <<<"$(user_sys "$pids")"
    : >"$WORK/perf"
    if ! { command -v perf >/dev/null &&
      perf stat -x, -e task-clock,context-switches -p "$pids" -o "$WORK/perf" -- sleep $((SECONDS_ - 1)); }; then
      : >"$WORK/perf"
      sleep $((SECONDS_ - 1))
    fi
    read -r user1 sys1 <<<"$(user_sys "$pids")"
    wait $wrk_pid
    rps=$(awk '/Requests\/sec/ {print $2}' "$WORK/wrk")
    [ -z "${WRK_FILES:-}" ] || sed -n "s/^statuses: /round $round $name statuses: /p" "$WORK/wrk"
    awk -F, -v rps="$rps" -v s=$((SECONDS_ - 1)) -v name="$name" -v r="$round" \
      -v user=$((user1 - user0)) -v sys=$((sys1 - sys0)) -v hz="$(getconf CLK_TCK)" '
      $3 ~ /^task-clock/ { cpu = $1 } $3 ~ /^context-switches/ { cs = $1 }
      END { req = rps * s
            if (cpu == "") cpu = (user + sys) * 1000 / hz # no perf: the clock ticks, in ms
            printf "round %d %-12s %8.0f req/s %7.2f us/req %5.2f cs/req %5.2f CPUs (user %.2f, system %.2f us/req)\n",
              r, name, rps, cpu * 1000 / req, cs / req, cpu / (s * 1000), user * 1e6 / hz / req, sys * 1e6 / hz / req }' "$WORK/perf"
  done
done
