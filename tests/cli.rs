//! The command-line contract: commands, the JSON report's shape, and one-line errors with
//! exit status 2 for bad input to referee itself.

mod common;

use std::path::Path;

use common::*;
use predicates::prelude::*;
use serde_json::Value;

/// Copies the reversi spec and cases into a fresh root that a test may break.
fn scratch_root() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for sub in ["specs/reversi", "cases/reversi"] {
        let from = root().join(sub);
        let to = dir.path().join(sub);
        std::fs::create_dir_all(&to).expect("mkdir");
        for entry in std::fs::read_dir(&from).expect("read_dir") {
            let entry = entry.expect("entry");
            std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
        }
    }
    dir
}

fn assert_one_line_error(output: &std::process::Output, needle: &str) {
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "one line: {stderr}");
    assert!(stderr.contains(needle), "{needle:?} not in {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
}

#[test]
fn the_json_report_follows_the_contract() {
    let report = grade_json(
        "reversi",
        &root().join("tests/submissions/reversi/missing_newline/missing_newline.c"),
        &[],
    );
    assert_eq!(report["game"], "reversi");
    let s = only_submission(&report);
    assert_eq!(s["name"], "missing_newline");
    assert!(s["path"]
        .as_str()
        .is_some_and(|p| p.ends_with("missing_newline.c")));
    assert_eq!(s["score"].as_f64(), Some(4.5));
    assert_eq!(s["max_score"].as_f64(), Some(6.0));
    assert_eq!(s["build"]["ok"], Value::Bool(true));
    assert!(s["build"]["log"].is_string());
    assert!(s["facts"].is_object());
    let items = s["items"].as_array().expect("items");
    let ids: Vec<&str> = items
        .iter()
        .map(|i| i["id"].as_str().expect("id"))
        .collect();
    assert_eq!(
        ids,
        [
            "board",
            "configuration",
            "available_moves",
            "move",
            "helpers",
            "style",
            "questions"
        ]
    );
    let style = &items[5];
    assert_eq!(style["manual"], Value::Bool(true));
    assert_eq!(style["score"], Value::Null);
    let statuses = [
        "pass",
        "fail",
        "timeout",
        "crash",
        "output_limit",
        "build_error",
    ];
    for item in items {
        for case in item["cases"].as_array().expect("cases") {
            let keys: Vec<&String> = case.as_object().expect("object").keys().collect();
            assert_eq!(keys, ["diff", "mismatch", "name", "status"]);
            assert!(statuses.contains(&case["status"].as_str().expect("status")));
        }
    }
    let failing = items[3]["cases"].as_array().expect("move cases");
    assert!(failing
        .iter()
        .all(|c| c["status"] == "fail" && c["mismatch"] == "content"));
    assert!(failing[0]["diff"]
        .as_str()
        .expect("diff")
        .contains("+Enter a move:Valid move."));
}

#[test]
fn a_failing_case_shows_its_input_and_a_unified_diff() {
    referee()
        .args([
            "grade",
            "reversi",
            "tests/submissions/reversi/missing_newline/missing_newline.c",
            "--case",
            "direction-north-west",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "move                   0 / 1.5  0/57",
        ))
        .stdout(predicate::str::contains("input:\n      10\n      Bcg\n"))
        .stdout(predicate::str::contains(
            "-Enter a move:\n    -Valid move.\n    +Enter a move:Valid move.",
        ))
        .stdout(predicate::str::contains("1 submission graded"));
}

#[test]
fn expect_prints_the_reference_transcript() {
    referee()
        .args(["expect", "reversi", "handout-sample-4x4"])
        .assert()
        .success()
        .stdout(predicate::str::starts_with(
            "Enter the board dimension:   abcd\na UUUU\n",
        ))
        .stdout(predicate::str::ends_with("c WWWU\nd UWUU\n"));
    referee()
        .args([
            "expect",
            "reversi",
            "handout-sample-4x4",
            "--input",
            "--tags",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "# stdin:\n4\nBba\nWca\nBac\n!!!\nWdb\n",
        ))
        .stdout(predicate::str::contains(
            "available_moves | Available moves for W:",
        ));
}

#[test]
fn cases_lists_every_case_with_its_items() {
    referee()
        .args(["cases", "reversi"])
        .assert()
        .success()
        .stdout(predicate::str::contains("direction-south-east"))
        .stdout(predicate::str::contains("unit     helpers"))
        .stdout(predicate::str::contains("106 cases"));
}

