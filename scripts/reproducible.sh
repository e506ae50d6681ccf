#!/usr/bin/env bash
# Checks that the published artifacts do not depend on the JDK that runs Maven: two clean builds,
# one with Maven on JDK 17 and one on JDK 25, must deploy byte-identical jars and poms, and
# zerocopy-core's jar must hold its Java 22 part (META-INF/versions/22). docs/release.md.
#
#   scripts/reproducible.sh                  two clean builds (-DskipTests), then compare
#   scripts/reproducible.sh REPO_A REPO_B    compare two staging repositories already built
#                                            (what .ci/run does with its two verify runs)
#
# JDK17 and JDK25 name the JDK homes (defaults: the machine's java, and Temurin 25).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# what is published, relative to a repository's root
published=(
  io/zerocopy/zerocopy-parent/VERSION/zerocopy-parent-VERSION.pom
  io/zerocopy/zerocopy-bom/VERSION/zerocopy-bom-VERSION.pom
)
for module in zerocopy-api zerocopy-core zerocopy-micrometer; do
  for suffix in .pom .jar -sources.jar -javadoc.jar; do
    published+=("io/zerocopy/$module/VERSION/$module-VERSION$suffix")
  done
done
version=$(sed -n 's#^  <version>\(.*\)</version>$#\1#p' pom.xml | head -1)

if [ $# -eq 2 ]; then
  a=$1 b=$2
elif [ $# -eq 0 ]; then
  jdk17=${JDK17:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
  jdk25=${JDK25:-/usr/lib/jvm/temurin-25-jdk-amd64}
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  for jdk in "$jdk17" "$jdk25"; do
    echo "=== clean build of the published modules, Maven on $jdk"
    JAVA_HOME=$jdk ./mvnw -B -q clean verify -DskipTests \
      -pl zerocopy-api,zerocopy-core,zerocopy-micrometer,zerocopy-bom -am
    cp -r target/staging-repo "$work/$(basename "$jdk")"
  done
  a=$work/$(basename "$jdk17") b=$work/$(basename "$jdk25")
else
  echo "usage: $0 [REPO_A REPO_B]" >&2
  exit 2
fi

status=0
printf '%-64s  %-64s  %s\n' "sha256 in ${a}" "sha256 in ${b}" "artifact"
for path in "${published[@]}"; do
  path=${path//VERSION/$version}
  hash_a=$( [ -f "$a/$path" ] && sha256sum < "$a/$path" | cut -d' ' -f1 || echo missing)
  hash_b=$( [ -f "$b/$path" ] && sha256sum < "$b/$path" | cut -d' ' -f1 || echo missing)
  printf '%-64s  %-64s  %s\n' "$hash_a" "$hash_b" "${path##*/}"
  if [ "$hash_a" = missing ] || [ "$hash_a" != "$hash_b" ]; then
    echo "DIFFERENT: $path" >&2
    status=1
  fi
done

core="io/zerocopy/zerocopy-core/$version/zerocopy-core-$version.jar"
for repo in "$a" "$b"; do
  # the listing first: grep -q would stop reading early, and pipefail would count unzip's SIGPIPE
  entries=$(unzip -Z1 "$repo/$core" 2>/dev/null || true)
  if ! grep -q '^META-INF/versions/22/io/zerocopy/.*\.class$' <<< "$entries"; then
    echo "NO JAVA 22 PART: $repo/$core has no META-INF/versions/22 classes" >&2
    status=1
  fi
done

if [ $status -eq 0 ]; then
  echo "reproducible: ${#published[@]} artifacts identical; zerocopy-core holds META-INF/versions/22"
fi
exit $status
