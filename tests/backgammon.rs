//! Backgammon end to end: the model C solution, built with the system's gcc and glibc,
//! prints exactly what the Rust reference expects; `referee grade` gives it full marks and
//! takes points from each buggy submission only in the items its bug breaks.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use assert_cmd::Command as BinCommand;
use referee::cases::{load_dir, CaseKind};
use referee::games::{self, Expectation};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Seeds glibc's random() from REFEREE_SRANDOM before main, as the grader's runtime does,
/// so seeded games can be checked without the grader.
const SEED_CONSTRUCTOR: &str = r#"#include <stdlib.h>
__attribute__((constructor)) static void seed_from_env(void) {
    const char *seed = getenv("REFEREE_SRANDOM");
    if (seed != NULL) srandom((unsigned) strtoul(seed, NULL, 10));
}
"#;

fn gcc(dir: &Path, args: &[&str]) {
    let output = Command::new("gcc")
        .current_dir(dir)
        .args(["-std=gnu17", "-Wall", "-Wextra", "-Werror"])
        .args(args)
        .output()
        .expect("gcc runs");
    assert!(
        output.status.success(),
        "gcc {args:?} failed:\n{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

fn run(binary: &Path, stdin: &str, seed: Option<u32>) -> String {
    let mut command = Command::new(binary);
    command
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .env_remove("REFEREE_SRANDOM");
    if let Some(seed) = seed {
        command.env("REFEREE_SRANDOM", seed.to_string());
    }
    let mut child = command.spawn().expect("the binary starts");
    child
        .stdin
        .take()
        .expect("stdin is piped")
        .write_all(stdin.as_bytes())
        .expect("stdin is written");
    let output = child.wait_with_output().expect("the binary finishes");
    assert!(output.status.success(), "{} failed", binary.display());
    String::from_utf8(output.stdout).expect("output is UTF-8")
}

/// Builds the model solution (the game, and the unit harness around its functions) in a
/// temporary folder with the course header from the spec.
fn build_model(dir: &Path) -> (PathBuf, PathBuf) {
    let model = root().join("reference/backgammon");
    let spec = root().join("specs/backgammon");
    let mut sources = Vec::new();
    for entry in std::fs::read_dir(&model).expect("reference/backgammon exists") {
        let path = entry.expect("a directory entry").path();
        let name = path
            .file_name()
            .expect("a file name")
            .to_string_lossy()
            .to_string();
        std::fs::copy(&path, dir.join(&name)).expect("copy a model file");
        if name.ends_with(".c") {
            sources.push(name);
        }
    }
    sources.sort();
    for name in ["backgammon.h", "harness.c"] {
        std::fs::copy(spec.join(name), dir.join(name)).expect("copy a spec file");
    }
    std::fs::write(dir.join("seed.c"), SEED_CONSTRUCTOR).expect("write seed.c");

    let mut game_args: Vec<&str> = sources.iter().map(String::as_str).collect();
    game_args.extend(["seed.c", "-o", "game"]);
    gcc(dir, &game_args);

    let mut objects = Vec::new();
    for source in &sources {
        let object = source.replace(".c", ".o");
        gcc(dir, &["-Dmain=student_main", "-c", source, "-o", &object]);
        objects.push(object);
    }
    let mut harness_args: Vec<&str> = vec!["harness.c"];
    harness_args.extend(objects.iter().map(String::as_str));
    harness_args.extend(["-o", "harness"]);
    gcc(dir, &harness_args);
    (dir.join("game"), dir.join("harness"))
}

/// The issue's acceptance test: real gcc and glibc, unseeded and seeded games, and every
/// unit case, byte for byte (trailing spaces included) against the Rust reference.
#[test]
fn the_model_solution_prints_the_reference_transcripts_byte_for_byte() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (game, harness) = build_model(dir.path());
    let backgammon = games::find("backgammon").expect("backgammon is registered");
    let cases = load_dir(&root().join("cases/backgammon")).expect("cases load");
    let (mut unseeded, mut seeded, mut units) = (0, 0, 0);
    for case in &cases {
        let prepared = backgammon.prepare(case).expect("case prepares");
        let Expectation::Transcript(expected) = &prepared.expect else {
            panic!("{}: backgammon has no trace cases", case.name);
        };
        let binary = match case.kind {
            CaseKind::Program => {
                if prepared.srandom_seed.is_some() {
                    seeded += 1;
                } else {
                    unseeded += 1;
                }
                &game
            }
            _ => {
                units += 1;
                &harness
            }
        };
        let actual = run(binary, &prepared.stdin, prepared.srandom_seed);
        assert_eq!(actual, expected.text(), "case {}", case.name);
    }
    assert!(unseeded >= 5 && seeded >= 10 && units >= 150);
}

#[test]
fn check_reference_gives_full_marks() {
    BinCommand::cargo_bin("referee")
        .expect("the referee binary")
        .current_dir(root())
        .args(["check-reference", "backgammon"])
        .assert()
        .success();
}

/// Each buggy submission and the items its bug must cost; every other item keeps full
/// marks. (The same list heads each submission's buggy file.)
const BUGGY: &[(&str, &[&str])] = &[
    // Not buggy: its check_move makes the move, which is a fact, not a failure.
    ("check-move-moves-piece", &[]),
    (
        "red-direction-reversed",
        &[
            "check_die",
            "check_basic_move",
            "check_entry_move",
            "check_move",
            "game",
        ],
    ),
    ("hit-not-sent-to-bar", &["game"]),
    (
        "bear-off-with-straggler",
        &["check_bear_off_move", "check_move", "game"],
    ),
    ("second-move-reuses-d2", &["game"]),
    (
        "bounds-accept-zero",
        &[
            "check_board_bounds",
            "check_basic_move",
            "check_move",
            "game",
        ],
    ),
    ("board-rows-misaligned", &["print_board", "game"]),
    (
        "white-enters-at-die",
        &["check_entry_move", "check_move", "game"],
    ),
    ("bar-not-checked-first", &["check_move", "game"]),
];

const ITEMS: [&str; 8] = [
    "print_board",
    "check_board_bounds",
    "check_die",
    "check_basic_move",
    "check_entry_move",
    "check_bear_off_move",
    "check_move",
    "game",
];

#[test]
fn each_buggy_submission_loses_exactly_the_items_of_its_bug() {
    let output = BinCommand::cargo_bin("referee")
        .expect("the referee binary")
        .current_dir(root())
        .args([
            "grade",
            "backgammon",
            "tests/submissions/backgammon",
            "--format",
            "json",
        ])
        .output()
        .expect("referee runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON report");
    assert_eq!(report["game"], "backgammon");
    let submissions = report["submissions"].as_array().expect("submissions");
    let by_name: BTreeMap<&str, &serde_json::Value> = submissions
        .iter()
        .map(|s| (s["name"].as_str().expect("a name"), s))
        .collect();
    assert_eq!(
        by_name.len(),
        BUGGY.len(),
        "one report per buggy submission"
    );
    for (name, broken) in BUGGY {
        let submission = by_name.get(name).unwrap_or_else(|| panic!("{name} graded"));
        assert_eq!(submission["build"]["ok"], true, "{name} builds");
        let items = submission["items"].as_array().expect("items");
        for id in ITEMS {
            let item = items
                .iter()
                .find(|i| i["id"] == id)
                .unwrap_or_else(|| panic!("{name}: item {id} reported"));
            let score = item["score"].as_f64().expect("a score");
            let max = item["max_score"].as_f64().expect("a max score");
            if broken.contains(&id) {
                assert!(score < max, "{name} must lose points in {id}");
            } else {
                assert_eq!(score, max, "{name} must keep {id}");
            }
        }
    }
}

/// A student who hands in no `board.c` (print_board in a file of their own) gets the
/// course's globals from the spec folder and still full marks.
#[test]
fn a_submission_without_board_c_gets_the_course_globals() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let student = dir.path().join("no-board-c");
    std::fs::create_dir(&student).expect("a submission folder");
    let model = root().join("reference/backgammon");
    for name in ["backgammon.c", "check.c"] {
        std::fs::copy(model.join(name), student.join(name)).expect("copy a model file");
    }
    let board = std::fs::read_to_string(model.join("board.c")).expect("the model board.c");
    let printing = board
        .split_once("#define MAX_DRAWN")
        .map(|(_, rest)| {
            format!("#include <stdio.h>\n#include \"backgammon.h\"\n#define MAX_DRAWN{rest}")
        })
        .expect("the model board.c defines MAX_DRAWN before print_board");
    std::fs::write(student.join("print.c"), printing).expect("write print.c");

    let output = BinCommand::cargo_bin("referee")
        .expect("the referee binary")
        .current_dir(root())
        .args(["grade", "backgammon"])
        .arg(&student)
        .args(["--format", "json"])
        .output()
        .expect("referee runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON report");
    let submission = &report["submissions"][0];
    assert_eq!(
        submission["build"]["ok"], true,
        "{}",
        submission["build"]["log"]
    );
    assert_eq!(submission["score"], submission["max_score"]);
    assert_eq!(submission["max_score"].as_f64(), Some(100.0));
}
