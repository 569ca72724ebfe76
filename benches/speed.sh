#!/usr/bin/env bash
# Benchmark of a class's grading (Reversi, Lab 6), side by side in one run:
#   cold     referee on a fresh cache
#   warm     referee again, nothing changed (every build and run reused)
#   changed  referee again after one case file changed (one case's input: one run per
#            submission is made again, everything else reused)
#   floor    a plain shell loop doing the same compiles and running the same binaries on the
#            same inputs, output to files (benches/floor.sh)
# for two mixes: `model` (copies of the model solution) and `all` (the model and every
# sample, the looping and the crashing ones among them), at each class size N.
# Then check50 (installed from PyPI into a virtual environment in a temporary folder) on the
# same Lab 6 program cases for one submission, against its own floor (one gcc and the same
# runs from a shell) and against referee grading that one submission.
#
# usage: benches/speed.sh [N ...]     default: 50 1000
#        ROUNDS=R (default 3) rounds at N < 500, ROUNDS_LARGE (default 1) at N >= 500;
#        MIXES="model all" (default); CHECK50=0 skips check50; CHECK50_ROUNDS (default 5);
#        FLOOR=0 skips the shell floor (its columns print nan): the `all` mix's floor at
#        N = 1,000 waits out every looping copy's limits one run at a time (over an hour);
#        BASELINE=PATH: another referee binary (say main's) also grades each round's class
#        cold, right after this one, so the two compare within the round.
# A round measures cold, warm, changed and floor one after the other, so each ratio is taken
# within a round (the machine's speed drifts, and other work may share it); the table gives
# the medians over the rounds of the times and of the per-round ratios. Peak memory is the
# largest resident size of referee (GNU time's %M) over the cold runs.
set -euo pipefail
cd "$(dirname "$0")/.."
sizes=("${@:-50 1000}")
read -r -a sizes <<<"${sizes[*]}"
read -r -a mixes <<<"${MIXES:-model all}"
game=reversi
jobs=$(nproc)
cargo build --release --quiet
referee=$PWD/target/release/referee
cc=${CC:-cc}
work=$(mktemp -d)
trap 'rm -rf "$work" 2>/dev/null || true' EXIT

. benches/floor.sh
export cc

# The same project root with one case file changed: one case's input (its move).
changed_root=$work/changed-root
mkdir -p "$changed_root"
cp -a specs cases reference "$changed_root/"
sed -i '/^name = "start-12"$/,/^move = /s/^move = "Wef"$/move = "Bef"/' \
  "$changed_root/cases/$game/program.toml"
if cmp -s cases/$game/program.toml "$changed_root/cases/$game/program.toml"; then
  echo "speed.sh: the case to change (start-12's move) was not found" >&2
  exit 1
fi

