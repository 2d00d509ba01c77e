#!/usr/bin/env bash
# Runs the official MCP conformance suite (@modelcontextprotocol/conformance, pinned in ../shared/conformance)
# against promptd's Streamable HTTP transport serving the conformance fixtures.
#
# This is the transport's own check: a Java fixture server (ConformanceFixtures) with no prompt library, so a
# failure here is the HTTP transport's or the core's, never a prompt or resource file's. The product check — the
# same scenarios against `promptd serve --http fixtures/conformance`, which CI runs through bin/test — is
# bin/conformance at the repository root.
#
# Usage: mcp-http/conformance.sh [scenario...]     (default: the 17 scenarios issue 4 requires)
# Environment:
#   CONFORMANCE_HOME  the harness (default: <repo>/../shared/conformance); when its node_modules is missing
#                     it is copied to mcp-http/target/conformance-harness and installed there with `npm ci`
#   JAVA_HOME         a JDK 21+ (default: /usr/lib/jvm/temurin-25-jdk-amd64 when present)
# Prints one PASS/FAIL line per scenario and the pass counts; exits non-zero when any scenario fails.
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd -P)"
ROOT="$(dirname "$HERE")"
TARGET="$HERE/target"
HARNESS="${CONFORMANCE_HOME:-$ROOT/../shared/conformance}"
if [[ -z "${JAVA_HOME:-}" && -d /usr/lib/jvm/temurin-25-jdk-amd64 ]]; then
  export JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64
fi
SCENARIOS=("$@")
if [[ ${#SCENARIOS[@]} -eq 0 ]]; then
  SCENARIOS=(server-initialize ping logging-set-level completion-complete prompts-list prompts-get-simple
    prompts-get-with-args prompts-get-embedded-resource prompts-get-with-image dns-rebinding-protection
    server-sse-multiple-streams resources-list resources-read-text resources-read-binary resources-templates-read
    resources-subscribe resources-unsubscribe)
fi

mkdir -p "$TARGET"
if [[ ! -f "$HARNESS/node_modules/@modelcontextprotocol/conformance/dist/index.js" ]]; then
  COPY="$TARGET/conformance-harness"
  if [[ ! -f "$COPY/node_modules/@modelcontextprotocol/conformance/dist/index.js" ]]; then
    echo "installing the conformance harness into $COPY" >&2
    rm -rf "$COPY" && mkdir -p "$COPY"
    cp -r "$HARNESS/bin" "$HARNESS/lib" "$HARNESS/package.json" "$HARNESS/package-lock.json" "$COPY/"
    (cd "$COPY" && npm ci --no-audit --no-fund >"$TARGET/npm-ci.log" 2>&1)
  fi
  HARNESS="$COPY"
fi

echo "building mcp-http" >&2
(cd "$ROOT" && ./mvnw -q -pl mcp-http -am test-compile dependency:build-classpath \
  -Dmdep.outputFile=target/test-classpath.txt -Dmdep.includeScope=test) >&2
CP="$HERE/target/test-classes:$HERE/target/classes:$ROOT/mcp-core/target/classes:$(cat "$HERE/target/test-classpath.txt")"

"$JAVA_HOME/bin/java" -cp "$CP" io.promptd.mcp.http.ConformanceServer 0 \
  >"$TARGET/conformance-server.out" 2>"$TARGET/conformance-server.log" &
SERVER_PID=$!
trap 'kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true' EXIT
URL=""
for _ in $(seq 1 100); do
  URL="$(sed -n 's/^listening //p' "$TARGET/conformance-server.out")"
  [[ -n "$URL" ]] && break
  kill -0 "$SERVER_PID" 2>/dev/null || { echo "fixture server died:" >&2; cat "$TARGET/conformance-server.log" >&2; exit 2; }
  sleep 0.1
done
[[ -n "$URL" ]] || { echo "fixture server did not start" >&2; exit 2; }

CONFORMANCE_RESULTS_DIR="$TARGET/conformance-results" "$HARNESS/bin/conformance-server.sh" "$URL" "${SCENARIOS[@]}"
