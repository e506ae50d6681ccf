#!/usr/bin/env bash
# http-server's strategies before two receivers: wrk straight at the server, and wrk at an nginx
# reverse proxy in front of it (docs/scale.md, "Two receivers"). Requests per second and the
# server's own CPU per GB, interleaved in one run.
#
#   zerocopy-benchmarks/http/http-receivers.sh      (from the repository root; takes the CPU lock)
#
# Starts http-server once per engine and strategy (STRATEGIES, default "auto transferTo buffered";
# ENGINES, default "threads event-loop") on JDK 25, nginx as a plain server beside them (straight
# runs only) and one nginx reverse proxy (nginx-proxy-conf.sh) with a port per server. Each server
# is warmed up first (WARMUP seconds of wrk at 1 MiB, straight and through the proxy). Then for
# every setting (SETTINGS, "straight proxy"), file (FILES, of 64k 1m 8m) and connection count
# (CONNECTIONS, of 1 64 256), ROUNDS rounds (3) of DURATION-second wrk runs (5), the servers in an
# order rotated from round to round. The server's CPU is utime + stime of its process from
# /proc/PID/stat over each run, divided by the bytes of the bodies wrk received; the proxy's the
# same over its workers, and wrk's own from /usr/bin/time. DIAG=1 adds, once per cell after the rounds, the server's data segments
# and their mean size (ss -ti) and the proxy's reads and writes (strace, 1 s; it slows the proxy). Writes OUT/receivers.csv and
# OUT/diag.txt; prints medians. uptime goes into the CSV with each run. JAVA_OPTS (or
# SERVER_JAVA_OPTS): more JVM options for the servers. CPU sets (common.sh): SERVER_CPUS for the
# servers and the plain nginx (a worker per CPU; the JVMs get -XX:ActiveProcessorCount to match),
# PROXY_CPUS for the proxy (a worker per CPU), CLIENT_CPUS for wrk (a thread per CPU); unset,
# nothing is pinned, nginx and the proxy run 2 workers and wrk -t2. On 16 CPUs:
#
#   SERVER_CPUS=0-3 PROXY_CPUS=4-7 CLIENT_CPUS=8-15 zerocopy-benchmarks/http/http-receivers.sh
set -euo pipefail

. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
take_cpu_lock "$@"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

ROUNDS=${ROUNDS:-3}
DURATION=${DURATION:-5}
WARMUP=${WARMUP:-8}
OUT=${OUT:-zerocopy-examples/target/bench-receivers}
JAVA_OPTS=${JAVA_OPTS:-${SERVER_JAVA_OPTS:-}}
read -r -a STRATEGIES <<<"${STRATEGIES:-auto transferTo buffered}"
read -r -a ENGINES <<<"${ENGINES:-threads event-loop}"
read -r -a SETTINGS <<<"${SETTINGS:-straight proxy}"
read -r -a FILES <<<"${FILES:-64k 1m 8m}"
read -r -a CONNECTIONS <<<"${CONNECTIONS:-1 64 256}"
PORT_NGINX=18301
FIRST_PORT=18310 # servers from here, their proxy ports from FIRST_PORT + 50

zerocopy-benchmarks/http/need.sh wrk strace curl /usr/bin/time:time nginx:nginx-light
NGINX=$(command -v nginx || echo /usr/sbin/nginx)
need_jdk_and_jar

mkdir -p "$OUT"
make_root receivers 64k:$((64 << 10)) 1m:$((1 << 20)) 8m:$((8 << 20))
mkdir -p "$WORK/proxy/logs"
cat "$ROOT"/* >/dev/null

SERVERS=()
declare -A PORT PID
port=$FIRST_PORT
for e in "${ENGINES[@]}"; do
  for s in "${STRATEGIES[@]}"; do
    SERVERS+=("$e/$s")
    PORT[$e/$s]=$port
    port=$((port + 1))
  done
done

trap cleanup EXIT

pairs=()
for s in "${SERVERS[@]}"; do pairs+=("$((PORT[$s] + 50)):${PORT[$s]}"); done
ports_free $PORT_NGINX "${PORT[@]}"
NGINX_WORKERS=$SERVER_NGINX_WORKERS zerocopy-benchmarks/http/nginx-conf.sh "$WORK" "$ROOT" $PORT_NGINX >"$WORK/nginx/nginx.conf"
NGINX_WORKERS=$PROXY_NGINX_WORKERS zerocopy-benchmarks/http/nginx-proxy-conf.sh "$WORK" "${pairs[@]}" >"$WORK/proxy/nginx.conf"
"${SERVER_ON[@]}" "$NGINX" -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" >"$WORK/nginx.log" 2>&1 &
PIDS+=($!)
NGINX_PID=$!
"${PROXY_ON[@]}" "$NGINX" -p "$WORK/proxy" -c "$WORK/proxy/nginx.conf" >"$WORK/proxy.log" 2>&1 &
PIDS+=($!)
PROXY_PID=$!
for s in "${SERVERS[@]}"; do
  strategy=${s#*/}
  # shellcheck disable=SC2086
  "${SERVER_JAVA[@]}" $JAVA_OPTS -jar "$JAR" http-server --root "$ROOT" --port "${PORT[$s]}" --engine "${s%/*}" \
    --strategy "$strategy" --max-connections 4096 >"$WORK/${s/\//-}.log" 2>&1 &
  PIDS+=($!)
  PID[$s]=$!
