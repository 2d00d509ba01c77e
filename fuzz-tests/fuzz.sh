#!/usr/bin/env bash
# The long fuzzing run (not part of the build; the build replays the kept corpus): each Jazzer target in turn, in
# fuzzing mode, for its share of the time. Prints one line per target (executions, seconds, findings) and a total.
#   fuzz-tests/fuzz.sh [SCALE]    # SCALE multiplies every target's minutes (default 1: about 27 minutes in all)
# The build's 120 s JUnit timeout is turned off for these runs (it would interrupt a target mid-run, and Jazzer would
# report the InterruptedException as a finding). MAVEN_ARGS is passed to Maven (e.g. "-o -Dmaven.repo.local=..."). New coverage-increasing inputs go to
# fuzz-tests/.cifuzz-corpus (not kept); a finding makes its target fail and leaves the crashing input under
# src/test/resources/<package>/<Class>Inputs/<method>/, where it becomes part of the regression corpus once fixed.
set -uo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
SCALE="${1:-1}"
. "$ROOT/bin/jdk.sh"
promptd_require_jdk || exit 3
export JAVA_HOME="$PROMPTD_JDK"
TARGETS=(
  "JsonFuzzTest#jsonReader 4" "JsonFuzzTest#messageDecoder 3" "TranscriptFuzzTest#stdioTranscript 3"
  "PromptFileFuzzTest#promptFile 3" "PromptFileFuzzTest#otherFormats 3" "PromptFileFuzzTest#uriTemplate 2"
  "StateFuzzTest#cursor 2"
  "StateFuzzTest#requestState 2" "StateFuzzTest#formAnswer 2" "SessionTokenFuzzTest#sessionId 2"
)
(cd "$ROOT" && ./mvnw -B -ntp -q ${MAVEN_ARGS:-} install -DskipTests -pl fuzz-tests -am) || exit 1
total=0
failed=0
for t in "${TARGETS[@]}"; do
  read -r target minutes <<<"$t"
  seconds=$(awk -v m="$minutes" -v s="$SCALE" 'BEGIN {printf "%d", m * s * 60}')
  log="$(mktemp)"
  (cd "$ROOT" && JAZZER_FUZZ=1 ./mvnw -B -ntp ${MAVEN_ARGS:-} test -pl fuzz-tests -Dtest="$target" \
    -Djazzer.max_duration="${seconds}s" -Djunit.jupiter.execution.timeout.mode=disabled \
    -Dsurefire.failIfNoSpecifiedTests=false) >"$log" 2>&1
  status=$?
  runs=$(grep -E '^Done [0-9]+ runs' "$log" | tail -1 | awk '{print $2}')
  cov=$(grep -E 'DONE' "$log" | tail -1 | grep -oE 'cov: [0-9]+ ft: [0-9]+ corp: [0-9]+' || true)
  findings=$(grep -c 'FuzzTestFinding' "$log" || true)
  echo "$target: ${runs:-0} executions in ${seconds} s, ${cov:-no coverage line}, exit $status, finding lines $findings (load $(cut -d' ' -f1 /proc/loadavg))"
  [ "$status" -ne 0 ] && { failed=1; tail -40 "$log"; }
  total=$((total + ${runs:-0}))
  rm -f "$log"
done
echo "total: $total executions"
exit $failed
