// zerocopy must have come from the staging repository this build deployed to, into this build's
// own local repository: the jar there is the staged one, byte for byte, and records that origin.
def path = "io/zerocopy/zerocopy-core/${zerocopyVersion}/zerocopy-core-${zerocopyVersion}.jar"
def jar = new File(localRepositoryPath, path)
assert jar.isFile() : "zerocopy-core ${zerocopyVersion} is not in ${localRepositoryPath}"
def origin = new File(jar.parentFile, "_remote.repositories").text
assert origin.contains("zerocopy-core-${zerocopyVersion}.jar>zerocopy-staging=") :
        "not from zerocopy-staging: ${origin}"
def staged = new File(zerocopyStagingDir, path)
assert jar.bytes == staged.bytes : "${jar} differs from ${staged}, which this build deployed"
