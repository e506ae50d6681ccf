#!/usr/bin/env bash
# The splice measurements (docs/splice.md): builds the benchmarks jar on JDK 25, installs socat
# from Debian's packages if missing, and runs SpliceRun under the exclusive CPU lock, one
# measurement at a time (each under 10 minutes). Needs root for the veth run (ip netns).
# Usage: zerocopy-benchmarks/splice-run.sh OUTDIR [ROUNDS]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
OUT=${1:?output directory}
ROUNDS=${2:-5}
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
command -v socat >/dev/null || { apt-get update -qq && apt-get install -y -qq socat; }
JAVA_HOME="$JDK25" flock -s /tmp/zerocopy-cpu.lock ./mvnw -B -q -pl zerocopy-benchmarks -am package -DskipTests
mkdir -p "$OUT"
FLAGS=(--add-opens java.base/sun.nio.ch=ALL-UNNAMED --enable-native-access=ALL-UNNAMED -Xmx2g)
JAR=zerocopy-benchmarks/target/benchmarks.jar
run() { flock -x /tmp/zerocopy-cpu.lock timeout 600 "$JDK25/bin/java" "${FLAGS[@]}" -cp "$JAR" io.zerocopy.benchmarks.SpliceRun "$@"; }
run relay "$ROUNDS" | tee "$OUT/relay-loopback.csv"
run relay "$ROUNDS" veth | tee "$OUT/relay-veth.csv"
run file "$ROUNDS" | tee "$OUT/file-loopback.csv"
