//! What a student reads first: the text report's summary, `--case` and `--all`, the reason
//! and hints of a failure, the turn a game first differs in, one-line usage errors, and the
//! examples of `referee --help`, each run as typed.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

fn reversi_samples() -> Vec<PathBuf> {
    let mut found: Vec<PathBuf> = std::fs::read_dir(root().join("tests/submissions/reversi"))
        .expect("the reversi samples")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.is_dir())
        .collect();
    found.sort();
    found
}

/// The text and the JSON report of one grading run.
fn grade_text_and_json(game: &str, path: &Path, extra: &[&str]) -> (String, Value) {
    let out = tempfile::tempdir().expect("tempdir");
    let stem = out.path().join("report");
    let output = referee()
        .args(["grade", game])
        .arg(path)
        .args(["--format", "text,json", "-o"])
        .arg(&stem)
        .args(extra)
        .output()
        .expect("referee runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let read = |ext: &str| {
        std::fs::read_to_string(out.path().join(format!("report.{ext}"))).expect("a report")
    };
    let json = serde_json::from_str(&read("json")).expect("JSON");
    (read("txt"), json)
}

fn text_report(game: &str, path: &Path, extra: &[&str]) -> String {
    let output = referee()
        .args(["grade", game])
        .arg(path)
        .args(extra)
        .output()
        .expect("referee runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8")
}

/// Item id -> names of the cases that do not pass in it.
fn failing_by_item(submission: &Value) -> Vec<(String, BTreeSet<String>)> {
    submission["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|item| item["manual"] == false)
        .map(|item| {
            let failing = item["cases"]
                .as_array()
                .expect("cases")
                .iter()
                .filter(|c| c["status"] != "pass")
                .map(|c| c["name"].as_str().expect("name").to_string())
                .collect();
            (item["id"].as_str().expect("id").to_string(), failing)
        })
        .collect()
}

/// The name and reason of a summary line `  ✗ NAME [items]  REASON`.
fn failure_line(line: &str) -> Option<(&str, &str)> {
    let rest = line.strip_prefix("  ✗ ")?;
    let (head, reason) = rest.split_once("  ")?;
    let name = head.split(' ').next()?;
    Some((name, reason.trim()))
}

#[test]
fn each_buggy_reversi_sample_names_every_failing_item_and_why_on_its_first_screen() {
    let samples = reversi_samples();
    assert!(samples.len() >= 6, "the bundled buggy samples");
    for path in samples {
        let (text, json) = grade_text_and_json("reversi", &path, &["--timeout", "0.5"]);
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines.len() < 120,
            "{}: {} lines\n{text}",
            path.display(),
            lines.len()
        );
        let screen = &lines[..lines.len().min(40)];
        for (item, failing) in failing_by_item(only_submission(&json)) {
            if failing.is_empty() {
                continue;
            }
            let heading = format!("{item}: {} of ", failing.len());
            assert!(
                screen.iter().any(|l| l.starts_with(&heading)),
                "{}: no heading for {item} in the first 40 lines\n{text}",
                path.display()
            );
            let explained = screen
                .iter()
                .filter_map(|l| failure_line(l))
                .any(|(name, why)| failing.contains(name) && why.len() > 10);
            assert!(
                explained,
                "{}: no failing {item} case with its reason in the first 40 lines\n{text}",
                path.display()
            );
        }
    }
}

#[test]
fn handout_samples_come_first_and_one_example_per_failing_item_follows() {
    let text = text_report(
        "reversi",
        &root().join("tests/submissions/reversi/no_diagonals/no_diagonals.c"),
        &[],
    );
    let samples = text.find("handout samples:").expect("the handout samples");
    let first_item = text.find("available_moves: ").expect("an item's failures");
    assert!(samples < first_item, "{text}");
    assert!(text.contains("  ✓ handout-sample-4x4\n"), "{text}");
    assert_eq!(text.matches("-- example for ").count(), 1, "{text}");
    assert!(text.contains("-- example for available_moves"), "{text}");
}

