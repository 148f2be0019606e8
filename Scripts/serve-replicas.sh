#!/usr/bin/env bash
# Two `visage serve` replicas behind nginx on loopback: requests spread across both, and one replica
# draining (SIGTERM) while requests keep coming fails none of them. Bounded: a fixed number of requests.
#
#   apt-get install nginx curl      # Debian
#   Scripts/serve-replicas.sh [--release] [--requests 200]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
configuration=debug requests=200
while [[ $# -gt 0 ]]; do
    case "$1" in
        --release) configuration=release ;;
        --requests) requests="$2"; shift ;;
    esac
    shift
done
command -v nginx > /dev/null || { echo "needs nginx (apt-get install nginx)" >&2; exit 2; }

swift build --package-path "$root" -c "$configuration" --product visage > /dev/null
bin="$(swift build --package-path "$root" -c "$configuration" --show-bin-path)"
work="$(mktemp -d "${TMPDIR:-/tmp}/visage-replicas.XXXXXX")"
ports=(18181 18182) front=18180
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
    [[ -f "$work/nginx.pid" ]] && kill -QUIT "$(cat "$work/nginx.pid")" 2>/dev/null || true
    wait 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

for port in "${ports[@]}"; do
    "$bin/visage" serve --port "$port" > "$work/replica-$port.log" 2>&1 &
    pids+=($!)
done
for port in "${ports[@]}"; do
    for _ in $(seq 1 300); do curl -sf "http://127.0.0.1:$port/readyz" > /dev/null && break; sleep 0.2; done
done

# nginx retries another replica when one refuses connections, resets, or answers 503 (draining or full).
cat > "$work/nginx.conf" <<CONF
worker_processes 1;
pid $work/nginx.pid;
error_log $work/nginx-error.log warn;
events { worker_connections 256; }
http {
    access_log off;
    client_body_temp_path $work/body;
    proxy_temp_path $work/proxy;
    fastcgi_temp_path $work/fastcgi;
    uwsgi_temp_path $work/uwsgi;
    scgi_temp_path $work/scgi;
    client_max_body_size 20m;
    # Bodies stay in memory: nginx's workers (nobody, when started as root) cannot write into this
    # private temporary folder, and an image body must never touch the disk anyway.
    client_body_buffer_size 20m;
    proxy_buffering off;
    upstream visage {
        server 127.0.0.1:${ports[0]} max_fails=1 fail_timeout=2s;
        server 127.0.0.1:${ports[1]} max_fails=1 fail_timeout=2s;
    }
    server {
        listen 127.0.0.1:$front;
        location / {
            proxy_pass http://visage;
            proxy_http_version 1.1;
            proxy_next_upstream error timeout http_503 non_idempotent;
            proxy_next_upstream_tries 2;
        }
    }
}
CONF
nginx -c "$work/nginx.conf"
sleep 0.5

send() {   # $1 requests; prints one status per line
    for _ in $(seq 1 "$1"); do
        curl -s -o /dev/null -w "%{http_code}\n" --data-binary @"$root/Samples/astronaut.png" \
            -H 'Content-Type: image/png' "http://127.0.0.1:$front/v1/faces"
    done
}
served() {  # requests a replica answered with 200 on /v1/faces, from its own metrics
    curl -s "http://127.0.0.1:$1/metrics" | awk -F' ' '/^visage_http_requests_total\{route="\/v1\/faces",method="POST",status="200"\}/ { print $2 }'
}

half=$((requests / 2))
send "$half" > "$work/statuses-1"
a=$(served "${ports[0]}"); b=$(served "${ports[1]}")
echo "spread: replica ${ports[0]} answered ${a:-0}, replica ${ports[1]} answered ${b:-0} of $half"

# Drain the first replica while the second half of the requests is sent.
send "$((requests - half))" > "$work/statuses-2" &
sender=$!
sleep 0.3
kill -TERM "${pids[0]}"
wait "${pids[0]}"; drained=$?
wait "$sender"
echo "replica ${ports[0]} exited with status $drained after SIGTERM"
total=$(cat "$work/statuses-1" "$work/statuses-2" | wc -l)
ok=$(cat "$work/statuses-1" "$work/statuses-2" | grep -c '^200$' || true)
echo "$ok of $total requests answered 200"
[[ "${a:-0}" -gt 0 && "${b:-0}" -gt 0 ]] || { echo "FAIL: requests did not spread across both replicas" >&2; exit 1; }
[[ "$drained" -eq 0 ]] || { echo "FAIL: the draining replica did not exit 0" >&2; exit 1; }
[[ "$ok" -eq "$total" ]] || { echo "FAIL: $((total - ok)) requests failed while a replica drained" >&2; exit 1; }
echo "ok"
