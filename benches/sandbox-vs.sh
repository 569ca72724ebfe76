#!/usr/bin/env bash
# Benchmark: two builds of `cargo bench --bench sandbox` side by side (e.g. before and after a
# change to the sandbox), run in turn A B A B ... so that a busy moment of the machine costs
# both alike. Each round prints the median of RUNS runs per kind; this prints, per kind, the
# median over the rounds for A and for B, B/A of those medians, and the median of the
# rounds' own B/A ratios.
#
# usage: benches/sandbox-vs.sh BENCH_A BENCH_B      ROUNDS=R (default 6), RUNS=N (default 100)
# A bench executable is what `cargo bench --bench sandbox --no-run` names ("Executable
# benches/sandbox.rs (target/release/deps/sandbox-HASH)"); for an older commit, build it in a
# worktree of that commit (`git worktree add --detach DIR REV`) with its own target folder.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 BENCH_A BENCH_B" >&2
  exit 2
fi
a=$1 b=$2
rounds=${ROUNDS:-6}
export RUNS=${RUNS:-100}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# "bare program  0.727 ms" and the like: one line "kind ms" per kind.
figures() {
  awk '/^bare program/ {print "bare", $3}
       /^basic sandbox/ {print "basic", $3}
       /^isolated sandbox/ {print "isolated", $3}
       /^isolated batch, 1 case/ {print "batched", $5}'
}
median() { sort -g | awk '{v[NR]=$1} END {print (NR%2 ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2)}'; }

for round in $(seq 1 "$rounds"); do
  "$a" | figures >"$work/a.$round"
  "$b" | figures >"$work/b.$round"
  echo "round $round of $rounds: A $(tr '\n' ' ' <"$work/a.$round")| B $(tr '\n' ' ' <"$work/b.$round")" >&2
done

printf '%-9s %9s %9s %8s %12s\n' kind A_ms B_ms B/A 'B/A rounds'
for kind in bare basic isolated batched; do
  ma=$(cat "$work"/a.* | awk -v k="$kind" '$1 == k {print $2}' | median)
  mb=$(cat "$work"/b.* | awk -v k="$kind" '$1 == k {print $2}' | median)
  per_round=$(for round in $(seq 1 "$rounds"); do
    join <(sort "$work/a.$round") <(sort "$work/b.$round") | awk -v k="$kind" '$1 == k {print $3 / $2}'
  done | median)
  printf '%-9s %9.3f %9.3f %8.2f %12.2f\n' "$kind" "$ma" "$mb" "$(echo "$mb / $ma" | bc -l)" "$per_round"
done
echo "medians over $rounds rounds of $RUNS runs per kind, A and B in turn."
