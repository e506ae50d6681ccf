# shellcheck shell=bash
# Sourced by the scripts that run the benchmarks jar's programs from the repository root
# (native-cells.sh, scale-committed.sh): the jar, a stop when it is not built, and exclusive.

JAR=zerocopy-benchmarks/target/benchmarks.jar
if [ ! -f "$JAR" ]; then
  echo "no $JAR: build first (./mvnw -B -q -pl zerocopy-benchmarks -am package -DskipTests)" >&2
  exit 2
fi

# exclusive COMMAND...: the command under an exclusive flock on SCALE_LOCK when it is set, so that
# JVMs on a shared machine never measure side by side; else the command alone
exclusive() {
  if [ -n "${SCALE_LOCK:-}" ]; then flock -x "$SCALE_LOCK" "$@"; else "$@"; fi
}
