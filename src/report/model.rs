//! Graded results. The serialized form is the JSON report contract (`--format json`,
//! `docs/json.md`).

use std::collections::BTreeMap;

use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};
use serde_json::Value;

use crate::assignment::cases::Visibility;
use crate::compare::Mismatch;

/// A graded batch: the JSON report's top level (`docs/json.md`).
#[derive(Debug, Clone, Serialize)]
pub struct BatchReport {
    /// The game id: `trouble`, `backgammon`, `reversi`, `othello` or `ludo`.
    pub game: String,
    /// One report per submission, in name order.
    pub submissions: Vec<SubmissionReport>,
    /// How runs were isolated, in words (an addition to the contract's keys).
    pub sandbox: String,
    /// The version of the specs and cases graded with (`Assignment::data`).
    pub data: String,
    /// Entries of the batch that were not graded, with the reason.
    pub skipped: Vec<Skipped>,
}

/// A file of a submission left out of grading.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Ignored {
    /// The file's path inside the submission.
    pub file: String,
    /// Why it was not graded ("another .c file with its own main", …).
    pub reason: String,
}

/// An entry of a batch folder that is not a submission.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Skipped {
    /// The entry's path.
    pub path: String,
    /// Why it is not a submission ("not C", "a symbolic link: never followed", …).
    pub reason: String,
}

/// One graded submission. Serialized as the contract's submission object, whose items list
/// their cases: each item's `cases` is written from the case outcomes in `runs`.
#[derive(Debug, Clone)]
pub struct SubmissionReport {
    /// The entry's name: a file name without `.c`/`.zip`, or a folder name; unique in a batch.
    pub name: String,
    /// The path graded.
    pub path: String,
    /// Auto-graded points earned (3 decimals at most).
    pub score: f64,
    /// Auto-graded points available.
    pub max_score: f64,
    /// Whether the student's program built, and the compiler's messages.
    pub build: BuildReport,
    /// Every rubric item, in spec order.
    pub items: Vec<ItemReport>,
    /// What was observed in the sources (`compiler_warnings`, `globals`, `helpers`,
    /// `uses_KEYWORD`), not scored.
    pub facts: BTreeMap<String, Value>,
    /// Files of the submission left out of grading, with the reason.
    pub ignored: Vec<Ignored>,
    /// How the submission was read (a `.C` file graded as C, the file chosen for grading).
    pub notes: Vec<String>,
    /// The student's display name (the LMS's for an LMS export, else `name`).
    pub student: String,
    /// The student's LMS id: Canvas user id, Moodle participant id, Gradescope SID,
    /// GitHub username; empty outside an LMS export.
    pub id: String,
    /// The LMS marked the submission late.
    pub late: bool,
    /// Every case's outcome, in case order: the one record every report is written from.
    pub runs: Vec<CaseOutcome>,
    /// What was done to the points after grading (`--adjust`, the late policy); `None`
    /// when neither was asked for. `score` and the items' scores include it.
    pub changes: Option<Changes>,
}

/// The points of a submission before and after the changes made after grading.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Changes {
    /// The auto-graded points before any change.
    pub raw_score: f64,
    /// Adjustments by hand, in the order of the file.
    pub adjustments: Vec<Adjustment>,
    /// The penalty for a late submission, when it is late.
    pub late_penalty: Option<LatePenalty>,
}

/// A TA's change to one item's points (a regrade request, a partial credit).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Adjustment {
    /// The item's id.
    pub item: String,
    /// Points added to the item (negative: taken), as applied: an item stays between 0 and
    /// its points.
    pub delta: f64,
    /// Why, from the adjustments file.
    pub comment: String,
}

/// Points taken from a late submission.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LatePenalty {
    /// The policy, as written (`10%/day,cap=50%`).
    pub policy: String,
    /// Days late (any part of a day counts), when the submission time is known.
    pub days: Option<u32>,
    /// The share of the points possible taken.
    pub share: f64,
    /// The points taken (never more than the submission had).
    pub points: f64,
}

/// The build of the student's program.
#[derive(Debug, Clone, Serialize)]
pub struct BuildReport {
    /// The program compiled and linked.
    pub ok: bool,
    /// Every compiler message; the unit-test harness's log when it could not be built with
    /// the student's code; or why nothing was built (empty, binary, unreadable zip).
    pub log: String,
}

/// One rubric item's score. Its cases are the outcomes in `SubmissionReport::runs` that
/// touch it (`SubmissionReport::item_cases`).
#[derive(Debug, Clone)]
pub struct ItemReport {
    /// The item id from `spec.toml`.
    pub id: String,
    /// Points earned: `max_score` times the share of its cases earned; `None` (JSON `null`)
    /// for a manual item.
    pub score: Option<f64>,
    /// The item's points in `spec.toml`.
    pub max_score: f64,
    /// Graded by a person (style, questions): no cases.
    pub manual: bool,
}

