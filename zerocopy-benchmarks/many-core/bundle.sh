#!/usr/bin/env bash
# Builds .dev/ for the scripts beside this file: what ../shared/device/make-bundle.sh packs (nginx
# and wrk with their libraries, this build's examples jar), trimmed JDK 25 and 17 runtimes with
# jdk.management (the benchmarks' CPU clocks), this build's benchmarks jar as now.jar and, for each
# LABEL=JAR given, the library of another build's benchmarks jar as LABEL.jar: its classes, its
# Java 22 classes and the manifest that says they are there (without them SideBySideRun would run
# that build without its native path). EXAMPLES_BEFORE names another build's examples jar, copied
# to examples-before.jar. Run from the project's root after
# `JAVA_HOME=<JDK 25> ./mvnw -B -q package -DskipTests -Puring`:
#
#   [EXAMPLES_BEFORE=JAR] zerocopy-benchmarks/many-core/bundle.sh [LABEL=BENCHMARKS_JAR ...]
set -euo pipefail
J17=${JDK17:-$(ls -d /usr/lib/jvm/java-17-openjdk-* | head -1)}
J25=$(ls -d /usr/lib/jvm/temurin-25* | head -1)
bash ../shared/device/make-bundle.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$J25/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.management,jdk.jfr,jdk.unsupported,jdk.crypto.ec \
  --compress zip-9 --strip-debug --no-header-files --no-man-pages --output "$work/jre"
tar cJf .dev/jre.tar.xz -C "$work" jre
"$J17/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.management,jdk.unsupported --compress=2 \
  --strip-debug --no-header-files --no-man-pages --output "$work/jre17"
tar cJf .dev/jre17.tar.xz -C "$work" jre17
cp zerocopy-benchmarks/target/benchmarks.jar .dev/now.jar
for build in "$@"; do
  label=${build%%=*} jar=$(readlink -f "${build#*=}")
  rm -rf "$work/lib" && mkdir "$work/lib"
  (cd "$work/lib" && unzip -q "$jar" 'io/*' 'org/slf4j/*' 'META-INF/services/*' 'META-INF/versions/*' META-INF/MANIFEST.MF &&
    zip -q -r "$work/$label.jar" META-INF/MANIFEST.MF .)
  mv "$work/$label.jar" ".dev/$label.jar"
done
[ -z "${EXAMPLES_BEFORE:-}" ] || cp "$EXAMPLES_BEFORE" .dev/examples-before.jar
du -sh .dev
