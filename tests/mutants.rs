//! `referee mutants` on a fixed sample of the reversi model's mutants: seed 170 picks four,
//! among them #15 (the `printf` of each row letter deleted, which every printed board
//! shows) and #164 (`&&` → `||` in the `!!!` test, listed as equivalent in
//! specs/reversi/mutants.toml).

mod common;

use std::path::Path;

use common::*;
use serde_json::Value;

const SAMPLE: &[&str] = &[
    "mutants", "reversi", "--sample", "4", "--seed", "170", "--format", "json",
];

fn report(root: &Path, extra: &[&str]) -> (Option<i32>, Value) {
    let output = referee()
        .arg("--root")
        .arg(root)
        .args(SAMPLE)
        .args(extra)
        .output()
        .expect("referee runs");
    let report = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "not JSON ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    (output.status.code(), report)
}

/// `referee mutants GAME --only IDS --format json` on the project: exit status and report.
fn only_report(game: &str, ids: &str) -> (Option<i32>, Value) {
    let output = referee()
        .arg("--root")
        .arg(root())
        .args(["mutants", game, "--only", ids, "--format", "json"])
        .output()
        .expect("referee runs");
    let report = serde_json::from_slice(&output.stdout).expect("JSON report");
    (output.status.code(), report)
}

fn mutant(report: &Value, id: u64) -> &Value {
    report["mutants"]
        .as_array()
        .and_then(|all| all.iter().find(|m| m["id"] == id))
        .unwrap_or_else(|| panic!("mutant #{id} is not in the sample: {report:#}"))
}

/// A copy of the reversi spec, cases and model without specs/reversi/mutants.toml.
fn root_without_equivalents() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    for sub in ["specs/reversi", "cases/reversi", "reference/reversi"] {
        let to = dir.path().join(sub);
        std::fs::create_dir_all(&to).expect("mkdir");
        for entry in std::fs::read_dir(root().join(sub)).expect("read_dir") {
            let entry = entry.expect("entry");
            if entry.file_name() != "mutants.toml" {
                std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copy");
            }
        }
    }
    dir
}

#[test]
fn a_fixed_sample_is_counted_and_its_listed_survivor_passes_the_check() {
    let (status, report) = report(&root(), &["--check"]);
    let mutants = report["mutants"].as_array().expect("mutants");
    assert_eq!(mutants.len(), 4, "{report:#}");
    let tally = |verdict: &str| mutants.iter().filter(|m| m["verdict"] == verdict).count();
    for (key, verdict) in [
        ("killed", "killed"),
        ("survived", "survived"),
        ("timed_out", "timed_out"),
        ("did_not_build", "did_not_build"),
    ] {
        assert_eq!(report[key].as_u64(), Some(tally(verdict) as u64), "{key}");
    }
    let deleted_board = mutant(&report, 15);
    assert_eq!(deleted_board["operator"], "deleted_statement");
    assert_eq!(deleted_board["function"], "printBoard");
    assert_eq!(deleted_board["verdict"], "killed");
    let lost = deleted_board["lost"].as_array().expect("lost");
    assert!(lost.iter().any(|item| item == "board"), "{lost:?}");

    let terminator = mutant(&report, 164);
    assert_eq!(terminator["verdict"], "survived");
    assert!(terminator["equivalent"].is_string(), "{terminator:#}");
    assert_eq!(terminator["lost"].as_array().map(Vec::len), Some(0));

    let built = report["killed"].as_u64().unwrap_or(0)
        + report["timed_out"].as_u64().unwrap_or(0)
        + report["survived"].as_u64().unwrap_or(0);
    let detected = built - report["survived"].as_u64().unwrap_or(0);
    let score = report["score"].as_f64().expect("score");
    assert!((score - 100.0 * detected as f64 / built as f64).abs() < 1e-9);
    assert_eq!(report["unexplained"], 0);
    assert_eq!(status, Some(0));
}

#[test]
fn an_unlisted_survivor_fails_the_check() {
    let scratch = root_without_equivalents();
    let (status, report) = report(scratch.path(), &["--check"]);
    assert_eq!(mutant(&report, 164)["verdict"], "survived");
    assert!(mutant(&report, 164)["equivalent"].is_null());
    assert!(report["unexplained"].as_u64() >= Some(1));
    assert_eq!(status, Some(1));
}

#[test]
fn only_grades_the_named_mutants_as_the_sample_does() {
    let (status, report) = only_report("reversi", "164,15");
    let ids: Vec<u64> = report["mutants"]
        .as_array()
        .expect("mutants")
        .iter()
        .filter_map(|m| m["id"].as_u64())
        .collect();
    assert_eq!(ids, [15, 164], "{report:#}");
    assert_eq!(report["only"], serde_json::json!([15, 164]));
    assert_eq!(mutant(&report, 15)["verdict"], "killed");
    assert_eq!(mutant(&report, 164)["verdict"], "survived");
    assert_eq!(status, Some(0));
}

#[test]
fn only_names_a_missing_mutant_in_one_line() {
    let output = referee()
        .arg("--root")
        .arg(root())
        .args(["mutants", "reversi", "--only", "15,100000"])
        .output()
        .expect("referee runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("--only: there is no mutant #100000 of reversi"),
        "{stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert_ne!(output.status.code(), Some(0));
}

#[test]
fn a_trace_mutant_stops_at_its_first_run_that_loses_points() {
    // LUDO-CS #25 (`square + SQUARES - 1` made `square - SQUARES - 1` in `step`: a
    // counter-clockwise step lands on a negative square) plays the cases' fixed-clock games: its
    // first failing game in each case loses messages and rules (lines it cannot read), and
    // behaviour (a colour whose choices could not be judged once in the game is not credited
    // in full), and some later games never finish (`referee grade` of its source, every run,
    // loses `finishes` too).
    // Mutant runs stop at the first game that loses points (one finding kills), so `finishes`
    // is not among the items lost.
    let (_, report) = only_report("ludo", "25");
    let killed = mutant(&report, 25);
    assert_eq!(killed["verdict"], "killed", "{report:#}");
    assert_eq!(
        killed["lost"],
        serde_json::json!(["messages", "rules", "behaviour"]),
        "{report:#}"
    );
}
