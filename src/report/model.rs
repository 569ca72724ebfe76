//! Graded results. The serialized form is the JSON report contract (`--format json`).

use std::collections::BTreeMap;

use serde::Serialize;
use serde_json::Value;

use crate::grade::compare::Mismatch;

#[derive(Debug, Clone, Serialize)]
pub struct BatchReport {
    pub game: String,
    pub submissions: Vec<SubmissionReport>,
    /// How runs were isolated (an addition to the contract's keys).
    pub sandbox: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct SubmissionReport {
    pub name: String,
    pub path: String,
    /// Auto-graded points earned.
    pub score: f64,
    /// Auto-graded points available.
    pub max_score: f64,
    pub build: BuildReport,
    pub items: Vec<ItemReport>,
    pub facts: BTreeMap<String, Value>,
    /// Every case run, in case order, with what a student needs to act on a failure.
    #[serde(skip)]
    pub runs: Vec<CaseRun>,
}

#[derive(Debug, Clone, Serialize)]
pub struct BuildReport {
    pub ok: bool,
    pub log: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct ItemReport {
    pub id: String,
    /// `None` for manual items.
    pub score: Option<f64>,
    pub max_score: f64,
    pub manual: bool,
    pub cases: Vec<CaseResult>,
}

/// One case as seen by one item.
#[derive(Debug, Clone, Serialize)]
pub struct CaseResult {
    pub name: String,
    pub status: Status,
    pub mismatch: Mismatch,
    pub diff: String,
    /// Share of the item earned in this case (1 or 0, or a trace checker's fraction).
    #[serde(skip)]
    pub fraction: f64,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Pass,
    Fail,
    Timeout,
    Crash,
    OutputLimit,
    BuildError,
}

impl Status {
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Pass => "pass",
            Status::Fail => "fail",
            Status::Timeout => "timeout",
            Status::Crash => "crash",
            Status::OutputLimit => "output_limit",
            Status::BuildError => "build_error",
        }
    }
}

/// One case's run, for the readable report.
#[derive(Debug, Clone)]
pub struct CaseRun {
    pub name: String,
    pub description: Option<String>,
    pub args: Vec<String>,
    pub stdin: String,
    /// Status per item the case touches, in order.
    pub items: Vec<(String, Status)>,
    /// How the run ended, in words ("exit status 0", "Segmentation fault (SIGSEGV)", …).
    pub ended: String,
    pub mismatch: Mismatch,
    pub diff: String,
    /// Trace checker findings, or other remarks.
    pub notes: Vec<String>,
    pub stderr: String,
    /// Hash of everything the program printed on stdout (`None` when it did not run), so
    /// submissions with byte-identical wrong output can be grouped without keeping it all.
    pub output_digest: Option<super::groups::Digest>,
    /// CPU time of the run (zero when it did not run).
    pub elapsed: std::time::Duration,
}

impl CaseRun {
    pub fn passed(&self) -> bool {
        self.items.iter().all(|(_, s)| *s == Status::Pass)
    }
}

impl SubmissionReport {
    pub fn full_marks(&self) -> bool {
        self.build.ok && (self.score - self.max_score).abs() < 1e-9
    }
}
