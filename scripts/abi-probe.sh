#!/usr/bin/env bash
# Compiles a C file to assembly with the GNU C compiler of one Linux architecture, printing the
# assembly: LinuxAbiHeadersTest reads the values of the kernel interface from its data directives.
# Usage: scripts/abi-probe.sh x86_64|aarch64 FILE.c
# Installs the compiler (Debian's gcc, or its aarch64 cross compiler with the arm64 kernel headers)
# when it is missing and this runs as root; exits 3 when it is missing and cannot be installed.
set -euo pipefail
arch=$1 source=$2
case "$arch" in
  x86_64) cc=gcc; package="gcc linux-libc-dev" ;;
  aarch64) cc=aarch64-linux-gnu-gcc; package="gcc-aarch64-linux-gnu linux-libc-dev-arm64-cross" ;;
  *) echo "no compiler known for $arch" >&2; exit 2 ;;
esac
if [ "$(uname -m)" != x86_64 ] && [ "$arch" = x86_64 ]; then
  cc=x86_64-linux-gnu-gcc package="gcc-x86-64-linux-gnu linux-libc-dev-amd64-cross"
fi
if ! command -v "$cc" >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "$cc is missing; install: $package" >&2
    exit 3
  fi
  echo "installing $package" >&2
  (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $package) >&2
fi
"$cc" -S -O0 -o - "$source"
