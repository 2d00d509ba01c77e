#!/usr/bin/env bash
# Cold start of the MCP Bundle against the release archive it is made from: spawn -> first answer over stdio (legacy
# `initialize`), measured by the shared referee's load generator (`LoadGen coldstart`), ROUNDS rounds of RUNS spawns
# each, the two alternating. The archive runs bin/promptd; the bundle, unpacked by `mcpb unpack`, runs the command its
# manifest gives (substituted by the mcpb library's getMcpConfigForManifest, as Claude Desktop does), with the prompt
# folder examples/prompts. Both with PATH=/usr/bin:/bin and no JAVA_HOME; each started once, untimed, first.
#   benchmarks/mcpb-coldstart.sh [OUTDIR] [ROUNDS] [RUNS]   # default: target/release (bin/release run if empty), 3, 10
set -euo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
SHARED="$(cd "$ROOT/../shared" && pwd)"
. "$ROOT/bin/jdk.sh"
promptd_require_jdk || exit 3
JAVA="$PROMPTD_JDK/bin/java"
OUT="${1:-$ROOT/target/release}"
ROUNDS="${2:-3}"
RUNS="${3:-10}"
ARCHIVE="$(ls "$OUT"/promptd-*-linux-*.tar.gz 2>/dev/null | head -1 || true)"
[ -n "$ARCHIVE" ] || ARCHIVE="$("$ROOT/bin/release" "$OUT" | tail -1)"
BUNDLE="${ARCHIVE%.tar.gz}.mcpb"
TOOLS="$ROOT/interop/tools/node_modules"
WORK="$(mktemp -d /tmp/promptd-mcpb-coldstart.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
tar xzf "$ARCHIVE" -C "$WORK"
RELEASE="$(ls -d "$WORK"/promptd-*/)bin/promptd"
"$TOOLS/.bin/mcpb" unpack "$BUNDLE" "$WORK/bundle" >/dev/null
LIB="$ROOT/examples/prompts"
BUNDLE_CMD="$(node --input-type=module -e '
  const [index, home, dir] = process.argv.slice(1);
  const { getMcpConfigForManifest } = await import(index);
  const { readFileSync } = await import("node:fs");
  const manifest = JSON.parse(readFileSync(home + "/manifest.json", "utf-8"));
  const c = await getMcpConfigForManifest({ manifest, extensionPath: home, systemDirs: {},
    userConfig: { prompt_folders: [dir] }, pathSeparator: "/" });
  console.log(JSON.stringify([c.command, ...c.args]));
' "file://$TOOLS/@anthropic-ai/mcpb/dist/index.js" "$WORK/bundle" "$LIB" \
  | python3 -c 'import json, shlex, sys; print(" ".join(shlex.quote(a) for a in json.load(sys.stdin)))')"
LOADGEN="$SHARED/bench/loadgen/LoadGen.java"
PREFIX="env -u JAVA_HOME PATH=/usr/bin:/bin"

$PREFIX "$RELEASE" --version >/dev/null
$PREFIX bash -c "$BUNDLE_CMD </dev/null" >/dev/null 2>&1
echo "archive: $ARCHIVE ($(du -m "$ARCHIVE" | cut -f1) MB); bundle: $BUNDLE ($(du -m "$BUNDLE" | cut -f1) MB)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$ROUNDS"); do
  for who in archive bundle; do
    cmd="$PREFIX $RELEASE serve $LIB"
    [ "$who" = bundle ] && cmd="$PREFIX $BUNDLE_CMD"
    line=$("$JAVA" "$LOADGEN" coldstart --cmd "$cmd" --era legacy --runs "$RUNS" 2>/dev/null \
      | grep -E '^(coldstart|FAILED)' | tail -1)
    echo "round $round $who stdio: $line"
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
