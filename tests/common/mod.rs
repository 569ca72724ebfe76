//! Helpers shared by the integration tests: run referee, read its JSON report.
#![allow(dead_code)]

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use serde_json::Value;

/// The checkout's root (cases/, specs/, reference/, tests/submissions/).
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

pub fn referee() -> Command {
    let mut command = Command::cargo_bin("referee").expect("the referee binary is built");
    command.current_dir(root()).env_remove("REFEREE_ROOT").env(
        "REFEREE_CACHE",
        Path::new(env!("CARGO_TARGET_TMPDIR")).join("build-cache"),
    );
    command
}

/// `referee grade GAME PATH --format json` plus `extra`, parsed.
pub fn grade_json(game: &str, path: &Path, extra: &[&str]) -> Value {
    let mut command = referee();
    command
        .args(["grade", game])
        .arg(path)
        .args(["--format", "json"])
        .args(extra);
    json_of(command)
}

/// The JSON report `command` prints on stdout; it must exit with status 0.
pub fn json_of(mut command: Command) -> Value {
    let output = command.output().expect("referee runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "referee failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("the report is JSON")
}

/// The DOM Chromium builds from `page` (headless, no network, a profile of its own in
/// `scratch`). Chromium must be installed (`.ci/run` installs it): a missing browser fails
/// the test rather than skipping it.
pub fn chromium_dom(page: &Path, scratch: &Path) -> String {
    let program = "/usr/bin/chromium";
    assert!(
        Path::new(program).exists(),
        "{program} is missing: install Chromium (apt-get install chromium) to test pages in a browser"
    );
    let output = std::process::Command::new("timeout")
        .arg("120")
        .arg(program)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
        ])
        .arg(format!(
            "--user-data-dir={}",
            scratch.join("profile").display()
        ))
        .arg("--dump-dom")
        .arg(format!("file://{}", page.display()))
        .stdin(std::process::Stdio::null())
        .output()
        .expect("chromium runs");
    assert!(
        output.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("the DOM is UTF-8")
}

/// The only submission of a report.
pub fn only_submission(report: &Value) -> &Value {
    let submissions = report["submissions"].as_array().expect("submissions array");
    assert_eq!(submissions.len(), 1, "one submission expected");
    &submissions[0]
}

/// Item id -> (score, max_score) for the auto-graded items.
pub fn item_scores(submission: &Value) -> BTreeMap<String, (f64, f64)> {
    submission["items"]
        .as_array()
        .expect("items array")
        .iter()
        .filter(|item| item["manual"] == Value::Bool(false))
        .map(|item| {
            (
                item["id"].as_str().expect("id").to_string(),
                (
                    item["score"].as_f64().expect("score"),
                    item["max_score"].as_f64().expect("max_score"),
                ),
            )
        })
        .collect()
}

/// Asserts that exactly the items in `losing` lose points and every other auto item keeps
/// full points.
pub fn assert_loses_exactly(submission: &Value, losing: &[&str]) {
    let scores = item_scores(submission);
    for item in losing {
        assert!(scores.contains_key(*item), "no item {item} in {scores:?}");
    }
    for (id, (score, max)) in &scores {
        if losing.contains(&id.as_str()) {
            assert!(score < max, "{id} should lose points: {score}/{max}");
        } else {
            assert_eq!(score, max, "{id} should keep its points");
        }
    }
}

/// Statuses of one item's cases.
pub fn case_statuses(submission: &Value, item: &str) -> Vec<String> {
    submission["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["id"] == item)
        .expect("item present")["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| c["status"].as_str().expect("status").to_string())
        .collect()
}

/// What a sample's `expected.toml` declares (format: `tests/samples.rs`).
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Expected {
    pub loses: Vec<String>,
    #[serde(default)]
    pub may_lose: Vec<String>,
    #[serde(default)]
    pub args: Vec<String>,
    #[serde(default = "yes")]
    pub build_ok: bool,
    #[serde(default)]
    pub statuses: BTreeMap<String, String>,
}

fn yes() -> bool {
    true
}

impl Expected {
    pub fn load(file: &Path) -> Self {
        let text = std::fs::read_to_string(file).expect("expected.toml is readable");
        toml::from_str(&text).unwrap_or_else(|e| panic!("{}: {}", file.display(), e.message()))
    }

    pub fn arg_strs(&self) -> Vec<&str> {
        self.args.iter().map(String::as_str).collect()
    }

    /// Where the graded `submission` (named `name`) differs from what is declared.
    pub fn problems(&self, name: &str, submission: &Value) -> Vec<String> {
        let mut problems = Vec::new();
        if submission["build"]["ok"] != Value::Bool(self.build_ok) {
            problems.push(format!("{name}: build ok should be {}", self.build_ok));
        }
        let scores = item_scores(submission);
        for item in self.loses.iter().chain(&self.may_lose) {
            if !scores.contains_key(item) {
                problems.push(format!("{name}: no auto-graded item {item}"));
            }
        }
        for (id, (score, max)) in &scores {
            let loses = self.loses.contains(id);
            if loses && score >= max {
                problems.push(format!("{name}: {id} should lose points ({score}/{max})"));
            }
            if !loses && !self.may_lose.contains(id) && score != max {
                problems.push(format!(
                    "{name}: {id} should keep full marks ({score}/{max})"
                ));
            }
        }
        for (item, status) in &self.statuses {
            if !scores.contains_key(item) {
                problems.push(format!("{name}: no auto-graded item {item}"));
            } else if !case_statuses(submission, item).contains(status) {
                problems.push(format!("{name}: no case of {item} has status {status}"));
            }
        }
        problems
    }
}
