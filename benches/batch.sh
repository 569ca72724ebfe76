#!/usr/bin/env bash
# Benchmark: a submission's cases in batches (one sandboxed run forking a child per case, the
# default) against a sandboxed run per case (--no-batch), side by side on the same synthetic
# class of N copies of the model solution, rounds alternating.
#
# usage: benches/batch.sh [N]      default N: 50; ROUNDS=R (default 3); games: reversi trouble
# Prints the median seconds of each way per game and their ratio.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-50}
rounds=${ROUNDS:-3}
jobs=$(nproc)
cargo build --release --quiet
referee=$PWD/target/release/referee
work=$(mktemp -d)
trap 'rm -rf "$work" 2>/dev/null || true' EXIT

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
seconds() { /usr/bin/time -f '%e' "$@" 2>&1 >/dev/null | tail -1; }

printf '%-8s %5s | %10s %10s | %6s\n' game N batched_s alone_s ratio
for game in reversi trouble; do
  class=$work/$game
  mkdir -p "$class"
  for i in $(seq 1 "$n"); do
    { echo "/* synthetic student $i of $n: $RANDOM$RANDOM */"; cat "reference/$game/"*.c; } >"$class/s$i.c"
  done
  batched=() alone=()
  for _ in $(seq 1 "$rounds"); do
    batched+=("$(seconds "$referee" grade "$game" "$class" --jobs "$jobs" --no-cache --format json)")
    alone+=("$(seconds "$referee" grade "$game" "$class" --jobs "$jobs" --no-cache --no-batch --format json)")
  done
  b=$(printf '%s\n' "${batched[@]}" | median)
  a=$(printf '%s\n' "${alone[@]}" | median)
  printf '%-8s %5d | %10.2f %10.2f | %6.2f\n' "$game" "$n" "$b" "$a" "$(echo "$b / $a" | bc -l)"
done
echo "batched: the default; alone: --no-batch; both --no-cache, medians of $rounds rounds."
