#!/usr/bin/env bash
# Two measurements of the native file path (JDK 25), each against the JDK path or the raw JDK loops:
#
#   cell 1  the sending thread's CPU per copy(Path, socket) to a veth peer (a receiver process in
#           another network namespace) at 16, 32 and 64 KiB, the native path against the JDK path,
#           in one JVM, round by round;
#   cell 2  one 1 GiB copy(Path, socket) against the best raw JDK loop, in one JVM.
#
# "The native flags" are --enable-native-access=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED:
# with them Transfers.copy(Path, socket) opens the file natively and sends it with the library's
# own sendfile step; with native excluded by the options (FixedCostRun's copyPathJdk, the scale
# benchmark's jdkPath) it goes through FileChannel.transferTo, so one JVM runs both paths.
#
# Usage: zerocopy-benchmarks/native-cells.sh [--runs J] [--rounds R] [--batch B] [--sizes LIST]
#            [--big-rounds R] [--big-peers LIST] [--out DIR] [cell1] [cell2]
#   --runs J          cell 1: JVMs, one after another (default 3)
#   --rounds R        cell 1: rounds per JVM, the first 2 warm-up (default 11)
#   --batch B         cell 1: transfers per contender per round (default 2000)
#   --sizes LIST      cell 1: file sizes in bytes, space-separated (default "16384 32768 65536")
#   --big-rounds R    cell 2: rounds (default 15)
#   --big-peers LIST  cell 2: loopback, veth or both (default loopback,veth)
#   --out DIR         results (default zerocopy-benchmarks/target/native-cells)
#   cell1 cell2       which cells (default both)
# Environment: JAVA, a JDK 25 java (default Temurin 25 where this project's machines have it);
# SCALE_LOCK, a file to hold an exclusive flock on around each JVM (on a shared machine).
#
# Needs: root (the veth pair and namespace; the benchmarks remove them themselves), the ip tool, and
# zerocopy-benchmarks/target/benchmarks.jar, which this script does not build:
#   ./mvnw -B -q -pl zerocopy-benchmarks -am package -DskipTests
# The veth namespace is named zcbench: nothing else may run a veth benchmark meanwhile.
#
# The commands, with F="--enable-native-access=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED":
#   cell 1, J times:  java $F -cp zerocopy-benchmarks/target/benchmarks.jar \
#                         io.zerocopy.benchmarks.fixedcost.FixedCostRun 11 2000 16384 32768 65536 --peer veth \
#                         --contenders copyPath,copyPathJdk,rawTransferTo,rawPreadWrite --vs copyPathJdk
#   cell 2:           java $F -cp zerocopy-benchmarks/target/benchmarks.jar io.zerocopy.benchmarks.scale.ScaleBenchmark \
#                         --plan full --pairs loopback,veth --threads platform --sizes 1g \
#                         --n 1 --rounds 15 --contenders default,rawTransferTo,classic4k --out DIR/cell2
#
# What it prints (every ratio a median of per-round ratios):
#   cell 1, per size and JVM: copyPath (native) over copyPathJdk in the sending thread's CPU and in
#           wall time (the bar: CPU at most 1.0), then the median over the JVMs.
#   cell 2, per peer: the time of default over the faster of rawTransferTo and classic4k in the
#           same round (the bar: at most 1.10), and the median milliseconds of each.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

JAVA=${JAVA:-/usr/lib/jvm/temurin-25-jdk-amd64/bin/java}
MAIN=io.zerocopy.benchmarks.scale.ScaleBenchmark
FLAGS=(--enable-native-access=ALL-UNNAMED --add-exports java.base/sun.nio.ch=ALL-UNNAMED)

RUNS=3
ROUNDS=11
BATCH=2000
SIZES="16384 32768 65536"
BIG_ROUNDS=15
BIG_PEERS=loopback,veth
OUT=zerocopy-benchmarks/target/native-cells
CELLS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --runs) RUNS=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --batch) BATCH=$2; shift 2 ;;
    --sizes) SIZES=$2; shift 2 ;;
    --big-rounds) BIG_ROUNDS=$2; shift 2 ;;
    --big-peers) BIG_PEERS=$2; shift 2 ;;
    --out) OUT=$2; shift 2 ;;
    cell1 | cell2) CELLS+=("$1"); shift ;;
    *) sed -n '14,25p' "${BASH_SOURCE[0]}" >&2; exit 2 ;;
  esac
done
if [ ${#CELLS[@]} -eq 0 ]; then CELLS=(cell1 cell2); fi

. zerocopy-benchmarks/jvm-runs.sh
if [ "$("$JAVA" -XshowSettings:properties -version 2>&1 | awk '/java.specification.version/ {print $3}')" != 25 ]; then
  echo "$JAVA is not a JDK 25 (set JAVA)" >&2
  exit 2
fi

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

cell1() {
  local i size
  for i in $(seq 1 "$RUNS"); do
    echo "+ FixedCostRun $ROUNDS $BATCH $SIZES --peer veth (JVM $i)" >&2
    # shellcheck disable=SC2086 # SIZES is a list
    exclusive "$JAVA" "${FLAGS[@]}" -cp "$JAR" io.zerocopy.benchmarks.fixedcost.FixedCostRun "$ROUNDS" "$BATCH" $SIZES \
      --peer veth --contenders copyPath,copyPathJdk,rawTransferTo,rawPreadWrite --vs copyPathJdk >"$OUT/cell1-$i.txt"
  done
  echo
  echo "cell 1: copyPath (native) / copyPathJdk to a veth peer, sending thread's CPU and wall time, $RUNS JVMs x $ROUNDS rounds x $BATCH"
  printf '%-8s %-24s %10s %24s\n' size "CPU, per JVM" "CPU median" "wall, per JVM"
  for size in $SIZES; do
    local cpu wall
    cpu=$(cat "$OUT"/cell1-*.txt | awk -v s="$size" '$2 == s && $4 == "copyPath" && $6 == "copyPathJdk" { print $10 }')
    wall=$(cat "$OUT"/cell1-*.txt | awk -v s="$size" '$2 == s && $4 == "copyPath" && $6 == "copyPathJdk" { print $8 }')
    printf '%-8s %-24s %10s %24s\n' "$size" "$(echo $cpu)" "$(echo "$cpu" | median)" "$(echo $wall)"
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
