//! Trouble (ECE 209 Program 1) graded end to end: the model solution, the template itself and
//! realistic buggy submissions, each losing points only in the items where its bug lives.

mod common;

use common::*;
use serde_json::Value;

fn sample(name: &str) -> std::path::PathBuf {
    root().join("tests/submissions/trouble").join(name)
}

fn grade_sample(name: &str) -> Value {
    grade_json("trouble", &sample(name), &[])
}

/// Names of the cases of one item with the given status.
fn cases_with_status(submission: &Value, item: &str, status: &str) -> Vec<String> {
    submission["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["id"] == item)
        .expect("item present")["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| c["status"] == status)
        .map(|c| c["name"].as_str().expect("name").to_string())
        .collect()
}

#[test]
fn the_model_solution_gets_full_marks() {
    let report = grade_json("trouble", &root().join("reference/trouble/main.c"), &[]);
    let submission = only_submission(&report);
    assert_eq!(submission["max_score"].as_f64(), Some(80.0));
    assert_eq!(submission["score"], submission["max_score"]);
    assert_loses_exactly(submission, &[]);
    assert_eq!(submission["facts"]["globals"], serde_json::json!([]));
    assert_eq!(submission["facts"]["uses_goto"], 0);
}

#[test]
fn a_sanitizer_build_does_not_flag_the_templates_shift_overflow() {
    let report = grade_json(
        "trouble",
        &root().join("reference/trouble/main.c"),
        &["--sanitize"],
    );
    let submission = only_submission(&report);
    assert_eq!(submission["score"].as_f64(), Some(80.0));
    assert_loses_exactly(submission, &[]);
}

#[test]
fn the_template_as_handed_out_keeps_only_compiles() {
    let report = grade_sample("template_stubs/template_stubs.c");
    let submission = only_submission(&report);
    assert_loses_exactly(
        submission,
        &[
            "initializeBoard",
            "printStatus",
            "printMoves",
            "checkWin",
            "movePiece",
            "playerTurn",
        ],
    );
    // Without -DNDEBUG the template's start-up asserts stop every game.
    assert!(case_statuses(submission, "playerTurn")
        .iter()
        .all(|s| s == "crash"));
}

#[test]
fn a_win_at_three_pieces_loses_check_win() {
    let report = grade_sample("checkwin_three_pieces/checkwin_three_pieces.c");
    let submission = only_submission(&report);
    assert_loses_exactly(submission, &["checkWin", "playerTurn"]);
    let failed = cases_with_status(submission, "checkWin", "fail");
    assert!(
        failed.iter().all(|name| name.contains("three")),
        "{failed:?}"
    );
}

#[test]
fn an_incomplete_initialize_board_keeps_compiles_thanks_to_ndebug() {
    let report = grade_sample("init_forgets_ring/init_forgets_ring.c");
    let submission = only_submission(&report);
    assert_loses_exactly(submission, &["initializeBoard", "playerTurn"]);
    assert!(case_statuses(submission, "playerTurn")
        .iter()
        .all(|s| s == "crash"));
}

#[test]
fn an_extra_global_and_a_goto_are_reported_not_scored() {
    let report = grade_sample("extra_global_goto/extra_global_goto.c");
    let submission = only_submission(&report);
    assert_loses_exactly(submission, &[]);
    assert_eq!(
        submission["facts"]["globals"],
        serde_json::json!(["gLastRoll"])
    );
    assert_eq!(submission["facts"]["uses_goto"], 1);
}

#[test]
fn a_debug_print_in_move_piece_loses_move_piece_and_games() {
    let report = grade_sample("move_prints_debug/move_prints_debug.c");
    let submission = only_submission(&report);
    assert_loses_exactly(submission, &["movePiece", "playerTurn"]);
    assert!(case_statuses(submission, "movePiece")
        .iter()
        .all(|s| s == "fail"));
}
