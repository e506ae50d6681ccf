#!/usr/bin/env bash
# Regenerates api-baseline/: the zerocopy-api and zerocopy-core jars of the release that japicmp
# holds every later build to (breaking on a binary-incompatible change). Run it once, at the
# release commit, and commit the result (docs/release.md). The build is reproducible, so anyone
# can check that the baseline equals the jars built from the release tag.
#   scripts/api-baseline.sh
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# the project's version: the first <version> of the root pom (no parent above it)
version=$(sed -n 's#^  <version>\(.*\)</version>$#\1#p' pom.xml | head -1)
case "$version" in
  *-SNAPSHOT) echo "api-baseline.sh: version $version is not a release; run it at the release commit" >&2; exit 1 ;;
esac

# japicmp is skipped: the old baseline is what is being replaced
./mvnw -B -q clean package -DskipTests -Djapicmp.skip -pl zerocopy-api,zerocopy-core -am

rm -f api-baseline/*.jar
mkdir -p api-baseline
for module in zerocopy-api zerocopy-core; do
  cp "$module/target/$module-$version.jar" "api-baseline/$module-$version.jar"
done
# the version japicmp compares against
sed -i "s#<zerocopy.api.baseline>.*</zerocopy.api.baseline>#<zerocopy.api.baseline>$version</zerocopy.api.baseline>#" pom.xml

sha256sum api-baseline/*.jar
echo "api-baseline.sh: baseline is now $version; commit api-baseline/ and pom.xml"
