#!/usr/bin/env bash
# Server CPU per request: alternates echo / BEFORE / AFTER under LoadGen http, legacy prompts/get, 16 connections.
# Usage: BEFORE=/path/to/old/checkout AFTER=/path/to/this/checkout benchmarks/http-cpu.sh  (needs /tmp/lg: javac -d /tmp/lg ../shared/bench/loadgen/*.java, and /tmp/benchlib: ../shared/bench/gen-library.sh 2 /tmp/benchlib)
J="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}/bin/java"
BEFORE="${BEFORE:?set BEFORE to a checkout of the commit to compare with}"
AFTER="${AFTER:-$(cd "$(dirname "$0")/.." && pwd)}"
for r in 1 2 3; do
  for s in echo before after; do
    port=$($J -cp /tmp/lg LoadGen freeport)
    case $s in
      echo) cmd="$J -XX:+UseSerialGC -cp /tmp/lg EchoServer http $port"; chk=result ;;
      before) cmd="$BEFORE/promptd serve --http $port /tmp/benchlib"; chk=content ;;
      after) cmd="$AFTER/promptd serve --http $port /tmp/benchlib"; chk=content ;;
    esac
    out=$(timeout 120 $J -cp /tmp/lg LoadGen http --url http://127.0.0.1:$port/mcp --spawn "$cmd" --era legacy \
      --connections 16 --method get --seconds 10 --warmup 5 --check $chk 2>&1 | grep '^RESULT')
    echo "round $r $s load $(cut -d' ' -f1 /proc/loadavg): $(echo "$out" | grep -o 'rps=[0-9.]*\|srv_cpu_us=[0-9.]*\|errors=[0-9]*' | tr '\n' ' ')"
  done
done
