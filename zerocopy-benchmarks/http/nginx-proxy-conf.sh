#!/usr/bin/env bash
# Prints the configuration of an nginx reverse proxy in front of http-server: 2 workers
# (NGINX_WORKERS), HTTP/1.1 to each upstream with `keepalive 64`, nginx's default proxy buffering,
# no access log; one listening port per upstream, on 127.0.0.1 only.
#
#   [NGINX_WORKERS=N] zerocopy-benchmarks/http/nginx-proxy-conf.sh WORK LISTEN:UPSTREAM... > WORK/proxy/nginx.conf
#
# WORK holds the pid file, the logs and nginx's temporary directories (the proxy spills bodies
# larger than its buffers there); each LISTEN:UPSTREAM pair is a port of the proxy and the port on
# 127.0.0.1 it forwards to.
set -euo pipefail
WORK=${1:?work directory}
WORKERS=${NGINX_WORKERS:-2}
shift
cat <<CONF
worker_processes $WORKERS;
daemon off;
pid $WORK/proxy/nginx.pid;
error_log $WORK/proxy/logs/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  client_body_temp_path $WORK/proxy/body;
  proxy_temp_path $WORK/proxy/temp;
  fastcgi_temp_path $WORK/proxy/fastcgi;
  uwsgi_temp_path $WORK/proxy/uwsgi;
  scgi_temp_path $WORK/proxy/scgi;
CONF
for pair in "$@"; do
  listen=${pair%%:*}
  upstream=${pair#*:}
  cat <<CONF
  upstream u$upstream { server 127.0.0.1:$upstream; keepalive 64; }
  server {
    listen 127.0.0.1:$listen;
    location / {
      proxy_pass http://u$upstream;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
CONF
done
echo "}"
