#!/usr/bin/env bash
# Soak: a real `promptd serve --http` (the checkout's launcher) over a copy of examples/prompts, driven on loopback by
# CLIENTS concurrent HTTP clients for SECONDS: legacy sessions with GET streams, 2026-07-28 subscriptions/listen
# streams, request loops beside both (prompts/list, prompts/get with arguments, completion/complete), and a few slow
# consumers that never read; a prompt file changes every second. Checks: no failed request, every reading client
# hears list_changed after every edit, server RSS and open descriptors flat (<= +10 %) from warm-up to the end.
# Prints a summary ending in "soak: passed" or "soak: failed (...)" and exits non-zero on failure.
#
#   benchmarks/soak.sh [SECONDS [CLIENTS]]     # default 600 s, 1,000 clients
#   SOAK_ARGS="--think-ms 500 --slow 10" benchmarks/soak.sh 60 200   # extra driver options (see Soak.java)
# The benchmarks jar is built when missing (MAVEN_ARGS is passed to Maven, e.g. "-o -Dmaven.repo.local=...").
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
SECONDS_TO_RUN="${1:-600}"
CLIENTS="${2:-1000}"
. "$ROOT/bin/jdk.sh"
promptd_require_jdk || exit 3
export JAVA_HOME="$PROMPTD_JDK"
JAVA="$JAVA_HOME/bin/java"

# Each reading client holds two connections (its stream and its requests), on both ends of loopback: raise the
# descriptor limit of this shell, which the server and the driver inherit.
want=$((CLIENTS * 4 + 1024))
hard="$(ulimit -Hn)"
if [ "$hard" != unlimited ] && [ "$hard" -lt "$want" ]; then
  echo "soak: the hard limit on open files ($hard) is below the $want this run needs" >&2
  exit 2
fi
[ "$(ulimit -Sn)" != unlimited ] && [ "$(ulimit -Sn)" -lt "$want" ] && ulimit -Sn "$want"

BENCH="$ROOT/benchmarks/target"
if [ ! -f "$BENCH/benchmarks.jar" ] || [ ! -d "$BENCH/lib" ] \
    || [ -n "$(find "$ROOT/benchmarks/src" -newer "$BENCH/benchmarks.jar" -type f -print -quit)" ]; then
  echo "soak: building the benchmarks module" >&2
  (cd "$ROOT" && ./mvnw -q -B -ntp ${MAVEN_ARGS:-} -DskipTests -pl benchmarks -am install) >&2
fi

WORK="$(mktemp -d "${TMPDIR:-/tmp}/promptd-soak.XXXXXX")"
cp -r "$ROOT/examples/prompts" "$WORK/prompts"
server=""
cleanup() {
  if [ -n "$server" ] && kill -0 "$server" 2>/dev/null; then
    kill "$server" 2>/dev/null || true
    wait "$server" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT

# The launcher execs the JVM: $! is the server's own PID (what /proc is sampled for).
# All clients share 127.0.0.1, which is the key of the 2026-07-28 completion rate limit without auth: off here.
# Every client comes from this machine's address: one caller, whose legacy sessions (each with a GET stream, so
# never idle) would pass the default per-caller quota of 200, whose streams (a GET stream or a listen stream per
# client) the default 32 per client, and whose connections (up to three per client) the default 256 per address.
"$ROOT/promptd" serve --http 0 --completion-rate 0 --max-sessions-per-caller "$CLIENTS" \
  --max-streams-per-client "$CLIENTS" --max-connections-per-address "$((CLIENTS * 3))" "$WORK/prompts" \
  2>"$WORK/server.log" &
server=$!
url=""
for _ in $(seq 600); do
  url="$(grep -o 'serving .* on http://[^ ]*' "$WORK/server.log" 2>/dev/null | grep -o 'http://[^ ]*' | head -1 || true)"
  [ -n "$url" ] && break
  kill -0 "$server" 2>/dev/null || { echo "soak: the server exited:" >&2; cat "$WORK/server.log" >&2; exit 1; }
  sleep 0.2
done
[ -n "$url" ] || { echo "soak: the server did not start in 120 s" >&2; cat "$WORK/server.log" >&2; exit 1; }
echo "soak: promptd (PID $server) at $url, $CLIENTS clients for $SECONDS_TO_RUN s, open-file limit $(ulimit -Sn)" >&2

status=0
# shellcheck disable=SC2086
"$JAVA" -XX:+UseParallelGC -Xmx1g -cp "$BENCH/benchmarks.jar:$BENCH/lib/*" io.promptd.bench.Soak \
  --url "$url" --pid "$server" --dir "$WORK/prompts" --seconds "$SECONDS_TO_RUN" --clients "$CLIENTS" \
  ${SOAK_ARGS:-} || status=$?
if ! kill -0 "$server" 2>/dev/null; then
  echo "soak: failed (the server died during the run)"; status=1
fi
if grep -q -E 'Exception|ERROR' "$WORK/server.log"; then
  echo "soak: the server logged errors:" >&2
  grep -E -m 20 'Exception|ERROR' "$WORK/server.log" >&2
fi
exit "$status"
