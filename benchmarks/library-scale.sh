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
out="$(mktemp)"
"$java" -cp "$cp" io.promptd.library.LibraryScaleBench "$count" "$dir" | tee "$out"
# The restart: a new JVM once the first has exited (as a restarted server's would be), loading the library with the
# index the first one wrote — the 50 files it edited afterwards are parsed again — up to the first prompts/list page.
# Its clock starts here, as the JVM-start baseline's below does (not from the process's start time as the JVM reports
# it: on Linux that is off by up to a second, see LibraryScaleBench.restart).
"$java" -cp "$cp" io.promptd.library.LibraryScaleBench restart "$dir/library-$count" "$dir/library-$count-index" \
  "$(date +%s%N)" | tee -a "$out"
# The restart's baseline: stat-all (measured above, in the first JVM) and a JVM that starts with the same class path
# and ends at once (the median of 5).
hello=()
for _ in 1 2 3 4 5; do
  t0=$(date +%s%N)
  "$java" -cp "$cp" io.promptd.library.LibraryScaleBench hello
  hello+=($(( ($(date +%s%N) - t0) / 1000000 )))
done
jvm=$(printf '%s\n' "${hello[@]}" | sort -n | sed -n 3p)
echo "jvm-start: ${jvm} ms (hello world with the same class path, median of 5: ${hello[*]})"
awk -v jvm="$jvm" '
  /^stat-all:/ { stat = $2 }
  /^restart:/ { restart = $2 }
  END { printf "ratio restart/(stat-all+jvm-start): %.2f\n", restart / (stat + jvm) }' "$out"
rm -f "$out"
