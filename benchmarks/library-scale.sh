#!/usr/bin/env bash
# Scale benchmark of the prompt library, not a test: generates COUNT prompt files (default 100,000) and reports
# load time, heap after load, one-file reload latency, prompts/list page latency, and a restart in a new JVM that
# uses the on-disk index the first run wrote (the line starting `restart:`).
#   benchmarks/library-scale.sh [COUNT [DIR]]
# With DIR, the generated library is kept in DIR/library-COUNT and reused by the next run (run twice: the second
# run measures loading files already on disk). Runs in a fresh JVM, as `promptd serve` would.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -pl prompt-library -am install -DskipTests
./mvnw -q -pl prompt-library dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
cp="prompt-library/target/test-classes:prompt-library/target/classes:$(cat prompt-library/target/bench.cp)"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
count="${1:-100000}"
dir="${2:-}"
if [ -z "$dir" ]; then
  dir="$(mktemp -d)"
  trap 'rm -rf "$dir"' EXIT
fi
"$java" -cp "$cp" io.promptd.library.LibraryScaleBench "$count" "$dir"
# The restart: a new JVM once the first has exited (as a restarted server's would be), loading the library with the
# index the first one wrote — the 50 files it edited afterwards are parsed again — up to the first prompts/list page.
"$java" -cp "$cp" io.promptd.library.LibraryScaleBench restart "$dir/library-$count" "$dir/library-$count-index"