#[test]
fn check_reference_passes_and_require_full_fails_a_buggy_submission() {
    referee()
        .args(["check-reference", "reversi"])
        .assert()
        .code(0)
        .stdout(predicate::str::contains("6 / 6 auto-graded points"));
    referee()
        .args([
            "grade",
            "reversi",
            "tests/submissions/reversi/wrong_list_order/wrong_list_order.c",
            "--require-full",
        ])
        .assert()
        .code(1);
}

#[test]
fn a_report_can_be_written_to_a_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let out = dir.path().join("report.json");
    referee()
        .args([
            "grade",
            "reversi",
            "reference/reversi/Lab6.c",
            "--format",
            "json",
            "-o",
        ])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("1 with full marks"));
    let report: Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("written")).expect("json");
    assert_eq!(report["submissions"][0]["score"].as_f64(), Some(6.0));
}

#[test]
fn a_non_c_file_is_a_one_line_error() {
    let output = referee()
        .args(["grade", "reversi", "Cargo.toml"])
        .output()
        .expect("runs");
    assert_one_line_error(&output, "Cargo.toml: not a submission");
}

#[test]
fn a_missing_path_is_a_one_line_error() {
    let output = referee()
        .args(["grade", "reversi", "no/such/Lab6.c"])
        .output()
        .expect("runs");
    assert_one_line_error(&output, "no/such/Lab6.c: no such file or folder");
}

#[test]
fn an_empty_folder_is_a_one_line_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let output = referee()
        .args(["grade", "reversi"])
        .arg(dir.path())
        .output()
        .expect("runs");
    assert_one_line_error(&output, "no submissions found");
}

#[test]
fn a_broken_case_file_is_a_one_line_error_naming_it() {
    let scratch = scratch_root();
    let file = scratch.path().join("cases/reversi/program.toml");
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, text.replacen("n = 4", "n = \"four\"", 1)).expect("write");
    let output = referee()
        .arg("--root")
        .arg(scratch.path())
        .args(["grade", "reversi", "reference/reversi/Lab6.c"])
        .output()
        .expect("runs");
    assert_one_line_error(&output, "program.toml: case 'handout-sample-4x4'");

    std::fs::write(&file, "[[case]\nname = ").expect("write");
    let output = referee()
        .arg("--root")
        .arg(scratch.path())
        .args(["cases", "reversi"])
        .output()
        .expect("runs");
    assert_one_line_error(&output, "program.toml: line 1");
}

#[test]
fn an_odd_board_in_a_case_is_rejected_by_the_reference() {
    let scratch = scratch_root();
    let file = scratch.path().join("cases/reversi/program.toml");
    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, text.replacen("n = 4", "n = 5", 1)).expect("write");
    let output = referee()
        .arg("--root")
        .arg(scratch.path())
        .args(["cases", "reversi"])
        .output()
        .expect("runs");
    assert_one_line_error(&output, "the dimension must be even");
}

#[test]
fn a_missing_compiler_is_a_one_line_error() {
    let output = referee()
        .env("CC", "/nonexistent/bin/cc")
        .args(["grade", "reversi", "reference/reversi/Lab6.c"])
        .output()
        .expect("runs");
    assert_one_line_error(&output, "no C compiler found");
}

