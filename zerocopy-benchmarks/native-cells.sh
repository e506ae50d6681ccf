#!/usr/bin/env bash
# Two measurements of the native file path (JDK 25), each against the JDK path or the raw JDK loops:
#
#   cell 1  sender CPU per transfer to a veth peer (a receiver process in another network
#           namespace) at 16, 32 and 64 KiB, the native path against the JDK path;
#   cell 2  one 1 GiB copy(Path, socket) against the best raw JDK loop, in one JVM.
#
# "The native flags" are --enable-native-access=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED:
# with them Transfers.copy(Path, socket) opens the file natively and sends it with the library's
# own sendfile step; without them (or with -Dzerocopy.exclude=native) it goes through
# FileChannel.transferTo. The scale benchmark's contender jdkPath is the default with native
# excluded by its options, so one JVM with the flags runs both paths round by round.
#
# Usage: zerocopy-benchmarks/native-cells.sh [--pairs P] [--rounds R] [--n N] [--sizes LIST]
#            [--threads KIND] [--big-rounds R] [--big-peers LIST] [--out DIR] [cell1] [cell2]
#   --pairs P         cell 1: alternating pairs of JVMs, one with the flags, one without (default 3)
#   --rounds R        cell 1: rounds per JVM, each runs default and jdkPath (default 7)
#   --n N             cell 1: transfers at once (default 256); a run repeats them, with fresh
#                     connections, until it has moved 64 MiB (at most 32 times). The CPU counter
#                     ticks every 10 ms and is read around each repetition: at N = 256 one of
#                     16 KiB is 4 MiB, some ticks; at N = 16 it is a fraction of one
#   --sizes LIST      cell 1: file sizes (default 16k,32k,64k)
#   --threads KIND    cell 1: platform or virtual (default platform)
#   --big-rounds R    cell 2: rounds (default 15)
#   --big-peers LIST  cell 2: loopback, veth or both (default loopback,veth)
#   --out DIR         results (default zerocopy-benchmarks/target/native-cells)
#   cell1 cell2       which cells (default both)
# Environment: JAVA, a JDK 25 java (default Temurin 25 where this project's machines have it);
# SCALE_LOCK, a file to hold an exclusive flock on around each JVM (on a shared machine).
#
# Needs: root (the veth pair and namespace; the benchmark removes them itself), the ip tool, and
# zerocopy-benchmarks/target/benchmarks.jar, which this script does not build:
#   ./mvnw -B -q -pl zerocopy-benchmarks -am package -DskipTests
# The veth namespace is named zcbench: nothing else may run a veth benchmark meanwhile.
#
# The commands, with F="--enable-native-access=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED"
# and S="-cp zerocopy-benchmarks/target/benchmarks.jar io.zerocopy.benchmarks.scale.ScaleBenchmark":
#   cell 1, P times, which of the two goes first alternating:
#                     java $F $S --plan full --pairs veth --threads platform --sizes 16k,32k,64k \
#                         --n 256 --rounds 7 --contenders default,jdkPath --out DIR/cell1-I-native
#                     java    $S (the same) --out DIR/cell1-I-jdk
#   cell 2:           java $F $S --plan full --pairs loopback,veth --threads platform --sizes 1g \
#                         --n 1 --rounds 15 --contenders default,rawTransferTo,classic4k --out DIR/cell2
#
# What it prints (every ratio is a median of per-round ratios, the first round of each JVM left
# out when there are more; the CPU is the sender process's, all its threads (JIT and GC too) while
# the transfers run, up to the peer's one-byte confirmation, from the benchmark's rounds.csv):
#   cell 1, per size: the same-run ratio of default to jdkPath CPU per transfer in the JVMs with the
#           flags (the bar: at most 1.0), the same in the JVMs without them (both the JDK path: the
#           noise), and the ratio of the default's CPU with the flags to without, pair by pair;
#           with the default's CPU in microseconds per transfer each way.
#   cell 2, per peer: the time of default over the faster of rawTransferTo and classic4k in the
#           same round (the bar: at most 1.10), and the median milliseconds of each.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JAR=zerocopy-benchmarks/target/benchmarks.jar
JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
MAIN=io.zerocopy.benchmarks.scale.ScaleBenchmark
FLAGS=(--enable-native-access=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED)

