//! Reversi Lab 6 graded end to end: the model solution and realistic buggy submissions.

mod common;

use common::*;
use serde_json::Value;

fn sample(name: &str) -> std::path::PathBuf {
    root().join("tests/submissions/reversi").join(name)
}

#[test]
fn the_model_solution_gets_full_marks() {
    let report = grade_json("reversi", &root().join("reference/reversi/Lab6.c"), &[]);
    let submission = only_submission(&report);
    assert_eq!(submission["score"], submission["max_score"]);
    assert_eq!(submission["max_score"].as_f64(), Some(6.0));
    assert_loses_exactly(submission, &[]);
    let helpers = &submission["facts"]["helpers"];
    for name in ["printBoard", "positionInBounds", "checkLegalInDirection"] {
        assert_eq!(helpers[name]["defined"], Value::Bool(true), "{name}");
        assert_eq!(helpers[name]["called"], Value::Bool(true), "{name}");
    }
}

#[test]
fn a_missing_newline_costs_the_move_item_only() {
    let report = grade_json("reversi", &sample("missing_newline/missing_newline.c"), &[]);
    let submission = only_submission(&report);
    assert_loses_exactly(submission, &["move"]);
    assert!(case_statuses(submission, "move")
        .iter()
        .all(|s| s == "fail"));
}

#[test]
fn a_crash_costs_the_move_of_the_crashing_cases_only() {
    let report = grade_json(
        "reversi",
        &sample("crash_on_invalid/crash_on_invalid.c"),
        &[],
    );
    let submission = only_submission(&report);
    assert_loses_exactly(submission, &["move"]);
    let statuses = case_statuses(submission, "move");
    assert!(statuses.iter().any(|s| s == "crash"));
    assert!(
        statuses.iter().any(|s| s == "pass"),
        "valid moves still pass"
    );
}

#[test]
fn trailing_spaces_fail_exact_comparison_and_are_named() {
    let report = grade_json("reversi", &sample("trailing_space/trailing_space.c"), &[]);
    let submission = only_submission(&report);
    assert_loses_exactly(submission, &["board", "configuration", "move", "helpers"]);
    let board = submission["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["id"] == "board")
        .expect("board item");
    assert!(board["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .all(|c| c["mismatch"] == "trailing_space"));
}

#[test]
fn a_batch_folder_grades_every_sample_in_name_order() {
    let report = grade_json(
        "reversi",
        &root().join("tests/submissions/reversi"),
        &["--timeout", "0.3"],
    );
    let names: Vec<&str> = report["submissions"]
        .as_array()
        .expect("submissions")
        .iter()
        .map(|s| s["name"].as_str().expect("name"))
        .collect();
    // Every sample folder is one submission, named after the folder, in name order.
    let mut folders: Vec<String> = std::fs::read_dir(root().join("tests/submissions/reversi"))
        .expect("reversi samples")
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    folders.sort();
    assert_eq!(names, folders);
}