#[test]
fn an_unknown_game_or_case_is_a_usage_error() {
    referee()
        .args(["grade", "chess", "x.c"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("invalid value 'chess'"));
    let output = referee()
        .args(["expect", "reversi", "no-such-case"])
        .output()
        .expect("runs");
    assert_one_line_error(&output, "no case named 'no-such-case'");
}

#[test]
fn submissions_that_cannot_build_are_reported_without_stopping_the_batch() {
    let dir = tempfile::tempdir().expect("tempdir");
    let batch = dir.path();
    std::fs::write(batch.join("empty.c"), "").expect("write");
    std::fs::write(batch.join("binary.c"), [0x7f, b'E', b'L', b'F', 0, 1, 2]).expect("write");
    std::fs::write(batch.join("syntax.c"), "int main(void) { return 0 }\n").expect("write");
    std::fs::copy(
        root().join("reference/reversi/Lab6.c"),
        batch.join("good.c"),
    )
    .expect("copy");
    let report = grade_json("reversi", batch, &[]);
    let by_name = |name: &str| -> Value {
        report["submissions"]
            .as_array()
            .expect("submissions")
            .iter()
            .find(|s| s["name"] == name)
            .cloned()
            .expect("present")
    };
    for (name, reason) in [
        ("empty", "is empty"),
        ("binary", "is binary"),
        ("syntax", "error"),
    ] {
        let s = by_name(name);
        assert_eq!(s["build"]["ok"], Value::Bool(false), "{name}");
        assert!(
            s["build"]["log"].as_str().expect("log").contains(reason),
            "{name}: {s}"
        );
        assert_eq!(s["score"].as_f64(), Some(0.0));
        assert!(case_statuses(&s, "board")
            .iter()
            .all(|c| c == "build_error"));
    }
    assert_eq!(by_name("good")["score"].as_f64(), Some(6.0));
    assert!(Path::new(batch).join("good.c").exists());
}

#[test]
fn sanitize_reports_an_out_of_bounds_read_with_its_source_line() {
    referee()
        .args([
            "grade",
            "reversi",
            "tests/sanitize/oob_read.c",
            "--sanitize",
            "--all",
        ])
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "ended: Aborted (assert or abort()) (SIGABRT)",
        ))
        .stdout(predicate::str::contains(
            "ERROR: AddressSanitizer: stack-buffer-overflow",
        ))
        .stdout(predicate::str::contains("in checkLegalInDirection"))
        .stdout(predicate::str::contains("oob_read.c:"));
}

#[test]
fn regrading_reuses_cached_builds_and_a_changed_source_is_rebuilt() {
    let dir = tempfile::tempdir().expect("tempdir");
    let cache = dir.path().join("cache");
    let file = dir.path().join("Lab6.c");
    std::fs::copy(root().join("reference/reversi/Lab6.c"), &file).expect("copy");
    // Builds are the cache's entries besides `runs/` (the kept runs).
    let entries = || {
        std::fs::read_dir(&cache).map_or(0, |d| {
            d.filter(|e| e.as_ref().is_ok_and(|e| e.file_name() != "runs"))
                .count()
        })
    };
    let cache_arg = cache.to_string_lossy().into_owned();
    let first = grade_json("reversi", &file, &["--cache", &cache_arg]);
    assert_eq!(entries(), 2, "the program and the unit harness");
    let second = grade_json("reversi", &file, &["--cache", &cache_arg]);
    assert_eq!(entries(), 2, "nothing new was built");
    assert_eq!(first, second);

    let text = std::fs::read_to_string(&file).expect("read");
    std::fs::write(&file, format!("/* edited */\n{text}")).expect("write");
    grade_json("reversi", &file, &["--cache", &cache_arg]);
    assert_eq!(entries(), 4, "an edited source is built again");
    grade_json("reversi", &file, &["--no-cache"]);
    assert_eq!(entries(), 4, "--no-cache keeps nothing");
}

#[test]
fn limits_can_be_overridden_on_the_command_line() {
    // 1 KiB of output is less than a 26x26 game prints: those cases hit the limit.
    let report = grade_json(
        "reversi",
        &root().join("reference/reversi/Lab6.c"),
        &["--output-limit", "1", "--memory", "256"],
    );
    let submission = only_submission(&report);
    assert!(case_statuses(submission, "move")
        .iter()
        .any(|s| s == "output_limit"));
    assert!(case_statuses(submission, "board")
        .iter()
        .any(|s| s == "pass"));
    referee()
        .args([
            "grade",
            "reversi",
            "reference/reversi/Lab6.c",
            "--memory",
            "1",
        ])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("--memory"));
}

