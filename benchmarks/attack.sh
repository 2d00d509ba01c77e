#!/usr/bin/env bash
# The standing attack suite: the long rounds of the security review (issue 36), replayed against promptd on this
# machine, everything on 127.0.0.1, every round bounded in count and time.
#   load    promptd serve --http on a copy of examples/prompts: STREAMS idle subscriptions/listen streams and CLIENTS
#           busy clients of both eras (no think time) for SECONDS (or DURATION), a prompt file edited every second
#           (io.promptd.bench.Soak --idle): 0 failed requests, every stream hears list_changed after every edit
#   faults  a real PostgreSQL: a 2,000-file `promptd publish` with PostgreSQL SIGKILLed KILLS times during it (each time
#           a new content of every file), then restarted: the store holds the whole publish or none of it, never
#           part; then a label-move storm (`promptd label set` in LOOPS loops for STORM_SECONDS) with PostgreSQL
#           SIGKILLed every STORM_KILL_EVERY seconds: every move the CLI reported is recorded exactly once, in order,
#           and none it did not report
#   starts  `promptd serve --http --store` SIGKILLed STARTS times at delays spread over START_SPREAD seconds after
#           launch, then a normal start is ready and lists every prompt of the store
#   large   a 10,000-file library loads and lists completely (LARGE files); a folder holding a 2 GB prompt file
#           (sparse) beside 5 others: the big file refused with the size limit in the log, the rest served, the
#           server's peak RSS under HUGE_RSS_MIB
# Prints one line per round and `attack: N passed, M failed`; exits 1 when a round failed.
#
#   benchmarks/attack.sh                                        # every round, full size (~10 min, load alone 180 s)
#   ROUNDS="faults starts" KILLS=2 STORM_SECONDS=6 benchmarks/attack.sh
#   STREAMS=50 CLIENTS=10 SECONDS=15 KILLS=2 STARTS=3 LARGE=2000 benchmarks/attack.sh   # a short check
# Needs PostgreSQL's server binaries (/usr/lib/postgresql/*/bin; as root it runs them as the user postgres), psql,
# curl and python3 (a free port). Builds the benchmarks module (package, with what it needs) when its jar is older
# than its sources; MAVEN_ARGS is passed to Maven. WORK=DIR keeps the run's files (logs) in DIR.
# SECONDS is bash's own clock, which starts from the value the environment gave it: read it first (0 unless given).
GIVEN_SECONDS="$SECONDS"
set -uo pipefail
ROOT="$(cd "$(dirname "$(readlink -f "${BASH_SOURCE[0]}")")/.." && pwd)"
ROUNDS="${ROUNDS:-load faults starts large}"
STREAMS="${STREAMS:-1000}"
CLIENTS="${CLIENTS:-200}"
SECONDS_TO_RUN="${DURATION:-$([ "$GIVEN_SECONDS" -gt 0 ] && echo "$GIVEN_SECONDS" || echo 180)}"
KILLS="${KILLS:-5}"
FILES="${FILES:-2000}"
STORM_SECONDS="${STORM_SECONDS:-12}"
STORM_KILL_EVERY="${STORM_KILL_EVERY:-3}"
LOOPS="${LOOPS:-2}"
STARTS="${STARTS:-10}"
START_SPREAD="${START_SPREAD:-3}"
LARGE="${LARGE:-10000}"
HUGE_RSS_MIB="${HUGE_RSS_MIB:-512}"
. "$ROOT/bin/jdk.sh"
promptd_require_jdk || exit 3
export JAVA_HOME="$PROMPTD_JDK"
JAVA="$JAVA_HOME/bin/java"
PROMPTD="$ROOT/promptd"

BENCH="$ROOT/benchmarks/target"
if [ ! -f "$BENCH/benchmarks.jar" ] || [ ! -d "$BENCH/lib" ] \
    || [ -n "$(find "$ROOT/benchmarks/src" -newer "$BENCH/benchmarks.jar" -type f -print -quit)" ]; then
  echo "attack: building the benchmarks module" >&2
  # shellcheck disable=SC2086
  (cd "$ROOT" && ./mvnw -q -B -ntp ${MAVEN_ARGS:-} -DskipTests -pl benchmarks -am package) >&2 || exit 3
fi
"$PROMPTD" --version >/dev/null || exit 3 # the launcher builds the CLI on first use
CP="$BENCH/benchmarks.jar:$BENCH/lib/*"

