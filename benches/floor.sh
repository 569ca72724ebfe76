# Shared by the bench scripts (sourced): the synthetic classes and the shell floor.

median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# One synthetic class of N one-file submissions of GAME in DIR. MIX=model: copies of the model
# solution; MIX=all: the model and every sample of tests/submissions/GAME (the looping and
# crashing ones among them; a sample's test.c aside), round robin. Each copy has a distinct
# comment, so that no two sources are identical (nothing is cached by accident).
make_class() {
  local game=$1 n=$2 dir=$3
  mkdir -p "$dir"
  local sources=("reference/$game/"*.c)
  if [ "${MIX:-all}" = all ]; then
    for sample in tests/submissions/"$game"/*/*.c; do
      [ "${sample##*/}" = test.c ] || sources+=("$sample")
    done
  fi
  for i in $(seq 1 "$n"); do
    local src=${sources[$(( (i - 1) % ${#sources[@]} ))]}
    { echo "/* synthetic student $i of $n: $RANDOM$RANDOM */"; cat "$src"; } >"$dir/s$i.c"
  done
}

# The floor for one submission: the same compiles (program, each extra-flag variant, unit
# harness) and every case's binary run on its stdin with output to files, as a TA's shell
# loop would (no sandbox, no batching; the harness is compiled with the student's file).
# Needs cc and MIX exported; CASES is `referee cases GAME --export` output.
floor_one() {
  local src=$1 cases=$2 spec=$3 out=$4 limit
  # The same time limit per run as the assignment's spec.toml.
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
