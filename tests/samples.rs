//! Every sample under `tests/submissions/<game>/` graded against the outcome it declares.
//!
//! A sample is a folder holding the submission's files and an `expected.toml`, or a `.zip`
//! with its expectations beside it in `<stem>.expected.toml` (a zip is graded as handed in).
//! Other files (e.g. a script that makes a zip) are ignored. `expected.toml`:
//!
//! ```toml
//! # One line: what this sample reproduces and why it grades as below.
//! loses = ["move"]        # auto-graded items that must score below their maximum
//! may_lose = ["behaviour"]  # optional: items that may go either way (clock-seeded games)
//! args = ["--timeout", "0.3"]  # optional extra `referee grade` arguments
//! build_ok = true         # optional, default true
//! [statuses]              # optional: item -> a case status that must occur in it
//! move = "crash"
//! ```
//!
//! Every other auto-graded item must keep full marks.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;

/// Each sample of one game folder: (what to grade, its expectations file).
fn samples(game_dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(game_dir)
        .expect("the game's sample folder")
        .map(|entry| entry.expect("a folder entry").path())
        .collect();
    entries.sort();
    let mut found = Vec::new();
    for path in entries {
        if path.is_dir() {
            let expected = path.join("expected.toml");
            assert!(expected.is_file(), "{}: no expected.toml", path.display());
            found.push((path, expected));
        } else if path.extension().is_some_and(|e| e == "zip") {
            let expected = path.with_extension("expected.toml");
            assert!(
                expected.is_file(),
                "{}: no {} beside it",
                path.display(),
                expected.display()
            );
            found.push((path, expected));
        } else if path.extension().is_some_and(|e| e == "c") {
            panic!(
                "{}: a sample is a folder with an expected.toml",
                path.display()
            );
        }
    }
    found
}

/// Grades every sample of `group` in one run of referee (they share its `args`), so the
/// samples build and run side by side and each case's expected output is worked out once;
/// what each sample's report says is checked against its own `expected.toml`.
fn check_group(game: &str, args: &[String], group: &[(PathBuf, Expected)]) -> Vec<String> {
    let mut command = referee();
    command
        .args(["grade", game])
        .args(group.iter().map(|(sample, _)| sample))
        .args(["--format", "json"])
        .args(args);
    let report = json_of(command);
    let submissions = report["submissions"].as_array().expect("submissions array");
    assert_eq!(
        submissions.len(),
        group.len(),
        "{game} {args:?}: one graded submission per sample"
    );
    group
        .iter()
        .flat_map(|(sample, expected)| {
            let name = sample.display().to_string();
            // A folder holding one `.c` file is reported as that file's path.
            let graded: Vec<&Value> = submissions
                .iter()
                .filter(|s| {
                    s["path"]
                        .as_str()
                        .is_some_and(|path| Path::new(path).starts_with(sample))
                })
                .collect();
            match graded[..] {
                [submission] => expected.problems(&name, submission),
                _ => vec![format!(
                    "{name}: {} submissions of the report come from it, not 1",
                    graded.len()
                )],
            }
        })
        .collect()
}

#[test]
fn every_sample_grades_as_its_expected_toml_says() {
    let base = root().join("tests/submissions");
    let mut games: Vec<PathBuf> = std::fs::read_dir(&base)
        .expect("tests/submissions")
        .map(|entry| entry.expect("a folder entry").path())
        .filter(|path| path.is_dir())
        .collect();
    games.sort();
    let mut graded = 0;
    let mut problems = Vec::new();
    for game_dir in games {
        let game = game_dir
            .file_name()
            .and_then(|n| n.to_str())
            .expect("a game folder name");
        // Samples that ask for the same extra arguments are graded together.
        let mut groups: BTreeMap<Vec<String>, Vec<(PathBuf, Expected)>> = BTreeMap::new();
        for (sample, expected_file) in samples(&game_dir) {
            let expected = Expected::load(&expected_file);
            groups
                .entry(expected.args.clone())
                .or_default()
                .push((sample, expected));
        }
        for (args, group) in &groups {
            problems.extend(check_group(game, args, group));
            graded += group.len();
        }
    }
    assert!(graded > 0, "no samples found under {}", base.display());
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}
