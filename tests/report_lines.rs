//! Lines of the reports that must say what is true (issue 34): an unreadable submission, a
//! program's terminal controls, a negative time limit, `grade .`, the file a Canvas student
//! is graded on, and the order of an LMS export.

mod common;

use std::path::Path;

use common::*;
use serde_json::Value;

fn reference() -> String {
    std::fs::read_to_string(root().join("reference/reversi/Lab6.c")).expect("reference")
}

fn write(path: &Path, bytes: &[u8]) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, bytes).expect("write");
}

fn text_of(args: &[&str], path: &Path) -> String {
    let output = referee()
        .args(["grade", "reversi"])
        .arg(path)
        .args(args)
        .env("REFEREE_COLOR", "never")
        .output()
        .expect("runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

#[test]
fn an_unreadable_submission_gets_its_reason_and_no_facts() {
    let dir = tempfile::tempdir().expect("tempdir");
    let binary = dir.path().join("binary/Lab6.c");
    write(&binary, b"\x7fELF\x02\x01\x01\0\0\0int main(void){}");
    let large = dir.path().join("large/Lab6.c");
    let mut text = reference().into_bytes();
    text.resize(3 << 20, b' ');
    write(&large, &text);
    for (path, reason) in [
        (&binary, "Lab6.c is binary, not C source"),
        (&large, "3 MB: over the 2 MB source limit"),
    ] {
        let report = grade_json("reversi", path, &[]);
        let submission = only_submission(&report);
        assert_eq!(submission["facts"], serde_json::json!({}), "{reason}");
        assert!(submission["build"]["log"]
            .as_str()
            .expect("log")
            .contains(reason));
        let text = text_of(&[], path);
        assert!(text.contains(reason), "{text}");
        assert!(
            !text.contains("NOT defined") && !text.contains("facts:"),
            "{text}"
        );
    }
}

#[test]
fn terminal_controls_a_program_prints_are_written_out_in_the_summary() {
    let dir = tempfile::tempdir().expect("tempdir");
    let path = dir.path().join("Lab6.c");
    let program = "#include <stdio.h>\nint main(void) {\n    printf(\"\\033[2J\\302\\233\\342\\200\\256Enter board configuration:\\n\");\n    return 0;\n}\n";
    write(&path, program.as_bytes());
    let text = text_of(&[], &path);
    for raw in ['\u{1b}', '\u{9b}', '\u{202e}'] {
        assert!(!text.contains(raw), "{raw:?} sent to the terminal: {text}");
    }
    assert!(text.contains("\\u{009b}\\u{202e}Enter board"), "{text}");
}

#[test]
fn a_negative_time_limit_gets_the_real_rule() {
    let output = referee()
        .args([
            "grade",
            "reversi",
            "reference/reversi/Lab6.c",
            "--timeout",
            "-1",
        ])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    assert!(
        stderr.contains("the time limit must be a positive number of seconds"),
        "{stderr}"
    );
    assert!(!stderr.contains("-- -1"), "{stderr}");
}

#[test]
fn grading_the_current_folder_names_it() {
    let dir = tempfile::tempdir().expect("tempdir");
    let student = dir.path().join("janedoe");
    write(&student.join("Lab6.c"), reference().as_bytes());
    let output = referee()
        .args(["grade", "reversi", ".", "--format", "json"])
        .env("REFEREE_ROOT", root())
        .current_dir(&student)
        .output()
        .expect("runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("json");
    assert_eq!(only_submission(&report)["student"], "janedoe");
}

#[test]
fn a_canvas_student_is_named_by_the_upload_graded_and_exports_come_in_name_order() {
    let dir = tempfile::tempdir().expect("tempdir");
    let canvas = dir.path().join("canvas");
    let crash = "int main(void) { int *p = 0; return *p; }\n";
    write(&canvas.join("leecara_1003_5003_Lab6.c"), crash.as_bytes());
    write(&canvas.join("leecara_1003_5003_Lab6-1.c"), crash.as_bytes());
    write(
        &canvas.join("leecara_1003_5003_Lab6-2.c"),
        reference().as_bytes(),
    );
    write(
        &canvas.join("abbotzed_1004_5004_Lab6.c"),
        reference().as_bytes(),
    );
    let report = grade_json("reversi", &canvas, &[]);
    let submissions = report["submissions"].as_array().expect("submissions");
    let students: Vec<&str> = submissions
        .iter()
        .filter_map(|s| s["student"].as_str())
        .collect();
    assert_eq!(students, ["abbotzed", "leecara"]);
    let lee = &submissions[1];
    assert!(lee["path"]
        .as_str()
        .expect("path")
        .ends_with("leecara_1003_5003_Lab6-2.c"));
    assert_eq!(
        lee["score"], lee["max_score"],
        "the latest upload is graded"
    );
    let text = text_of(&[], &canvas);
    assert!(text.contains("leecara_1003_5003_Lab6-2.c)"), "{text}");

    let moodle = dir.path().join("moodle");
    let person = |name: &str| moodle.join(format!("{name}_assignsubmission_file_Lab6.c"));
    write(&person("Zoe Adams_2001"), reference().as_bytes());
    write(&person("Amy Young_2002"), reference().as_bytes());
    let report = grade_json("reversi", &moodle, &[]);
    let students: Vec<&str> = report["submissions"]
        .as_array()
        .expect("submissions")
        .iter()
        .filter_map(|s| s["student"].as_str())
        .collect();
    assert_eq!(students, ["Amy Young", "Zoe Adams"]);
}