/// Without root, runs are isolated in a user namespace, also for a user whose group id
/// differs from the user id (the run's /tmp belongs to the user's own uid and gid, the only
/// ids the namespace maps). CI runs as root and drops to uid 65534, gid 100 with setpriv.
#[test]
fn without_root_runs_are_isolated_in_a_user_namespace() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch_root();
    let binary = dir.path().join("referee");
    std::fs::copy(assert_cmd::cargo::cargo_bin("referee"), &binary).expect("copy referee");
    std::fs::copy(
        root().join("reference/reversi/Lab6.c"),
        dir.path().join("Lab6.c"),
    )
    .expect("copy the model");
    let open = std::fs::Permissions::from_mode(0o777);
    std::fs::set_permissions(dir.path(), open.clone()).expect("chmod");
    let output = std::process::Command::new("setpriv")
        .args(["--reuid=65534", "--regid=100", "--clear-groups"])
        .arg(&binary)
        .args([
            "grade",
            "reversi",
            "Lab6.c",
            "--no-cache",
            "--format",
            "json",
        ])
        .arg("--root")
        .arg(dir.path())
        .current_dir(dir.path())
        .env("HOME", dir.path())
        .env("TMPDIR", dir.path())
        .output()
        .expect("setpriv runs (the tests run as root)");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let sandbox = report["sandbox"].as_str().expect("sandbox");
    assert!(sandbox.starts_with("user namespace"), "{sandbox}");
    let submission = only_submission(&report);
    assert_eq!(submission["score"], submission["max_score"]);
}

#[test]
fn a_spec_time_limit_of_zero_is_refused() {
    let scratch = scratch_root();
    let file = scratch.path().join("specs/reversi/spec.toml");
    let text = std::fs::read_to_string(&file).expect("read");
    let line = text
        .lines()
        .find(|l| l.starts_with("timeout = "))
        .expect("the spec sets a time limit");
    std::fs::write(&file, text.replacen(line, "timeout = 0.0", 1)).expect("write");
    let output = referee()
        .arg("--root")
        .arg(scratch.path())
        .args(["grade", "reversi", "reference/reversi/Lab6.c"])
        .output()
        .expect("runs");
    assert_one_line_error(&output, "spec.toml: limits.timeout = 0");
}

#[test]
fn a_report_never_overwrites_a_file_being_graded_or_any_c_source() {
    let dir = tempfile::tempdir().expect("tempdir");
    let model = std::fs::read(root().join("reference/reversi/Lab6.c")).expect("model");
    let lab = dir.path().join("Lab6.c");
    std::fs::write(&lab, &model).expect("write");
    let header = dir.path().join("board.h");
    std::fs::write(&header, "int n;\n").expect("write");
    let student = dir.path().join("alice");
    std::fs::create_dir(&student).expect("mkdir");
    std::fs::write(student.join("Lab6.c"), &model).expect("write");
    let notes = student.join("notes.txt");
    std::fs::write(&notes, "mine\n").expect("write");
    let cases: [(&Path, &Path, &str); 3] = [
        (&lab, &lab, "Lab6.c: an existing C source file"),
        (&lab, &header, "board.h: an existing C source file"),
        (&student, &notes, "notes.txt: a file being graded"),
    ];
    for (graded, target, needle) in cases {
        let before = std::fs::read(target).expect("read");
        let output = referee()
            .args(["grade", "reversi", "--format", "json"])
            .arg(graded)
            .arg("-o")
            .arg(target)
            .output()
            .expect("runs");
        assert_one_line_error(&output, needle);
        assert_eq!(std::fs::read(target).expect("read"), before, "{needle}");
    }
    let output = referee()
        .args([
            "grade",
            "reversi",
            "--gradebook",
            "canvas",
            "--gradebook-file",
        ])
        .arg(&lab)
        .arg(&lab)
        .output()
        .expect("runs");
    assert_one_line_error(&output, "Lab6.c: an existing C source file");
    let output = referee()
        .args(["grade", "reversi", "--feedback"])
        .arg(student.join("out"))
        .arg(&student)
        .output()
        .expect("runs");
    assert_one_line_error(&output, "--feedback inside the submissions being graded");
}

#[test]
fn feedback_never_writes_through_a_link_out_of_its_folder() {
    let dir = tempfile::tempdir().expect("tempdir");
    let feedback = dir.path().join("feedback");
    std::fs::create_dir(&feedback).expect("mkdir");
    let outside = dir.path().join("keep.txt");
    std::fs::write(&outside, "keep\n").expect("write");
    std::os::unix::fs::symlink(&outside, feedback.join("Lab6.txt")).expect("symlink");
    let output = referee()
        .args([
            "grade",
            "reversi",
            "reference/reversi/Lab6.c",
            "--feedback-format",
            "text",
        ])
        .arg("--feedback")
        .arg(&feedback)
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("a symbolic link"));
    assert_eq!(std::fs::read_to_string(&outside).expect("read"), "keep\n");
}
