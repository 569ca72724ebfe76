#!/usr/bin/env bash
# Benchmark: referee cold, referee warm (build cache hit), and the floor (a plain shell loop
# doing the same compiles and running the same binaries on the same inputs, output to files),
# side by side in one run, on a synthetic class of N submissions per game.
#
# usage: benches/run.sh [N ...]      default: 50 300; games: reversi trouble
#        MIX=model benches/run.sh 50  only copies of the model solution (no hanging programs,
#                                   so the difference is the grader's own cost)
# Prints one line per (game, N) with medians over REPEATS runs, and the ratios.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-50 300}")
read -r -a sizes <<<"${sizes[*]}"
games=(reversi trouble)
repeats=${REPEATS:-3}
jobs=$(nproc)
cargo build --release --quiet
referee=$PWD/target/release/referee
cc=${CC:-cc}
work=$(mktemp -d)
trap 'rm -rf "$work" 2>/dev/null || true' EXIT

. benches/floor.sh
export cc MIX

printf '%-8s %5s %6s | %9s %9s %9s | %6s %6s | %11s %9s\n' \
  game N cases cold_s warm_s floor_s a/c b/a overhead_ms peak_MB
for game in "${games[@]}"; do
  cases=$work/$game-cases
  "$referee" cases "$game" --export "$cases" >/dev/null
  case_count=$(ls "$cases"/*.stdin | wc -l)
  for n in "${sizes[@]}"; do
    cold=() warm=() floor=() peak=0
    for r in $(seq 1 "$repeats"); do
      class=$work/$game-$n-$r
      make_class "$game" "$n" "$class"
      rm -rf "$work/cache"
      t=$( { /usr/bin/time -f '%e %M' "$referee" grade "$game" "$class" --jobs "$jobs" \
             --cache "$work/cache" --format json -o "$work/cold.json" 2>&1 >/dev/null; } | tail -1)
      cold+=("${t% *}"); peak=$(( ${t#* } > peak ? ${t#* } : peak ))
      t=$( { /usr/bin/time -f '%e %M' "$referee" grade "$game" "$class" --jobs "$jobs" \
             --cache "$work/cache" --format json -o "$work/warm.json" 2>&1 >/dev/null; } | tail -1)
      warm+=("${t% *}")
      start=$(date +%s.%N)
      ls "$class"/*.c | xargs -P "$jobs" -I{} bash -c 2>/dev/null \
        'floor_one "$1" "$2" "$3" "$4/$(basename "$1" .c)"' _ {} "$cases" "specs/$game" "$work/floor-$r"
      floor+=("$(echo "$(date +%s.%N) - $start" | bc)")
      rm -rf "$class" "$work/floor-$r" 2>/dev/null || true
    done
    c=$(printf '%s\n' "${cold[@]}" | median)
    w=$(printf '%s\n' "${warm[@]}" | median)
    f=$(printf '%s\n' "${floor[@]}" | median)
    printf '%-8s %5d %6d | %9.2f %9.2f %9.2f | %6.2f %6.2f | %11.2f %9.1f\n' \
      "$game" "$n" "$case_count" "$c" "$w" "$f" \
      "$(echo "$c / $f" | bc -l)" "$(echo "$w / $c" | bc -l)" \
      "$(echo "($c - $f) * 1000 * $jobs / ($n * $case_count)" | bc -l)" \
      "$(echo "$peak / 1024" | bc -l)"
  done
done
echo "cold: fresh build cache; warm: the same class again (cache hit); floor: shell loop;"
echo "overhead_ms: (cold - floor) x jobs / (N x cases), the grader's mean cost per case run."
