#!/usr/bin/env bash
# Fuzzes one Jazzer target for a while (docs/fuzzing.md):
#   scripts/fuzz.sh TARGET [SECONDS]     e.g. scripts/fuzz.sh RequestParserFuzzTest 600
# TARGET is one of: RequestParserFuzzTest TargetResolverFuzzTest ResponseRangeFuzzTest TransfersFuzzTest
# NativeCopyFuzzTest NativeSendFuzzTest (Java 22+: they run against the packaged zerocopy-core, whose Java 22
# part they fuzz)
# Builds the module's tests once with Maven, then runs Jazzer's own command line (not Maven), niced.
# New coverage goes to MODULE/.cifuzz-corpus (not committed); a finding is written next to the
# committed inputs, src/test/resources/<package>/<Class>Inputs/<method>/crash-*, and fails the run.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

target=${1:?usage: $0 TARGET [SECONDS]}
seconds=${2:-600}
case "$target" in
  RequestParserFuzzTest)  module=zerocopy-examples; package=io.zerocopy.examples.http; method=parse_anyBytes ;;
  TargetResolverFuzzTest) module=zerocopy-examples; package=io.zerocopy.examples.http; method=resolve_anyTarget ;;
  ResponseRangeFuzzTest)  module=zerocopy-examples; package=io.zerocopy.examples.http; method=plan_anyRangeAndConditions ;;
  TransfersFuzzTest)      module=zerocopy-core;     package=io.zerocopy;                method=copy_adversarialChannels ;;
  NativeCopyFuzzTest)     module=zerocopy-tests;    package=io.zerocopy.tests;          method=copy_nativeFileIntoAdversarialTarget ;;
  NativeSendFuzzTest)     module=zerocopy-tests;    package=io.zerocopy.tests;          method=send_nativeFileIntoSocket ;;
  *) echo "unknown target: $target" >&2; exit 2 ;;
esac

# FUZZ_SKIP_BUILD=1 reuses the last build (several runs in a row, no Maven beside other work)
if [ -z "${FUZZ_SKIP_BUILD:-}" ] && [ "$module" = zerocopy-tests ]; then
  # the multi-release jar, not core's classes directory, so that its Java 22 part is what runs
  nice -n 19 ./mvnw -B -q -pl zerocopy-api,zerocopy-core install -DskipTests -Dmaven.deploy.skip=true
  nice -n 19 ./mvnw -B -q -pl "$module" test-compile dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/fuzz.classpath
elif [ -z "${FUZZ_SKIP_BUILD:-}" ]; then
  nice -n 19 ./mvnw -B -q -pl "$module" -am test-compile dependency:build-classpath \
    -Dmdep.includeScope=test -Dmdep.outputFile=target/fuzz.classpath
fi

cd "$module"
class="$package.$target"
inputs="src/test/resources/${package//.//}/${target}Inputs/$method"
corpus=".cifuzz-corpus/$class/$method"
mkdir -p "$inputs" "$corpus"
# The same JVM flags and Jazzer settings as the build's regression runs (pom.xml: jazzer.argLine).
flags=(-XX:+EnableDynamicAgentLoading --enable-native-access=ALL-UNNAMED)
if [ "$(java -XshowSettings:properties -version 2>&1 | sed -n 's/ *java.specification.version = //p')" -ge 24 ]; then
  flags+=(--sun-misc-unsafe-memory-access=allow)
fi
exec nice -n 19 java "${flags[@]}" -Djazzer.additional_classes_excludes='java.**:javax.**:jdk.**:sun.**' \
  -cp "target/test-classes:target/classes:$(cat target/fuzz.classpath)" \
  com.code_intelligence.jazzer.Jazzer --target_class="$class" --target_method="$method" \
  -max_total_time="$seconds" -print_final_stats=1 -artifact_prefix="$inputs/" "$corpus" "$inputs"
