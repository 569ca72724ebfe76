//! One compile of each student file serves the program and the unit-test harness (the
//! harness links the same objects with `main` renamed in their symbol tables): the ways a
//! student writes `main`, a `main` that is `static`, a student function that already has the
//! harness's name for `main`, a header global that needs `-fcommon`, a `.c` file included by
//! another, and sanitizer builds all grade as a compile with `-Dmain=student_main` did.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

fn reference(game: &str, file: &str) -> String {
    std::fs::read_to_string(root().join("reference").join(game).join(file)).expect("reference")
}

/// A reversi Lab6.c that is the model solution with `main`'s definition line replaced.
fn lab6_with_main(dir: &Path, definition: &str) -> PathBuf {
    let model = reference("reversi", "Lab6.c");
    assert!(model.contains("\nint main(void) {"), "the model's main");
    let file = dir.join("Lab6.c");
    std::fs::write(
        &file,
        model.replace("\nint main(void) {", &format!("\n{definition} {{")),
    )
    .expect("write");
    file
}

fn build_log(submission: &Value) -> &str {
    submission["build"]["log"].as_str().expect("a build log")
}

#[test]
fn main_with_or_without_parameters_gets_full_marks() {
    for definition in ["int main(void)", "int main(int argc, char *argv[])"] {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = lab6_with_main(dir.path(), definition);
        let report = grade_json("reversi", &file, &["--no-cache"]);
        let submission = only_submission(&report);
        assert_eq!(submission["build"]["ok"], true, "{definition}");
        assert_loses_exactly(submission, &[]);
    }
}

#[test]
fn a_static_main_fails_the_program_but_not_the_unit_cases() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = lab6_with_main(dir.path(), "static int main(void)");
    let report = grade_json("reversi", &file, &["--no-cache"]);
    let submission = only_submission(&report);
    assert_eq!(submission["build"]["ok"], false);
    assert!(
        build_log(submission).contains("undefined reference to `main'"),
        "{}",
        build_log(submission)
    );
    // The helpers item is all unit cases: the harness linked the static main's object.
    let (score, max) = item_scores(submission)["helpers"];
    assert_eq!(score, max);
    assert!(case_statuses(submission, "board")
        .iter()
        .all(|status| status == "build_error"));
}

#[test]
fn a_student_function_named_like_the_renamed_main_fails_the_harness_as_a_compile_would() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = lab6_with_main(dir.path(), "int main(void)");
    let mut text = std::fs::read_to_string(&file).expect("read");
    text.push_str("int student_main(void) { return 3; }\n");
    std::fs::write(&file, text).expect("write");
    let report = grade_json("reversi", &file, &["--no-cache"]);
    let submission = only_submission(&report);
    assert_eq!(submission["build"]["ok"], true);
    let log = build_log(submission);
    // The compiler's own words: the harness build compiled the file with -Dmain=student_main
    // (a renamed object would have failed at the link instead).
    assert!(
        log.contains("The unit-test harness could not be built")
            && log.contains("redefinition of 'student_main'"),
        "{log}"
    );
    assert!(case_statuses(submission, "helpers")
        .iter()
        .all(|status| status == "build_error"));
}

/// The backgammon model's three files in a student folder of a batch, changed by `edit`.
fn backgammon_student(batch: &Path, edit: impl Fn(&Path)) {
    let student = batch.join("student");
    std::fs::create_dir(&student).expect("mkdir");
    for file in ["backgammon.c", "board.c", "check.c"] {
        std::fs::write(student.join(file), reference("backgammon", file)).expect("write");
    }
    edit(&student);
}

fn prepend(file: &Path, line: &str) {
    let text = std::fs::read_to_string(file).expect("read");
    std::fs::write(file, format!("{line}\n{text}")).expect("write");
}

#[test]
fn a_header_global_links_program_and_harness_with_fcommon() {
    let batch = tempfile::tempdir().expect("tempdir");
    backgammon_student(batch.path(), |student| {
        std::fs::write(student.join("tally.h"), "int moves_tried;\n").expect("write");
        prepend(&student.join("backgammon.c"), "#include \"tally.h\"");
        prepend(&student.join("check.c"), "#include \"tally.h\"");
    });
    let report = grade_json("backgammon", batch.path(), &["--no-cache"]);
    let submission = only_submission(&report);
    let fact = submission["facts"]["linked_with_fcommon"]
        .as_str()
        .expect("the -fcommon fact");
    assert!(fact.contains("moves_tried in tally.h"), "{fact}");
    // Every unit item (check_*) and the games keep their points.
    assert_loses_exactly(submission, &[]);
}

#[test]
fn a_c_file_included_by_another_is_in_both_binaries_once() {
    let batch = tempfile::tempdir().expect("tempdir");
    backgammon_student(batch.path(), |student| {
        let check = std::fs::read_to_string(student.join("check.c")).expect("read");
        std::fs::remove_file(student.join("check.c")).expect("remove");
        std::fs::write(student.join("rules.c"), check).expect("write");
        prepend(&student.join("backgammon.c"), "#include \"rules.c\"");
    });
    let report = grade_json("backgammon", batch.path(), &["--no-cache"]);
    let submission = only_submission(&report);
    assert_eq!(submission["build"]["ok"], true, "{}", build_log(submission));
    assert_loses_exactly(submission, &[]);
}

#[test]
fn sanitizer_builds_share_their_objects_too() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = lab6_with_main(dir.path(), "int main(void)");
    let report = grade_json("reversi", &file, &["--no-cache", "--sanitize"]);
    let submission = only_submission(&report);
    assert_eq!(submission["build"]["ok"], true, "{}", build_log(submission));
    assert_loses_exactly(submission, &[]);
}
