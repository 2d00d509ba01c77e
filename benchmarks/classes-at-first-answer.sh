#!/usr/bin/env bash
# Classes a fresh promptd JVM has loaded when it gives its first answer, by package group, over stdio and over HTTP
# (issue 28: start-up pays only for what is used). Runs the built jars without the start-up cache (-Xshare:off), so
# that every class promptd needs is counted, whether or not a cache would map it.
#   benchmarks/classes-at-first-answer.sh [EXTRA SERVE OPTIONS...]
set -euo pipefail
cd "$(dirname "$0")/.."
java="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
[ -f promptd-cli/target/promptd.jar ] || ./mvnw -q -pl promptd-cli -am install -DskipTests
cp="promptd-cli/target/promptd.jar:promptd-cli/target/lib/*"
init='{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}'
log="$(mktemp)"
trap 'rm -f "$log"' EXIT
groups() {
  echo "$1: $(grep -c ' source: ' "$log") classes"
  grep -o '\] [A-Za-z0-9_.$]* source' "$log" | awk '{print $2}' \
    | sed -E 's/\.[A-Za-z0-9_$]+$//; s/^((io\.promptd\.[a-z]+)|(org\.[a-z]+\.[a-z]+)|(com\.[a-z]+\.[a-z]+)|(io\.prometheus)|([a-z]+\.[a-z]+)).*/\1/' \
    | sort | uniq -c | sort -rn | head -25
}
echo "$init" | "$java" -Xshare:off -Xlog:class+load:file="$log" -cp "$cp" io.promptd.cli.Main serve "$@" examples/prompts \
  >/dev/null 2>&1 || true
groups "stdio (serve $* examples/prompts), at exit after the initialize answer"
port=$(( 20000 + RANDOM % 20000 ))
"$java" -Xshare:off -Xlog:class+load:file="$log" -cp "$cp" io.promptd.cli.Main serve --http "$port" "$@" examples/prompts \
  >/dev/null 2>&1 &
pid=$!
for _ in $(seq 1 200); do
  curl -s -o /dev/null -X POST "http://127.0.0.1:$port/mcp" -H 'Content-Type: application/json' \
    -H 'Accept: application/json, text/event-stream' -d "$init" && break
  sleep 0.05
done
kill "$pid"; wait "$pid" 2>/dev/null || true
groups "HTTP (serve --http $* examples/prompts), at the first answer"
