#!/usr/bin/env bash
# One http-server under wrk at many connections, with a look inside while it runs: what
# docs/virtual-threads.md ("Requests that waited seconds") was found with.
#
#   zerocopy-benchmarks/http/http-stall.sh                       (threads engine, 4 KiB, 1,000 connections)
#   SAMPLE=1 zerocopy-benchmarks/http/http-stall.sh              (also thread dumps and the JDK's scheduler and pollers)
#   JAR=/tmp/other.jar JAVA_OPTS=-Djdk.readPollers=2 ENGINE=event-loop CONNECTIONS=64 ...
#
# Starts http-server (JAR, default the examples jar; JDK 25 at JDK25) on 127.0.0.1 with JAVA_OPTS,
# warms it up (WARMUP seconds of wrk, default 4), then runs `wrk -t2 -cCONNECTIONS -dDURATIONs
# --latency --timeout 10s` (DURATION 8) and prints wrk's latency lines and requests per second.
# With SAMPLE=1, 3 s into the run: `jcmd Thread.dump_to_file -format=json`, `Thread.vthread_scheduler`
# and `Thread.vthread_pollers`, and a count of the connection threads by state and top frame.
# Writes OUT (zerocopy-examples/target/bench-stall). Installs wrk if it is missing.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
JAR=${JAR:-zerocopy-examples/target/zerocopy-examples.jar}
OUT=${OUT:-zerocopy-examples/target/bench-stall}
ENGINE=${ENGINE:-threads} CONNECTIONS=${CONNECTIONS:-1000} DURATION=${DURATION:-8} WARMUP=${WARMUP:-4}
PORT=${PORT:-18197}
zerocopy-benchmarks/http/need.sh wrk
[ -f "$JAR" ] || JAVA_HOME="$JDK25" ./mvnw -B -q package -DskipTests -pl zerocopy-examples -am
ulimit -n 20000
mkdir -p "$OUT"
rm -f "$OUT"/*
ROOT=$(mktemp -d /tmp/zerocopy-stall.XXXXXX)
head -c 4096 /dev/urandom >"$ROOT/4k.bin"
# shellcheck disable=SC2086
"$JDK25/bin/java" ${JAVA_OPTS:-} -jar "$JAR" http-server --root "$ROOT" --port "$PORT" --engine "$ENGINE" \
  --max-connections 4096 >"$OUT/server.log" 2>&1 &
PID=$!
trap 'kill $PID 2>/dev/null; wait $PID 2>/dev/null; rm -rf "$ROOT"' EXIT
for _ in $(seq 100); do curl -sf -o /dev/null "http://127.0.0.1:$PORT/4k.bin" && break; sleep 0.1; done
URL="http://127.0.0.1:$PORT/4k.bin"
wrk -t2 -c"$CONNECTIONS" -d"${WARMUP}s" --timeout 10s "$URL" >"$OUT/warmup.txt"
wrk -t2 -c"$CONNECTIONS" -d"${DURATION}s" --latency --timeout 10s "$URL" >"$OUT/wrk.txt" &
WRK=$!
if [ -n "${SAMPLE:-}" ]; then
  sleep 3
  "$JDK25/bin/jcmd" "$PID" Thread.dump_to_file -format=json "$OUT/dump.json" >/dev/null
  "$JDK25/bin/jcmd" "$PID" Thread.vthread_scheduler >"$OUT/scheduler.txt" 2>&1 || true
  "$JDK25/bin/jcmd" "$PID" Thread.vthread_pollers >"$OUT/pollers.txt" 2>&1 || true
fi
wait $WRK
grep -E "Latency|50%|99%|Requests/sec|Socket errors|Non-2xx" "$OUT/wrk.txt"
if [ -n "${SAMPLE:-}" ]; then
  python3 - "$OUT/dump.json" <<'PY'
import collections, json, sys
dump = json.load(open(sys.argv[1]))["threadDump"]
for c in dump["threadContainers"]:
    if len(c["threads"]) < 50:
        continue
    count = collections.Counter((t.get("state"), (t.get("stack") or ["-"])[0]) for t in c["threads"])
    print(c["container"], len(c["threads"]), "threads")
    for (state, frame), n in count.most_common(6):
        print(f"  {n:5d} {state:9s} {frame}")
PY
  cat "$OUT/scheduler.txt" "$OUT/pollers.txt"
fi
