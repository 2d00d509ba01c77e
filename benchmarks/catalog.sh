#!/usr/bin/env bash
# The web catalog with a large library, in the system's headless Chromium (interop/catalog-bench.mjs): page load to
# every prompt listed (three loads), a filter keystroke to the list painted, Render to the result shown.
# The library is the referee's (../shared/bench/gen-library.sh: N fillers + 2), served with the default page size.
#   benchmarks/catalog.sh [N]   # default 10000
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
SHARED="$(cd "$ROOT/../shared" && pwd)"
N="${1:-10000}"
WORK="$(mktemp -d /tmp/promptd-catalog-bench.XXXXXX)"
PID=
cleanup() { [ -n "$PID" ] && kill "$PID" 2>/dev/null; rm -rf "$WORK"; }
trap cleanup EXIT
"$SHARED/bench/gen-library.sh" "$N" "$WORK/lib"
PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
"$ROOT/promptd" --version >/dev/null # builds on first use, untimed
"$ROOT/promptd" serve --http "$PORT" --catalog "$WORK/lib" 2>"$WORK/server.log" &
PID=$!
for _ in $(seq 1 600); do
  curl -fsS -o /dev/null "http://127.0.0.1:$PORT/readyz" 2>/dev/null && break
  sleep 0.1
done
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
(cd "$ROOT/interop" && node catalog-bench.mjs --url "http://127.0.0.1:$PORT/" --count "$((N + 2))" --prompt code_review)
