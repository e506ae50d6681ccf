#!/usr/bin/env bash
# Prints the nginx configuration the HTTP benchmarks run nginx with: sendfile on, tcp_nopush on,
# 2 workers (NGINX_WORKERS), keep-alive without a request limit, no access log, listening on
# 127.0.0.1 only. NGINX_OPEN_FILE_CACHE=1 adds nginx's cache of open files as issue 45 measures it
# (open_file_cache max=1000 inactive=20s; open_file_cache_valid 60s).
#
#   [NGINX_WORKERS=N] [NGINX_OPEN_FILE_CACHE=1] zerocopy-benchmarks/http/nginx-conf.sh WORK ROOT PORT > WORK/nginx/nginx.conf
#
# WORK holds the pid file, the logs and nginx's temporary directories; ROOT is served.
set -euo pipefail
WORK=${1:?work directory}
ROOT=${2:?root directory}
PORT=${3:?port}
WORKERS=${NGINX_WORKERS:-2}
OPEN_FILE_CACHE=""
if [ "${NGINX_OPEN_FILE_CACHE:-0}" = 1 ]; then
  OPEN_FILE_CACHE="open_file_cache max=1000 inactive=20s; open_file_cache_valid 60s;"
fi
cat <<CONF
worker_processes $WORKERS;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  $OPEN_FILE_CACHE
  types { application/octet-stream bin; }
  client_body_temp_path $WORK/nginx/body;
  proxy_temp_path $WORK/nginx/proxy;
  fastcgi_temp_path $WORK/nginx/fastcgi;
  uwsgi_temp_path $WORK/nginx/uwsgi;
  scgi_temp_path $WORK/nginx/scgi;
  server {
    listen 127.0.0.1:$PORT;
    root $ROOT;
  }
}
CONF