done

wait_up() { # port
  for _ in $(seq 150); do curl -sf -o /dev/null "http://127.0.0.1:$1/64k" && return 0; sleep 0.1; done
  echo "nothing answers on port $1" >&2
  cat "$WORK"/*.log >&2
  exit 1
}
wait_up $PORT_NGINX
for s in "${SERVERS[@]}"; do wait_up "${PORT[$s]}"; wait_up "$((PORT[$s] + 50))"; done
PROXY_WORKERS=$(pgrep -P $PROXY_PID | tr '\n' ' ')
NGINX_WORKERS=$(pgrep -P $NGINX_PID | tr '\n' ' ')

cpu_ticks() { # pids...: utime + stime of every thread of the processes
  local t=0 p
  for p in "$@"; do t=$((t + $(awk '{print $14 + $15}' "/proc/$p/stat"))); done
  echo $t
}
HZ=$(getconf CLK_TCK)
bytes_of() { case $1 in 64k) echo 65536 ;; 1m) echo 1048576 ;; 8m) echo 8388608 ;; esac; }

# one run: prints "requests_per_s,server_ms_per_gb,proxy_ms_per_gb,wrk_ms_per_gb,errors"
run() { # setting server file connections duration
  local setting=$1 server=$2 file=$3 c=$4 d=$5 port pids
  if [ "$server" = nginx ]; then
    port=$PORT_NGINX
    read -r -a pids <<<"$NGINX_WORKERS"
  else
    port=${PORT[$server]}
    pids=("${PID[$server]}")
    [ "$setting" = proxy ] && port=$((port + 50))
  fi
  read -r -a proxy <<<"$PROXY_WORKERS"
  local s0 p0 out s1 p1
  s0=$(cpu_ticks "${pids[@]}")
  p0=$(cpu_ticks "${proxy[@]}")
  out=$(/usr/bin/time -f "wrk_cpu %U %S" "${CLIENT_ON[@]}" wrk -t"$(wrk_threads "$c")" -c"$c" -d"$d"s --timeout 30s \
    "http://127.0.0.1:$port/$file" 2>&1)
  s1=$(cpu_ticks "${pids[@]}")
  p1=$(cpu_ticks "${proxy[@]}")
  awk -v s=$((s1 - s0)) -v p=$((p1 - p0)) -v hz="$HZ" -v size="$(bytes_of "$file")" -v setting="$setting" '
    /requests in/ { n = $1 }
    /^Requests\/sec:/ { rps = $2 }
    /Socket errors:/ { gsub(/,/, ""); errors = $4 + $6 + $8 + $10 }
    /Non-2xx/ { errors += $5 }
    /^wrk_cpu/ { w = ($2 + $3) * 1000 }
    END { gb = n * size / 1e9; if (gb == 0) gb = 1e-9
          printf "%s,%.1f,%.1f,%.1f,%d\n", rps, s * 1000 / hz / gb, setting == "proxy" ? p * 1000 / hz / gb : 0, w / gb,
            errors }' <<<"$out"
}

diag() { # setting server file connections
  local setting=$1 server=$2 file=$3 c=$4 port=${PORT[$2]}
  local target=$port
  [ "$setting" = proxy ] && target=$((port + 50))
  client_wrk -t"$(wrk_threads "$c")" -c"$c" -d4s --timeout 30s "http://127.0.0.1:$target/$file" >/dev/null &
  local w=$!
  sleep 2
  {
    echo "== $setting $server $file c=$c: the server's sockets (ss -ti), data segments and their mean size"
    ss -tin state established "sport = :$port" | awk '
      /rtt:/ { k++ }
      { for (i = 1; i <= NF; i++) { split($i, kv, ":")
          if (kv[1] == "bytes_sent") b += kv[2]; if (kv[1] == "data_segs_out") n += kv[2]
          if (kv[1] == "bytes_retrans") r += kv[2] } }
      END { if (n) printf "   %d sockets: %d data segments, mean %.0f bytes, %.2f%% of bytes retransmitted\n", k, n, b / n, 100 * r / b }'
    if [ "$setting" = proxy ]; then
      echo "-- the proxy's reads from the server (1 s of strace on the workers)"
      local args=()
      for p in $PROXY_WORKERS; do args+=(-p "$p"); done
      timeout -s INT 1 strace -f -qq -s 0 -e trace=recvfrom,readv,read,writev,epoll_wait \
        -o "$WORK/strace.txt" "${args[@]}" 2>/dev/null || true
      python3 - "$WORK/strace.txt" <<'PY'
import re, sys, collections
calls = collections.defaultdict(list)
for line in open(sys.argv[1]):
    m = re.match(r'(?:\[pid +\d+\] |\d+ +)?(\w+)\(.*\)\s+=\s+(-?\d+)', line)
    if m:
        calls[m.group(1)].append(int(m.group(2)))
for name, rets in sorted(calls.items()):
    ok = [r for r in rets if r >= 0]
    mean = sum(ok) / len(ok) if ok else 0
    print(f"   {name:12s} calls={len(rets):6d} failed={len(rets) - len(ok):5d} mean_return={mean:9.0f}")
PY
    fi
  } >>"$OUT/diag.txt"
  wait $w || true
}

echo "warming up: ${WARMUP} s of 1 MiB per server, straight and through the proxy"
client_wrk -t"$(wrk_threads 64)" -c64 -d"${WARMUP}"s "http://127.0.0.1:$PORT_NGINX/1m" >/dev/null
for s in "${SERVERS[@]}"; do
  client_wrk -t"$(wrk_threads 64)" -c64 -d"${WARMUP}"s "http://127.0.0.1:${PORT[$s]}/1m" >/dev/null
  client_wrk -t"$(wrk_threads 64)" -c64 -d$((WARMUP / 2))s "http://127.0.0.1:$((PORT[$s] + 50))/1m" >/dev/null
done

CSV="$OUT/receivers.csv"
: >"$OUT/diag.txt"
echo "round,setting,server,file,connections,requests_per_s,server_ms_per_gb,proxy_ms_per_gb,wrk_ms_per_gb,errors,load1" \
  >"$CSV"
for setting in "${SETTINGS[@]}"; do
  contenders=("${SERVERS[@]}")
  [ "$setting" = straight ] && contenders=(nginx "${SERVERS[@]}")
  for f in "${FILES[@]}"; do
    for c in "${CONNECTIONS[@]}"; do
      for round in $(seq "$ROUNDS"); do
        for i in "${!contenders[@]}"; do
          s=${contenders[$(((i + round) % ${#contenders[@]}))]}
          line=$(run "$setting" "$s" "$f" "$c" "$DURATION")
          echo "$round,$setting,$s,$f,$c,$line,$(cut -d' ' -f1 /proc/loadavg)" | tee -a "$CSV"
        done
      done
      if [ -n "${DIAG:-}" ]; then
        for s in "${SERVERS[@]}"; do diag "$setting" "$s" "$f" "$c"; done
      fi
    done
  done
done

python3 - "$CSV" <<'PY' | tee "$OUT/summary.txt"
import csv, statistics, sys, collections
cells = collections.defaultdict(list)
for r in csv.DictReader(open(sys.argv[1])):
    cells[(r["setting"], r["file"], int(r["connections"]), r["server"])].append(r)
print("setting   file conns server                     req/s  server ms/GB  proxy ms/GB  wrk ms/GB  errors")
for (setting, f, c, s), rows in sorted(cells.items()):
    med = lambda k: statistics.median(float(x[k]) for x in rows)
    print(f"{setting:9s} {f:4s} {c:5d} {s:24s} {med('requests_per_s'):9.0f} {med('server_ms_per_gb'):12.0f}"
          f" {med('proxy_ms_per_gb'):12.0f} {med('wrk_ms_per_gb'):10.0f} {sum(int(x['errors']) for x in rows):7d}")
PY
{
  echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) CPUs, Linux $(uname -r); uptime: $(uptime)"
  echo "nginx $("$NGINX" -v 2>&1 | sed 's/.*: //'); $("$JDK25/bin/java" -version 2>&1 | head -1); JAVA_OPTS=$JAVA_OPTS"
  [ -z "$SERVER_CPUS$PROXY_CPUS$CLIENT_CPUS" ] || cpu_layout proxy
} | tee -a "$OUT/summary.txt"
