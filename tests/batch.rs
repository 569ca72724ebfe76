//! A submission's unit cases share one sandboxed run of the harness, which forks a child per
//! case: the grades must be exactly those of a sandboxed run per case, with far fewer runs.

mod common;

use common::root;
use referee::assignment::{Assignment, Project};
use referee::grade::build::compiler::Compiler;
use referee::grade::intake::submission;
use referee::grade::run::sandbox::Sandbox;
use referee::grade::{self, Grader, Settings};
use serde_json::Value;

/// Grades `folder` as `game` without a cache; the report as JSON and the sandboxed runs made.
fn grade_folder(game: &str, folder: &str, batch_cases: bool) -> (Value, usize) {
    let project = Project::locate(Some(&root())).expect("the project");
    let assignment = Assignment::load(&project, game).expect("the assignment");
    let submissions = submission::discover(&[root().join(folder)], &assignment.spec.submission)
        .expect("the submissions")
        .submissions;
    let compiler = Compiler::find().expect("a C compiler");
    let sandbox = Sandbox::new(vec![root()]).expect("the sandbox");
    let mut settings = Settings::new(&assignment.spec.limits, None);
    settings.batch_cases = batch_cases;
    let grader = Grader {
        compiler: &compiler,
        sandbox: &sandbox,
        cache: None,
        settings: &settings,
    };
    let report = grade::grade(&assignment, &submissions, &grader).expect("grading runs");
    let json = serde_json::to_value(&report).expect("the report serializes");
    (json, sandbox.runs())
}

/// Scores, and each case's status, mismatch and diff, per submission and item.
fn grades(report: &Value) -> Vec<Value> {
    report["submissions"]
        .as_array()
        .expect("submissions")
        .iter()
        .map(|s| {
            let mut s = s.clone();
            s["path"] = Value::Null;
            s
        })
        .collect()
}

#[test]
fn batched_unit_cases_grade_exactly_as_runs_of_their_own() {
    // Backgammon's samples fail unit cases with wrong answers (193 unit cases each);
    // Reversi's crash and loop forever in theirs, so batches stop early and the rest run alone.
    for (game, samples, unit_share) in [("backgammon", 9, 5), ("reversi", 10, 1)] {
        let folder = format!("tests/submissions/{game}");
        let (batched, batched_runs) = grade_folder(game, &folder, true);
        let (alone, alone_runs) = grade_folder(game, &folder, false);
        let submissions = grades(&batched);
        assert_eq!(submissions.len(), samples);
        assert_eq!(submissions, grades(&alone), "{game}");
        let statuses: Vec<&str> = submissions
            .iter()
            .flat_map(|s| s["items"].as_array().expect("items").iter())
            .flat_map(|i| i["cases"].as_array().expect("cases").iter())
            .map(|c| c["status"].as_str().expect("status"))
            .collect();
        assert!(statuses.contains(&"fail"), "{game}: some cases fail");
        if game == "reversi" {
            assert!(statuses.contains(&"crash") && statuses.contains(&"timeout"));
        }
        assert!(
            batched_runs * unit_share < alone_runs,
            "{game}: batched {batched_runs} sandboxed runs, alone {alone_runs}"
        );
    }
}