# The busy clients, the idle streams and their connections, on both ends of loopback.
want=$(( (STREAMS + CLIENTS * 4) * 2 + 1024 ))
hard="$(ulimit -Hn)"
if [ "$hard" != unlimited ] && [ "$hard" -lt "$want" ]; then
  echo "attack: the hard limit on open files ($hard) is below the $want this run needs" >&2
  exit 2
fi
[ "$(ulimit -Sn)" != unlimited ] && [ "$(ulimit -Sn)" -lt "$want" ] && ulimit -Sn "$want"

if [ -n "${WORK:-}" ]; then mkdir -p "$WORK"; KEEP=1; else WORK="$(mktemp -d /tmp/promptd-attack.XXXXXX)"; KEEP=0; fi
chmod 755 "$WORK" # PostgreSQL runs as postgres when this runs as root
servers=()
pg_up=0
cleanup() {
  for p in "${servers[@]}"; do kill -KILL "$p" 2>/dev/null || true; done
  if [ "$pg_up" = 1 ]; then as_pg "$PGBIN/pg_ctl" -D "$PGDATA" -m immediate -w stop >/dev/null 2>&1 || true; fi
  [ "$KEEP" = 1 ] || rm -rf "$WORK"
}
trap cleanup EXIT
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
say() { echo "attack: $*" >&2; }
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
passed=0 failed=0 lines=()
result() { # ROUND passed|failed SUMMARY
  lines+=("$1: $2 ($3)")
  echo "$1: $2 ($3)"
  if [ "$2" = passed ]; then passed=$((passed + 1)); else failed=$((failed + 1)); fi
}
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }
hwm_kib() { awk '/^VmHWM/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

# gen_lib DIR COUNT MARK: COUNT prompt files p00001.prompt.md... whose description and body carry "(MARK)".
gen_lib() {
  mkdir -p "$1"
  awk -v dir="$1" -v n="$2" -v mark="$3" 'BEGIN {
    for (i = 1; i <= n; i++) {
      f = sprintf("%s/p%05d.prompt.md", dir, i)
      printf "---\ntitle: Prompt %d\ndescription: Generated prompt %d (%s)\narguments:\n", i, i, mark > f
      printf "  - name: topic\n    description: What to write about\n    required: true\n---\n" > f
      printf "Write about {{topic}}, prompt %d (%s).\n", i, mark > f
      close(f)
    }
  }'
}