#[test]
fn case_patterns_print_those_cases_in_full_and_all_prints_every_failure() {
    let path = root().join("tests/submissions/reversi/no_diagonals/no_diagonals.c");
    let text = text_report(
        "reversi",
        &path,
        &["--case", "direction-north*", "--case", "start-4"],
    );
    let shown: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("  ✗ ").or_else(|| l.strip_prefix("  ✓ ")))
        .filter(|l| l.contains("  ["))
        .map(|l| l.split("  [").next().unwrap_or(""))
        .collect();
    assert_eq!(
        shown,
        [
            "direction-north-west",
            "direction-north",
            "direction-north-east",
            "start-4"
        ],
        "{text}"
    );
    assert!(!text.contains("-- example for"), "{text}");
    assert!(
        text.contains("  ✓ start-4  ["),
        "a passing case is shown too"
    );

    let (all, json) = grade_text_and_json("reversi", &path, &["--all"]);
    let failing: BTreeSet<String> = failing_by_item(only_submission(&json))
        .into_iter()
        .flat_map(|(_, names)| names)
        .collect();
    let full = all
        .lines()
        .filter(|l| l.starts_with("  ✗ ") && l.contains("  [") && l.ends_with(']'))
        .count();
    assert_eq!(full, failing.len(), "{all}");

    let output = referee()
        .args(["grade", "reversi"])
        .arg(&path)
        .args(["--case", "no-such-*"])
        .output()
        .expect("referee runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(stderr.contains("--case no-such-*"), "{stderr}");
}

#[test]
fn a_joined_line_is_named_with_the_prompt_missing_its_newline() {
    let text = text_report(
        "reversi",
        &root().join("tests/submissions/reversi/missing_newline/missing_newline.c"),
        &[],
    );
    assert!(
        text.contains(
            "`Valid move.` should start a new line: a newline is missing after `Enter a move:`"
        ),
        "{text}"
    );
}

#[test]
fn trailing_spaces_are_named_in_the_reason() {
    let text = text_report(
        "reversi",
        &root().join("tests/submissions/reversi/trailing_space/trailing_space.c"),
        &[],
    );
    assert!(
        text.contains("line 2: 1 extra space at the end of `a UUUU·`"),
        "{text}"
    );
}

#[test]
fn a_timeout_names_the_last_prompt_printed() {
    let text = text_report(
        "reversi",
        &root().join("tests/submissions/reversi/infinite_loop/infinite_loop.c"),
        &["--timeout", "0.5"],
    );
    assert!(
        text.contains(
            "your program was still waiting for input (or looping) after `Available moves for W:`"
        ),
        "{text}"
    );
}

#[test]
fn a_crash_gives_the_sanitize_command_and_that_command_finds_the_fault() {
    let path = "tests/submissions/reversi/crash_on_invalid/crash_on_invalid.c";
    let text = text_report("reversi", Path::new(path), &[]);
    let command = text
        .lines()
        .find_map(|l| l.split_once("find the line that crashed: ").map(|(_, c)| c))
        .expect("a sanitize command")
        .to_string();
    assert!(command.starts_with(&format!("referee grade reversi {path} --sanitize --case ")));
    let words: Vec<&str> = command.split(' ').skip(1).collect();
    let output = referee().args(&words).output().expect("referee runs");
    let rerun = String::from_utf8_lossy(&output.stdout);
    assert!(
        rerun.contains("Sanitizer") || rerun.contains("runtime error"),
        "{rerun}"
    );
    assert!(
        rerun.contains("crash_on_invalid.c:"),
        "names the source line: {rerun}"
    );
    assert!(
        !rerun.contains("find the line that crashed"),
        "no advice to do what was just done: {rerun}"
    );
}

#[test]
fn a_game_names_the_turn_of_the_first_difference_and_shows_the_board_before_it() {
    let path = root().join("tests/submissions/trouble/no_roll_again/no_roll_again.c");
    let case = "game-handout-sample";
    let text = text_report("trouble", &path, &["--case", case]);
    let reason = text
        .lines()
        .filter_map(failure_line)
        .find(|(name, _)| *name == case)
        .map(|(_, why)| why.to_string())
        .expect("the case's summary line");
    // "turn 3, Red, rolled 6: line 22: …"
    let (turn, rest) = reason.split_once(": line ").expect("a turn, then a line");
    assert!(
        turn.starts_with("turn ") && turn.contains(", rolled "),
        "{reason}"
    );
    let line: usize = rest
        .split(':')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a line number");
    let heading =
        format!("    the reference's board before {turn} (where your output first differs):");
    let board: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != heading)
        .skip(1)
        .take_while(|l| l.starts_with("      "))
        .map(|l| &l[6..])
        .collect();
    assert_eq!(board.len(), 4, "four status lines: {text}");
    // The board is what the reference printed just before that line.
    let expected = referee()
        .args(["expect", "trouble", case])
        .output()
        .expect("referee runs");
    let expected = String::from_utf8_lossy(&expected.stdout);
    let before: Vec<&str> = expected.lines().take(line - 1).collect();
    let found = before.windows(board.len()).any(|window| {
        window
            .iter()
            .zip(&board)
            .all(|(a, b)| a.trim_end() == b.trim_end())
    });
    assert!(found, "the board appears before line {line}: {board:?}");
}

