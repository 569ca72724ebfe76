//! Kept runs: a regrade with the cache reuses each run whose binary, input and limits are
//! unchanged, and `--no-cache` runs everything again.

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
    let submission = only_submission(report);
    submission["items"]
        .as_array()
        .expect("items")
        .iter()
        .flat_map(|item| item["cases"].as_array().expect("cases").iter())
        .flat_map(|case| {
            let diff = case["diff"].as_str().expect("a diff");
            diff.lines()
                .filter(|l| l.starts_with("+run at "))
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
