//! From one case's run(s) to its outcome: its record and its verdict in each rubric item. The rule that
//! turns a comparison into item statuses (`transcript_status`, `trace_status`) is pure.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use crate::assignment::{Assignment, PreparedCase};
use crate::compare::{self, Detail, Mismatch};
use crate::games::{TraceRun, Transcript};
use crate::report::hints::{self, Ending, Explanation};
use crate::report::{CaseOutcome, ItemOutcome, Status};

use super::sandbox::{self, RunLimits, RunOutcome, Termination};

/// The status of `item` in a transcript case. A run that ended abnormally (crash, timeout,
/// output cut) costs the items whose lines it spoiled; when everything printed so far
/// matched, the item that should have finished the run (`last_item`, the item of the last
/// expected line). A run that ended normally fails the items whose lines differ (an extra
/// line is already charged by the comparison to the item it follows), and every item when
/// the exit status is wrong.
pub fn transcript_status(
    item: &str,
    failed_items: &BTreeSet<&str>,
    last_item: Option<&str>,
    termination: Termination,
    wrong_exit: bool,
) -> Status {
    let abnormal = match termination {
        Termination::Exited(_) => None,
        Termination::Signaled(_) => Some(Status::Crash),
        Termination::Timeout(_) => Some(Status::Timeout),
        Termination::OutputLimit => Some(Status::OutputLimit),
    };
    let spoiled = failed_items.contains(item);
    match abnormal {
        Some(status) if spoiled => status,
        Some(status) if failed_items.is_empty() && last_item == Some(item) => status,
        Some(_) => Status::Pass,
        None if wrong_exit || spoiled => Status::Fail,
        None => Status::Pass,
    }
}

/// The status of an item in a trace case: a pass when every run earned it in full, else what
/// went worst over the runs (`worst`: the last run that did not exit with status 0).
pub fn trace_status(fraction: f64, worst: Termination) -> Status {
    if fraction >= 1.0 - 1e-9 {
        return Status::Pass;
    }
    match worst {
        Termination::Timeout(_) => Status::Timeout,
        Termination::OutputLimit => Status::OutputLimit,
        Termination::Signaled(_) => Status::Crash,
        Termination::Exited(_) => Status::Fail,
    }
}

/// Judges a transcript case's run: one comparison, then a status per item. With
/// `Detail::ItemsOnly` the outcome has the same items and statuses but no diff or hints.
pub fn judge_transcript(
    assignment: &Assignment,
    case: &PreparedCase,
    expected: &Transcript,
    outcome: &RunOutcome,
    limits: &RunLimits,
    detail: Detail,
) -> CaseOutcome {
    let actual = String::from_utf8_lossy(&outcome.stdout);
    let comparison = compare::compare_with(expected, &actual, assignment.spec.compare.mode, detail);
    let mut notes = Vec::new();
    let wrong_exit = match (case.prepared.exit_code, outcome.termination) {
        (Some(want), Termination::Exited(got)) if want != got => {
            notes.push(format!("the program must exit with status {want}"));
            true
        }
        _ => false,
    };
    let last_item = expected.lines().last().map(|l| l.item);
    let items = case
        .items
        .iter()
        .map(|item| {
            let status = transcript_status(
                item,
                &comparison.failed_items,
                last_item,
                outcome.termination,
                wrong_exit,
            );
            let fraction = if status == Status::Pass { 1.0 } else { 0.0 };
            ItemOutcome {
                item: item.clone(),
                status,
                fraction,
            }
        })
        .collect::<Vec<ItemOutcome>>();
    let explanation =
        if detail == Detail::ItemsOnly || items.iter().all(|i| i.status == Status::Pass) {
            Explanation::default()
        } else {
            let ending = match outcome.termination {
                Termination::Exited(got) => match case.prepared.exit_code {
                    Some(want) if wrong_exit => Ending::WrongExit { want, got },
                    _ => Ending::Normal,
                },
                Termination::Signaled(signal) => Ending::Crash(sandbox::signal_name(signal)),
                Termination::Timeout(_) => Ending::Timeout,
                Termination::OutputLimit => Ending::OutputLimit,
            };
            hints::explain(expected, &actual, assignment.spec.compare.mode, &ending)
        };
    CaseOutcome {
        mismatch: comparison.mismatch,
        diff: comparison.diff,
        notes,
        explanation,
        stderr: String::from_utf8_lossy(&outcome.stderr).into_owned(),
        output_digest: Some(crate::report::groups::digest(&outcome.stdout)),
        elapsed: outcome.elapsed,
        ..case_outcome(case, items, describe_end(outcome.termination, limits))
    }
}

