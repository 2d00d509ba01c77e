#!/usr/bin/env bash
# promptd's start from npm against the release archive's: spawn -> first answer (the `initialize` response over stdio,
# the shared referee's `LoadGen coldstart`, legacy era) for
#   archive    the archive's bin/promptd (unpacked here),
#   installed  node_modules/.bin/promptd of the two npm tarballs installed into a folder here (npm install FILE FILE),
#   npx        `npx promptd serve DIR` from a local registry (Verdaccio from interop/tools, no uplinks; both packages
#              published by bin/publish-npm) with a warm npm cache: one untimed npx run first, so every timed run is
#              the second or a later one, as a user's every start after the first,
# ROUNDS rounds of RUNS spawns each, the three alternating within each round. Each runs with a PATH of node, npm, npx
# and sh only (no java), no JAVA_HOME and no NODE_EXTRA_CA_CERTS (Node reads that bundle on every start: ~100 ms on
# the project's machines, which set it; a final line measures the installed bin with it, when it is set). Prints each
# round's medians with the installed bin and npx as ratios to the archive of the same round, then the medians of the
# round medians.
#   benchmarks/npm-start.sh [RELEASE_DIR] [ROUNDS] [RUNS]   # default: target/release (bin/release runs when it has no npm/), 5, 10
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
SHARED="$(cd "$ROOT/../shared" && pwd)"
. "$ROOT/bin/jdk.sh"
promptd_require_jdk || exit 3
JAVA="$PROMPTD_JDK/bin/java"
RELEASE_DIR="${1:-$ROOT/target/release}"
ROUNDS="${2:-5}"
RUNS="${3:-10}"
if ! ls "$RELEASE_DIR"/npm/promptd-[0-9]*.tgz >/dev/null 2>&1; then "$ROOT/bin/release" "$RELEASE_DIR" >/dev/null; fi
RELEASE_DIR="$(cd "$RELEASE_DIR" && pwd)"
ARCHIVE="$(ls "$RELEASE_DIR"/promptd-*-linux-*.tar.gz | head -1)"
MAIN="$(ls "$RELEASE_DIR"/npm/promptd-[0-9]*.tgz | head -1)"
RUNTIME="$(ls "$RELEASE_DIR"/npm/promptd-runtime-linux-*.tgz | head -1)"
VERDACCIO="$ROOT/interop/tools/node_modules/verdaccio/bin/verdaccio"
[ -f "$VERDACCIO" ] || { echo "npm-start: no Verdaccio: npm ci --prefix interop/tools" >&2; exit 3; }
LOADGEN="$SHARED/bench/loadgen/LoadGen.java"
LIB="$ROOT/examples/prompts"
WORK="$(mktemp -d /tmp/promptd-npm-start.XXXXXX)"
VPID=""
cleanup() { if [ -n "$VPID" ]; then kill "$VPID" 2>/dev/null || true; wait "$VPID" 2>/dev/null || true; fi; rm -rf "$WORK"; }
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }

mkdir -p "$WORK/tools" "$WORK/app" "$WORK/home"
for tool in node npm npx sh; do ln -s "$(command -v "$tool")" "$WORK/tools/$tool"; done
ENV="env -u JAVA_HOME -u NODE_EXTRA_CA_CERTS HOME=$WORK/home PATH=$WORK/tools npm_config_update_notifier=false"

# archive
tar xzf "$ARCHIVE" -C "$WORK"
ARCHIVE_BIN="$(ls -d "$WORK"/promptd-*/)bin/promptd"
# installed
(cd "$WORK/app" && $ENV npm_config_cache="$WORK/install-cache" npm install --no-audit --no-fund --offline \
  "$MAIN" "$RUNTIME" >"$WORK/install.log" 2>&1) || { cat "$WORK/install.log" >&2; exit 1; }
INSTALLED_BIN="$WORK/app/node_modules/.bin/promptd"
# npx: a registry, both packages published, one untimed run that fills the npm cache
PORT="$(free_port)"
mkdir -p "$WORK/registry"
cat >"$WORK/registry/config.yaml" <<EOF
storage: $WORK/registry/storage
auth:
  htpasswd:
    file: $WORK/registry/htpasswd
    max_users: 10
