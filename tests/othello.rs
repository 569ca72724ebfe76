//! Othello: the README's sample runs against the reference, and grading the model solution
//! and the buggy submissions end to end through `referee grade --format json`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use referee::assignment::cases::load_dir;
use referee::games::{self, Expectation};
use serde_json::Value;

const ITEMS: [&str; 5] = ["arguments", "board", "moves", "passing", "scoring"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The fenced block after each `<!-- sample CASE PART -->` marker, by (case, part).
fn readme_samples() -> BTreeMap<(String, String), String> {
    let readme = std::fs::read_to_string(root().join("specs/othello/README.md")).unwrap();
    let mut samples = BTreeMap::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        let Some(marker) = line
            .strip_prefix("<!-- sample ")
            .and_then(|rest| rest.strip_suffix(" -->"))
        else {
            continue;
        };
        let (case, part) = marker.split_once(' ').expect("marker names case and part");
        assert_eq!(
            lines.next(),
            Some("```"),
            "a fence follows the {marker} marker"
        );
        let mut block = String::new();
        for body in lines.by_ref().take_while(|l| *l != "```") {
            block.push_str(body);
            block.push('\n');
        }
        samples.insert((case.to_string(), part.to_string()), block);
    }
    samples
}

#[test]
fn readme_samples_equal_the_reference_output() {
    let samples = readme_samples();
    let cases = load_dir(&root().join("cases/othello")).unwrap();
    let othello = games::find("othello").unwrap();
    let mut shown = 0;
    for ((name, part), block) in &samples {
        let case = cases
            .iter()
            .find(|c| &c.name == name)
            .expect("the sample is a case");
        let prepared = othello.prepare(case).unwrap();
        let Expectation::Transcript(transcript) = &prepared.expect else {
            panic!("othello cases compare transcripts");
        };
        let actual = match part.as_str() {
            "args" => format!("./hw5 {}\n", prepared.args.join(" ")),
            "stdin" => prepared.stdin.clone(),
            "stdout" => transcript.text(),
            other => panic!("unknown sample part {other}"),
        };
        assert_eq!(&actual, block, "README sample {name} {part}");
        shown += 1;
    }
    assert_eq!(shown, 6, "two samples, each with args, stdin and stdout");
}

/// `referee grade othello PATH --format json`, run from the repository root.
fn grade(path: &Path) -> Value {
    let output = Command::cargo_bin("referee")
        .unwrap()
        .current_dir(root())
        .args(["grade", "othello"])
        .arg(path)
        .args(["--format", "json"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{output:?}");
    serde_json::from_slice(&output.stdout).unwrap()
}

/// The one submission of a report: (score, max_score) per item, and its whole record.
fn items(report: &Value) -> (BTreeMap<String, (f64, f64)>, &Value) {
    let submissions = report["submissions"].as_array().unwrap();
    assert_eq!(submissions.len(), 1);
    let submission = &submissions[0];
    assert_eq!(submission["build"]["ok"], Value::Bool(true), "{submission}");
    let scores = submission["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|item| {
            let id = item["id"].as_str().unwrap().to_string();
            let score = item["score"].as_f64().unwrap();
            let max = item["max_score"].as_f64().unwrap();
            (id, (score, max))
        })
        .collect();
    (scores, submission)
}

fn submission(file: &str) -> PathBuf {
    root().join("tests/submissions/othello").join(file)
}

#[test]
fn the_model_solution_gets_full_marks() {
    let report = grade(&root().join("reference/othello/hw5.c"));
    let (scores, record) = items(&report);
    assert_eq!(scores.len(), ITEMS.len());
    for (id, (score, max)) in &scores {
        assert_eq!(score, max, "reference loses points in {id}");
    }
    assert_eq!(record["score"].as_f64(), Some(100.0));
    assert_eq!(record["max_score"].as_f64(), Some(100.0));
    // The handout's style rules: no global variables, dynamic memory, structures.
    let facts = &record["facts"];
    assert_eq!(facts["globals"], serde_json::json!([]), "{facts}");
    for used in ["uses_malloc", "uses_calloc", "uses_struct"] {
        assert!(
            facts[used].as_u64().is_some_and(|n| n > 0),
            "{used}: {facts}"
        );
    }
}

/// Each item's score and each of its cases' status, one line each, for comparing gradings.
fn outcome(submission: &Value) -> Vec<String> {
    let mut lines = Vec::new();
    for item in submission["items"].as_array().unwrap() {
        lines.push(format!("{} {}", item["id"], item["score"]));
        for case in item["cases"].as_array().unwrap() {
            lines.push(format!("  {} {}", case["name"], case["status"]));
        }
    }
    lines
}

#[test]
fn a_zip_in_the_handout_layout_grades_like_its_hw5_c() {
    let bare = submission("no_flip_cap/no_flip_cap.c");
    let zip = submission("21527001.zip");
    // The zip stores its entries uncompressed (make_zip.py), so the file shows verbatim.
    let source = std::fs::read(&bare).unwrap();
    let archive = std::fs::read(&zip).unwrap();
    assert!(
        archive
            .windows(source.len())
            .any(|w| w == source.as_slice()),
        "21527001.zip is stale: run make_zip.py"
    );
    let bare_report = grade(&bare);
    let zip_report = grade(&zip);
    let (_, bare_record) = items(&bare_report);
    let (_, zip_record) = items(&zip_report);
    assert_eq!(outcome(zip_record), outcome(bare_record));
    assert_eq!(zip_record["score"], bare_record["score"]);
}
