#!/usr/bin/env bash
# Runs schemathesis (PyPI) against a live `visage serve` and its own /openapi.yaml: it generates requests
# from the document and fails on any server error (5xx other than the documented 503/504) and any
# response off the document (status, content type, JSON schema). Bounded: --max-examples per operation.
#
#   python3 -m venv .venv && .venv/bin/pip install schemathesis
#   PATH=.venv/bin:$PATH Scripts/schemathesis-serve.sh [--max-examples 30]
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
examples=30
[[ "${1:-}" == --max-examples ]] && examples="$2"
port="${PORT:-18099}"

swift build --package-path "$root" --product visage > /dev/null
bin="$(swift build --package-path "$root" --show-bin-path)"
"$bin/visage" serve --port "$port" --deadline 30 > /tmp/visage-schemathesis-serve.log 2>&1 &
server=$!
trap 'kill -TERM $server 2>/dev/null; wait $server 2>/dev/null || true' EXIT
for _ in $(seq 1 300); do
    curl -sf "http://127.0.0.1:$port/readyz" > /dev/null && break
    sleep 0.2
done

# not_a_server_error: no 500s; the others check the answers against the document. 503 (overloaded)
# and 504 (deadline) are documented answers under load, not faults.
schemathesis run "http://127.0.0.1:$port/openapi.yaml" \
    --url "http://127.0.0.1:$port" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_schema_conformance \
    --max-examples "$examples" \
    --exclude-path /v1/track \
    --request-timeout 60
