#!/usr/bin/env bash
# Makes a Java 25 for Linux on AArch64 that runs on this x86-64 machine under qemu-user, and prints
# the path of a launcher that takes java's arguments: NativeAArch64Test runs the native path on it.
# Usage: scripts/aarch64-jdk.sh [DIR]   (default: ~/.cache/zerocopy/aarch64-jdk25; kept for the next run)
#
# The JDK and the C libraries it needs are Debian 13's arm64 packages from deb.debian.org, checked
# as apt checks them: the suite's InRelease against Debian's archive keyring, the package index
# against InRelease, each package against the index. qemu-user-static is Debian's, installed with
# apt-get when missing and this runs as root. Exits 3 when something cannot be had here.
set -euo pipefail
dir=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/zerocopy/aarch64-jdk25}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=trixie
packages="openjdk-25-jre-headless libc6 libgcc-s1 libstdc++6 zlib1g"
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

unavailable() {
  echo "no AArch64 Java here: $*" >&2
  exit 3
}

if [ -x "$dir/java" ] && "$dir/java" -version >/dev/null 2>&1; then
  echo "$dir/java"
  exit 0
fi
[ "$(uname -sm)" = "Linux x86_64" ] || unavailable "this runs on Linux x86-64, not $(uname -sm)"
if ! command -v qemu-aarch64-static >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    unavailable "qemu-aarch64-static is missing; install: qemu-user-static"
  fi
  echo "installing qemu-user-static" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-user-static) >&2 \
    || unavailable "apt-get could not install qemu-user-static"
fi
for tool in curl gpgv xz sha256sum dpkg-deb; do
  command -v "$tool" >/dev/null 2>&1 || unavailable "$tool is missing"
done
[ -r "$keyring" ] || unavailable "Debian's archive keyring ($keyring) is missing"

work=$(mktemp -d "${TMPDIR:-/tmp}/aarch64-jdk.XXXXXX")
trap 'rm -rf "$work"' EXIT
fetch() { curl -fsS --retry 2 -o "$2" "$mirror/$1" || unavailable "cannot fetch $mirror/$1"; }

fetch "dists/$suite/InRelease" "$work/InRelease"
gpgv --keyring "$keyring" --output "$work/Release" "$work/InRelease" 2>/dev/null \
  || unavailable "$suite's InRelease is not signed by a key in $keyring"
index=main/binary-arm64/Packages.xz
sum=$(awk -v f="$index" '/^SHA256:/ { s = 1; next } /^[^ ]/ { s = 0 } s && $3 == f { print $1 }' "$work/Release")
[ -n "$sum" ] || unavailable "$suite's Release lists no $index"
fetch "dists/$suite/$index" "$work/Packages.xz"
echo "$sum  $work/Packages.xz" | sha256sum -c --quiet - || unavailable "$index does not match $suite's Release"
xz -dc "$work/Packages.xz" >"$work/Packages"

root=$work/root
mkdir -p "$root"
for package in $packages; do
  # the stanza of that package: its file in the pool and the file's SHA-256
  read -r file sum < <(awk -v p="Package: $package" '
    $0 == p { s = 1 } /^$/ { s = 0 }
    s && /^Filename:/ { f = $2 } s && /^SHA256:/ { print f, $2; exit }' "$work/Packages")
  [ -n "${file:-}" ] || unavailable "$suite has no arm64 $package"
  fetch "$file" "$work/package.deb"
  echo "$sum  $work/package.deb" | sha256sum -c --quiet - || unavailable "$file does not match the index"
  dpkg-deb -x "$work/package.deb" "$root"
done
ln -sfn usr/lib "$root/lib" # Debian 13 merged /lib into /usr/lib; the loader is looked for in /lib
jdk=$root/usr/lib/jvm/java-25-openjdk-arm64
[ -x "$jdk/bin/java" ] || unavailable "the package held no $jdk/bin/java"

mkdir -p "$(dirname "$dir")"
rm -rf "$dir"
mv "$root" "$dir"
jdk=$dir/usr/lib/jvm/java-25-openjdk-arm64
# the JDK's configuration links point at /etc, which qemu's -L does not redirect for the JVM's own opens
find "$jdk" -type l -lname '/*' | while read -r link; do
  ln -sfn "$dir$(readlink "$link")" "$link"
done
cat >"$dir/java" <<EOF
#!/bin/sh
exec qemu-aarch64-static -L "$dir" "$jdk/bin/java" "\$@"
EOF
chmod +x "$dir/java"
"$dir/java" -version >&2 || unavailable "the AArch64 java does not start under qemu-aarch64-static"
echo "$dir/java"