#[test]
fn usage_errors_are_one_line_starting_with_referee() {
    for args in [
        vec!["grade"],
        vec!["grade", "chess", "x.c"],
        vec!["grade", "reversi", "x.c", "--timeout", "0"],
        vec!["frobnicate"],
    ] {
        let output = referee().args(&args).output().expect("referee runs");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(stderr.trim_end().lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with("referee: error: "), "{stderr}");
        assert!(
            stderr.contains("usage: ") || stderr.contains("--help"),
            "{stderr}"
        );
    }
    let output = referee()
        .args(["grade", "reversi", "x.c", "--timeout", "0"])
        .output()
        .expect("referee runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the time limit must be a positive number of seconds"),
        "{stderr}"
    );
}

#[test]
fn a_failed_build_prints_its_errors_once() {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("Lab6.c");
    std::fs::write(&file, "int main(void) { return undeclared_name; }\n").expect("write");
    let text = text_report("reversi", &file, &[]);
    assert_eq!(
        text.matches("'undeclared_name' undeclared").count(),
        1,
        "{text}"
    );
}

/// The examples of `referee --help` and of the README, run as typed in a folder holding what
/// they name.
#[test]
fn every_help_and_readme_example_runs() {
    let help = referee().arg("--help").output().expect("referee runs");
    let help = String::from_utf8_lossy(&help.stdout).into_owned();
    let examples: Vec<String> = help
        .lines()
        .skip_while(|l| !l.starts_with("Examples:"))
        .filter_map(|l| l.trim_start().strip_prefix("referee "))
        .map(|l| l.split("  ").next().unwrap_or(l).trim().to_string())
        .collect();
    assert!(examples.len() >= 8, "{help}");
    let readme = std::fs::read_to_string(root().join("README.md")).expect("the README");
    let mut in_shell_block = false;
    let mut from_readme = Vec::new();
    // A command continued with a trailing `\` is joined with its next lines.
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        if line.starts_with("```") {
            in_shell_block = line == "```sh";
        } else if let Some(command) = line.strip_prefix("referee ").filter(|_| in_shell_block) {
            let mut command = command.split(" # ").next().unwrap_or(command).to_string();
            while let Some(start) = command.strip_suffix('\\') {
                let next = lines.next().expect("a continued line");
                command = format!("{} {}", start.trim_end(), next.trim());
            }
            from_readme.push(command.trim().to_string());
        }
    }
    assert!(from_readme.len() >= 10, "the README's commands");

    let dir = tempfile::tempdir().expect("tempdir");
    let here = dir.path();
    std::fs::copy(root().join("reference/reversi/Lab6.c"), here.join("Lab6.c")).expect("copy");
    std::fs::create_dir(here.join("submissions")).expect("mkdir");
    for name in ["no_diagonals.c", "missing_newline.c"] {
        std::fs::copy(
            root()
                .join("tests/submissions/reversi")
                .join(name.trim_end_matches(".c"))
                .join(name),
            here.join("submissions").join(name),
        )
        .expect("copy");
    }
    // The README's LMS examples grade one small download of each kind.
    let lab6 = std::fs::read_to_string(here.join("Lab6.c")).expect("read");
    let put = |path: &str, text: &str| {
        let path = here.join(path);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
        std::fs::write(path, text).expect("write");
    };
    put("canvas-export/doejane_1002_5002_Lab6.c", &lab6);
    put("canvas-export/smithalice_late_1001_5001_Lab6.c", &lab6);
    put(
        "moodle-export/Jane Doe_123_assignsubmission_file_Lab6.c",
        &lab6,
    );
    put("gradescope-export/submission_9001/Lab6.c", &lab6);
    put(
        "gradescope-export/submission_metadata.yml",
        "---\n:submission_9001:\n  :submitters:\n  - :name: Jane Doe\n    :sid: 'A1'\n",
    );
    put("lab6-submissions/lab6-janedoe/Lab6.c", &lab6);
    put(
        "lab6-submissions/lab6-janedoe/.git/HEAD",
        "ref: refs/heads/main\n",
    );
    // The README's hidden cases and adjustments: the example private folder, one adjustment.
    let private = root().join("tests/private/cases/reversi");
    for entry in std::fs::read_dir(&private).expect("the example private folder") {
        let entry = entry.expect("an entry");
        let text = std::fs::read_to_string(entry.path()).expect("read");
        put(
            &format!(
                "course-private/cases/reversi/{}",
                entry.file_name().to_string_lossy()
            ),
            &text,
        );
    }
    // The README's release archive and its unpacked binary (what tools/release.sh writes).
    let release = format!("referee-{}-x86_64-linux", env!("CARGO_PKG_VERSION"));
    std::fs::create_dir(here.join(&release)).expect("mkdir");
    std::fs::copy(
        env!("CARGO_BIN_EXE_referee"),
        here.join(&release).join("referee"),
    )
    .expect("copy");
    put(&format!("{release}.tar.gz"), "an archive\n");
    // The README's `similar` examples: an earlier term's submission and a starter file.
    put("fall2025/lastyear_Lab6.c", &lab6);
    put(
        "starter.c",
        "#include <stdio.h>\n\nint main(void) {\n    return 0;\n}\n",
    );
    put(
        "adjustments.csv",
        "id,item,delta,comment\n1002,move,1,regrade request\n",
    );
    let game = referee()
        .args(["expect", "ludo"])
        .arg(first_ludo_case())
        .output()
        .expect("referee runs");
    std::fs::write(here.join("game.txt"), &game.stdout).expect("write");

    let run_each = |examples: Vec<String>| {
        for example in examples {
            let words = shell_words(&example);
            let output = referee()
                .current_dir(here)
                .env("REFEREE_ROOT", root())
                .args(&words)
                .output()
                .expect("referee runs");
            assert_eq!(
                output.status.code(),
                Some(0),
                "`referee {example}`: {}",
                String::from_utf8_lossy(&output.stderr)
            );
        }
    };
    // The mutation examples take most of the time and neither read nor write the folder's
    // files, so they run beside the others, which keep their order (some read what an
    // earlier one wrote).
    let (mutation, others): (Vec<String>, Vec<String>) = examples
        .into_iter()
        .chain(from_readme)
        .partition(|example| example.starts_with("mutants "));
    assert!(!mutation.is_empty(), "the README's mutation examples");
    std::thread::scope(|scope| {
        let mutation = scope.spawn(|| run_each(mutation));
        run_each(others);
        if let Err(panic) = mutation.join() {
            std::panic::resume_unwind(panic);
        }
    });
    assert!(here.join("autograder.zip").is_file());
    assert!(here.join("out/report.html").is_file());
}

