#!/usr/bin/env bash
# Scale-out benchmark (issue 12), not a test: starts the bin/cluster topology (PostgreSQL, replicas, HAProxy round
# robin) in a temporary folder and measures, with the shared referee's load generator (../shared/bench/loadgen):
#   1. HTTP prompts/get (2026-07-28, 16 connections) through HAProxy with 3 replicas and with 1 (the other two killed),
#   2. store mode vs folder mode on one process each, direct (same library, no HAProxy, no access log),
#   3. 10,000 prompts in the store: process start -> first prompts/list page answered with them (3 runs),
#   4. commit -> list_changed on listen streams held on every replica and through HAProxy (PublishLatency).
# Usage: benchmarks/cluster.sh            (about 4 minutes; SECONDS_PER_RUN=10 ROUNDS=2 by default)
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
SHARED="${SHARED:-$ROOT/../shared}"
RUN_S="${SECONDS_PER_RUN:-10}"
ROUNDS="${ROUNDS:-2}"
. "$ROOT/bin/jdk.sh"
promptd_require_jdk || exit 3
J="$PROMPTD_JDK/bin/java"
export JAVA_HOME="$PROMPTD_JDK"
WORK="$(mktemp -d /tmp/promptd-cluster-bench.XXXXXX)"
chmod 711 "$WORK"
export PROMPTD_CLUSTER_DIR="$WORK/state" PROMPTD_CLUSTER_PORT=$((30000 + RANDOM % 1000))
export PROMPTD_CLUSTER_PG_PORT=$((31000 + RANDOM % 1000)) PROMPTD_CLUSTER_BASE_PORT=$((32000 + RANDOM % 1000))
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  "$ROOT/bin/cluster" down >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

