#!/usr/bin/env bash
# Memory per idle event stream: a promptd HTTP server holds COUNT idle streams, one connection each
# (io.promptd.bench.IdleStreams), and the growth of its resident set (VmRSS) and of its heap after a full GC (jcmd
# GC.run, then GC.heap_info: every generation's "used") over the server with none is divided by COUNT.
# MODE=modern (default): 2026-07-28 subscriptions/listen streams. MODE=legacy: legacy sessions (initialize at
# 2025-11-25, notifications/initialized, the session's GET stream).
# EVENTS=N: then N edits of a prompt's description in a copy of the example library, 0.3 s apart, each a
# list_changed on every stream that a legacy session's log keeps (256 at most), and the memory measured again.
# The server is started by the launcher, with the JVM options and start-up cache a user's `promptd serve` gets (until
# 2026-11-29 it was a bare `java` with the JVM's defaults, whose collector left the RSS figure 29-43 KiB for one build).
#   [MODE=legacy] [EVENTS=N] benchmarks/idle-streams.sh [COUNT [SERVE OPTIONS...]]      # COUNT default 2000
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/.." && pwd)"
cd "$ROOT"
. bin/jdk.sh
promptd_require_jdk || exit 3
J="$PROMPTD_JDK/bin"
export JAVA_HOME="$PROMPTD_JDK"
count="${1:-2000}"
shift || true
mode="${MODE:-modern}"
events="${EVENTS:-0}"
case "$mode" in modern|legacy) ;; *) echo "MODE is modern or legacy, not $mode" >&2; exit 2 ;; esac
library="$(mktemp -d)"
cp -r examples/prompts/. "$library"
./mvnw -B -ntp -q install -DskipTests -pl benchmarks -am >&2
cp="benchmarks/target/benchmarks.jar:benchmarks/target/lib/*"
port=$(( 20000 + RANDOM % 20000 ))
./promptd serve --http "$port" \
  --max-streams-per-client $(( count + 10 )) --max-connections-per-address $(( count + 10 )) \
  --max-sessions-per-caller $(( count + 10 )) "$@" "$library" 2>/dev/null &
server=$!
trap 'kill $server 2>/dev/null || true; rm -rf "$library"' EXIT
for _ in $(seq 1 1200); do # up to a minute: the launcher trains its start-up cache after a build
  curl -s -o /dev/null "http://127.0.0.1:$port/mcp" && break
  sleep 0.05
done
measure() {
  "$J/jcmd" "$server" GC.run >/dev/null
  sleep 2
  rss=$(awk '/^VmRSS/ {print $2}' "/proc/$server/status")
  heap=$("$J/jcmd" "$server" GC.heap_info | grep -vE 'Metaspace|class space' | grep -oE 'used [0-9]+K' \
    | grep -oE '[0-9]+' | awk '{s += $1} END {print s}')
  echo "$rss $heap"
}
# Warm: one stream opened and let go, so the first stream's one-off costs (classes, pools) are in the baseline.
echo | "$J/java" -cp "$cp" io.promptd.bench.IdleStreams 127.0.0.1 "$port" 1 "$mode" >/dev/null
read -r rss0 heap0 <<< "$(measure)"
fifo="$(mktemp -u)"
mkfifo "$fifo"
"$J/java" -Xss256k -cp "$cp" io.promptd.bench.IdleStreams 127.0.0.1 "$port" "$count" "$mode" < "$fifo" > "$fifo.out" &
client=$!
exec 3> "$fifo"
for _ in $(seq 1 1200); do
  grep -q '^open' "$fifo.out" 2>/dev/null && break
  kill -0 "$client" 2>/dev/null || { cat "$fifo.out"; exit 1; }
  sleep 0.1
done
read -r rss1 heap1 <<< "$(measure)"
if [ "$events" -gt 0 ]; then
  for i in $(seq 1 "$events"); do
    sed -i "s/^description: .*/description: Explain what a piece of code does, edit $i./" "$library/explain.prompt.md"
    sleep 0.3
  done
  sleep 2
  read -r rss2 heap2 <<< "$(measure)"
fi
exec 3>&-
wait "$client" || true
sent=$(sed -n 's/^events //p' "$fifo.out")
rm -f "$fifo" "$fifo.out"
echo "idle $mode streams: $count; load average $(cut -d' ' -f1 /proc/loadavg)"
echo "server RSS: $(( rss0 / 1024 )) MiB with none, $(( rss1 / 1024 )) MiB with $count"
echo "server heap after GC: $(( heap0 / 1024 )) MiB with none, $(( heap1 / 1024 )) MiB with $count"
echo "RSS per idle stream: $(( (rss1 - rss0) / count )) KiB"
echo "heap per idle stream: $(( (heap1 - heap0) / count )) KiB"
if [ "$events" -gt 0 ]; then
  echo "after $events edits ($sent events on the first stream):"
  echo "  server RSS: $(( rss2 / 1024 )) MiB; heap after GC: $(( heap2 / 1024 )) MiB"
  echo "  RSS per idle stream: $(( (rss2 - rss0) / count )) KiB"
  echo "  heap per idle stream: $(( (heap2 - heap0) / count )) KiB"
fi
