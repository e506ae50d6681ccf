#!/usr/bin/env bash
# One call on a many-core machine (../shared/device/README.md), from the project's root with .dev/
# from `bundle.sh b9b=JAR before8k=JAR jfr8k=JAR`, the benchmarks jars of three other builds:
# b9b.jar (9b8763e, the last with the small send), before8k.jar (2145e6b: the flight recorder's
# type looked up at first use, one read and one write up to 8 KiB) and jfr8k.jar (dd73bd3: the type
# looked up once a recorder is up, still 8 KiB), beside now.jar (up to 4 KiB): each build's 4 and
# 8 KiB copy(Path, socket) in one JVM (SideBySideRun), and the raw loops from 8 to 12 KiB.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
D=$PWD/.dev
OUT=${OUT:-/tmp/builds}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/summary.txt") 2>&1
echo "kernel $(uname -r), $(nproc) CPUs,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); $(date -u '+%Y-%m-%d %H:%M UTC')"
tar xJf "$D/jre.tar.xz" -C /tmp || exit 1
J=/tmp/jre/bin/java
FLAGS=(--enable-native-access=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED)
ON=(taskset -c "${FIXED_CPUS:-0-3}")
FC=io.zerocopy.benchmarks.fixedcost
for size in 4096 8192 4096 8192; do
  "${ON[@]}" "$J" "${FLAGS[@]}" -cp "$D/now.jar" $FC.SideBySideRun 21 5000 $size \
    before8k="$D/before8k.jar" b9b="$D/b9b.jar" jfr8k="$D/jfr8k.jar" now="$D/now.jar" ctl="$D/before8k.jar"
done
for i in 1 2; do
  "${ON[@]}" "$J" "${FLAGS[@]}" -cp "$D/now.jar" $FC.FixedCostRun 15 2000 8192 9216 10240 11264 12288 \
    --contenders copyPath,rawPreadWrite,rawTransferTo --vs copyPath
done
echo "done $(date -u '+%H:%M:%S UTC')"
