#!/usr/bin/env bash
# Resident memory of `serve --http` while N clients read one 15 MB skill file at once (resources/read of a
# skill:// resource, modern stateless requests), and after: the peak RSS during the reads and the RSS 5 s after the
# last one (from /proc/PID/status, VmHWM and VmRSS), with the heap's maximum the launcher chose.
#   benchmarks/large-read-rss.sh [N...]   # default: 16 48
# PROMPTD_MAX_HEAP and PROMPTD_JAVA_OPTS reach the server as they reach ./promptd.
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
[ "$#" -gt 0 ] || set -- 16 48
WORK="$(mktemp -d /tmp/promptd-large-read.XXXXXX)"
PID=
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
mkdir -p "$WORK/lib/big/assets"
printf -- '---\nname: big\ndescription: A skill with a large file.\n---\nSee assets/data.bin.\n' >"$WORK/lib/big/SKILL.md"
head -c 15000000 /dev/urandom >"$WORK/lib/big/assets/data.bin"
"$ROOT/promptd" --version >/dev/null # builds on first use
BODY='{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"skill://big/assets/data.bin","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"1"}}}}'
for n in "$@"; do
  PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
  "$ROOT/promptd" serve --http "$PORT" "$WORK/lib" 2>"$WORK/server.log" &
  PID=$!
  for _ in $(seq 1 600); do
    curl -fsS -o /dev/null "http://127.0.0.1:$PORT/readyz" 2>/dev/null && break
    sleep 0.1
  done
  JAVA_PID="$PID"
  heap="$(jcmd "$JAVA_PID" VM.flags 2>/dev/null | tr ' ' '\n' | sed -n 's/^-XX:MaxHeapSize=//p')"
  start_rss="$(awk '/^VmRSS/{print $2}' "/proc/$JAVA_PID/status")"
  for i in $(seq 1 "$n"); do
    curl -sS -o "$WORK/answer.$i" -w '%{http_code}\n' "http://127.0.0.1:$PORT/mcp" \
      -H 'Content-Type: application/json' -H 'Accept: application/json, text/event-stream' \
      -H 'MCP-Protocol-Version: 2026-07-28' -H 'Mcp-Method: resources/read' \
      -H 'Mcp-Name: skill://big/assets/data.bin' --data "$BODY" >"$WORK/status.$i" &
  done
  wait $(jobs -p | grep -v "^$PID\$") 2>/dev/null || true
  ok="$(cat "$WORK"/status.* | grep -c '^200$' || true)"
  full="$(for f in "$WORK"/answer.*; do [ "$(stat -c %s "$f")" -gt 20000000 ] && echo x; done | wc -l)"
  busy="$(grep -l 'busy' "$WORK"/answer.* 2>/dev/null | wc -l)"
  peak="$(awk '/^VmHWM/{print $2}' "/proc/$JAVA_PID/status")"
  sleep 5
  after="$(awk '/^VmRSS/{print $2}' "/proc/$JAVA_PID/status")"
  printf '%s parallel reads: HTTP 200 %s, whole answers %s, busy %s; heap max %s MiB; RSS start %s MiB, peak %s MiB, 5 s after %s MiB\n' \
    "$n" "$ok" "$full" "$busy" "$(( ${heap:-0} / 1048576 ))" "$((start_rss / 1024))" "$((peak / 1024))" "$((after / 1024))"
  kill "$PID"; wait "$PID" 2>/dev/null || true; PID=
  rm -f "$WORK"/answer.* "$WORK"/status.*
done