/// The runs of a trace case, judged one at a time with the game's checker (so a caller can
/// stop at the first run that loses points): each item earns the mean of its fractions over
/// the runs.
pub struct TraceTally {
    totals: BTreeMap<String, f64>,
    notes: Vec<String>,
    worst: Termination,
    slowest: Duration,
    runs: usize,
}

impl TraceTally {
    pub fn new(case: &PreparedCase) -> Self {
        TraceTally {
            totals: case.items.iter().map(|i| (i.clone(), 0.0)).collect(),
            notes: Vec::new(),
            worst: Termination::Exited(0),
            slowest: Duration::ZERO,
            runs: 0,
        }
    }

    /// Judges one more run; true when it lost points in some item.
    pub fn add(
        &mut self,
        assignment: &Assignment,
        case: &PreparedCase,
        outcome: &RunOutcome,
        sources: &[(String, String)],
    ) -> bool {
        self.runs += 1;
        let index = self.runs;
        if outcome.termination != Termination::Exited(0) {
            self.worst = outcome.termination;
        }
        self.slowest = self.slowest.max(outcome.elapsed);
        let output = String::from_utf8_lossy(&outcome.stdout);
        let run = TraceRun {
            output: &output,
            timed_out: outcome.termination.is_timeout(),
            sources: Some(sources),
        };
        let mut earned: BTreeMap<&str, f64> = BTreeMap::new();
        match assignment.game.check_trace(&case.spec, &run) {
            Ok(verdicts) => {
                for verdict in verdicts {
                    if let Some(total) = self.totals.get_mut(verdict.item) {
                        let fraction = verdict.fraction.clamp(0.0, 1.0);
                        *total += fraction;
                        earned.insert(verdict.item, fraction);
                    }
                    self.notes.extend(
                        verdict
                            .notes
                            .into_iter()
                            .map(|n| format!("run {index}, {}: {n}", verdict.item)),
                    );
                }
            }
            Err(e) => self.notes.push(format!("run {index}: {e}")),
        }
        case.items.iter().any(|item| {
            let fraction = earned.get(item.as_str()).copied().unwrap_or(0.0);
            trace_status(fraction, outcome.termination) != Status::Pass
        })
    }

    /// The case's outcome over every run added.
    pub fn finish(self, case: &PreparedCase, limits: &RunLimits) -> CaseOutcome {
        let TraceTally {
            totals,
            notes,
            worst,
            slowest,
            runs,
        } = self;
        let runs = runs.max(1);
        let items = totals
            .into_iter()
            .map(|(item, total)| {
                let fraction = total / runs as f64;
                ItemOutcome {
                    item,
                    status: trace_status(fraction, worst),
                    fraction,
                }
            })
            .collect::<Vec<ItemOutcome>>();
        let ended = format!("{runs} runs; worst ending: {}", describe_end(worst, limits));
        // The reason is the first finding about an item that lost points (not a reading noted).
        let failing: Vec<String> = items
            .iter()
            .filter(|i| i.status != Status::Pass)
            .map(|i| format!(", {}: ", i.item))
            .collect();
        let finding = notes
            .iter()
            .find(|n| failing.iter().any(|f| n.contains(f.as_str())) && !n.contains(": reading: "));
        let explanation = Explanation {
            reason: finding.cloned().unwrap_or_else(|| ended.clone()),
            ..Explanation::default()
        };
        CaseOutcome {
            trace: true,
            notes,
            explanation,
            elapsed: slowest,
            ..case_outcome(case, items, ended)
        }
    }
}

/// A case that did not run because its binary did not build: a build error in every item.
pub fn build_error_run(case: &PreparedCase, log: &str) -> CaseOutcome {
    let items = case
        .items
        .iter()
        .map(|item| ItemOutcome {
            item: item.clone(),
            status: Status::BuildError,
            fraction: 0.0,
        })
        .collect();
    // The first error says why; warnings before it do not.
    let first_line = log
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| log.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("");
    case_outcome(
        case,
        items,
        format!("not run: the build failed ({first_line})"),
    )
}

/// A unit case not run because of what `signature` found about its function.
pub fn withheld_run(case: &PreparedCase, withheld: &super::signature::Withheld) -> CaseOutcome {
    let mut run = build_error_run(case, "");
    run.ended = format!("not run: {}", withheld.reason);
    for item in &mut run.items {
        item.status = withheld.status;
    }
    run
}

/// A case referee itself could not run (reported as a build error, with the reason, so
/// it is never mistaken for the student's failure or silently scored).
pub fn referee_failure_run(case: &PreparedCase, reason: &str) -> CaseOutcome {
    CaseOutcome {
        ended: format!("not run: {reason}"),
        ..build_error_run(case, "")
    }
}