mkdir -p "$WORK/lg"
"$PROMPTD_JDK/bin/javac" -d "$WORK/lg" "$SHARED"/bench/loadgen/*.java
bash "$SHARED/bench/gen-library.sh" 2 "$WORK/lib" >/dev/null
bash "$SHARED/bench/gen-library.sh" 10000 "$WORK/lib10k" >/dev/null
(cd "$ROOT" && ./mvnw -B -ntp -q ${MAVEN_ARGS:-} install -DskipTests -pl benchmarks -am >&2)
BENCH_CP="$ROOT/benchmarks/target/benchmarks.jar:$ROOT/benchmarks/target/lib/*"

"$ROOT/bin/cluster" up "$WORK/lib" >/dev/null
STORE="postgresql://promptd:$(cat "$WORK/state/db.password")@127.0.0.1:$PROMPTD_CLUSTER_PG_PORT/promptd"
LB="http://127.0.0.1:$PROMPTD_CLUSTER_PORT/mcp"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"

load() { # URL -> "rps p50 p99 errors"
  "$J" -cp "$WORK/lg" LoadGen http --url "$1" --era modern --connections 16 --method get --seconds "$RUN_S" \
    --warmup 3 --check content 2>&1 | grep '^RESULT' \
    | awk '{for(i=2;i<=NF;i++){split($i,kv,"="); v[kv[1]]=kv[2]} printf "%s %.2f %.2f %d\n", v["rps"], v["p50_us"] / 1000, v["p99_us"] / 1000, v["errors"] + v["wrong"] + v["timeouts"]}'
}
free_port() { "$J" -cp "$WORK/lg" LoadGen freeport; }
wait_http() { for _ in $(seq 1 600); do curl -fsS -o /dev/null "$1" 2>/dev/null && return 0; sleep 0.05; done; return 1; }

declare -A sum
add() { sum[$1]="${sum[$1]:-} $2"; }
for r in $(seq 1 "$ROUNDS"); do
  add three "$(load "$LB")"
  for i in 2 3; do kill -9 "$(cat "$WORK/state/replica-$i.pid")"; done
  sleep 3 # HAProxy's check (inter 1s, fall 2) marks them down; redispatch covers the moment before
  add one "$(load "$LB")"
  "$ROOT/bin/cluster" up "$WORK/lib" >/dev/null
  sleep 3 # HAProxy's check marks the restarted replicas up (rise 1)
done

# Store mode vs folder mode, one process each, direct.
ps=$(free_port); pf=$(free_port)
PROMPTD_STORE="$STORE" "$ROOT/promptd" serve --http "$ps" 2>/dev/null & pids+=($!)
"$ROOT/promptd" serve --http "$pf" "$WORK/lib" 2>/dev/null & pids+=($!)
wait_http "http://127.0.0.1:$ps/healthz"; wait_http "http://127.0.0.1:$pf/healthz"
for r in $(seq 1 "$ROUNDS"); do
  add store "$(load "http://127.0.0.1:$ps/mcp")"
  add folder "$(load "http://127.0.0.1:$pf/mcp")"
done

# Commit -> list_changed: a stream on every replica directly and one through HAProxy.
urls=()
for i in 1 2 3; do urls+=("http://127.0.0.1:$((PROMPTD_CLUSTER_BASE_PORT + i))/mcp"); done
latency="$("$J" -cp "$BENCH_CP" io.promptd.bench.PublishLatency "$STORE" "$WORK/lib" 50 "${urls[@]}" "$LB" \
  2>"$WORK/latency.err" | grep '^commit')" || latency="failed: $(tail -3 "$WORK/latency.err")"

# 10,000 prompts in the store: start -> first prompts/list page that names them.
PROMPTD_STORE="$STORE" "$ROOT/promptd" publish "$WORK/lib10k" >/dev/null
meta='"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}'
starts=()
for r in 1 2 3; do
  p=$(free_port)
  t0=$(date +%s%N)
  PROMPTD_STORE="$STORE" "$ROOT/promptd" serve --http "$p" 2>/dev/null & pid=$!; pids+=($pid)
  for _ in $(seq 1 3000); do
    if curl -s -m 2 "http://127.0.0.1:$p/mcp" -H 'Content-Type: application/json' \
        -H 'Accept: application/json, text/event-stream' -H 'MCP-Protocol-Version: 2026-07-28' \
        -H 'Mcp-Method: prompts/list' \
        -d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"prompts/list\",\"params\":{$meta}}" 2>/dev/null \
        | grep -q '"p00001"'; then break; fi
    sleep 0.01
  done
  starts+=("$(( ($(date +%s%N) - t0) / 1000000 ))")
  kill "$pid"; wait "$pid" 2>/dev/null || true
done

med() { tr ' ' '\n' | grep -v '^$' | sort -n | awk '{a[NR]=$1} END {print (NR ? a[int((NR+1)/2)] : "-")}'; }
col() { echo "${sum[$1]}" | awk -v c="$2" -v n=4 '{for(i=c;i<=NF;i+=n) printf "%s ", $i}' | med; }
echo
echo "| workload | rps (median of $ROUNDS) | p50 ms | p99 ms | errors + wrong + timeouts |"
echo "|---|---:|---:|---:|---:|"
for k in three one store folder; do
  case $k in three) name="prompts/get via HAProxy, 3 replicas";; one) name="prompts/get via HAProxy, 1 replica";;
    store) name="prompts/get direct, store mode";; folder) name="prompts/get direct, folder mode";; esac
  echo "| $name | $(col $k 1) | $(col $k 2) | $(col $k 3) | $(echo "${sum[$k]}" | awk '{s=0; for(i=4;i<=NF;i+=4) s+=$i; print s}') |"
done
s=$(col store 1); f=$(col folder 1)
echo
echo "store / folder rps: $(awk -v s="$s" -v f="$f" 'BEGIN {printf "%.3f", s / f}')"
echo "10,000 prompts, start -> first prompts/list page (ms): ${starts[*]}"
echo "$latency"
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
