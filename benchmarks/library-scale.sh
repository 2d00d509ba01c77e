#!/usr/bin/env bash
# Scale benchmark of the prompt library, not a test: generates COUNT prompt files (default 100,000) and reports
# load time, heap after load, one-file reload latency and prompts/list page latency.
#   benchmarks/library-scale.sh [COUNT [DIR]]
# With DIR, the generated library is kept in DIR/library-COUNT and reused by the next run (run twice: the second
# run measures loading files already on disk). Runs in a fresh JVM, as `promptd serve` would.
set -euo pipefail
cd "$(dirname "$0")/.."
./mvnw -q -pl prompt-library -am install -DskipTests
./mvnw -q -pl prompt-library dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=target/bench.cp
cp="prompt-library/target/test-classes:prompt-library/target/classes:$(cat prompt-library/target/bench.cp)"
exec "${JAVA_HOME:+$JAVA_HOME/bin/}java" -cp "$cp" io.promptd.library.LibraryScaleBench "$@"