PAIRS=3
ROUNDS=7
N=256
SIZES=16k,32k,64k
THREADS=platform
BIG_ROUNDS=15
BIG_PEERS=loopback,veth
OUT=zerocopy-benchmarks/target/native-cells
CELLS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --pairs) PAIRS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --n) N=$2; shift 2 ;;
    --sizes) SIZES=$2; shift 2 ;;
    --threads) THREADS=$2; shift 2 ;;
    --big-rounds) BIG_ROUNDS=$2; shift 2 ;;
    --big-peers) BIG_PEERS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    cell1 | cell2) CELLS+=("$1"); shift ;;
    *) sed -n '14,28p' "${BASH_SOURCE[0]}" >&2; exit 2 ;;
  esac
done
if [ ${#CELLS[@]} -eq 0 ]; then CELLS=(cell1 cell2); fi

if [ ! -f "$JAR" ]; then
  echo "no $JAR: build first (./mvnw -B -q -pl zerocopy-benchmarks -am package -DskipTests)" >&2
  exit 2
fi
if [ "$("$JAVA" -XshowSettings:properties -version 2>&1 | awk '/java.specification.version/ {print $3}')" != 25 ]; then
  echo "$JAVA is not a JDK 25 (set JAVA)" >&2
  exit 2
fi

exclusive() {
  if [ -n "${SCALE_LOCK:-}" ]; then flock -x "$SCALE_LOCK" "$@"; else "$@"; fi
}

# One JVM of the scale benchmark; its output goes to DIR/log.txt, a line of it here.
scale() {
  local dir=$1
  shift
  rm -rf "$dir"
  mkdir -p "$dir"
  echo "+ $JAVA $* --out $dir" >&2
  if ! exclusive "$JAVA" "$@" --out "$dir" >"$dir/log.txt" 2>&1; then
    tail -20 "$dir/log.txt" >&2
    exit 1
  fi
  if grep -q SKIPPING "$dir/log.txt"; then
    grep SKIPPING "$dir/log.txt" >&2
    exit 1
  fi
  tail -1 "$dir/log.txt" >&2
}

# rounds.csv columns: 5 size, 8 round, 10 contender, 13 wallMs, 15 cpuSecPerGB, 21 failures.
# Prints "size round contender cpuSecPerGB wallMs pair" for the rounds kept (all but round 0 when
# there are more), and fails on any failed transfer.
rows() {
  awk -F, -v skip="$2" 'NR > 1 {
      if ($21 != 0) { print "FAILURES in " FILENAME ": " $0 > "/dev/stderr"; bad = 1 }
      if ($8 >= skip) print $5, $8, $10, $15, $13, $4
    } END { exit bad }' "$1"
}

median() {
  sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# The per-round ratio of contender A's column COL to contender B's, one per line, for one size.
ratios() {
  local file=$1 size=$2 a=$3 b=$4 col=$5
  awk -v size="$size" -v a="$a" -v b="$b" -v col="$col" '$1 == size {
      if ($3 == a) x[$2] = $col
      if ($3 == b) y[$2] = $col
    } END { for (r in x) if (r in y && y[r] > 0) print x[r] / y[r] }' "$file"
}

cell1() {
  local skip=0 i size
  if [ "$ROUNDS" -gt 1 ]; then skip=1; fi
  local args=("$MAIN" --plan full --pairs veth --threads "$THREADS" --sizes "$SIZES" --n "$N"
    --rounds "$ROUNDS" --contenders default,jdkPath)
  for i in $(seq 1 "$PAIRS"); do
    # alternate which goes first, so that neither always follows the other
    if [ $((i % 2)) -eq 1 ]; then
      scale "$OUT/cell1-$i-native" "${FLAGS[@]}" -cp "$JAR" "${args[@]}"
      scale "$OUT/cell1-$i-jdk" -cp "$JAR" "${args[@]}"
    else
      scale "$OUT/cell1-$i-jdk" -cp "$JAR" "${args[@]}"
      scale "$OUT/cell1-$i-native" "${FLAGS[@]}" -cp "$JAR" "${args[@]}"
    fi
    rows "$OUT/cell1-$i-native/rounds.csv" $skip >"$OUT/cell1-$i-native/rows.txt"
    rows "$OUT/cell1-$i-jdk/rounds.csv" $skip >"$OUT/cell1-$i-jdk/rows.txt"
  done
  echo
  echo "cell 1: sender CPU per transfer to a veth peer, N = $N, $THREADS threads, $PAIRS pairs of JVMs x $ROUNDS rounds"
  printf '%-8s %14s %14s %16s %14s %14s\n' size "native/jdkPath" "(no flags)" "flags/no flags" "native us" "JDK us"
  for size in $(awk -F, 'NR > 1 { print $5 }' "$OUT/cell1-1-native/rounds.csv" | sort -un); do
    local same control across native jdk
    same=$(for i in $(seq 1 "$PAIRS"); do ratios "$OUT/cell1-$i-native/rows.txt" "$size" default jdkPath 4; done | median)
    control=$(for i in $(seq 1 "$PAIRS"); do ratios "$OUT/cell1-$i-jdk/rows.txt" "$size" default jdkPath 4; done | median)
    across=$(for i in $(seq 1 "$PAIRS"); do
      awk -v s="$size" '$1 == s && $3 == "default" { print $4 }' "$OUT/cell1-$i-native/rows.txt" | median
      awk -v s="$size" '$1 == s && $3 == "default" { print $4 }' "$OUT/cell1-$i-jdk/rows.txt" | median
    done | paste - - | awk '$2 > 0 { print $1 / $2 }' | median)
    # s/GB x bytes = s per transfer; x 1e-9 x 1e6 = us
    native=$(cat "$OUT"/cell1-*-native/rows.txt | awk -v s="$size" '$1 == s && $3 == "default" { print $4 * s / 1000 }' | median)
    jdk=$(cat "$OUT"/cell1-*-jdk/rows.txt | awk -v s="$size" '$1 == s && $3 == "default" { print $4 * s / 1000 }' | median)
    printf '%-8s %14.3f %14.3f %16.3f %14.1f %14.1f\n' "$size" "$same" "$control" "$across" "$native" "$jdk"
  done
}

cell2() {
  local skip=0 pair
  if [ "$BIG_ROUNDS" -gt 1 ]; then skip=1; fi
  scale "$OUT/cell2" "${FLAGS[@]}" -cp "$JAR" "$MAIN" --plan full --pairs "$BIG_PEERS" --threads platform \
    --sizes 1g --n 1 --rounds "$BIG_ROUNDS" --contenders default,rawTransferTo,classic4k
  rows "$OUT/cell2/rounds.csv" $skip >"$OUT/cell2/rows.txt"
  echo
  echo "cell 2: one 1 GiB copy(Path, socket) with the flags, $BIG_ROUNDS rounds"
  printf '%-10s %18s %12s %12s %12s\n' peer "default/best raw" "default ms" "transferTo" "classic4k"
  for pair in $(awk '{ print $6 }' "$OUT/cell2/rows.txt" | sort -u); do
    local ratio
    ratio=$(awk -v p="$pair" '$6 == p {
        if ($3 == "default") d[$2] = $5
        else if (!($2 in best) || $5 < best[$2]) best[$2] = $5
      } END { for (r in d) if (r in best) print d[r] / best[r] }' "$OUT/cell2/rows.txt" | median)
    ms() { awk -v p="$pair" -v c="$1" '$6 == p && $3 == c { print $5 }' "$OUT/cell2/rows.txt" | median; }
    printf '%-10s %18.3f %12.1f %12.1f %12.1f\n' "$pair" "$ratio" "$(ms default)" "$(ms rawTransferTo)" "$(ms classic4k)"
  done
}

mkdir -p "$OUT"
for cell in "${CELLS[@]}"; do "$cell"; done
