//! Grade only what the handout states: a check function's change to the board is a fact, end
//! of input is never graded, a signature that differs from the handout's gets one clear
//! status, helpers are caught reading past the board, and a required helper never used
//! loses its share. Each sample folder holds its `expected.toml`.

mod common;

use common::{case_statuses, grade_json, only_submission, referee, root, Expected};
use serde_json::Value;

/// Grades the sample and checks its expected.toml (as `tests/samples.rs` does for every
/// sample); returns the submission's report for the checks of its own test.
fn grade_sample(game: &str, name: &str) -> Value {
    let path = root().join("tests/submissions").join(game).join(name);
    let expected = Expected::load(&path.join("expected.toml"));
    let report = grade_json(game, &path, &expected.arg_strs());
    let submission = only_submission(&report).clone();
    let problems = expected.problems(name, &submission);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    submission
}

fn text_report(game: &str, name: &str) -> String {
    let path = root().join("tests/submissions").join(game).join(name);
    let output = referee()
        .args(["grade", game])
        .arg(path)
        .env("REFEREE_COLOR", "never")
        .output()
        .expect("referee runs");
    assert_eq!(output.status.code(), Some(0));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

#[test]
fn a_check_move_that_makes_the_move_keeps_full_marks_and_the_change_is_a_fact() {
    let submission = grade_sample("backgammon", "check-move-moves-piece");
    let side_effects = submission["facts"]["side_effects"]
        .as_object()
        .expect("a side_effects fact");
    assert_eq!(
        side_effects.keys().collect::<Vec<_>>(),
        ["check_move"],
        "only check_move changes the board"
    );
    let said = side_effects["check_move"].as_str().expect("text");
    assert!(said.contains("not graded"), "{said}");
    assert!(said.contains("changed the_board_"), "{said}");
}

#[test]
fn the_model_solutions_change_nothing_in_unit_cases() {
    for game in ["backgammon", "trouble", "reversi"] {
        let report = grade_json(game, &root().join("reference").join(game), &[]);
        let submission = only_submission(&report);
        assert_eq!(
            submission["facts"].get("side_effects"),
            None,
            "{game}: the model solution changes nothing it should not"
        );
        assert_eq!(submission["facts"].get("signatures"), None, "{game}");
    }
}

#[test]
fn a_trouble_program_that_ignores_end_of_input_keeps_full_marks() {
    grade_sample("trouble", "no-eof-handling");
}

#[test]
fn lab7_signatures_get_one_clear_status_not_a_diff() {
    let submission = grade_sample("reversi", "lab7-int-coordinates");
    let signatures = &submission["facts"]["signatures"];
    assert_eq!(
        signatures["positionInBounds"],
        "signature differs from the handout: `bool positionInBounds(int n, int row, int col)`, \
         expected `bool positionInBounds(int n, char row, char col)`"
    );
    assert!(signatures["checkLegalInDirection"].is_string());
    assert!(signatures.get("printBoard").is_none());
    // Every case of the two helpers has that status and no diff; printBoard's still pass.
    let helpers = submission["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["id"] == "helpers")
        .expect("helpers item");
    for case in helpers["cases"].as_array().expect("cases") {
        let name = case["name"].as_str().expect("name");
        let expected = if name.starts_with("printBoard") {
            "pass"
        } else {
            "build_error"
        };
        assert_eq!(case["status"], expected, "{name}");
        assert_eq!(case["diff"], "", "{name}");
    }
    let text = text_report("reversi", "lab7-int-coordinates");
    assert!(text.contains("ended: not run: signature differs from the handout: `bool positionInBounds(int n, int row, int col)`"));
}

#[test]
fn a_direction_helper_without_bounds_check_is_caught_reading_past_the_edge() {
    let submission = grade_sample("reversi", "no-bounds-check-in-direction");
    let helpers = submission["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["id"] == "helpers")
        .expect("helpers item");
    let failing: Vec<&str> = helpers["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .filter(|c| c["status"] != "pass")
        .filter_map(|c| c["name"].as_str())
        .collect();
    // Every edge: the tiles outside the board and the unmapped page below row z.
    for edge in [
        "checkLegal-run-to-edge",
        "checkLegal-run-to-west-edge",
        "checkLegal-run-to-north-edge",
        "checkLegal-run-to-south-edge",
        "checkLegal-run-to-corner-zz",
    ] {
        assert!(failing.contains(&edge), "{edge} not caught: {failing:?}");
    }
    assert!(case_statuses(&submission, "helpers").contains(&"crash".to_string()));
}

#[test]
fn a_required_helper_never_called_loses_its_share_with_the_reason() {
    let submission = grade_sample("reversi", "bounds-helper-never-called");
    assert_eq!(
        submission["facts"]["helpers"]["positionInBounds"]["called"],
        false
    );
    let helpers = submission["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["id"] == "helpers")
        .expect("helpers item");
    for case in helpers["cases"].as_array().expect("cases") {
        let name = case["name"].as_str().expect("name");
        let expected = if name.starts_with("positionInBounds") {
            "fail"
        } else {
            "pass"
        };
        assert_eq!(case["status"], expected, "{name}");
    }
    let text = text_report("reversi", "bounds-helper-never-called");
    assert!(text.contains(
        "not run: positionInBounds is defined but never called from your code; the handout requires its use"
    ));
}
