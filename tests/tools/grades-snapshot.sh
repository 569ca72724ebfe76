#!/bin/sh
# Grades every sample of tests/submissions/ (one batch per game) and writes one JSON report
# per game into OUT_DIR without what may legitimately change: each submission's "path". For
# LUDO-CS the samples seed their games from the nanosecond clock, so only the deterministic
# part is kept (names, items, maxima, build, facts), not scores, statuses or checker notes.
# A refactor must leave these files byte-identical: compare with `diff -r BEFORE AFTER`.
# Usage: tests/tools/grades-snapshot.sh OUT_DIR [REFEREE_BINARY [CHECKOUT]]   (needs jq)
# CHECKOUT (default: this one) is the tree whose samples, specs and cases are graded, e.g. a
# worktree of the commit before a refactor.
set -eu
out=$(realpath -m "${1:?usage: grades-snapshot.sh OUT_DIR [REFEREE_BINARY [CHECKOUT]]}")
referee=$(realpath "${2:-target/release/referee}")
cd "${3:-$(dirname "$0")/../..}"
mkdir -p "$out"
for game_dir in tests/submissions/*/; do
    game=$(basename "$game_dir")
    filter='del(.submissions[].path)'
    if [ "$game" = ludo ]; then
        filter="$filter"' | del(.groups, .submissions[].score)
            | .submissions[].items[] |= (del(.score) | .cases[] |= {name})'
    fi
    "$referee" grade "$game" "$game_dir" --format json --no-cache --jobs 1 |
        jq "$filter" >"$out/$game.json"
    echo "$game: $(jq '.submissions | length' "$out/$game.json") submissions"
done
