#!/usr/bin/env bash
# Benchmark: the full mutation run of each game (`referee mutants GAME`, every mutant, no
# sample), cold (an empty build and run cache), one game after another.
#
# usage: benches/mutants.sh [GAME ...]   default: every game, smallest first
#        JOBS=2 (mutants graded at once; default 2, the CI machine's cores)
#        OUT=DIR keeps each game's JSON report there (default: a temporary folder)
# Prints one line per game: mutants generated, killed, survived (of them listed as
# equivalent), timed out, did not build, the mutation score, and the wall time.
set -euo pipefail
cd "$(dirname "$0")/.."
games=("${@:-reversi backgammon othello trouble ludo}")
read -r -a games <<<"${games[*]}"
jobs=${JOBS:-2}
cargo build --release --quiet
referee=$PWD/target/release/referee
work=$(mktemp -d)
trap 'rm -rf "$work" 2>/dev/null || true' EXIT
out=${OUT:-$work/reports}
mkdir -p "$out"

# A top-level number of the JSON report (two spaces in, as serde_json prints it).
field() { sed -n "s/^  \"$1\": \\([0-9.]*\\),\$/\\1/p" "$2"; }

printf '%-11s %8s %7s %9s %11s %10s %14s %7s %9s\n' game mutants killed survived equivalent \
  "timed out" "did not build" score "wall s"
for game in "${games[@]}"; do
  report=$out/$game.json
  start=$(date +%s.%N)
  REFEREE_CACHE=$work/cache-$game "$referee" mutants "$game" --jobs "$jobs" --format json >"$report"
  end=$(date +%s.%N)
  equivalent=$(grep -c '^      "equivalent": "' "$report" || true)
  printf '%-11s %8s %7s %9s %11s %10s %14s %6.1f%% %9.0f\n' "$game" \
    "$(field generated "$report")" "$(field killed "$report")" "$(field survived "$report")" \
    "$equivalent" "$(field timed_out "$report")" "$(field did_not_build "$report")" \
    "$(field score "$report")" "$(awk "BEGIN { print $end - $start }")"
done
