#!/usr/bin/env bash
# One call on a many-core machine without network access (../shared/device/README.md), from the
# project's root with .dev/ from `bundle.sh before=OTHER_BENCHMARKS_JAR` beside it:
#   1. the 4 KiB CPU-per-request table of http-cache.sh, servers on SERVER_CPUS, wrk on CLIENT_CPUS;
#   2. the fixed cost on FIXED_CPUS: 4 KiB copy(Path, socket) against the build in before.jar
#      (SideBySideRun, three JVMs, the order rotating), FixedCostRun from 4 to 64 KiB with the native
#      flags, and JDK 17's copy(fc, 0, size, socket) against the raw loops.
# Prints everything and keeps a copy in $OUT/summary.txt. About 5 minutes with the defaults.
#
#   [ROUNDS=3] [SECONDS_=4] [CONNS="64 256"] [SIDE_BATCH=5000] [FIXED_BATCH=2000] bash zerocopy-benchmarks/many-core/quiet-run.sh
set -u
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
D=$PWD/.dev
OUT=${OUT:-/tmp/quiet}
mkdir -p "$OUT"
exec > >(tee -a "$OUT/summary.txt") 2>&1
echo "kernel $(uname -r), $(nproc) CPUs,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2); $(date -u '+%Y-%m-%d %H:%M UTC')"
tar xJf "$D/jre.tar.xz" -C /tmp && tar xJf "$D/jre17.tar.xz" -C /tmp || exit 1
# nginx and wrk with the libraries they came with; pgrep and curl stand-ins where the machine has none
bin=/tmp/quiet-bin
mkdir -p "$bin" /var/log/nginx /var/lib/nginx
for t in nginx wrk; do printf '#!/bin/sh\nLD_LIBRARY_PATH=%s exec %s "$@"\n' "$D/lib" "$D/bin/$t" >"$bin/$t"; done
command -v pgrep >/dev/null || cat >"$bin/pgrep" <<'SH'
#!/bin/sh
# pgrep -P PARENT: its children's PIDs
[ "$1" = -P ] || exit 2
for f in /proc/[0-9]*/stat; do awk -v p="$2" '$4 == p {print $1}' "$f" 2>/dev/null; done
SH
command -v curl >/dev/null || cat >"$bin/curl" <<'PY'
#!/usr/bin/env python3
# curl -sf -o /dev/null URL: exit 0 on a success status
import sys, urllib.request
try:
    with urllib.request.urlopen(sys.argv[-1], timeout=5) as r:
        r.read()
except Exception:
    sys.exit(22)
PY
chmod +x "$bin"/*
export PATH=$bin:$PATH JDK25=/tmp/jre JAR=$D/zerocopy-examples.jar ZEROCOPY_BENCH_LOCKED=1

echo "== 1. 4 KiB, CPU per request: http-cache.sh"
SERVER_CPUS=${SERVER_CPUS:-0-3} CLIENT_CPUS=${CLIENT_CPUS:-8-15} \
  zerocopy-benchmarks/http/http-cache.sh "${ROUNDS:-3}" "${SECONDS_:-4}" ${CONNS:-64 256}

J=/tmp/jre/bin/java
J17=/tmp/jre17/bin/java
FLAGS=(--enable-native-access=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED)
ON=(taskset -c "${FIXED_CPUS:-0-3}")
FC=io.zerocopy.benchmarks.fixedcost
n=${SIDE_BATCH:-5000} m=${FIXED_BATCH:-2000}
echo "== 2a. 4 KiB copy(Path, socket) with the native flags, this build (now, ctl) and before.jar"
for order in "now before ctl" "before ctl now" "ctl now before"; do
  args=()
  for l in $order; do case $l in before) args+=("before=$D/before.jar") ;; *) args+=("$l=$D/now.jar") ;; esac; done
  "${ON[@]}" "$J" "${FLAGS[@]}" -cp "$D/now.jar" $FC.SideBySideRun 21 "$n" 4096 "${args[@]}"
done
echo "== 2b. FixedCostRun, JDK 25 with the native flags, 4 to 64 KiB"
for i in 1 2; do
  "${ON[@]}" "$J" "${FLAGS[@]}" -cp "$D/now.jar" $FC.FixedCostRun 15 "$m" 4096 8192 16384 32768 65536 \
    --contenders copyPath,copyPathJdk,copyPathWatched,openPath,rawPreadWrite,rawTransferTo --vs copyPath
done
echo "== 2c. FixedCostRun, JDK 17, copy(fc, 0, size, socket) at 4 KiB"
for i in 1 2; do
  "${ON[@]}" "$J17" -cp "$D/now.jar" $FC.FixedCostRun 15 "$m" 4096 --contenders copySlice,rawPreadWrite,rawTransferTo
done
echo "done $(date -u '+%H:%M:%S UTC')"
