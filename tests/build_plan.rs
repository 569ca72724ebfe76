//! Submissions built as a TA would: which files are compiled, which are left out and why,
//! batch entries that are not graded, links never followed, and the paths referee is given.

mod common;

use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

/// The items a sample's `expected.toml` says must lose points.
fn expected_losses(sample: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(sample.join("expected.toml")).expect("expected.toml");
    let expected: toml::Value = toml::from_str(&text).expect("expected.toml parses");
    expected["loses"]
        .as_array()
        .expect("a loses list")
        .iter()
        .map(|item| item.as_str().expect("an item id").to_string())
        .collect()
}

/// Grades a sample folder as one student's folder in a batch (a folder of a one-file
/// assignment given directly is a batch of its `.c` files) and checks its expected.toml.
fn grade_sample(game: &str, name: &str) -> Value {
    let sample = root().join("tests/submissions").join(game).join(name);
    let batch = tempfile::tempdir().expect("tempdir");
    let student = batch.path().join(name);
    std::fs::create_dir(&student).expect("mkdir");
    for entry in std::fs::read_dir(&sample).expect("the sample").flatten() {
        std::fs::copy(entry.path(), student.join(entry.file_name())).expect("copied");
    }
    let report = grade_json(game, batch.path(), &["--no-cache"]);
    let submission = only_submission(&report).clone();
    let losses = expected_losses(&sample);
    let losses: Vec<&str> = losses.iter().map(String::as_str).collect();
    assert_loses_exactly(&submission, &losses);
    submission
}

#[test]
fn a_ludo_main_that_includes_logic_c_is_built_from_main_c_alone() {
    let submission = grade_sample("ludo", "main-includes-logic");
    assert_eq!(submission["build"]["ok"], true);
}

#[test]
fn a_global_defined_in_a_header_links_with_fcommon_and_says_so() {
    let submission = grade_sample("ludo", "header-global");
    let fact = submission["facts"]["linked_with_fcommon"]
        .as_str()
        .expect("the -fcommon fact");
    assert!(fact.contains("rounds_played in types.h"), "{fact}");
}

#[test]
fn a_one_file_assignment_grades_lab6_c_and_lists_the_other_file_as_ignored() {
    let submission = grade_sample("reversi", "lab6-beside-test-main");
    let ignored = submission["ignored"].as_array().expect("an ignored list");
    assert_eq!(ignored.len(), 1);
    assert_eq!(ignored[0]["file"], "test.c");
    // Gradescope gets the folder as one submission and says what it left out.
    let sample = root().join("tests/submissions/reversi/lab6-beside-test-main");
    let output = referee()
        .args(["grade", "reversi"])
        .arg(&sample)
        .args(["--format", "gradescope", "--no-cache"])
        .output()
        .expect("referee runs");
    assert_eq!(output.status.code(), Some(0));
    let results: Value = serde_json::from_slice(&output.stdout).expect("results.json");
    assert_eq!(results["score"].as_f64(), Some(6.0));
    let overview = results["output"].as_str().expect("output");
    assert!(overview.contains("ignored test.c"), "{overview}");
}

