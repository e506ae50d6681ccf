#!/usr/bin/env bash
# Runs the README's test command (./mvnw -B clean verify) again and again on a machine whose cores
# are all held by busy loops, and reports every test that failed, by name, in every run.
# docs/testing.md says when and how to use it and what the last runs found.
#
#   scripts/stress.sh [-n RUNS] [-s cpu|memory|both] [MAVEN ARGS...]
#
#   -n RUNS      how many times to run the suite (default 5)
#   -s SETTING   cpu:    the suite as CI runs it, with every core busy (default)
#                memory: the same, and every test JVM small: -Xmx$STRESS_HEAP and
#                        -XX:MaxDirectMemorySize=$STRESS_DIRECT (defaults 256m and 64m)
#                both:   each run once in each setting
#   MAVEN ARGS   passed on to Maven, e.g. -pl zerocopy-tests -am for one module and what it needs
#
# JAVA_HOME selects the JDK that runs Maven and the tests. STRESS_LOAD is the number of busy loops
# (default: one per core, nproc). Each run's log is kept in STRESS_LOGS (default: a new directory
# under /tmp). The exit status is 0 only if every run passed.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

runs=5
setting=cpu
while [ $# -gt 0 ]; do
  case $1 in
    -n) runs=$2; shift 2 ;;
    -s) setting=$2; shift 2 ;;
    -h | --help) sed -n '2,18p' "$0"; exit 0 ;;
    *) break ;; # the rest is Maven's
  esac
done
case $setting in
  cpu) settings=(cpu) ;;
  memory) settings=(memory) ;;
  both) settings=(cpu memory) ;;
  *) echo "stress.sh: -s $setting (expected: cpu, memory or both)" >&2; exit 2 ;;
esac
heap=${STRESS_HEAP:-256m}
direct=${STRESS_DIRECT:-64m}
load=${STRESS_LOAD:-$(nproc)}
logs=${STRESS_LOGS:-$(mktemp -d /tmp/zerocopy-stress.XXXXXX)}
mkdir -p "$logs"

busy=()
stop_load() {
  if [ ${#busy[@]} -gt 0 ]; then
    kill "${busy[@]}" 2>/dev/null || true
    wait "${busy[@]}" 2>/dev/null || true
    busy=()
  fi
}
trap stop_load EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$load"); do
  (while :; do :; done) &
  busy+=($!)
done

# Every <testcase> of the surefire (and any failsafe) reports that holds a <failure> or an <error>, as
# "Class.method" (the method's display name for parameterised tests), one a line.
failed_tests() {
  find . -path '*/target/surefire-reports/TEST-*.xml' -o -path '*/target/failsafe-reports/TEST-*.xml' \
    | sort | xargs -r awk '
        /<testcase / {
          name = match($0, / name="[^"]*"/) ? substr($0, RSTART + 7, RLENGTH - 8) : "?"
          cls = match($0, / classname="[^"]*"/) ? substr($0, RSTART + 12, RLENGTH - 13) : "?"
        }
        /<failure|<error/ { if (cls != "") { print cls "." name; cls = "" } }
        /<\/testcase>/ { cls = "" }' \
    | sed 's/&quot;/"/g; s/&apos;/'"'"'/g; s/&lt;/</g; s/&gt;/>/g; s/&amp;/\&/g'
}

java_version=$("${JAVA_HOME:+$JAVA_HOME/bin/}java" -version 2>&1 | head -1)
echo "stress: $runs run(s), setting $setting, $load busy loop(s) on $(nproc) core(s), $java_version"
echo "stress: logs in $logs"
total=0 failed_runs=0 failed_count=0
for run in $(seq "$runs"); do
  for s in "${settings[@]}"; do
    total=$((total + 1))
    args=()
    if [ "$s" = memory ]; then
      args+=("-Dzerocopy.test.jvmArgs=-Xmx$heap -XX:MaxDirectMemorySize=$direct")
    fi
    log=$logs/run-$run-$s.log
    start=$(date +%s)
    status=0
    # test failures do not stop the build, so that one flake hides no other module's tests
    ./mvnw -B clean verify -Dmaven.test.failure.ignore=true "${args[@]}" "$@" >"$log" 2>&1 || status=$?
    seconds=$(($(date +%s) - start))
    failures=$(failed_tests)
    if [ -n "$failures" ] || [ "$status" -ne 0 ]; then
      failed_runs=$((failed_runs + 1))
      n=$(printf '%s' "$failures" | grep -c . || true)
      failed_count=$((failed_count + n))
      echo "run $run ($s): FAILED in ${seconds}s, Maven exit $status, $n failing test(s); log $log"
      if [ -n "$failures" ]; then
        printf '%s\n' "$failures" | sed 's/^/  FAILED /'
      fi
      for dir in $(find . -path '*/target/surefire-reports' -o -path '*/target/failsafe-reports'); do
        cp -r "$dir" "$logs/run-$run-$s-$(echo "${dir#./}" | tr / _)"
      done
    else
      echo "run $run ($s): passed in ${seconds}s"
    fi
  done
done
echo "stress summary: $total run(s), $failed_runs failed, $failed_count failing test(s)" \
  "($setting, $load busy loops, $java_version)"
[ "$failed_runs" -eq 0 ]