# start_server LOG ARGS...: `promptd serve --http PORT ARGS...` in the background; sets srv and port.
start_server() {
  local log="$1"
  shift
  port="$(free_port)"
  "$PROMPTD" serve --http "$port" "$@" 2>"$log" &
  srv=$!
  servers+=("$srv")
}
# await_ready SECONDS: readyz 200 from the server started last, or fails.
await_ready() {
  local deadline=$(( $(date +%s) + $1 ))
  while [ "$(date +%s)" -lt "$deadline" ]; do
    kill -0 "$srv" 2>/dev/null || return 1
    [ "$(curl -s -o /dev/null -w '%{http_code}' -m 2 "http://127.0.0.1:$port/readyz")" = 200 ] && return 0
    sleep 0.2
  done
  return 1
}
stop_server() { kill "$srv" 2>/dev/null; wait "$srv" 2>/dev/null; true; }
list_walk() { "$JAVA" -cp "$CP" io.promptd.bench.ListWalk "http://127.0.0.1:$port/mcp" "$@"; }

# --- PostgreSQL, as bin/cluster runs it -------------------------------------------------------------------------
PGBIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
PGDATA="$WORK/pg"
PGRUN="$WORK/pg-run"
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
pg_start() {
  as_pg "$PGBIN/pg_ctl" -D "$PGDATA" -l "$PGRUN/postgres.log" -w -t 120 \
    -o "-p $PGPORT -k $PGRUN -c listen_addresses=127.0.0.1" start >>"$WORK/pg_ctl.log" 2>&1 && pg_up=1
}
# SIGKILL the postmaster and every process it started (the whole server at once, as a crash takes it).
pg_kill() {
  local pm children
  pm="$(head -n 1 "$PGDATA/postmaster.pid" 2>/dev/null)" || return 0
  children="$(ps -o pid= --ppid "$pm" 2>/dev/null | tr '\n' ' ')"
  # shellcheck disable=SC2086
  kill -KILL "$pm" $children 2>/dev/null || true
  for _ in $(seq 1 100); do
    kill -0 "$pm" 2>/dev/null || break
    sleep 0.1
  done
  for c in $children; do while kill -0 "$c" 2>/dev/null; do sleep 0.05; done; done
}
psql_q() { PGPASSWORD="$PGPASS" "$PGBIN/psql" -h 127.0.0.1 -p "$PGPORT" -U promptd -d promptd -At -q \
  -v ON_ERROR_STOP=1 -c "$1"; }
pg_init() {
  [ -n "$PGBIN" ] && [ -x "$PGBIN/postgres" ] || { say "no PostgreSQL in /usr/lib/postgresql/*/bin"; return 1; }
  [ "$pg_up" = 1 ] && return 0
  PGPORT="$(free_port)"
  PGPASS="$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
  mkdir -p "$PGDATA" "$PGRUN"
  if [ "$(id -u)" = 0 ]; then chown postgres "$PGDATA" "$PGRUN"; fi
  as_pg "$PGBIN/initdb" -D "$PGDATA" -U postgres --auth-local=trust --auth-host=scram-sha-256 >/dev/null || return 1
  pg_start || return 1
  as_pg "$PGBIN/psql" -h "$PGRUN" -p "$PGPORT" -U postgres -q -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE promptd LOGIN PASSWORD '$PGPASS'" -c "CREATE DATABASE promptd OWNER promptd" || return 1
  STORE="postgresql://promptd:$PGPASS@127.0.0.1:$PGPORT/promptd"
}

# --- load -----------------------------------------------------------------------------------------------------
round_load() {
  local dir="$WORK/load" log="$WORK/load-server.log" out="$WORK/load.out" url="" status=0
  cp -r "$ROOT/examples/prompts" "$dir"
  # Every stream and client comes from 127.0.0.1: one caller and one address, whose default quotas (sessions,
  # streams, connections) the run would pass. The completion rate limit, keyed by address without auth: off.
  "$PROMPTD" serve --http 0 --completion-rate 0 --max-sessions-per-caller "$CLIENTS" \
    --max-streams-per-client $((STREAMS + CLIENTS + 10)) \
    --max-connections-per-address $((STREAMS + CLIENTS * 4 + 10)) "$dir" 2>"$log" &
  srv=$!
  servers+=("$srv")
  for _ in $(seq 600); do
    url="$(grep -o 'serving .* on http://[^ ]*' "$log" 2>/dev/null | grep -o 'http://[^ ]*' | head -1 || true)"
    [ -n "$url" ] && break
    kill -0 "$srv" 2>/dev/null || break
    sleep 0.2
  done
  if [ -z "$url" ]; then
    result load failed "the server did not start: $(tail -n 3 "$log" | tr '\n' ' ')"
    return
  fi
  say "load: $STREAMS idle streams + $CLIENTS busy clients for $SECONDS_TO_RUN s at $url"
  "$JAVA" -XX:+UseParallelGC -Xmx1g -cp "$CP" io.promptd.bench.Soak --url "$url" --pid "$srv" --dir "$dir" \
    --seconds "$SECONDS_TO_RUN" --clients "$CLIENTS" --idle "$STREAMS" --think-ms 0 --no-growth-check \
    ${LOAD_ARGS:-} >"$out" 2>&1 || status=$?
  cat "$out" >&2
  kill -0 "$srv" 2>/dev/null || status=1
  stop_server
  local req lat idle rss
  req="$(grep -m1 '^requests:' "$out" | sed 's/^requests: //')"
  lat="$(grep -m1 '^latency:' "$out" | sed 's/^latency: //; s/, p99.9.*//')"
  idle="$(grep -m1 '^idle list_changed:' "$out" | sed 's/^idle list_changed: //')"
  rss="$(grep -m1 '^server RSS:' "$out" | sed 's/^server RSS: //')"
  result load "$([ "$status" = 0 ] && echo passed || echo failed)" \
    "$STREAMS idle streams + $CLIENTS clients, $SECONDS_TO_RUN s: requests $req; $lat; idle streams list_changed $idle; RSS $rss"
}

# --- faults -----------------------------------------------------------------------------------------------------
publish() { "$PROMPTD" publish "$WORK/pub" --store "$STORE" --author attack; }
# The newest version of every generated file: how many carry "(MARK)", and how many there are.
newest_with() {
  psql_q "SELECT count(*) FILTER (WHERE position('($1)' IN convert_from(content, 'UTF8')) > 0) || ' ' || count(*)
    FROM (SELECT DISTINCT ON (path) path, deleted, content FROM file_versions WHERE path LIKE 'p%'
          ORDER BY path, version DESC) f WHERE NOT deleted"
}
# Publishes whose row count differs from the files they say they changed, and the store's version against them.
torn() {
  psql_q "SELECT (SELECT count(*) FROM publishes p WHERE files_changed <>
      (SELECT count(*) FROM file_versions f WHERE f.library_version = p.library_version))
    + (SELECT count(*) FROM store s WHERE s.library_version <> (SELECT coalesce(max(library_version), 0) FROM publishes))"
}
round_faults() {
  if ! pg_init; then result faults failed "PostgreSQL did not start"; return; fi
  local problems=() t0 base i rc delay running n_with n_all whole=0 none=0 half=0 doubt=0 log
  gen_lib "$WORK/pub" "$FILES" "attempt 0"
  printf -- '---\ndescription: The label storm'"'"'s prompt, version 1\n---\nStorm 1.\n' >"$WORK/pub/storm.prompt.md"
  if ! publish >"$WORK/publish-0.out" 2>&1; then
    result faults failed "the first publish failed: $(tail -n 2 "$WORK/publish-0.out" | tr '\n' ' ')"
    return
  fi
  # The first publish also migrated the store's schema: the length of a publish is the second one's.
  gen_lib "$WORK/pub" "$FILES" "attempt 0b"
  t0=$(now_ms)
  publish >"$WORK/publish-0b.out" 2>&1 || problems+=("the second publish (no kill) failed")
  base=$(( $(now_ms) - t0 ))
  local landed=0
  say "faults: a $FILES-file publish took $base ms; $KILLS publishes with PostgreSQL SIGKILLed during each"
  for i in $(seq 1 "$KILLS"); do
    gen_lib "$WORK/pub" "$FILES" "attempt $i"
    log="$WORK/publish-$i.out"
    publish >"$log" 2>&1 &
    local pub=$!
    # Spread over the publish's length as the first one took (the kill lands in the JVM's start, the reading of
    # the folder, the transaction), at least 0.3 s in.
    delay=$(( base * i / (KILLS + 1) ))
    [ "$delay" -lt 300 ] && delay=300
    sleep "$(awk -v d="$delay" 'BEGIN { printf "%.3f", d / 1000 }')"
    running=no
    kill -0 "$pub" 2>/dev/null && running=yes && landed=$((landed + 1))
    pg_kill
    sleep 1
    pg_start || problems+=("PostgreSQL did not restart after kill $i")
    rc=0
    wait "$pub" || rc=$?
    read -r n_with n_all <<<"$(newest_with "attempt $i")"
    if [ "$n_with" = 0 ]; then none=$((none + 1)); elif [ "$n_with" = "$FILES" ]; then whole=$((whole + 1)); fi
    say "faults: kill $i at $delay ms (publish running: $running), publish exit $rc, $n_with of $n_all files new"
    if [ "$n_with" != 0 ] && [ "$n_with" != "$FILES" ]; then
      half=$((half + 1))
      problems+=("kill $i: $n_with of $FILES files of the publish in the store (half applied)")
    elif [ "$rc" = 0 ] && [ "$n_with" != "$FILES" ]; then
      problems+=("kill $i: the publish said done but its files are not in the store")
    elif [ "$rc" != 0 ] && [ "$n_with" = "$FILES" ]; then
      doubt=$((doubt + 1)) # committed as the connection died: whole, and a retry finds nothing to publish
    fi
    [ "$n_all" = "$FILES" ] || problems+=("kill $i: $n_all generated files in the store, not $FILES")
    [ "$(torn)" = 0 ] || problems+=("kill $i: a publish's rows differ from its record")
  done
  publish >"$WORK/publish-final.out" 2>&1 || problems+=("the publish after the kills failed")
  if ! publish 2>&1 | grep -q "^nothing to publish: the store already has these $((FILES + 1)) files"; then
    problems+=("after the kills the store does not hold exactly the folder")
  fi
  local pub_summary="$KILLS kills in a $FILES-file publish ($base ms unkilled; $landed while it ran): $whole whole,"
  pub_summary+=" $none none, $half half"
  [ "$doubt" -gt 0 ] && pub_summary+=" ($doubt whole though the CLI saw the connection die)"

  # The storm: two more versions of storm, then LOOPS loops each moving its own label over them.
  for v in 2 3; do
    printf -- '---\ndescription: The label storm'"'"'s prompt, version %d\n---\nStorm %d.\n' "$v" "$v" \
      >"$WORK/pub/storm.prompt.md"
    publish >/dev/null 2>&1 || problems+=("publishing version $v of storm failed")
  done
  local stop="$WORK/storm.stop" loops=() j kills=0
  rm -f "$stop"
  for j in $(seq 1 "$LOOPS"); do
    (
      k=0
      while [ ! -e "$stop" ]; do
        v=$(( k % 3 + 1 ))
        out="$("$PROMPTD" label set storm "$v" "storm$j" --store "$STORE" 2>&1)"
        printf '%s\t%s\n' "$?" "$(echo "$out" | tr '\n' ' ')" >>"$WORK/storm-$j.log"
        k=$((k + 1))
      done
    ) &
    loops+=($!)
  done
  local end=$(( $(date +%s) + STORM_SECONDS ))
  while [ $(( $(date +%s) + STORM_KILL_EVERY )) -le "$end" ]; do
    sleep "$STORM_KILL_EVERY"
    pg_kill
    kills=$((kills + 1))
    sleep 1
    pg_start || problems+=("PostgreSQL did not restart in the storm")
  done
  while [ "$(date +%s)" -lt "$end" ]; do sleep 0.2; done
  touch "$stop"
  for p in "${loops[@]}"; do wait "$p"; done
  "$PROMPTD" history storm --store "$STORE" >"$WORK/storm-history.out" 2>&1 || problems+=("history storm failed")
  local reported=0 recorded=0 failed_moves=0
  for j in $(seq 1 "$LOOPS"); do
    # What the CLI said it moved, in order, and what the store's history recorded for the same label.
    awk -F'\t' '$1 == 0' "$WORK/storm-$j.log" | grep -o "label 'storm$j' on storm.prompt.md: [-0-9]* -> [0-9]*" \
      | sed 's/.*: //; s/ -> / /' >"$WORK/storm-$j.reported"
    awk -F'\t' -v l="storm$j" '$2 == l { print $3 " " $4 }' "$WORK/storm-history.out" >"$WORK/storm-$j.recorded"
    reported=$((reported + $(wc -l <"$WORK/storm-$j.reported")))
    recorded=$((recorded + $(wc -l <"$WORK/storm-$j.recorded")))
    failed_moves=$((failed_moves + $(awk -F'\t' '$1 != 0' "$WORK/storm-$j.log" | wc -l)))
    if ! cmp -s "$WORK/storm-$j.reported" "$WORK/storm-$j.recorded"; then
      problems+=("label storm$j: $(wc -l <"$WORK/storm-$j.reported") moves reported, $(wc -l \
        <"$WORK/storm-$j.recorded") recorded, not the same sequence")
    fi
  done
  local storm_summary="label storm $STORM_SECONDS s, $LOOPS loops, $kills kills: $reported moves reported, $recorded"
  storm_summary+=" recorded, $failed_moves failed commands"
  if [ "${#problems[@]}" = 0 ]; then
    result faults passed "$pub_summary; $storm_summary"
  else
    result faults failed "$pub_summary; $storm_summary; $(IFS=';'; echo "${problems[*]}")"
  fi
}

# --- starts -----------------------------------------------------------------------------------------------------
round_starts() {
  if ! pg_init; then result starts failed "PostgreSQL did not start"; return; fi
  local expected i delay status=0 walk t0 ms
  expected="$(psql_q "SELECT count(*) FROM (SELECT DISTINCT ON (path) path, deleted FROM file_versions
    WHERE path LIKE '%.prompt.md' ORDER BY path, version DESC) f WHERE NOT deleted")"
  if [ "$expected" = 0 ]; then # the faults round did not run: publish a library for this one
    gen_lib "$WORK/pub" "$FILES" "starts"
    publish >/dev/null 2>&1 || { result starts failed "the publish failed"; return; }
    expected="$FILES"
  fi
  # One start first, as a deployed server has run before: the launcher trains its start-up cache on the first
  # `serve --http` after a build, and the kills are meant for the server, not for that training.
  start_server "$WORK/start-0.log" --store "$STORE"
  await_ready 300 || { result starts failed "the first start is not ready"; stop_server; return; }
  stop_server
  local delays=()
  for i in $(seq 1 "$STARTS"); do
    delay="$(awk -v i="$i" -v n="$STARTS" -v s="$START_SPREAD" \
      'BEGIN { printf "%.2f", 0.1 + (n > 1 ? (i - 1) * (s - 0.1) / (n - 1) : 0) }')"
    start_server "$WORK/start-$i.log" --store "$STORE"
    sleep "$delay"
    kill -KILL "$srv" 2>/dev/null
    wait "$srv" 2>/dev/null
    delays+=("$delay")
  done
  t0=$(now_ms)
  start_server "$WORK/start-final.log" --store "$STORE"
  if ! await_ready 120; then
    result starts failed "after $STARTS kills at ${delays[*]} s the server is not ready: $(tail -n 3 \
      "$WORK/start-final.log" | tr '\n' ' ')"
    stop_server
    return
  fi
  ms=$(( $(now_ms) - t0 ))
  walk="$(list_walk "$expected")" || status=1
  stop_server
  result starts "$([ "$status" = 0 ] && echo passed || echo failed)" \
    "$STARTS SIGKILLs at ${delays[0]}-${delays[${#delays[@]}-1]} s after launch, then ready in $ms ms; $walk of $expected"
}