/// Runs `referee grade` with every report format into `out`; exit status and stderr.
fn grade_all_formats(game: &str, path: &Path, out: &Path) -> (Option<i32>, String) {
    let output = referee()
        .args(["grade", game])
        .arg(path)
        .args(["--format", "text,json,csv,junit,html", "--no-cache", "-o"])
        .arg(format!("{}/", out.display()))
        .output()
        .expect("referee runs");
    (
        output.status.code(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn reports(out: &Path) -> Vec<(String, String)> {
    ["txt", "json", "csv", "junit.xml", "html"]
        .iter()
        .map(|ending| {
            let name = format!("report.{ending}");
            let text = std::fs::read_to_string(out.join(&name)).expect("the report was written");
            (name, text)
        })
        .collect()
}

fn write(path: PathBuf, bytes: &[u8]) -> PathBuf {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(&path, bytes).expect("write");
    path
}

const SECRET: &str = "SECRET-MARKER-root:x:0:0";

#[test]
fn batch_entries_not_graded_are_listed_in_every_report_and_links_are_not_followed() {
    let work = tempfile::tempdir().expect("tempdir");
    let batch = work.path().join("batch");
    let model = std::fs::read(root().join("reference/reversi/Lab6.c")).expect("model");
    write(batch.join("ann.c"), &model);
    write(batch.join("bo.cpp"), b"int main() { return 0; }\n");
    write(batch.join("notes.txt"), b"late by a day\n");
    write(batch.join("cy.tar.gz"), b"\x1f\x8b not really");
    write(batch.join("blank"), b"");
    std::fs::create_dir(batch.join("dee")).expect("mkdir");
    let secret = write(work.path().join("outside/secret.c"), SECRET.as_bytes());
    std::os::unix::fs::symlink(&secret, batch.join("eve.c")).expect("symlink");
    let out = work.path().join("out");
    let (status, stderr) = grade_all_formats("reversi", &batch, &out);
    assert_eq!(status, Some(0), "{stderr}");
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("report.json")).expect("report.json"),
    )
    .expect("JSON");
    assert_eq!(json["submissions"].as_array().map(Vec::len), Some(1));
    let skipped = json["skipped"].as_array().expect("a skipped list");
    let expected = [
        ("blank", "empty file"),
        ("bo.cpp", "C++"),
        ("cy.tar.gz", ".tar.gz archive"),
        ("dee", "empty folder"),
        ("eve.c", "symbolic link"),
        ("notes.txt", "not C source"),
    ];
    assert_eq!(skipped.len(), expected.len(), "{skipped:?}");
    for ((name, reason), entry) in expected.iter().zip(skipped) {
        let path = entry["path"].as_str().expect("path");
        assert!(path.ends_with(name), "{path}");
        assert!(
            entry["reason"].as_str().expect("reason").contains(reason),
            "{entry}"
        );
    }
    for (report, text) in reports(&out) {
        for (name, _) in expected {
            assert!(text.contains(name), "{report} does not list {name}");
        }
        assert!(!text.contains(SECRET), "{report} shows the linked file");
    }
    assert!(stderr.contains("6 entries not graded"), "{stderr}");
}

#[test]
fn a_link_inside_a_multi_file_submission_is_never_read() {
    let work = tempfile::tempdir().expect("tempdir");
    let folder = work.path().join("dora");
    for name in ["backgammon.c", "board.c", "check.c"] {
        let text = std::fs::read(root().join("reference/backgammon").join(name)).expect("model");
        write(folder.join(name), &text);
    }
    let secret = write(work.path().join("outside/passwd"), SECRET.as_bytes());
    std::os::unix::fs::symlink(&secret, folder.join("secret.c")).expect("symlink");
    let out = work.path().join("out");
    let (status, stderr) = grade_all_formats("backgammon", &folder, &out);
    assert_eq!(status, Some(0), "{stderr}");
    let json: Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("report.json")).expect("report.json"),
    )
    .expect("JSON");
    let submission = only_submission(&json);
    assert_eq!(submission["score"], submission["max_score"]);
    assert_eq!(submission["ignored"][0]["file"], "secret.c");
    for (report, text) in reports(&out) {
        assert!(text.contains("secret.c"), "{report} does not list secret.c");
        assert!(!text.contains(SECRET), "{report} shows the linked file");
    }
}

#[test]
fn a_relative_root_is_resolved_against_the_current_folder() {
    for by_variable in [false, true] {
        let mut command = referee();
        command.current_dir(root().join("tests"));
        if by_variable {
            command.env("REFEREE_ROOT", "..");
        } else {
            command.args(["--root", ".."]);
        }
        let output = command
            .args(["grade", "reversi", "../reference/reversi/Lab6.c"])
            .args(["--format", "json", "--no-cache"])
            .output()
            .expect("referee runs");
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        let submission = only_submission(&report);
        assert_loses_exactly(submission, &[]);
    }
}

#[test]
fn a_missing_harness_is_a_configuration_error_not_a_build_error() {
    let work = tempfile::tempdir().expect("tempdir");
    for folder in ["specs/reversi", "cases/reversi"] {
        let from = root().join(folder);
        for entry in std::fs::read_dir(&from).expect("read").flatten() {
            if entry.file_name() != "harness.c" {
                let text = std::fs::read(entry.path()).expect("read");
                write(work.path().join(folder).join(entry.file_name()), &text);
            }
        }
    }
    let output = referee()
        .arg("--root")
        .arg(work.path())
        .args(["grade", "reversi"])
        .arg(root().join("reference/reversi/Lab6.c"))
        .output()
        .expect("referee runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("harness.c: missing"), "{stderr}");
    assert!(output.stdout.is_empty());
}

#[test]
fn an_output_that_cannot_be_written_is_refused_before_grading() {
    let work = tempfile::tempdir().expect("tempdir");
    let not_a_folder = write(work.path().join("grades"), b"a file, not a folder\n");
    let target = not_a_folder.join("report.json");
    let output = referee()
        .args([
            "grade",
            "reversi",
            "reference/reversi/Lab6.c",
            "--format",
            "json",
        ])
        .arg("-o")
        .arg(&target)
        .output()
        .expect("referee runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("grades: cannot create the folder"),
        "{stderr}"
    );
    // The check comes first: nothing was graded, so nothing says so.
    assert!(!stderr.contains("graded"), "{stderr}");
    assert!(output.stdout.is_empty());
}