uplinks: {}
packages:
  '@*/*':
    access: \$all
    publish: \$authenticated
  '**':
    access: \$all
    publish: \$authenticated
max_body_size: 200mb
web:
  enable: false
middlewares:
  audit:
    enabled: false
log: { type: stdout, format: pretty, level: warn }
EOF
node "$VERDACCIO" --config "$WORK/registry/config.yaml" --listen "127.0.0.1:$PORT" >"$WORK/registry/log" 2>&1 &
VPID=$!
URL="http://127.0.0.1:$PORT/"
for _ in $(seq 120); do curl -sf "${URL}-/ping" >/dev/null 2>&1 && break; sleep 0.5; done
TOKEN="$(curl -sf -X PUT -H 'Content-Type: application/json' -d '{"name":"bench","password":"bench-pass-1"}' \
  "${URL}-/user/org.couchdb.user:bench" | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')"
printf 'registry=%s\n//127.0.0.1:%s/:_authToken=%s\n' "$URL" "$PORT" "$TOKEN" >"$WORK/npmrc"
npm_config_userconfig="$WORK/npmrc" npm_config_cache="$WORK/publish-cache" npm_config_update_notifier=false \
  "$ROOT/bin/publish-npm" "$RELEASE_DIR/npm" --registry "$URL" --tag latest >/dev/null 2>&1
NPX="$ENV npm_config_registry=$URL npm_config_cache=$WORK/npx-cache npm_config_userconfig=$WORK/npmrc $WORK/tools/npx"
mkdir -p "$WORK/cwd"
(cd "$WORK/cwd" && $NPX -y promptd --version >/dev/null 2>&1)

median_of() { # the median ms of a LoadGen coldstart over RUNS spawns of "$1"
  (cd "$WORK/cwd" && "$JAVA" "$LOADGEN" coldstart --cmd "$1" --era legacy --runs "$RUNS" 2>/dev/null) \
    | sed -n 's/^RESULT .* ms_median=\([0-9.]*\) .*/\1/p' | tail -1
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
median() { printf '%s\n' "$@" | sort -n | awk '{ v[NR] = $1 } END { if (NR % 2) print v[(NR + 1) / 2]; else printf "%.1f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

# Untimed first starts of the three.
$ENV "$ARCHIVE_BIN" --version >/dev/null 2>&1
$ENV "$INSTALLED_BIN" --version >/dev/null 2>&1
echo "archive: $ARCHIVE"
echo "npm: $MAIN, $RUNTIME; registry $URL"
echo "node $(node --version), npm $(npm --version); $ROUNDS rounds of $RUNS spawns, stdio initialize"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
A=() I=() N=()
for round in $(seq 1 "$ROUNDS"); do
  a="$(median_of "$ENV $ARCHIVE_BIN serve $LIB")"
  i="$(median_of "$ENV $INSTALLED_BIN serve $LIB")"
  n="$(median_of "$NPX promptd serve $LIB")"
  A+=("$a") I+=("$i") N+=("$n")
  echo "round $round: archive $a ms, installed bin $i ms ($(ratio "$i" "$a")x), npx $n ms ($(ratio "$n" "$a")x)"
done
a="$(median "${A[@]}")" i="$(median "${I[@]}")" n="$(median "${N[@]}")"
echo "medians of the round medians: archive $a ms, installed bin $i ms ($(ratio "$i" "$a")x, +$(awk -v x="$i" -v y="$a" 'BEGIN { printf "%.0f", x - y }') ms), npx $n ms ($(ratio "$n" "$a")x, +$(awk -v x="$n" -v y="$a" 'BEGIN { printf "%.0f", x - y }') ms)"
if [ -n "${NODE_EXTRA_CA_CERTS:-}" ]; then
  e="$(median_of "${ENV/ -u NODE_EXTRA_CA_CERTS/} $INSTALLED_BIN serve $LIB")"
  echo "installed bin with NODE_EXTRA_CA_CERTS=$NODE_EXTRA_CA_CERTS kept (as this machine sets it): $e ms"
fi
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
