#!/usr/bin/env bash
# Installs with apt-get the Debian packages whose commands are missing, so a benchmark script runs
# on a fresh machine.
#
#   zerocopy-benchmarks/http/need.sh COMMAND[:PACKAGE] ...     (PACKAGE defaults to COMMAND)
#
# A command counts as present if it is on the PATH, in /usr/sbin, or an executable path itself.
set -euo pipefail
missing=()
for spec in "$@"; do
  cmd=${spec%%:*}
  pkg=${spec#*:}
  command -v "$cmd" >/dev/null || [ -x "/usr/sbin/$cmd" ] || missing+=("$pkg")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi
