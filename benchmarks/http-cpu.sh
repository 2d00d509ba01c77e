#!/usr/bin/env bash
# Server CPU per request: alternates echo / BEFORE / AFTER under LoadGen http, legacy prompts/get, 16 connections.
# Beside it, promptd's bytes allocated per request, a figure that does not move with the machine's speed: the server's
# own /metrics (admin port) are read every second during the run; alloc_b_per_req is the growth of the young
# generation's allocated bytes (jvm_memory_pool_allocated_bytes_total, Eden; counted at each GC, so exact to within
# one Eden's size over a run of many GCs) over the growth of promptd_requests_total, from the first sample after the
# warm-up to the last.
# Usage: [ROUNDS=3] BEFORE=/path/to/old/checkout AFTER=/path/to/this/checkout benchmarks/http-cpu.sh  (needs /tmp/lg: javac -d /tmp/lg ../shared/bench/loadgen/*.java, and /tmp/benchlib: ../shared/bench/gen-library.sh 2 /tmp/benchlib)
J="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
BEFORE="${BEFORE:?set BEFORE to a checkout of the commit to compare with}"
AFTER="${AFTER:-$(cd "$(dirname "$0")/.." && pwd)}"
for r in $(seq 1 "${ROUNDS:-3}"); do
  for s in echo before after; do
    port=$($J -cp /tmp/lg LoadGen freeport)
    aport=$($J -cp /tmp/lg LoadGen freeport)
    case $s in
      echo) cmd="$J -XX:+UseSerialGC -cp /tmp/lg EchoServer http $port"; chk=result ;;
      before) cmd="$BEFORE/promptd serve --http $port --admin-port $aport /tmp/benchlib"; chk=content ;;
      after) cmd="$AFTER/promptd serve --http $port --admin-port $aport /tmp/benchlib"; chk=content ;;
    esac
    samples=$(mktemp)
    if [ "$s" != echo ]; then
      ( t0=$(date +%s)
        while [ $(( $(date +%s) - t0 )) -lt 40 ]; do
          m=$(curl -s --max-time 1 "http://127.0.0.1:$aport/metrics") && echo "$(( $(date +%s) - t0 )) $(echo "$m" \
            | awk '/^jvm_memory_pool_allocated_bytes_total.*Eden/ { a += $NF } /^promptd_requests_total/ { q += $NF }
                   END { printf "%.0f %.0f", a, q }')" >> "$samples"
          sleep 1
        done ) &
      sampler=$!
    fi
    out=$(timeout 120 $J -cp /tmp/lg LoadGen http --url http://127.0.0.1:$port/mcp --spawn "$cmd" --era legacy \
      --connections 16 --method get --seconds 10 --warmup 5 --check $chk 2>&1 | grep '^RESULT')
    alloc=""
    if [ "$s" != echo ]; then
      kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null
      # From the first sample with requests past the warm-up's (a quarter of the last count) to the last.
      alloc=$(awk '$3 > 0 { n++; t[n] = $1; a[n] = $2; q[n] = $3 }
        END { for (i = 1; i <= n && q[i] < q[n] / 4; i++); if (n > i && q[n] > q[i])
              printf "alloc_b_per_req=%.0f", (a[n] - a[i]) / (q[n] - q[i]) }' "$samples")
    fi
    rm -f "$samples"
    echo "round $r $s load $(cut -d' ' -f1 /proc/loadavg): $(echo "$out" | grep -o 'rps=[0-9.]*\|srv_cpu_us=[0-9.]*\|errors=[0-9]*' | tr '\n' ' ')$alloc"
  done
done