cases=$work/cases
"$referee" cases "$game" --export "$cases" >/dev/null
case_count=$(ls "$cases"/*.stdin | wc -l)

# "SECONDS PEAK_KB" of one referee grading of CLASS with the cache in CACHE_DIR (by the
# binary in $grader, referee's own unless told).
grade() {
  local class=$1 cache=$2
  shift 2
  { /usr/bin/time -f '%e %M' "${grader:-$referee}" grade "$game" "$class" --jobs "$jobs" \
      --cache "$cache" --format json -o "$work/report.json" "$@" 2>&1 >/dev/null; } | tail -1
}

ratio() { echo "$1 / $2" | bc -l; }

printf '%-5s %5s %5s | %8s %8s %8s %8s | %10s %9s %12s | %8s %7s\n' \
  mix N cases cold_s warm_s chg_s floor_s cold/floor warm/cold changed/cold ms/subm peak_MB
for mix in "${mixes[@]}"; do
  export MIX=$mix
  for n in "${sizes[@]}"; do
    rounds=${ROUNDS:-3}
    if [ "$n" -ge 500 ]; then rounds=${ROUNDS_LARGE:-1}; fi
    cold=() warm=() changed=() floor=() r_floor=() r_warm=() r_changed=() peak=0
    base=() r_base=() r_base_floor=()
    for r in $(seq 1 "$rounds"); do
      class=$work/class-$mix-$n-$r
      make_class "$game" "$n" "$class"
      rm -rf "$work/cache"
      t=$(grade "$class" "$work/cache")
      cold+=("${t% *}")
      peak=$(( ${t#* } > peak ? ${t#* } : peak ))
      if [ -n "${BASELINE:-}" ]; then
        t=$(grader=$BASELINE grade "$class" "$work/base-cache")
        base+=("${t% *}")
        rm -rf "$work/base-cache"
      fi
      t=$(grade "$class" "$work/cache")
      warm+=("${t% *}")
      t=$(grade "$class" "$work/cache" --root "$changed_root")
      changed+=("${t% *}")
      if [ "${FLOOR:-1}" = 0 ]; then
        floor+=(nan) r_floor+=(nan)
      else
        start=$(date +%s.%N)
        ls "$class"/*.c | xargs -P "$jobs" -I{} bash -c 2>/dev/null \
          'floor_one "$1" "$2" "$3" "$4/$(basename "$1" .c)"' _ {} "$cases" "specs/$game" "$work/floor"
        floor+=("$(echo "$(date +%s.%N) - $start" | bc)")
        r_floor+=("$(ratio "${cold[-1]}" "${floor[-1]}")")
      fi
      r_warm+=("$(ratio "${warm[-1]}" "${cold[-1]}")")
      r_changed+=("$(ratio "${changed[-1]}" "${cold[-1]}")")
      if [ -n "${BASELINE:-}" ]; then
        r_base+=("$(ratio "${cold[-1]}" "${base[-1]}")")
        r_base_floor+=("$(ratio "${base[-1]}" "${floor[-1]}")")
      fi
      rm -rf "$class" "$work/floor" "$work/cache" 2>/dev/null || true
    done
    c=$(printf '%s\n' "${cold[@]}" | median)
    printf '%-5s %5d %5d | %8.2f %8.2f %8.2f %8.2f | %10.3f %9.3f %12.3f | %8.1f %7.1f\n' \
      "$mix" "$n" "$case_count" "$c" \
      "$(printf '%s\n' "${warm[@]}" | median)" \
      "$(printf '%s\n' "${changed[@]}" | median)" \
      "$(printf '%s\n' "${floor[@]}" | median)" \
      "$(printf '%s\n' "${r_floor[@]}" | median)" \
      "$(printf '%s\n' "${r_warm[@]}" | median)" \
      "$(printf '%s\n' "${r_changed[@]}" | median)" \
      "$(echo "$c * 1000 / $n" | bc -l)" "$(echo "$peak / 1024" | bc -l)"
    if [ -n "${BASELINE:-}" ]; then
      printf '%-5s %5d  baseline cold %.2f s, baseline cold/floor %.3f, cold/baseline cold %.3f\n' \
        "$mix" "$n" "$(printf '%s\n' "${base[@]}" | median)" \
        "$(printf '%s\n' "${r_base_floor[@]}" | median)" "$(printf '%s\n' "${r_base[@]}" | median)"
    fi
  done
done
echo "times: medians over the rounds; ratios: medians of each round's ratio; --jobs $jobs."

[ "${CHECK50:-1}" = 0 ] && exit 0

# check50 on one submission: the model Lab6.c and the Lab 6 program cases, each case a check
# that runs ./Lab6 on the case's input and expects its output and exit status 0.
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet check50
checks=$work/checks
mkdir -p "$checks" "$work/c50-student" "$work/c50-floor"
cp "reference/$game/Lab6.c" "$work/c50-student/"
cat >"$checks/.cs50.yml" <<'YAML'
check50:
  files:
    - !exclude "*"
    - !require Lab6.c
YAML
python3 - "$cases" "$checks/cases.json" <<'PY'
import json, pathlib, sys
folder = pathlib.Path(sys.argv[1])
cases = []
for target in sorted(folder.glob("*.target")):
    if target.read_text().strip() != "program":
        continue
    name = target.name[: -len(".target")]
    cases.append({"name": name, "stdin": (folder / f"{name}.stdin").read_text(),
                  "expected": (folder / f"{name}.expected").read_text()})
pathlib.Path(sys.argv[2]).write_text(json.dumps(cases))
PY
cat >"$checks/__init__.py" <<'PY'
import json
import pathlib

import check50
import check50.c

CASES = json.loads((pathlib.Path(__file__).parent / "cases.json").read_text())


@check50.check()
def compiles():
    """Lab6.c compiles"""
    check50.c.compile("Lab6.c", cc="gcc", std="gnu17", ggdb=False)


def program_case(number, case):
    def check():
        check50.run("./Lab6").stdin(case["stdin"], prompt=False).stdout(
            case["expected"], regex=False).exit(0)
    check.__name__ = f"case_{number:03}"
    check.__doc__ = case["name"]
    return check50.check(compiles)(check)


for number, case in enumerate(CASES):
    checked = program_case(number, case)
    globals()[checked.__name__] = checked
# Module-level names holding a check would be run a second time.
del number, case, checked
PY
program_cases=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$checks/cases.json")

# The floor of that work: one gcc, then every program case run from a shell.
c50_floor() {
  "$cc" -std=gnu17 -o "$work/c50-floor/Lab6" "$work/c50-student/Lab6.c" -lm
  for stdin in "$cases"/*.stdin; do
    local name=${stdin%.stdin} target
    read -r target <"$name.target"
    [ "$target" = program ] || continue
    "$work/c50-floor/Lab6" <"$stdin" >"$work/c50-floor/${name##*/}.out" 2>&1 || true
  done
}
seconds() { { /usr/bin/time -f '%e' "$@" 2>&1 >/dev/null; } | tail -1; }

c50=() c50_floor_s=() one=() r_c50=() r_one=()
for _ in $(seq 1 "${CHECK50_ROUNDS:-5}"); do
  c50+=("$(cd "$work/c50-student" && seconds "$work/venv/bin/check50" --dev "$checks" \
    -o json --output-file "$work/c50.json")")
  passed=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]))["results"]; print(sum(c["passed"] is True for c in r), "of", len(r))' "$work/c50.json")
  start=$(date +%s.%N)
  c50_floor
  c50_floor_s+=("$(echo "$(date +%s.%N) - $start" | bc)")
  one+=("$(seconds "$referee" grade "$game" "$work/c50-student/Lab6.c" --no-cache --format json)")
  r_c50+=("$(ratio "${c50[-1]}" "${c50_floor_s[-1]}")")
  r_one+=("$(ratio "${one[-1]}" "${c50_floor_s[-1]}")")
done
echo
echo "one submission, $program_cases program cases (check50 passed: $passed checks, one of them the compile):"
printf '%10s %10s %14s | %13s %14s\n' check50_s floor_s referee_one_s check50/floor referee/floor
printf '%10.2f %10.3f %14.2f | %13.1f %14.1f\n' \
  "$(printf '%s\n' "${c50[@]}" | median)" "$(printf '%s\n' "${c50_floor_s[@]}" | median)" \
  "$(printf '%s\n' "${one[@]}" | median)" \
  "$(printf '%s\n' "${r_c50[@]}" | median)" "$(printf '%s\n' "${r_one[@]}" | median)"
echo "referee_one: referee grading that submission (all $case_count cases, --no-cache)."
