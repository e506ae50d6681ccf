#!/usr/bin/env bash
# What the cache of open files saves: requests per second and the server's CPU per request
# (http-cpu.sh) for nginx without and with its open_file_cache, and http-server's two engines with
# the library's OpenFileCache (the default) and without it (--open-file-cache 0), one file of SIZE
# (docs/http-server.md).
#
#   [SIZE=4096] [FILES=N] zerocopy-benchmarks/http/http-cache.sh [ROUNDS] [SECONDS] [CONNECTIONS...]   (3 5 64 256)
#
# SIZE is the file's size in bytes. With FILES=N the root holds N files of that size and each
# request asks for one of them at random, so that with N over the caches' bound (1,000 for both)
# they must evict; every run then prints its statuses.
#
# Starts the six servers on 127.0.0.1, warms each JVM with a 3 s wrk run, then runs http-cpu.sh
# with every server in each round. Installs nginx-light, wrk and perf's tools if missing (where
# nothing can be installed, it goes on without perf: http-cpu.sh); needs JDK
# 25 (JDK25) and builds the examples jar if it is not there. CPU sets as in common.sh.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
take_cpu_lock "$@"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROUNDS=${1:-3}
SECONDS_=${2:-5}
shift $(($# < 2 ? $# : 2))
CONNECTIONS=("$@")
[ ${#CONNECTIONS[@]} -gt 0 ] || CONNECTIONS=(64 256)
zerocopy-benchmarks/http/need.sh wrk nginx:nginx-light
zerocopy-benchmarks/http/need.sh perf:linux-perf || echo "no perf: CPU per request from /proc's clock ticks" >&2
need_jdk_and_jar
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
ports_free 18290 18291 18292 18293 18294 18295
raise_open_files 4096
WORK=$(mktemp -d /tmp/zerocopy-http-cache.XXXXXX)
trap cleanup EXIT
mkdir -p "$WORK/root" "$WORK/plain/nginx/logs" "$WORK/cache/nginx/logs"
chmod 755 "$WORK" "$WORK/root"
SIZE=${SIZE:-4096}
[ -z "${FILES:-}" ] || many_files "$WORK/root" "$SIZE" "$FILES"
head -c "$SIZE" /dev/urandom >"$WORK/root/one.bin" # the file asked for without FILES, and in the warm-up
NGINX_WORKERS=$SERVER_NGINX_WORKERS zerocopy-benchmarks/http/nginx-conf.sh "$WORK/plain" "$WORK/root" 18291 \
  >"$WORK/plain/nginx/nginx.conf"
NGINX_OPEN_FILE_CACHE=1 NGINX_WORKERS=$SERVER_NGINX_WORKERS zerocopy-benchmarks/http/nginx-conf.sh \
  "$WORK/cache" "$WORK/root" 18290 >"$WORK/cache/nginx/nginx.conf"
"${SERVER_ON[@]}" "$NGINX" -p "$WORK/plain/nginx" -c "$WORK/plain/nginx/nginx.conf" >"$WORK/nginx.log" 2>&1 &
PIDS+=($!)
"${SERVER_ON[@]}" "$NGINX" -p "$WORK/cache/nginx" -c "$WORK/cache/nginx/nginx.conf" >"$WORK/nginx-cache.log" 2>&1 &
PIDS+=($!)
specs=()
port=18292
for server in threads:1000 event-loop:1000 threads:0 event-loop:0; do
  IFS=: read -r engine cache <<<"$server"
  "${SERVER_JAVA[@]}" -jar "$JAR" http-server --root "$WORK/root" --port $port --engine "$engine" \
      --max-connections 4096 --open-file-cache "$cache" >"$WORK/$engine-$cache.log" 2>&1 &
  PIDS+=($!)
  name=$engine; [ "$cache" != 0 ] || name=$engine-nocache
  specs+=("$name:$port:${PIDS[-1]}")
  port=$((port + 1))
done
for spec in "${specs[@]}"; do
  IFS=: read -r _ p _ <<<"$spec"
  wait_serving "http://127.0.0.1:$p/one.bin" || { tail -n 5 "$WORK"/*.log >&2; exit 1; }
  client_wrk -t"$(wrk_threads 64)" -c64 -d3s "http://127.0.0.1:$p/one.bin" >/dev/null # warm the JVM
done
workers() { pgrep -P "$1" | paste -sd,; }
echo "$(cpu_layout); $SIZE-byte files: ${FILES:-1}; $(date -u '+%Y-%m-%d %H:%M UTC')"
for c in "${CONNECTIONS[@]}"; do
  echo "== $c connections"
  FILE=one.bin zerocopy-benchmarks/http/http-cpu.sh "$c" "$ROUNDS" "$SECONDS_" \
    "nginx:18291:$(workers "${PIDS[0]}")" "nginx+cache:18290:$(workers "${PIDS[1]}")" "${specs[@]}"
done