fn first_ludo_case() -> String {
    let output = referee()
        .args(["cases", "ludo"])
        .output()
        .expect("referee runs");
    let list = String::from_utf8_lossy(&output.stdout);
    list.split_whitespace()
        .next()
        .expect("a ludo case")
        .to_string()
}

/// Splits a command line on spaces, keeping 'quoted' words whole.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut current = String::new();
    // The quote character a quoted word opened with, as a shell reads `'…'` and `"…"`.
    let mut quoted: Option<char> = None;
    for ch in line.chars() {
        match ch {
            '\'' | '"' if quoted.is_none() => quoted = Some(ch),
            c if quoted == Some(c) => quoted = None,
            ' ' if quoted.is_none() => {
                if !current.is_empty() {
                    words.push(std::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

#[test]
fn the_html_section_and_the_gradescope_output_start_with_the_same_summary() {
    let out = tempfile::tempdir().expect("tempdir");
    let output = referee()
        .args([
            "grade",
            "reversi",
            "tests/submissions/reversi/no_diagonals/no_diagonals.c",
        ])
        .args(["--format", "text,html,gradescope", "-o"])
        .arg(format!("{}/", out.path().display()))
        .output()
        .expect("referee runs");
    assert_eq!(output.status.code(), Some(0));
    let read = |name: &str| std::fs::read_to_string(out.path().join(name)).expect("a report");
    let text = read("report.txt");
    let html = read("report.html");
    let gradescope: Value = serde_json::from_str(&read("report.gradescope.json")).expect("JSON");
    let overview = gradescope["output"].as_str().expect("output");
    let summary: Vec<&str> = text
        .lines()
        .skip_while(|l| *l != "handout samples:")
        .take_while(|l| !l.starts_with("facts: "))
        .filter(|l| !l.contains("(--all)"))
        .collect();
    assert!(summary.len() > 5, "{text}");
    let section = &html[html
        .find("<pre class=\"summary\">")
        .expect("a summary in HTML")..];
    for line in summary {
        assert!(
            overview.contains(line),
            "gradescope lacks {line:?}:\n{overview}"
        );
        let (mark, rest) = line.split_at(line.find(['✓', '✗']).unwrap_or(0));
        let needle = rest
            .trim_start_matches(['✓', '✗'])
            .replace('&', "&amp;")
            .replace('<', "&lt;")
            .replace('>', "&gt;");
        assert!(section.contains(&needle), "HTML lacks {mark}{needle:?}");
    }
}
