#!/usr/bin/env bash
# The committed run of the scale benchmark behind docs/scale.md, then its tables and chart.
#
#   zerocopy-benchmarks/scale-committed.sh [PART...]
#
# PARTs, run in the order given (default: all of them, in this order):
#   jdk25-virtual jdk25-platform jdk17-platform   the committed plan, about 6 minutes each
#   jdk25-direct32m jdk17-direct32m               1,000 x 8 MiB under -Xmx64m -XX:MaxDirectMemorySize=32m,
#                                                 about 3 minutes (JDK 25: both thread kinds)
#   report                                        docs/scale/tables.md and docs/scale.png
# Each part is one JVM; its summary.csv and rounds.csv are copied to docs/scale/<part>-*.csv.
#
# Environment: JDK17 and JDK25, the java executables (default: java, and Temurin 25 where this
# project's machines have it); SCALE_LOCK, a file to hold an exclusive flock on around each
# measuring part (on a shared machine, so that nothing else measures or builds meanwhile).
# Build first: ./mvnw -B -q -pl zerocopy-benchmarks -am package -DskipTests
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JDK17=${JDK17:-java}
JDK25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
MAIN=io.zerocopy.benchmarks.scale.ScaleBenchmark
SMALL="-Xmx64m -XX:MaxDirectMemorySize=32m"
WORK=zerocopy-benchmarks/target/scale
DOCS=docs/scale
ALL=(jdk25-virtual jdk25-platform jdk17-platform jdk25-direct32m jdk17-direct32m)

. zerocopy-benchmarks/jvm-runs.sh

measure() {
  local name=$1
  shift
  exclusive "$@" --out "$WORK/$name"
  mkdir -p "$DOCS"
  cp "$WORK/$name/summary.csv" "$DOCS/$name-summary.csv"
  cp "$WORK/$name/rounds.csv" "$DOCS/$name-rounds.csv"
}

report() {
  local summaries=()
  for name in "${ALL[@]}"; do
    if [ -f "$DOCS/$name-summary.csv" ]; then summaries+=("$DOCS/$name-summary.csv"); fi
  done
  "$JDK17" -cp "$JAR" io.zerocopy.benchmarks.scale.ScaleReport "$DOCS/tables.md" docs/scale.png "${summaries[@]}"
  echo "wrote $DOCS/tables.md and docs/scale.png from ${summaries[*]}"
}

parts=("$@")
if [ ${#parts[@]} -eq 0 ]; then parts=("${ALL[@]}" report); fi
for part in "${parts[@]}"; do
  case "$part" in
    jdk25-virtual)   measure "$part" "$JDK25" -cp "$JAR" "$MAIN" --plan committed --threads virtual ;;
    jdk25-platform)  measure "$part" "$JDK25" -cp "$JAR" "$MAIN" --plan committed --threads platform ;;
    jdk17-platform)  measure "$part" "$JDK17" -cp "$JAR" "$MAIN" --plan committed --threads platform ;;
    jdk25-direct32m) measure "$part" "$JDK25" -cp "$JAR" "$MAIN" --plan direct32m --jvm-args "$SMALL" ;;
    jdk17-direct32m) measure "$part" "$JDK17" -cp "$JAR" "$MAIN" --plan direct32m --threads platform --jvm-args "$SMALL" ;;
    report)          report ;;
    *) echo "unknown part: $part (expected: ${ALL[*]} report)" >&2; exit 2 ;;
  esac
done
