#!/usr/bin/env bash
# Makes a Java 25 for Linux on another architecture that runs on this x86-64 machine under
# qemu-user, and prints the path of a launcher that takes java's arguments: NativeArchitecturesTest
# runs the native path on arm64 with it, and on riscv64, which has no table of kernel numbers, the
# JDK's path.
# Usage: scripts/foreign-jdk.sh arm64|riscv64 [DIR]   (default: ~/.cache/zerocopy/ARCH-debian13; kept)
#
# Everything is Debian 13's, from deb.debian.org, checked as apt checks it (the suite's InRelease
# against Debian's archive keyring, each package index against InRelease, each package against its
# index) and unpacked, not installed: the OpenJDK 25 and the C libraries it needs, and the amd64
# qemu-user 10, whose emulator is one static program (Debian 12's qemu 7.2 has no openat2).
# Needs no root. Exits 3 when something cannot be had here.
set -euo pipefail
arch=${1:?usage: scripts/foreign-jdk.sh arm64|riscv64 [DIR]}
case "$arch" in
  arm64) emulator=qemu-aarch64 ;;
  riscv64) emulator=qemu-riscv64 ;;
  *) echo "no emulator known for $arch" >&2; exit 2 ;;
esac
dir=${2:-${XDG_CACHE_HOME:-$HOME/.cache}/zerocopy/$arch-debian13}
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
suite=trixie
packages="openjdk-25-jre-headless libc6 libgcc-s1 libstdc++6 zlib1g" # of $arch
keyring=/usr/share/keyrings/debian-archive-keyring.gpg

unavailable() {
  echo "no $arch Java here: $*" >&2
  exit 3
}

if [ -x "$dir/java" ] && "$dir/java" -version >/dev/null 2>&1; then
  echo "$dir/java"
  exit 0
fi
[ "$(uname -sm)" = "Linux x86_64" ] || unavailable "this runs on Linux x86-64, not $(uname -sm)"
for tool in curl gpgv xz sha256sum dpkg-deb; do
  command -v "$tool" >/dev/null 2>&1 || unavailable "$tool is missing"
done
[ -r "$keyring" ] || unavailable "Debian's archive keyring ($keyring) is missing"

work=$(mktemp -d "${TMPDIR:-/tmp}/foreign-jdk.XXXXXX")
trap 'rm -rf "$work"' EXIT
fetch() { curl -fsS --retry 2 -o "$2" "$mirror/$1" || unavailable "cannot fetch $mirror/$1"; }

fetch "dists/$suite/InRelease" "$work/InRelease"
gpgv --keyring "$keyring" --output "$work/Release" "$work/InRelease" 2>/dev/null \
  || unavailable "$suite's InRelease is not signed by a key in $keyring"

# unpacks each package of one architecture into $root
unpack() {
  local arch=$1 index=main/binary-$1/Packages.xz sum file package
  shift
  sum=$(awk -v f="$index" '/^SHA256:/ { s = 1; next } /^[^ ]/ { s = 0 } s && $3 == f { print $1 }' "$work/Release")
  [ -n "$sum" ] || unavailable "$suite's Release lists no $index"
  fetch "dists/$suite/$index" "$work/Packages.xz"
  echo "$sum  $work/Packages.xz" | sha256sum -c --quiet - || unavailable "$index does not match $suite's Release"
  xz -dc "$work/Packages.xz" >"$work/Packages"
  for package in "$@"; do
    # the stanza of that package: its file in the pool and the file's SHA-256
    read -r file sum < <(awk -v p="Package: $package" '
      $0 == p { s = 1 } /^$/ { s = 0 }
      s && /^Filename:/ { f = $2 } s && /^SHA256:/ { print f, $2; exit }' "$work/Packages")
    [ -n "${file:-}" ] || unavailable "$suite has no $arch $package"
    fetch "$file" "$work/package.deb"
    echo "$sum  $work/package.deb" | sha256sum -c --quiet - || unavailable "$file does not match the index"
    dpkg-deb -x "$work/package.deb" "$root"
  done
}

root=$work/root
mkdir -p "$root"
unpack "$arch" $packages
ln -sfn usr/lib "$root/lib" # Debian 13 merged /lib into /usr/lib; the loader is looked for in /lib
unpack amd64 qemu-user
mv "$root/usr/bin/$emulator" "$root/$emulator"
rm -f "$root"/usr/bin/qemu-* # the other emulators
jdk=$root/usr/lib/jvm/java-25-openjdk-$arch
[ -x "$jdk/bin/java" ] || unavailable "the package held no $jdk/bin/java"

mkdir -p "$(dirname "$dir")"
rm -rf "$dir"
mv "$root" "$dir"
jdk=$dir/usr/lib/jvm/java-25-openjdk-$arch
# the JDK's configuration links point at /etc, which qemu's -L does not redirect for the JVM's own opens
find "$jdk" -type l -lname '/*' | while read -r link; do
  ln -sfn "$dir$(readlink "$link")" "$link"
done
cat >"$dir/java" <<EOF
#!/bin/sh
exec "$dir/$emulator" -L "$dir" "$jdk/bin/java" "\$@"
EOF
chmod +x "$dir/java"
"$dir/java" -version >&2 || unavailable "the $arch java does not start under $emulator"
echo "$dir/java"
