#!/usr/bin/env bash
# One call on a many-core machine (../shared/device/README.md), from the project's root with .dev/
# from `EXAMPLES_BEFORE=EXAMPLES_JAR bundle.sh before8k=BENCHMARKS_JAR` (another build, which read up
# to 8 KiB): where one read and one write stop paying against sendfile to a peer on this host, and
# JDK 17's copy(fc, 0, size, socket) once the JIT has settled.
#   1. FixedCostRun with the native flags from 4 to 12 KiB (two JVMs);
#   2. SideBySideRun at 8 and 4 KiB, this build against before8k.jar (two JVMs at 8 KiB);
#   3. JDK 17: FixedCostRun with 2 warm-up rounds of 13 counted, then 58 counted (two JVMs each);
#   4. http-cache.sh with 8 KiB files, this build's examples jar and then examples-before.jar.
# Keeps a copy of everything printed in $OUT/summary.txt. About 6 minutes.
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
D=$PWD/.dev
OUT=${OUT:-/tmp/threshold}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/summary.txt") 2>&1
echo "kernel $(uname -r), $(nproc) CPUs,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); $(date -u '+%Y-%m-%d %H:%M UTC')"
tar xJf "$D/jre.tar.xz" -C /tmp && tar xJf "$D/jre17.tar.xz" -C /tmp || exit 1
J=/tmp/jre/bin/java
J17=/tmp/jre17/bin/java
FLAGS=(--enable-native-access=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED)
ON=(taskset -c "${FIXED_CPUS:-0-3}")
FC=io.zerocopy.benchmarks.fixedcost
echo "== 1. FixedCostRun, JDK 25 with the native flags, 4 to 12 KiB"
for i in 1 2; do
  "${ON[@]}" "$J" "${FLAGS[@]}" -cp "$D/now.jar" $FC.FixedCostRun 15 2000 4096 5120 6144 7168 8192 12288 \
    --contenders copyPath,copyPathJdk,rawPreadWrite,rawTransferTo --vs copyPath
done
echo "== 2. SideBySideRun with the native flags: this build (now, ctl) against before8k.jar"
for size in 8192 8192 4096; do
  "${ON[@]}" "$J" "${FLAGS[@]}" -cp "$D/now.jar" $FC.SideBySideRun 21 5000 $size \
    now="$D/now.jar" before8k="$D/before8k.jar" ctl="$D/now.jar"
done
echo "== 3. JDK 17, copy(fc, 0, size, socket) at 4 KiB: 15 rounds, then 60"
for rounds in 15 60 15 60; do
  "${ON[@]}" "$J17" -cp "$D/now.jar" $FC.FixedCostRun $rounds 2000 4096 --contenders copySlice,rawPreadWrite,rawTransferTo
done
echo "== 4. http-cache.sh, 8 KiB files, 256 connections: this build, then examples-before.jar"
bin=/tmp/quiet-bin
mkdir -p "$bin" /var/log/nginx /var/lib/nginx
for t in nginx wrk; do printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$D/lib" "$D/bin/$t" >"$bin/$t"; done
command -v pgrep >/dev/null || printf '#!/bin/sh\n[ "$1" = -P ] || exit 2\nfor f in /proc/[0-9]*/stat; do awk -v p="$2" '"'"'$4 == p {print $1}'"'"' "$f" 2>/dev/null; done\n' >"$bin/pgrep"
chmod +x "$bin"/*
export PATH=$bin:$PATH JDK25=/tmp/jre ZEROCOPY_BENCH_LOCKED=1
for jar in zerocopy-examples.jar examples-before.jar; do
  echo "-- $jar"
  JAR=$D/$jar SIZE=8192 SERVER_CPUS=${SERVER_CPUS:-0-3} CLIENT_CPUS=${CLIENT_CPUS:-8-15} \
    zerocopy-benchmarks/http/http-cache.sh 3 3 256
done
echo "done $(date -u '+%H:%M:%S UTC')"
