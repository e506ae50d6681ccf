#!/usr/bin/env bash
# Builds .dev/ for quiet-run.sh: what ../shared/device/make-bundle.sh packs (nginx and wrk with
# their libraries, the examples jar), trimmed JDK 25 and 17 runtimes with jdk.management, this build's
# benchmarks jar (now.jar) and, to compare against, the library's classes from another build's
# benchmarks jar (before.jar). Run from the project's root after
# `JAVA_HOME=<JDK 25> ./mvnw -B -q package -DskipTests -Puring`:
#
#   zerocopy-benchmarks/many-core/bundle.sh BEFORE_BENCHMARKS_JAR
set -euo pipefail
before=$(readlink -f "${1:?the benchmarks jar of the build to compare against}")
J17=${JDK17:-$(ls -d /usr/lib/jvm/java-17-openjdk-* | head -1)}
bash ../shared/device/make-bundle.sh
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# the two runtimes with jdk.management too, which the benchmarks' CPU clocks need
J25=$(ls -d /usr/lib/jvm/temurin-25* | head -1)
"$J25/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.management,jdk.jfr,jdk.unsupported,jdk.crypto.ec \
  --compress zip-9 --strip-debug --no-header-files --no-man-pages --output "$work/jre"
tar cJf .dev/jre.tar.xz -C "$work" jre
"$J17/bin/jlink" --add-modules java.base,java.logging,java.management,jdk.management,jdk.unsupported --compress=2 \
  --strip-debug --no-header-files --no-man-pages --output "$work/jre17"
tar cJf .dev/jre17.tar.xz -C "$work" jre17
cp zerocopy-benchmarks/target/benchmarks.jar .dev/now.jar
# SideBySideRun loads each build with the platform class loader as parent: the library and SLF4J suffice
(mkdir "$work/before" && cd "$work/before" && unzip -q "$before" 'io/*' 'org/slf4j/*' 'META-INF/services/*' &&
  zip -q -r ../before.jar .)
cp "$work/before.jar" .dev/before.jar
du -sh .dev
