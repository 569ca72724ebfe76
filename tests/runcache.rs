//! Kept runs: a regrade with the cache reuses each run whose binary, input and limits are
//! unchanged (a run stopped at its CPU-time limit included, but not one the wall clock
//! stopped), and `--no-cache` runs everything again.

mod common;

use std::collections::BTreeSet;

use common::*;
use serde_json::Value;

/// A Reversi "submission" whose output differs on every run: what it printed shows whether a
/// run was made again or reused.
const NOISY: &str = r#"#include <stdio.h>
#include <time.h>
int main(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    printf("run at %ld.%09ld\n", (long)now.tv_sec, now.tv_nsec);
    return 0;
}
"#;

/// The distinct "run at" lines the program printed over all cases. Cases with the same input
/// are the same run, so a regrade may show one printout for both.
fn printouts(report: &Value) -> BTreeSet<String> {
    printed(report, "run at ")
}

/// The distinct lines starting with `prefix` the program printed over all cases.
fn printed(report: &Value, prefix: &str) -> BTreeSet<String> {
    let submission = only_submission(report);
    submission["items"]
        .as_array()
        .expect("items")
        .iter()
        .flat_map(|item| item["cases"].as_array().expect("cases").iter())
        .flat_map(|case| {
            let diff = case["diff"].as_str().expect("a diff");
            diff.lines()
                .filter(|l| l.strip_prefix('+').is_some_and(|l| l.starts_with(prefix)))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn a_regrade_reuses_runs_and_no_cache_runs_again() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("Lab6.c");
    std::fs::write(&file, NOISY).expect("write");
    let cache = dir.path().join("cache");
    let cache_arg = cache.to_string_lossy().into_owned();

    let first = printouts(&grade_json("reversi", &file, &["--cache", &cache_arg]));
    assert!(first.len() > 10, "{first:?}");
    assert!(
        cache.join("runs").read_dir().is_ok_and(|d| d.count() >= 1),
        "runs are kept beside the builds"
    );
    let second = printouts(&grade_json("reversi", &file, &["--cache", &cache_arg]));
    assert!(second.is_subset(&first), "every run was reused");

    let fresh = printouts(&grade_json("reversi", &file, &["--no-cache"]));
    assert!(
        fresh.is_disjoint(&first),
        "--no-cache runs the program again"
    );

    // A changed limit makes other runs.
    let slower = printouts(&grade_json(
        "reversi",
        &file,
        &["--cache", &cache_arg, "--timeout", "3"],
    ));
    assert!(
        slower.is_disjoint(&first),
        "runs under other limits are made again"
    );
}

/// A Reversi "submission" that, on a board of 10, prints when it started and then loops
/// (stopped at its CPU-time limit); on a board of 12, prints and then sleeps (stopped by the
/// wall-clock backstop); otherwise prints and ends.
const SPINS_OR_NAPS: &str = r#"#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
int main(void) {
    char first[32] = "";
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    int read = scanf("%31s", first);
    const char *what = read == 1 && strcmp(first, "10") == 0   ? "spin"
                       : read == 1 && strcmp(first, "12") == 0 ? "nap"
                                                               : "run";
    printf("%s at %ld.%09ld\n", what, (long)now.tv_sec, now.tv_nsec);
    fflush(stdout);
    if (strcmp(what, "spin") == 0) for (;;) {}
    if (strcmp(what, "nap") == 0) for (;;) pause();
    return 0;
}
"#;

#[test]
fn a_run_stopped_at_its_cpu_limit_is_reused_and_one_the_wall_clock_stopped_is_not() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("Lab6.c");
    std::fs::write(&file, SPINS_OR_NAPS).expect("write");
    let cache = dir.path().join("cache");
    let cache_arg = cache.to_string_lossy().into_owned();
    let grade = |timeout: &str| {
        grade_json(
            "reversi",
            &file,
            &["--cache", &cache_arg, "--timeout", timeout],
        )
    };

    let first = grade("0.2");
    let (spins, naps) = (printed(&first, "spin at "), printed(&first, "nap at "));
    assert!(!spins.is_empty() && !naps.is_empty(), "{spins:?} {naps:?}");
    let statuses: Vec<String> = ["board", "available_moves", "move"]
        .iter()
        .flat_map(|item| case_statuses(only_submission(&first), item))
        .collect();
    assert!(statuses.iter().any(|s| s == "timeout"), "{statuses:?}");

    let again = grade("0.2");
    assert_eq!(
        printed(&again, "spin at "),
        spins,
        "the runs stopped at the CPU-time limit were reused"
    );
    assert!(
        printed(&again, "nap at ").is_disjoint(&naps),
        "the run the wall clock stopped was made again"
    );
    assert!(printouts(&again).is_subset(&printouts(&first)));

    // The limit is part of what identifies a run: another one makes the loops run again.
    let longer = grade("0.3");
    assert!(printed(&longer, "spin at ").is_disjoint(&spins));
}

/// A Reversi "submission" that prints when it started and loops, whatever its input.
const SPINS: &str = r#"#include <stdio.h>
#include <time.h>
int main(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    printf("spin at %ld.%09ld\n", (long)now.tv_sec, now.tv_nsec);
    fflush(stdout);
    for (;;) {}
}
"#;

/// The text report (every failing case in full) of grading `file` with `args`.
fn text_report(file: &std::path::Path, args: &[&str]) -> String {
    let output = referee()
        .args(["grade", "reversi"])
        .arg(file)
        .args(["--all"])
        .args(args)
        .output()
        .expect("referee runs");
    assert_eq!(output.status.code(), Some(0));
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// The distinct `+spin at` lines of a text report's diffs, and the number of notes on a
/// shortened time limit.
fn spins_and_shortened(report: &str) -> (BTreeSet<String>, usize) {
    let spins = report
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("+spin at "))
        .map(str::to_string)
        .collect();
    let shortened = report
        .lines()
        .filter(|l| l.contains("note: run with a shortened time limit"))
        .count();
    (spins, shortened)
}

#[test]
fn a_regrade_reuses_the_runs_the_pacing_shortened() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("Lab6.c");
    std::fs::write(&file, SPINS).expect("write");
    let cache = dir.path().join("cache");
    let cache_arg = cache.to_string_lossy().into_owned();
    let args = ["--cache", &cache_arg, "--timeout", "0.5", "--jobs", "2"];
    let (first_spins, first_shortened) = spins_and_shortened(&text_report(&file, &args));
    assert!(
        first_shortened > 10,
        "most loops ran under the shortened limit: {first_shortened}"
    );
    let (spins, shortened) = spins_and_shortened(&text_report(&file, &args));
    // Cases with the same input are one run, so the regrade may show one printout for both.
    assert!(spins.is_subset(&first_spins), "every run was reused");
    assert_eq!(shortened, first_shortened, "under the limit it had");
}
