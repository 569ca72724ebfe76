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

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# One synthetic class: the model solution and the buggy samples, round robin, each copy with
# a distinct comment so that no two sources are identical (nothing is cached by accident).
make_class() {
  local game=$1 n=$2 dir=$3
  mkdir -p "$dir"
  local sources=("reference/$game/"*.c)
  if [ "${MIX:-all}" = all ]; then
    sources+=(tests/submissions/"$game"/*/*.c)
  fi
  for i in $(seq 1 "$n"); do
    local src=${sources[$(( (i - 1) % ${#sources[@]} ))]}
    { echo "/* synthetic student $i of $n: $RANDOM$RANDOM */"; cat "$src"; } >"$dir/s$i.c"
  done
}

# The floor for one submission: the same compiles (program, each extra-flag variant, unit
# harness) and every case's binary run on its stdin with output to files.
floor_one() {
  local src=$1 cases=$2 spec=$3 out=$4 limit
  # The same wall-clock limit per run as the assignment's spec.toml.
  limit=$(sed -n 's/^timeout = \(.*\)/\1/p' "$spec/spec.toml")
  limit=${limit:-2}
  local flags=(-std=gnu17 -Wall -Wextra) hflags
  read -r -a hflags <<<"$(sed -n 's/^harness_student_flags = \[\(.*\)\]/\1/p' "$spec/spec.toml" | tr -d '",')"
  mkdir -p "$out"
  "$cc" "${flags[@]}" -o "$out/program" "$src" -lm 2>/dev/null || true
  "$cc" "${flags[@]}" "${hflags[@]}" -c "$src" -o "$out/student.o" 2>/dev/null &&
    "$cc" "${flags[@]}" -o "$out/harness" "$spec/harness.c" "$out/student.o" -lm 2>/dev/null || true
  for variant in $(cat "$cases"/*.flags | sort -u); do
    "$cc" "${flags[@]}" "$variant" -o "$out/program$variant" "$src" -lm 2>/dev/null || true
  done
  for stdin in "$cases"/*.stdin; do
    local name=${stdin%.stdin} binary target flags=""
    read -r target <"$name.target"
    read -r flags <"$name.flags" || true
    binary=$out/$target$flags
    mapfile -t args <"$name.args"
    if [ "${MIX:-all}" = model ]; then
      # Nothing hangs: run the binary and nothing else.
      "$binary" "${args[@]}" <"$stdin" >"$out/${name##*/}.out" 2>&1 || true
    else
      timeout "$limit" "$binary" "${args[@]}" <"$stdin" >"$out/${name##*/}.out" 2>&1 || true
    fi
  done
}
export -f floor_one
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