# --- large ------------------------------------------------------------------------------------------------------
round_large() {
  local problems=() t0 ms walk hwm walk2 hwm2 refused
  gen_lib "$WORK/large" "$LARGE" "large"
  t0=$(now_ms)
  start_server "$WORK/large.log" "$WORK/large"
  if await_ready 300; then
    walk="$(list_walk "$LARGE")" || problems+=("the $LARGE-file listing is not complete")
    ms=$(( $(now_ms) - t0 ))
    hwm=$(( $(hwm_kib "$srv") / 1024 ))
  else
    problems+=("the $LARGE-file library's server is not ready")
  fi
  stop_server

  gen_lib "$WORK/huge" 5 "huge"
  truncate -s 2G "$WORK/huge/huge.prompt.md"
  start_server "$WORK/huge.log" "$WORK/huge"
  if await_ready 120; then
    walk2="$(list_walk 5 --absent huge)" || problems+=("the folder with the 2 GB file: not 5 prompts listed")
    hwm2=$(( $(hwm_kib "$srv") / 1024 ))
    [ "$hwm2" -le "$HUGE_RSS_MIB" ] || problems+=("peak RSS $hwm2 MiB with the 2 GB file, over $HUGE_RSS_MIB")
  else
    problems+=("the server of the folder with the 2 GB file is not ready")
  fi
  stop_server
  refused="$(grep -m1 -o "huge.prompt.md' is [0-9]* bytes, over the limit of [0-9]*" "$WORK/huge.log")"
  [ -n "$refused" ] || problems+=("no size-limit error for the 2 GB file in the log")
  local summary="$LARGE files: ready and listed in ${ms:-?} ms, $walk, peak RSS ${hwm:-?} MiB; 2 GB file: '${refused:-}'"
  summary+=", ${walk2:-not listed}, peak RSS ${hwm2:-?} MiB"
  if [ "${#problems[@]}" = 0 ]; then result large passed "$summary"; else
    result large failed "$summary; $(IFS=';'; echo "${problems[*]}")"; fi
}

say "rounds: $ROUNDS; work folder $WORK; load average $(cut -d' ' -f1-3 /proc/loadavg)"
for r in $ROUNDS; do
  case "$r" in
    load) round_load ;;
    faults) round_faults ;;
    starts) round_starts ;;
    large) round_large ;;
    *) result "$r" failed "no such round (load, faults, starts, large)" ;;
  esac
done
echo "--- $(date -u '+%Y-%m-%d %H:%M UTC'), load average $(cut -d' ' -f1-3 /proc/loadavg)"
for l in "${lines[@]}"; do echo "$l"; done
echo "attack: $passed passed, $failed failed"
[ "$failed" = 0 ]
