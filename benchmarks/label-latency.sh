#!/usr/bin/env bash
# Label move -> list_changed through 3 replicas (issue 27), not a test: starts the bin/cluster topology in a temporary
# folder with every replica serving `--label bench` (PROMPTD_CLUSTER_LABEL), holds a subscriptions/listen stream on
# each replica directly and one through HAProxy, and moves `bench` on a probe prompt MOVES times (PublishLatency
# --label). Usage: benchmarks/label-latency.sh   (MOVES=50 by default; about a minute)
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
SHARED="${SHARED:-$ROOT/../shared}"
MOVES="${MOVES:-50}"
. "$ROOT/bin/jdk.sh"
promptd_require_jdk || exit 3
J="$PROMPTD_JDK/bin/java"
export JAVA_HOME="$PROMPTD_JDK"
WORK="$(mktemp -d /tmp/promptd-label-bench.XXXXXX)"
chmod 711 "$WORK"
export PROMPTD_CLUSTER_DIR="$WORK/state" PROMPTD_CLUSTER_PORT=$((30000 + RANDOM % 1000))
export PROMPTD_CLUSTER_PG_PORT=$((31000 + RANDOM % 1000)) PROMPTD_CLUSTER_BASE_PORT=$((32000 + RANDOM % 1000))
export PROMPTD_CLUSTER_LABEL=bench PROMPTD_CLUSTER_CATALOG=0
cleanup() {
  "$ROOT/bin/cluster" down >/dev/null 2>&1 || true
  rm -rf "$WORK"
}
trap cleanup EXIT

bash "$SHARED/bench/gen-library.sh" 2 "$WORK/lib" >/dev/null
(cd "$ROOT" && ./mvnw -B -ntp -q ${MAVEN_ARGS:-} install -DskipTests -pl benchmarks -am >&2)
BENCH_CP="$ROOT/benchmarks/target/benchmarks.jar:$ROOT/benchmarks/target/lib/*"
"$ROOT/bin/cluster" up "$WORK/lib" >/dev/null
STORE="postgresql://promptd:$(cat "$WORK/state/db.password")@127.0.0.1:$PROMPTD_CLUSTER_PG_PORT/promptd"
echo "load average at start: $(cut -d' ' -f1-3 /proc/loadavg)"
urls=()
for i in 1 2 3; do urls+=("http://127.0.0.1:$((PROMPTD_CLUSTER_BASE_PORT + i))/mcp"); done
"$J" -cp "$BENCH_CP" io.promptd.bench.PublishLatency --label bench "$STORE" "$WORK/lib" "$MOVES" "${urls[@]}" \
  "http://127.0.0.1:$PROMPTD_CLUSTER_PORT/mcp" 2>"$WORK/latency.err" | grep '^label move' \
  || { echo "failed: $(tail -3 "$WORK/latency.err")"; exit 1; }
echo "load average at end: $(cut -d' ' -f1-3 /proc/loadavg)"
