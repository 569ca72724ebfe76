//! Output with Windows line endings (`\r\n`) is graded as the text it ends, with a note
//! "line endings (CRLF)" on the submission, never as "extra space" (specs/README.md,
//! "Line endings"). Each program here is a correct or buggy C file with every `\n` of its
//! string literals turned into `\r\n`, graded beside the original.

mod common;

use std::path::Path;

use common::*;
use serde_json::Value;

/// `from` with every `\n` escape of its C source written as `\r\n`, saved as `dir/name`.
fn with_crlf(from: &Path, dir: &Path, name: &str) -> std::path::PathBuf {
    let text = std::fs::read_to_string(from).expect("C source");
    assert!(text.contains("\\n"), "{} prints newlines", from.display());
    let folder = dir.join(from.file_stem().expect("stem"));
    std::fs::create_dir_all(&folder).expect("mkdir");
    let path = folder.join(name);
    std::fs::write(&path, text.replace("\\n", "\\r\\n")).expect("write");
    path
}

fn text_report(game: &str, path: &Path) -> String {
    let output = referee()
        .args(["grade", game, "--all"])
        .arg(path)
        .env("REFEREE_COLOR", "never")
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(0));
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn notes(submission: &Value) -> Vec<String> {
    submission["notes"]
        .as_array()
        .expect("notes")
        .iter()
        .filter_map(|n| n.as_str().map(String::from))
        .collect()
}

/// Both games have program cases (a whole game for trouble) and unit cases whose harness
/// calls a printing function of the student's (`printBoard`, `printMoves`, `printStatus`).
#[test]
fn crlf_output_of_a_correct_program_keeps_full_marks_with_a_note() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (game, file) in [("reversi", "Lab6.c"), ("trouble", "main.c")] {
        let path = with_crlf(
            &root().join("reference").join(game).join(file),
            dir.path(),
            file,
        );
        let report = grade_json(game, &path, &[]);
        let submission = only_submission(&report);
        assert_eq!(submission["score"], submission["max_score"], "{game}");
        assert!(
            notes(submission)
                .iter()
                .any(|n| n.starts_with("line endings (CRLF)")),
            "{game}: {:?}",
            notes(submission)
        );
        let text = text_report(game, &path);
        assert!(text.contains("line endings (CRLF)"), "{game}: {text}");
        assert!(!text.contains("extra space"), "{game}: {text}");
    }
}

#[test]
fn crlf_output_of_a_buggy_program_loses_what_its_lf_output_loses() {
    let dir = tempfile::tempdir().expect("tempdir");
    for (game, sample, file) in [
        ("reversi", "no_diagonals", "no_diagonals.c"),
        ("trouble", "no_roll_again", "no_roll_again.c"),
    ] {
        let original = root()
            .join("tests/submissions")
            .join(game)
            .join(sample)
            .join(file);
        let crlf = with_crlf(&original, dir.path(), file);
        let lf = only_submission(&grade_json(game, &original, &[])).clone();
        let report = grade_json(game, &crlf, &[]);
        let submission = only_submission(&report);
        assert_eq!(item_scores(submission), item_scores(&lf), "{game}");
        assert!(submission["score"] != submission["max_score"], "{game}");
        let text = text_report(game, &crlf);
        assert!(!text.contains("extra space"), "{game}: {text}");
        assert!(text.contains("line endings (CRLF)"), "{game}: {text}");
    }
}
