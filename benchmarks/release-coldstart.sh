#!/usr/bin/env bash
# Cold start of the release archive's launcher against the checkout's: spawn -> first answer, measured by the shared
# referee's load generator (`LoadGen coldstart`), over stdio (legacy `initialize`) and HTTP (`serve --http`, a POSTed
# `initialize`), ROUNDS rounds of RUNS spawns each, the two launchers alternating. Both serve examples/prompts and are
# started once, untimed, first (the checkout's launcher builds and trains its caches on first use; the archive's are
# trained at build time).
#   benchmarks/release-coldstart.sh [ARCHIVE] [ROUNDS] [RUNS]   # default: bin/release's archive (built if missing), 3, 10
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
SHARED="$(cd "$ROOT/../shared" && pwd)"
. "$ROOT/bin/jdk.sh"
promptd_require_jdk || exit 3
JAVA="$PROMPTD_JDK/bin/java"
ARCHIVE="${1:-}"
ROUNDS="${2:-3}"
RUNS="${3:-10}"
if [ -z "$ARCHIVE" ]; then
  ARCHIVE="$(ls "$ROOT"/target/release/promptd-*-linux-*.tar.gz 2>/dev/null | head -1 || true)"
  [ -n "$ARCHIVE" ] || ARCHIVE="$("$ROOT/bin/release" | tail -1)"
fi
WORK="$(mktemp -d /tmp/promptd-coldstart.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
tar xzf "$ARCHIVE" -C "$WORK"
RELEASE="$(ls -d "$WORK"/promptd-*/)bin/promptd"
CHECKOUT="$ROOT/promptd"
LIB="$ROOT/examples/prompts"
LOADGEN="$SHARED/bench/loadgen/LoadGen.java"
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

# Untimed first starts (the checkout's launcher may build here). PATH without java for the archive, as a user has.
"$CHECKOUT" --version >/dev/null
env -u JAVA_HOME PATH=/usr/bin:/bin "$RELEASE" --version >/dev/null
echo "archive: $ARCHIVE"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$ROUNDS"); do
  for who in checkout release; do
    launcher="$CHECKOUT"; prefix=""
    [ "$who" = release ] && { launcher="$RELEASE"; prefix="env -u JAVA_HOME PATH=/usr/bin:/bin "; }
    stdio=$("$JAVA" "$LOADGEN" coldstart --cmd "${prefix}$launcher serve $LIB" --era legacy --runs "$RUNS" 2>/dev/null \
      | grep -E '^(coldstart|FAILED)' | tail -1)
    port=$(free_port)
    http=$("$JAVA" "$LOADGEN" coldstart --cmd "${prefix}$launcher serve --http $port $LIB" \
      --http "http://127.0.0.1:$port/mcp" --era legacy --runs "$RUNS" 2>/dev/null | grep -E '^(coldstart|FAILED)' | tail -1)
    echo "round $round $who stdio: $stdio"
    echo "round $round $who http:  $http"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
