// zerocopy must have come from the deployed staging repository into this build's fresh local
// repository, not from the user's ~/.m2 (chained read-only behind it).
def dir = new File(localRepositoryPath, "io/zerocopy/zerocopy-core/${zerocopyVersion}")
def jar = new File(dir, "zerocopy-core-${zerocopyVersion}.jar")
assert jar.isFile() : "zerocopy-core ${zerocopyVersion} was not downloaded into ${localRepositoryPath}: " +
        "it came from ~/.m2 (an earlier ./mvnw install?); delete ~/.m2/repository/io/zerocopy"
def origin = new File(dir, "_remote.repositories").text
assert origin.contains("zerocopy-core-${zerocopyVersion}.jar>zerocopy-staging=") : "not from zerocopy-staging: ${origin}"
