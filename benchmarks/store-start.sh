#!/usr/bin/env bash
# A store replica's start with 10,000 prompts, alone: PostgreSQL (bin/cluster's, its replicas and HAProxy stopped)
# holds `gen-library.sh 10000` published, and a fresh `promptd serve --http --store` is timed from launch to the first
# 2026-07-28 prompts/list page that names the prompts, RUNS times (default 6) after one untimed start. Polls every
# 20 ms. The untimed start stores the library's parsed index in the store, and the timed starts use it; with
# INDEX=0 the stored index is deleted before each start, so each one parses every file (the case of a replica whose
# role may not write the index, or of the first start after a promptd upgrade).
#   MAVEN_ARGS="-o -Dmaven.repo.local=..." [INDEX=0] benchmarks/store-start.sh [RUNS] [N]
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
SHARED="$(cd "$ROOT/../shared" && pwd)"
RUNS="${1:-6}"
N="${2:-10000}"
INDEX="${INDEX:-1}"
WORK="$(mktemp -d /tmp/promptd-store-start.XXXXXX)"
chmod 755 "$WORK" # PostgreSQL runs as postgres when this runs as root
export PROMPTD_CLUSTER_DIR="$WORK/state" PROMPTD_CLUSTER_PORT=$((33000 + RANDOM % 1000))
export PROMPTD_CLUSTER_PG_PORT=$((34000 + RANDOM % 1000)) PROMPTD_CLUSTER_BASE_PORT=$((35000 + RANDOM % 1000))
export PROMPTD_CLUSTER_REPLICAS=1
pid=""
cleanup() {
  [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  "$ROOT/bin/cluster" down >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

bash "$SHARED/bench/gen-library.sh" 2 "$WORK/lib" >/dev/null
bash "$SHARED/bench/gen-library.sh" "$N" "$WORK/libN" >/dev/null
"$ROOT/bin/cluster" up "$WORK/lib" >/dev/null 2>&1
"$ROOT/bin/cluster" down >/dev/null 2>&1
"$ROOT/bin/cluster" db start >/dev/null 2>&1
STORE="postgresql://promptd:$(cat "$WORK/state/db.password")@127.0.0.1:$PROMPTD_CLUSTER_PG_PORT/promptd"
PROMPTD_STORE="$STORE" "$ROOT/promptd" publish "$WORK/libN" >/dev/null
first="$(printf 'p%05d' 1)"
meta='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
# One untimed start first: the launcher trains its start-up cache on first use, and the files get into the page cache.
p=$(free_port)
PROMPTD_STORE="$STORE" "$ROOT/promptd" serve --http "$p" 2>/dev/null & pid=$!
for _ in $(seq 1 1500); do
  curl -fs -o /dev/null "http://127.0.0.1:$p/readyz" 2>/dev/null && break
  sleep 0.1
done
kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
starts=()
for _ in $(seq 1 "$RUNS"); do
  p=$(free_port)
  if [ "$INDEX" = 0 ]; then
    PGPASSWORD="$(cat "$WORK/state/db.password")" psql -h 127.0.0.1 -p "$PROMPTD_CLUSTER_PG_PORT" -U promptd \
      -d promptd -q -v ON_ERROR_STOP=1 -c 'DELETE FROM library_index' >/dev/null
  fi
  t0=$(date +%s%N)
  PROMPTD_STORE="$STORE" "$ROOT/promptd" serve --http "$p" 2>/dev/null & pid=$!
  for _ in $(seq 1 1500); do
    if curl -s -m 2 "http://127.0.0.1:$p/mcp" -H 'Content-Type: application/json' \
        -H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2026-07-28' \
        -H 'Mcp-Method: prompts/list' \
        -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\",\"params\":{$meta}}" 2>/dev/null \
        | grep -q "\"$first\""; then break; fi
    sleep 0.02
  done
  starts+=("$(( ($(date +%s%N) - t0) / 1000000 ))")
  kill "$pid"; wait "$pid" 2>/dev/null || true; pid=""
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ "$INDEX" != 0 ]; then
  echo "stored index: $(PGPASSWORD="$(cat "$WORK/state/db.password")" psql -h 127.0.0.1 -p "$PROMPTD_CLUSTER_PG_PORT" \
    -U promptd -d promptd -At -c "SELECT 'library version ' || library_version || ', ' || length(data) || ' bytes'
    FROM library_index")"
fi
echo "$N prompts, stored index $([ "$INDEX" = 0 ] && echo deleted before each start || echo used), start -> first prompts/list page (ms): ${starts[*]}"
