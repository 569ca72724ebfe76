//! The example game of `docs/new-game.md`, built the way the guide says and graded end to
//! end: a guess-the-number assignment with a reference in Rust, a spec, a case file and a
//! model C solution, graded through the library as the CLI grades a registered game.

use std::path::{Path, PathBuf};

use referee::assignment::{Assignment, Project};
use referee::error::Error;
use referee::games::{CaseSpec, Expectation, Game, Prepared, Target, Transcript};
use referee::grade::build::compiler::Compiler;
use referee::grade::intake::submission;
use referee::grade::run::sandbox::Sandbox;
use referee::grade::{self, Grader, Settings};
use serde::Deserialize;

/// Step 1 of the guide: the reference, a pure function from a case to its transcript.
struct Guess;

/// A case's own fields (`[[case]]` tables of `cases/guess/*.toml`).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GuessCase {
    secret: u32,
    guesses: Vec<u32>,
}

impl Game for Guess {
    fn id(&self) -> &'static str {
        "guess"
    }

    fn prepare_program(&self, case: &CaseSpec) -> Result<Prepared, Error> {
        let fields: GuessCase = case.parse()?;
        if fields.guesses.is_empty() {
            return Err(case.error("guesses: give at least one guess"));
        }
        let mut stdin = format!("{}\n", fields.secret);
        let mut transcript = Transcript::new();
        transcript.print("prompt", "Secret set. Guess:\n");
        for (count, guess) in fields.guesses.iter().enumerate() {
            stdin.push_str(&format!("{guess}\n"));
            match guess.cmp(&fields.secret) {
                std::cmp::Ordering::Less => transcript.print("hints", "Too low.\n"),
                std::cmp::Ordering::Greater => transcript.print("hints", "Too high.\n"),
                std::cmp::Ordering::Equal => {
                    transcript.print("ending", &format!("Correct in {}.\n", count + 1));
                    break;
                }
            }
        }
        Ok(Prepared {
            target: Target::Program,
            extra_flags: Vec::new(),
            args: Vec::new(),
            stdin,
            srandom_seed: None,
            exit_code: Some(0),
            expect: Expectation::Transcript(transcript),
        })
    }
}

static GUESS: Guess = Guess;

/// Step 2: the spec (rubric, file name, flags, limits).
const SPEC: &str = r#"
title = "Guess the number"

[submission]
layout = "single"
file = "guess.c"

[build]
flags = ["-std=c11", "-Wall"]

[compare]
mode = "exact"

[limits]
timeout = 1.0
cpu_seconds = 1

[[item]]
id = "prompt"
points = 1.0
description = "The prompt"

[[item]]
id = "hints"
points = 2.0
description = "Too low / too high"

[[item]]
id = "ending"
points = 1.0
description = "The count of guesses when found"
"#;

/// Step 3: the cases.
const CASES: &str = r#"
[[case]]
name = "first-try"
kind = "program"
secret = 7
guesses = [7]

[[case]]
name = "low-then-high"
kind = "program"
secret = 50
guesses = [10, 90, 50]

[[case]]
name = "edges"
kind = "program"
secret = 1
guesses = [2, 1]

[[case]]
name = "never-found"
kind = "program"
secret = 5
guesses = [4, 6]
"#;

/// Step 4: the model solution.
const MODEL: &str = r#"#include <stdio.h>
int main(void) {
    unsigned secret, guess, count = 0;
    if (scanf("%u", &secret) != 1) return 1;
    printf("Secret set. Guess:\n");
    while (scanf("%u", &guess) == 1) {
        count++;
        if (guess < secret) printf("Too low.\n");
        else if (guess > secret) printf("Too high.\n");
        else { printf("Correct in %u.\n", count); break; }
    }
    return 0;
}
"#;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().expect("a parent")).expect("mkdir");
    std::fs::write(path, text).expect("write");
}

/// Grades `files` (name, source) as one submission each, as `referee grade guess DIR` would.
fn grade(root: &Path, files: &[(&str, &str)]) -> Vec<(f64, Vec<(String, f64)>)> {
    let project = Project {
        root: root.to_path_buf(),
        private: None,
    };
    let assignment = Assignment::load_game(&project, &GUESS).expect("the guess game loads");
    let class = tempfile::tempdir().expect("tempdir");
    for (name, source) in files {
        write(&class.path().join(name), source);
    }
    let paths: Vec<PathBuf> = files
        .iter()
        .map(|(name, _)| class.path().join(name))
        .collect();
    let discovered =
        submission::discover(&paths, &assignment.spec.submission).expect("submissions");
    let compiler = Compiler::find().expect("a C compiler");
    let sandbox = Sandbox::new(vec![root.to_path_buf()]).expect("sandbox");
    let settings = Settings::new(&assignment.spec.limits, Some(2));
    let grader = Grader {
        compiler: &compiler,
        sandbox: &sandbox,
        cache: None,
        settings: &settings,
    };
    let batch = grade::grade(&assignment, &discovered.submissions, &grader).expect("graded");
    batch
        .submissions
        .iter()
        .map(|s| {
            (
                s.score,
                s.items
                    .iter()
                    .map(|i| (i.id.clone(), i.score.unwrap_or(f64::NAN)))
                    .collect(),
            )
        })
        .collect()
}

#[test]
fn the_guides_example_game_is_graded_end_to_end() {
    let root = tempfile::tempdir().expect("tempdir");
    write(&root.path().join("specs/guess/spec.toml"), SPEC);
    write(&root.path().join("cases/guess/guesses.toml"), CASES);
    write(&root.path().join("reference/guess/guess.c"), MODEL);

    // The model solution gets full marks.
    let graded = grade(root.path(), &[("guess.c", MODEL)]);
    assert_eq!(graded[0].0, 4.0, "{:?}", graded);

    // A program that says "Too high" for a low guess loses the hints item only; one that
    // counts from zero loses the ending only.
    let swapped = MODEL.replace("\"Too low.\\n\"", "\"Too high.\\n\"");
    let from_zero = MODEL.replace("count++;", "");
    let swapped = grade(root.path(), &[("guess.c", &swapped)]);
    // Of the three cases with a hint, only `edges` (a high guess) still passes: a third of
    // the item's 2 points.
    assert_scores(&swapped[0].1, [1.0, 2.0 / 3.0, 1.0]);
    let from_zero = grade(root.path(), &[("guess.c", &from_zero)]);
    assert_scores(&from_zero[0].1, [1.0, 2.0, 0.0]);
}

fn assert_scores(items: &[(String, f64)], expected: [f64; 3]) {
    let ids: Vec<&str> = items.iter().map(|(id, _)| id.as_str()).collect();
    assert_eq!(ids, ["prompt", "hints", "ending"]);
    for ((id, score), want) in items.iter().zip(expected) {
        assert!(
            (score - want).abs() < 0.01,
            "{id}: {score}, expected {want}"
        );
    }
}

#[test]
fn a_broken_case_of_the_example_game_names_its_file() {
    let root = tempfile::tempdir().expect("tempdir");
    write(&root.path().join("specs/guess/spec.toml"), SPEC);
    write(
        &root.path().join("cases/guess/guesses.toml"),
        "[[case]]\nname = \"no-guesses\"\nkind = \"program\"\nsecret = 3\nguesses = []\n",
    );
    let project = Project {
        root: root.path().to_path_buf(),
        private: None,
    };
    let error = Assignment::load_game(&project, &GUESS)
        .err()
        .expect("an error")
        .to_string();
    assert!(
        error.contains("guesses.toml") && error.contains("give at least one guess"),
        "{error}"
    );
}
