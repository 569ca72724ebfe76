#!/usr/bin/env bash
# Benchmark: a class of N LUDO-CS programs graded in one call, cold (no build or run cache),
# as a TA grades a class: how long it takes on this machine, and how much of it the programs
# that hang cost.
#
# usage: benches/ludo-class.sh [N]      default N: 300; HANG_EVERY=K (default 20: one program
# in twenty hangs in every game, the sample hangs-every-game); JOBS (default: nproc)
#
# The class: each student is one of the project's LUDO-CS programs (the model solution and
# every sample under tests/submissions/ludo/ except the hanging one, in turn), with a comment
# naming the student so no two builds are the same file. Prints the wall and CPU seconds of
# the whole grading, the mean per submission, and the class's mean score.
set -euo pipefail
cd "$(dirname "$0")/.."
n=${1:-300}
hang_every=${HANG_EVERY:-20}
jobs=${JOBS:-$(nproc)}
cargo build --release --quiet
referee=$PWD/target/release/referee
work=$(mktemp -d)
trap 'rm -rf "$work" 2>/dev/null || true' EXIT

programs=(reference/ludo)
for sample in tests/submissions/ludo/*/; do
  case $sample in */hangs-every-game/) ;; *) programs+=("${sample%/}") ;; esac
done

class=$work/class
mkdir -p "$class"
hanging=0
for i in $(seq 1 "$n"); do
  if (( i % hang_every == 0 )); then
    from=tests/submissions/ludo/hangs-every-game
    hanging=$((hanging + 1))
  else
    from=${programs[$(( (i - 1) % ${#programs[@]} ))]}
  fi
  student=$class/s$i
  mkdir -p "$student"
  for file in "$from"/*.c "$from"/*.h; do
    [ -e "$file" ] || continue
    { echo "/* student $i of $n, from $(basename "$from") */"; cat "$file"; } >"$student/$(basename "$file")"
  done
done

times=$work/times
/usr/bin/time -o "$times" -f '%e %U %S %M' \
  "$referee" grade ludo "$class" --jobs "$jobs" --no-cache --format json -o "$work/grades.json" \
  >/dev/null
read -r wall user sys peak_kb <"$times"
mean=$(python3 -c "import json,sys; s=json.load(open(sys.argv[1]))['submissions']; print(f'{sum(x[\"score\"] for x in s)/len(s):.2f} over {len(s)}')" "$work/grades.json")
echo "N=$n (hanging: $hanging), jobs $jobs: wall ${wall} s, cpu $(echo "$user + $sys" | bc) s, peak ${peak_kb} KB"
echo "per submission: $(echo "scale=2; $wall / $n" | bc) s wall; mean score $mean"