/// A case's status in one item (JSON `status`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Every line of the item matched (a trace item: earned in full in every run).
    Pass,
    /// A line of the item differs, an extra line is charged to it, or the exit status is
    /// wrong.
    Fail,
    /// The run hit the wall-clock limit and this item's output was cut off (or it was the
    /// item that should have finished the run).
    Timeout,
    /// The program died on a signal, likewise.
    Crash,
    /// The program printed more than the output limit, likewise.
    OutputLimit,
    /// The binary the case needs did not build, or referee could not run it.
    BuildError,
}

impl Status {
    /// The JSON spelling.
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

/// One case's outcome: its input, how its run(s) ended, what they printed against what was
/// expected, and its verdict in each item it touches.
#[derive(Debug, Clone)]
pub struct CaseOutcome {
    /// The case's name in `cases/<game>/*.toml`.
    pub name: String,
    /// What the case tests, from its `description`.
    pub description: Option<String>,
    /// The program's arguments.
    pub args: Vec<String>,
    /// The program's standard input.
    pub stdin: String,
    /// The verdict in each item the case touches, in order.
    pub items: Vec<ItemOutcome>,
    /// Judged by a trace checker (several runs, findings in `notes`) rather than a diff.
    pub trace: bool,
    /// How the run ended, in words ("exit status 0", "Segmentation fault (SIGSEGV)", …).
    pub ended: String,
    /// The kind of difference between the whole outputs.
    pub mismatch: Mismatch,
    /// The unified diff of the whole output (empty when it matched).
    pub diff: String,
    /// Trace checker findings (`run N, ITEM: …`), or other remarks.
    pub notes: Vec<String>,
    /// Why the case failed, for the summary (empty reason when it passed).
    pub explanation: super::hints::Explanation,
    /// What the program printed on standard error (sanitizer reports land here).
    pub stderr: String,
    /// Hash of everything the program printed on stdout (`None` when it did not run), so
    /// submissions with byte-identical wrong output can be grouped without keeping it all.
    pub output_digest: Option<super::groups::Digest>,
    /// CPU time of the run (zero when it did not run).
    pub elapsed: std::time::Duration,
    /// Who may see the case in full (from its case file).
    pub visibility: Visibility,
    /// This record is the students' view of a case they may not see: its name is a
    /// placeholder and its input, output, diff and hints are left out
    /// (`audience::for_students`).
    pub concealed: bool,
}

/// A case's verdict in one item.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemOutcome {
    /// The item id.
    pub item: String,
    /// The case's status in the item.
    pub status: Status,
    /// Share of the item earned in this case: 1 or 0, or a trace checker's mean fraction.
    pub fraction: f64,
}

impl CaseOutcome {
    pub fn passed(&self) -> bool {
        self.items.iter().all(|i| i.status == Status::Pass)
    }

    /// The kind of difference reported for `item`: none where it passes; for a trace case,
    /// `content`.
    pub fn mismatch_in(&self, verdict: &ItemOutcome) -> Mismatch {
        match (verdict.status, self.trace) {
            (Status::Pass, _) => Mismatch::None,
            (_, true) => Mismatch::Content,
            (_, false) => self.mismatch,
        }
    }

    /// The diff shown under `item`: the whole diff where the item does not pass; for a trace
    /// case, the checker's findings about the item.
    pub fn diff_in(&self, verdict: &ItemOutcome) -> String {
        if self.trace {
            let marker = format!(", {}: ", verdict.item);
            return self
                .notes
                .iter()
                .filter(|n| n.contains(&marker))
                .cloned()
                .collect::<Vec<_>>()
                .join("\n");
        }
        if verdict.status == Status::Pass {
            String::new()
        } else {
            self.diff.clone()
        }
    }
}

/// A case as one item sees it (a view of a `CaseOutcome`).
#[derive(Debug, Clone, Copy)]
pub struct ItemCase<'a> {
    pub case: &'a CaseOutcome,
    pub verdict: &'a ItemOutcome,
}

impl ItemCase<'_> {
    pub fn status(&self) -> Status {
        self.verdict.status
    }
}

impl SubmissionReport {
    pub fn full_marks(&self) -> bool {
        self.build.ok && (self.score - self.max_score).abs() < 1e-9
    }

