#!/usr/bin/env bash
# System calls per transfer for each contender of the fixed-cost benchmark (docs/fixed-cost.md).
#
#   zerocopy-benchmarks/fixed-cost-syscalls.sh [SIZE] [TRANSFERS]     (defaults: 4096, 10000)
#
# Counts every thread's calls with strace -f -c over FixedCostRun --only CONTENDER TRANSFERS SIZE,
# once with 0 transfers and once with TRANSFERS, and prints the difference per transfer, so that the
# JVM's start and end drop out. Calls under 0.05 per transfer are left out. The drain thread's
# reads are in the count too (it reads whatever has arrived: about one per transfer or fewer).
# Environment: JAVA (default: java), JAVA_OPTS (JVM flags), CONTENDERS (space-separated; default: the
# library's verbs and the raw loops; docs/io-uring.md adds ioUring, which needs a jar built with
# -Puring on JDK 22+ and the flags that IoUring names). Build first:
# ./mvnw -B -q -pl zerocopy-benchmarks -am package -DskipTests
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
SIZE=${1:-4096}
N=${2:-10000}
JAVA=${JAVA:-java}
read -r -a OPTS <<< "${JAVA_OPTS:-}"
CONTENDERS=${CONTENDERS:-copyPath copySlice copySliceOpen handle rawTransferTo rawTransferToOpen rawPreadWrite rawPreadWriteOpen}
JAR=zerocopy-benchmarks/target/benchmarks.jar
command -v strace >/dev/null || { apt-get update -qq && apt-get install -y -qq strace >/dev/null; }
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
echo "$("$JAVA" -version 2>&1 | head -1); $SIZE-byte file, $N transfers; calls per transfer"
for c in $CONTENDERS; do
  for n in 0 "$N"; do
    strace -f -c -o "$WORK/$c-$n" "$JAVA" "${OPTS[@]}" -cp "$JAR" io.zerocopy.benchmarks.fixedcost.FixedCostRun --only "$c" "$n" "$SIZE" >/dev/null 2>&1
  done
  python3 - "$WORK/$c-0" "$WORK/$c-$N" "$N" "$c" <<'PY'
import sys
def calls(path):
    counts = {}
    for line in open(path):
        f = line.split()
        if len(f) >= 5 and f[0][0].isdigit() and f[-1] != 'total':
            counts[f[-1]] = int(f[3])
    return counts
before, after, n = calls(sys.argv[1]), calls(sys.argv[2]), int(sys.argv[3])
per = {k: (v - before.get(k, 0)) / n for k, v in after.items()}
print(f"{sys.argv[4]:18s} " + " ".join(f"{k}={v:.2f}" for k, v in sorted(per.items(), key=lambda kv: -kv[1]) if v >= 0.05))
PY
done