/// A case's outcome with its identity and input filled in and nothing observed yet.
fn case_outcome(case: &PreparedCase, items: Vec<ItemOutcome>, ended: String) -> CaseOutcome {
    CaseOutcome {
        name: case.spec.name.clone(),
        description: case.spec.description.clone(),
        args: case.prepared.args.clone(),
        stdin: case.prepared.stdin.clone(),
        items,
        trace: false,
        ended,
        mismatch: Mismatch::None,
        diff: String::new(),
        notes: Vec::new(),
        explanation: Explanation::default(),
        stderr: String::new(),
        output_digest: None,
        elapsed: Duration::ZERO,
    }
}

/// How a run ended, in words.
fn describe_end(termination: Termination, limits: &RunLimits) -> String {
    match termination {
        Termination::Exited(code) => format!("exit status {code}"),
        Termination::Signaled(signal) => sandbox::signal_name(signal),
        Termination::Timeout(_) => format!(
            "stopped: still running after {} s (an endless loop, or waiting for input that never comes?)",
            limits.timeout.as_secs_f64()
        ),
        Termination::OutputLimit => format!(
            "stopped: printed more than {} KiB",
            limits.output_bytes >> 10
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignment::spec::CompareMode;
    use crate::grade::sandbox::TimeLimit;

    const ITEMS: [&str; 3] = ["board", "moves", "move"];

    fn transcript() -> Transcript {
        let mut t = Transcript::new();
        t.print("board", "board\n");
        t.print("moves", "moves\n");
        t.print("move", "move\n");
        t
    }

    /// Each item's status when `actual` is what the run printed before it ended so.
    fn statuses(actual: &str, termination: Termination, wrong_exit: bool) -> Vec<Status> {
        let expected = transcript();
        let comparison = compare::compare(&expected, actual, CompareMode::Exact);
        let last = expected.lines().last().map(|l| l.item);
        ITEMS
            .iter()
            .map(|item| {
                transcript_status(
                    item,
                    &comparison.failed_items,
                    last,
                    termination,
                    wrong_exit,
                )
            })
            .collect()
    }

    const EXIT_0: Termination = Termination::Exited(0);
    const SEGV: Termination = Termination::Signaled(11);

    #[test]
    fn matching_output_passes_every_item() {
        let all_pass = vec![Status::Pass; 3];
        assert_eq!(statuses("board\nmoves\nmove\n", EXIT_0, false), all_pass);
    }

    #[test]
    fn a_wrong_line_fails_its_item_only() {
        assert_eq!(
            statuses("board\nMOVES\nmove\n", EXIT_0, false),
            [Status::Pass, Status::Fail, Status::Pass]
        );
    }

    #[test]
    fn an_extra_line_is_charged_to_the_item_it_follows() {
        assert_eq!(
            statuses("board\nmoves\ndebug\nmove\n", EXIT_0, false),
            [Status::Pass, Status::Fail, Status::Pass]
        );
    }

    #[test]
    fn a_wrong_exit_status_fails_every_item() {
        assert_eq!(
            statuses("board\nmoves\nmove\n", Termination::Exited(1), true),
            [Status::Fail; 3]
        );
    }

    #[test]
    fn a_crash_costs_the_items_it_spoiled_and_keeps_what_printed_before() {
        assert_eq!(
            statuses("board\nmov", SEGV, false),
            [Status::Pass, Status::Crash, Status::Crash]
        );
    }

    #[test]
    fn an_abnormal_end_after_matching_output_costs_the_last_item() {
        assert_eq!(
            statuses(
                "board\nmoves\nmove\n",
                Termination::Timeout(TimeLimit::Cpu),
                false
            ),
            [Status::Pass, Status::Pass, Status::Timeout]
        );
        assert_eq!(
            statuses("board\nmoves\nmove\n", Termination::OutputLimit, false),
            [Status::Pass, Status::Pass, Status::OutputLimit]
        );
    }

    #[test]
    fn a_trace_item_passes_only_in_full_and_else_shows_the_worst_ending() {
        assert_eq!(trace_status(1.0, EXIT_0), Status::Pass);
        assert_eq!(
            trace_status(1.0, Termination::Timeout(TimeLimit::Wall)),
            Status::Pass
        );
        assert_eq!(trace_status(0.5, EXIT_0), Status::Fail);
        assert_eq!(trace_status(0.99, Termination::Exited(3)), Status::Fail);
        assert_eq!(trace_status(0.5, SEGV), Status::Crash);
        assert_eq!(
            trace_status(0.0, Termination::Timeout(TimeLimit::Cpu)),
            Status::Timeout
        );
        assert_eq!(
            trace_status(0.0, Termination::OutputLimit),
            Status::OutputLimit
        );
    }
}