    /// The cases that touch `item`, in case order, each with its verdict there.
    pub fn item_cases<'a>(&'a self, item: &'a str) -> impl Iterator<Item = ItemCase<'a>> + 'a {
        self.runs.iter().flat_map(move |case| {
            case.items
                .iter()
                .filter(move |verdict| verdict.item == item)
                .map(move |verdict| ItemCase { case, verdict })
        })
    }
}

/// The contract's submission object: its keys in order, each item with its cases.
impl Serialize for SubmissionReport {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let items: Vec<ItemJson> = self
            .items
            .iter()
            .map(|item| ItemJson {
                id: &item.id,
                score: item.score,
                max_score: item.max_score,
                manual: item.manual,
                cases: self
                    .item_cases(&item.id)
                    .map(|c| CaseJson {
                        name: &c.case.name,
                        status: c.verdict.status,
                        mismatch: c.case.mismatch_in(c.verdict),
                        diff: c.case.diff_in(c.verdict),
                        visibility: c.case.visibility,
                    })
                    .collect(),
            })
            .collect();
        let mut out = serializer.serialize_struct("SubmissionReport", 15)?;
        out.serialize_field("name", &self.name)?;
        out.serialize_field("path", &self.path)?;
        out.serialize_field("score", &self.score)?;
        out.serialize_field("max_score", &self.max_score)?;
        out.serialize_field("build", &self.build)?;
        out.serialize_field("items", &items)?;
        out.serialize_field("facts", &self.facts)?;
        out.serialize_field("ignored", &self.ignored)?;
        out.serialize_field("notes", &self.notes)?;
        out.serialize_field("student", &self.student)?;
        // The contract gives a submission without an LMS id `null`, not "".
        out.serialize_field("id", &Some(&self.id).filter(|id| !id.is_empty()))?;
        out.serialize_field("late", &self.late)?;
        if let Some(changes) = &self.changes {
            out.serialize_field("raw_score", &changes.raw_score)?;
            out.serialize_field("adjustments", &changes.adjustments)?;
            out.serialize_field("late_penalty", &changes.late_penalty)?;
        }
        out.end()
    }
}

/// An item in the JSON report.
#[derive(Serialize)]
struct ItemJson<'a> {
    id: &'a str,
    score: Option<f64>,
    max_score: f64,
    manual: bool,
    cases: Vec<CaseJson<'a>>,
}

/// A case under an item in the JSON report: `status`, `mismatch` and `diff` for that item;
/// `visibility` only for a case that is not `visible`.
#[derive(Serialize)]
struct CaseJson<'a> {
    name: &'a str,
    status: Status,
    mismatch: Mismatch,
    diff: String,
    #[serde(skip_serializing_if = "is_visible")]
    visibility: Visibility,
}

fn is_visible(visibility: &Visibility) -> bool {
    *visibility == Visibility::Visible
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(trace: bool, statuses: &[(&str, Status)]) -> CaseOutcome {
        CaseOutcome {
            name: "c".into(),
            description: None,
            args: Vec::new(),
            stdin: String::new(),
            items: statuses
                .iter()
                .map(|(item, status)| ItemOutcome {
                    item: item.to_string(),
                    status: *status,
                    fraction: 0.0,
                })
                .collect(),
            trace,
            explanation: Default::default(),
            ended: String::new(),
            mismatch: Mismatch::TrailingSpace,
            diff: "the diff".into(),
            notes: vec![
                "run 1, rules: a finding".into(),
                "run 1, messages: ok".into(),
            ],
            stderr: String::new(),
            output_digest: None,
            elapsed: std::time::Duration::ZERO,
            visibility: Visibility::Visible,
            concealed: false,
        }
    }

    #[test]
    fn an_item_shows_the_whole_diff_only_where_it_does_not_pass() {
        let case = outcome(false, &[("board", Status::Pass), ("move", Status::Fail)]);
        let (board, moves) = (&case.items[0], &case.items[1]);
        assert_eq!(case.mismatch_in(board), Mismatch::None);
        assert_eq!(case.diff_in(board), "");
        assert_eq!(case.mismatch_in(moves), Mismatch::TrailingSpace);
        assert_eq!(case.diff_in(moves), "the diff");
    }

    #[test]
    fn a_trace_item_shows_the_findings_about_it() {
        let case = outcome(true, &[("rules", Status::Fail), ("messages", Status::Pass)]);
        let (rules, messages) = (&case.items[0], &case.items[1]);
        assert_eq!(case.mismatch_in(rules), Mismatch::Content);
        assert_eq!(case.diff_in(rules), "run 1, rules: a finding");
        assert_eq!(case.mismatch_in(messages), Mismatch::None);
        assert_eq!(case.diff_in(messages), "run 1, messages: ok");
    }
}
