#!/usr/bin/env bash
# Measures http-server (both engines) against nginx and jwebserver with wrk, in interleaved rounds.
#
#   zerocopy-benchmarks/http/http.sh            (takes the CPU lock itself)
#   SERVER_CPUS=0-3 CLIENT_CPUS=8-15 zerocopy-benchmarks/http/http.sh     (on 16 CPUs: pinned)
#
# Installs nginx-light and wrk with apt-get if they are missing, builds the examples jar if it is
# missing, generates a directory of 4 KiB, 1 MiB and 64 MiB files, starts nginx (sendfile on;
# tcp_nopush on; 2 workers), JDK 25's jwebserver and both engines of ours on JDK 25 (each with the
# library's own strategy and with buffered forced: six servers), all on 127.0.0.1, and runs wrk against each: every file at 1, 64 and 256 connections, the servers in a
# rotated order within each cell, ROUNDS rounds, after a warm-up of every server (WARMUP_1M seconds
# of wrk at 1 MiB, default 8, WARMUP_OTHER at each other file, default 4). Writes OUT/http.csv (one row per wrk run),
# OUT/summary.md (medians and ratios) and OUT/http-server.svg (the chart); stops everything it
# started. Environment: ROUNDS (3), BIG_ROUNDS (2, rounds for the 64 MiB file), DURATION (4, s),
# BIG_256_DURATION (8, s), OUT (zerocopy-examples/target/bench-http), JDK25; to measure less,
# SERVERS (a space-separated subset of the six), FILES (of 4k.bin 1m.bin 64m.bin) and CONNECTIONS
# (of 1 64 256). SERVER_JAVA_OPTS: more JVM options for our four servers. CPU sets (common.sh):
# SERVER_CPUS for nginx (a worker per CPU), jwebserver and ours (-XX:ActiveProcessorCount to match),
# CLIENT_CPUS for wrk (a thread per CPU); unset, nothing is pinned and wrk runs -t2.
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
take_cpu_lock "$@"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

ROUNDS=${ROUNDS:-3}
WARMUP_1M=${WARMUP_1M:-8}
WARMUP_OTHER=${WARMUP_OTHER:-4}
BIG_ROUNDS=${BIG_ROUNDS:-2}
DURATION=${DURATION:-4}
BIG_256_DURATION=${BIG_256_DURATION:-8}
OUT=${OUT:-zerocopy-examples/target/bench-http}
SERVER_JAVA_OPTS=${SERVER_JAVA_OPTS:-}
WRK_TIMEOUT=30s
PORT_NGINX=18091 PORT_JWEB=18092 PORT_THREADS=18093 PORT_LOOP=18094 PORT_THREADS_B=18095 PORT_LOOP_B=18096
# ours twice: with the library's own strategy, and with the buffered strategy forced
SERVERS=(${SERVERS:-nginx jwebserver threads event-loop threads+buffered event-loop+buffered})
read -r -a FILES <<<"${FILES:-4k.bin 1m.bin 64m.bin}"
read -r -a CONNECTIONS <<<"${CONNECTIONS:-1 64 256}"

zerocopy-benchmarks/http/need.sh wrk nginx:nginx-light
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
need_jdk_and_jar

