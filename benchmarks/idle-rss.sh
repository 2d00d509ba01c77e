#!/usr/bin/env bash
# Idle memory with a 10,000-prompt library: each server is started over stdio, answers initialize and one full
# prompts/list walk, then sits idle for a few seconds; the table shows its resident set (VmRSS) then, and its peak
# (VmHWM). Peers are the referee's (../shared/bench, built by its build.sh into $WORK, default /tmp/mcp-bench).
#
#   benchmarks/idle-rss.sh [N]          # N fillers (default 10000); prints a Markdown table
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
BENCH="${BENCH_HOME:-$ROOT/../shared/bench}"
WORK="${WORK:-${TMPDIR:-/tmp}/mcp-bench}"
N="${1:-10000}"
. "$ROOT/bin/jdk.sh"
promptd_require_jdk || exit 3
JAVA="$PROMPTD_JDK/bin/java"
"$BENCH/build.sh" >/dev/null
LIB="$WORK/lib/n$N"
[ -d "$LIB" ] || "$BENCH/gen-library.sh" "$N" "$LIB" >/dev/null
"$ROOT/promptd" --version >/dev/null 2>&1 # builds and trains the start-up cache first

declare -A CMD=(
  [promptd]="$ROOT/promptd serve --stdio $LIB"
  [javasdk]="$JAVA -jar $WORK/peers/javasdk/target/javasdk-prompts-server.jar stdio --prompts $N"
  [ts-v1]="node $WORK/peers/ts-v1/server.mjs stdio --prompts $N"
  [ts-v2]="node $WORK/peers/ts-v2/server.mjs stdio --prompts $N"
)
echo "| server ($N + 2 prompts, stdio) | idle RSS MiB | peak RSS MiB |"
echo "|---|---:|---:|"
for name in promptd javasdk ts-v1 ts-v2; do
  coproc SERVER { exec bash -c "exec ${CMD[$name]}" 2>/dev/null; }
  pid=$SERVER_PID
  printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"idle-rss","version":"1"}}}' >&"${SERVER[1]}"
  read -r -t 60 _ <&"${SERVER[0]}"
  printf '%s\n' '{"jsonrpc":"2.0","method":"notifications/initialized"}' >&"${SERVER[1]}"
  cursor="" id=2
  while :; do
    params="{}"
    [ -n "$cursor" ] && params="{\"cursor\":\"$cursor\"}"
    printf '{"jsonrpc":"2.0","id":%d,"method":"prompts/list","params":%s}\n' "$id" "$params" >&"${SERVER[1]}"
    read -r -t 60 line <&"${SERVER[0]}"
    cursor="$(printf '%s' "$line" | grep -o '"nextCursor":"[^"]*"' | cut -d'"' -f4 || true)"
    id=$((id + 1))
    [ -n "$cursor" ] || break
  done
  sleep 3
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$pid/status")
  hwm=$(awk '/VmHWM/ {print $2}' "/proc/$pid/status")
  printf '| %s | %.0f | %.0f |\n' "$name" "$(echo "$rss / 1024" | bc -l)" "$(echo "$hwm / 1024" | bc -l)"
  exec {SERVER[1]}>&-
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
done