mkdir -p "$OUT"
make_root http 4k.bin:4096 1m.bin:$((1 << 20)) 64m.bin:$((64 << 20))
cat "$ROOT"/*.bin >/dev/null # into the page cache

port_of() {
  case $1 in
    nginx) echo $PORT_NGINX ;; jwebserver) echo $PORT_JWEB ;; threads) echo $PORT_THREADS ;;
    event-loop) echo $PORT_LOOP ;; threads+buffered) echo $PORT_THREADS_B ;; event-loop+buffered) echo $PORT_LOOP_B ;;
  esac
}

trap cleanup EXIT

ports_free $PORT_NGINX $PORT_JWEB $PORT_THREADS $PORT_LOOP $PORT_THREADS_B $PORT_LOOP_B

NGINX_WORKERS=$SERVER_NGINX_WORKERS zerocopy-benchmarks/http/nginx-conf.sh "$WORK" "$ROOT" $PORT_NGINX >"$WORK/nginx/nginx.conf"
"${SERVER_ON[@]}" "$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" >"$WORK/nginx.log" 2>&1 &
PIDS+=($!)
"${SERVER_ON[@]}" "$JDK25/bin/jwebserver" "${SERVER_JVM_CPU_FLAGS[@]/#/-J}" -b 127.0.0.1 -p $PORT_JWEB -d "$ROOT" -o none \
  >"$WORK/jwebserver.log" 2>&1 &
PIDS+=($!)
for server in threads event-loop threads+buffered event-loop+buffered; do
  strategy=$([ "${server#*+}" = buffered ] && echo buffered || echo auto)
  # shellcheck disable=SC2086
  "${SERVER_JAVA[@]}" $SERVER_JAVA_OPTS -jar "$JAR" http-server --root "$ROOT" --port "$(port_of $server)" \
    --engine "${server%+*}" --strategy $strategy --max-connections 4096 >"$WORK/$server.log" 2>&1 &
  PIDS+=($!)
done

for s in "${SERVERS[@]}"; do
  for _ in $(seq 100); do
    curl -sf -o /dev/null "http://127.0.0.1:$(port_of "$s")/4k.bin" && break
    sleep 0.1
  done
  curl -sf -o /dev/null "http://127.0.0.1:$(port_of "$s")/4k.bin" || { echo "$s did not start" >&2; cat "$WORK"/*.log >&2; exit 1; }
done

# one wrk run: prints "requests_per_s,bytes_per_s,p99_ms,errors,timeouts,non2xx"
run_wrk() { # server file connections duration
  local out rps bps p50 p99 max errors timeouts non2xx
  out=$(client_wrk -t"$(wrk_threads "$3")" -c"$3" -d"$4"s --timeout $WRK_TIMEOUT --latency "http://127.0.0.1:$(port_of "$1")/$2")
  read -r rps bps p50 p99 max errors timeouts non2xx <<<"$(parse_wrk <<<"$out")"
  echo "$rps,$bps,$p99,$errors,$timeouts,$non2xx"
}

# A JVM compiles its hot paths during its first seconds of load: measured cold, the first rounds of
# each of ours read 0.6-0.8x nginx at 1 MiB. Every server gets the same warm-up, at 64 connections.
warmup_seconds() { case $1 in 1m.bin) echo "$WARMUP_1M" ;; *) echo "$WARMUP_OTHER" ;; esac; }
echo "warming up: ${WARMUP_1M} s at 1 MiB, ${WARMUP_OTHER} s for every other file, per server"
for s in "${SERVERS[@]}"; do
  for f in "${FILES[@]}"; do run_wrk "$s" "$f" 64 "$(warmup_seconds "$f")" >/dev/null; done
done

CSV="$OUT/http.csv"
echo "round,server,file,connections,requests_per_s,bytes_per_s,p99_ms,errors,timeouts,non2xx" >"$CSV"
for round in $(seq "$ROUNDS"); do
  for f in "${FILES[@]}"; do
    [ $f = 64m.bin ] && [ "$round" -gt "$BIG_ROUNDS" ] && continue
    for c in "${CONNECTIONS[@]}"; do
      d=$DURATION
      [ $f = 64m.bin ] && [ $c = 256 ] && d=$BIG_256_DURATION
      # rotate the order of the servers from round to round
      for i in "${!SERVERS[@]}"; do
        s=${SERVERS[$(((i + round) % ${#SERVERS[@]}))]}
        line=$(run_wrk "$s" "$f" "$c" "$d")
        echo "$round,$s,$f,$c,$line" | tee -a "$CSV"
      done
    done
  done
done

python3 zerocopy-benchmarks/http/http-summary.py "$CSV" "$OUT/summary.md" "$OUT/http-server.svg"
{
  echo
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs ($(lscpu | sed -n 's/^Model name: *//p')), Linux $(uname -r)"
  echo "nginx: $("$NGINX" -v 2>&1 | sed 's/.*: //'); wrk: $(wrk -v 2>&1 | head -1 | cut -d' ' -f2); jwebserver and ours: $("$JDK25/bin/java" -version 2>&1 | head -1)"
  [ -z "$SERVER_CPUS$CLIENT_CPUS$SERVER_JAVA_OPTS" ] || echo "$(cpu_layout); SERVER_JAVA_OPTS=$SERVER_JAVA_OPTS"
  echo "wrk $([ -z "$CLIENT_CPUS" ] && echo "-t2 (-t1 at 1 connection)" || echo "-t$CLIENT_THREADS (fewer at fewer connections)") --timeout $WRK_TIMEOUT --latency; ${DURATION} s per run (${BIG_256_DURATION} s for 64 MiB at 256 connections); $ROUNDS rounds ($BIG_ROUNDS for 64 MiB)"
} >>"$OUT/summary.md"
cat "$OUT/summary.md"
