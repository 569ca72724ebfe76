//! From one case's run(s) to its outcome: its record and its verdict in each rubric item. The rule that
//! turns a comparison into item statuses (`transcript_status`, `trace_status`) is pure.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use crate::assignment::{Assignment, PreparedCase};
use crate::compare::{self, Detail, Mismatch};
use crate::games::{Expectation, Showed, TraceRun, Transcript};
use crate::report::groups::{digest, Digest};
use crate::report::hints::{self, Ending, Explanation};
use crate::report::{CaseOutcome, ItemOutcome, Status};

use crate::grade::build::signature::Withheld;
use crate::grade::run::sandbox::{self, RunLimits, RunOutcome, Termination, TimeLimit};

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
        Termination::Signaled(_) | Termination::MemoryLimit => Some(Status::Crash),
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
        Termination::Signaled(_) | Termination::MemoryLimit => Status::Crash,
        Termination::Exited(_) => Status::Fail,
    }
}

/// The note of a case (and of its submission) whose output ends lines with `\r\n`.
pub const CRLF_NOTE: &str =
    "line endings (CRLF): lines end with `\\r\\n`; graded as if they ended with `\\n`";

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
    let raw = String::from_utf8_lossy(&outcome.stdout);
    // Windows line endings are graded as the text they end, with a note (docs/design.md,
    // "Comparison"): a TA reads `Valid move.\r\n` as `Valid move.`.
    let crlf = raw.contains("\r\n");
    let actual = if crlf {
        raw.replace("\r\n", "\n").into()
    } else {
        raw
    };
    let actual = match assignment.game.as_reference(expected, &actual) {
        Some(read) => read.into(),
        None => actual,
    };
    let mut comparison =
        compare::compare_with(expected, &actual, assignment.spec.compare.mode, detail);
    let mut notes = Vec::new();
    if crlf {
        notes.push(CRLF_NOTE.to_string());
        if comparison.mismatch == Mismatch::None {
            comparison.mismatch = Mismatch::Crlf;
        }
    }
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
                Termination::MemoryLimit => Ending::MemoryLimit(memory_mb(limits)),
            };
            hints::explain(expected, &actual, assignment.spec.compare.mode, &ending)
        };
    CaseOutcome {
        mismatch: comparison.mismatch,
        diff: comparison.diff,
        notes,
        explanation,
        stderr: kept_stderr(&outcome.stderr),
        output_digest: Some(digest(&outcome.stdout)),
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
    /// What the game of each run made showed (the game's keys).
    shown: Vec<Showed>,
    /// What a failing case's reason names: the first run that lost points with a finding or
    /// an ending other than an exit (a crash, the output limit, the time limit), named so.
    lead: Option<String>,
    /// The digests of the runs' outputs and how many printed something: runs that all print
    /// the same game are worth a note.
    outputs: BTreeSet<Digest>,
    printed: usize,
}

impl TraceTally {
    pub fn new(case: &PreparedCase) -> Self {
        TraceTally {
            totals: case.items.iter().map(|i| (i.clone(), 0.0)).collect(),
            notes: Vec::new(),
            worst: Termination::Exited(0),
            slowest: Duration::ZERO,
            runs: 0,
            shown: Vec::new(),
            lead: None,
            outputs: BTreeSet::new(),
            printed: 0,
        }
    }

    /// Judges one more run; true when it lost points in some item.
    pub fn add(
        &mut self,
        assignment: &Assignment,
        case: &PreparedCase,
        outcome: &RunOutcome,
        sources: &[(String, String)],
        limits: &RunLimits,
    ) -> bool {
        self.runs += 1;
        let index = self.runs;
        if outcome.termination != Termination::Exited(0) {
            self.worst = outcome.termination;
        }
        self.slowest = self.slowest.max(outcome.elapsed);
        if !outcome.stdout.is_empty() {
            self.printed += 1;
            self.outputs.insert(digest(&outcome.stdout));
        }
        let output = String::from_utf8_lossy(&outcome.stdout);
        let run = TraceRun {
            output: &output,
            timed_out: outcome.termination.is_timeout(),
            sources: Some(sources),
        };
        let mut earned: BTreeMap<&str, f64> = BTreeMap::new();
        let mut findings = Vec::new();
        match assignment.game.check_trace(&case.spec, &run) {
            Ok(verdict) => {
                self.shown.push(verdict.shown);
                findings = verdict.findings;
                for verdict in verdict.items {
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
        let lost: Vec<&String> = case
            .items
            .iter()
            .filter(|item| {
                let fraction = earned.get(item.as_str()).copied().unwrap_or(0.0);
                trace_status(fraction, outcome.termination) != Status::Pass
            })
            .collect();
        if self.lead.is_none() && !lost.is_empty() {
            self.lead = match outcome.termination {
                Termination::Exited(_) => findings
                    .into_iter()
                    .find(|(item, _)| lost.iter().any(|l| l.as_str() == *item))
                    .map(|(item, finding)| format!("run {index}, {item}: {finding}")),
                Termination::Signaled(signal) => Some(format!(
                    "run {index} crashed: {}",
                    sandbox::signal_name(signal)
                )),
                ending => Some(format!("run {index} {}", describe_end(ending, limits))),
            };
        }
        !lost.is_empty()
    }

    /// `count` runs that were not made (`reason`): each counts as earning nothing.
    pub fn not_run(&mut self, count: usize, reason: &str) {
        if count == 0 {
            return;
        }
        self.notes.push(format!(
            "runs {} to {} not run: {reason}",
            self.runs + 1,
            self.runs + count
        ));
        self.runs += count;
        self.worst = Termination::Timeout(TimeLimit::Wall);
    }

    /// `count` runs not made because the runs made all ended at the time limit (`reason`):
    /// each is counted as the mean of the runs made, as a program hanging in every game
    /// would have earned them.
    pub fn presumed(&mut self, count: usize, reason: &str) {
        if count == 0 || self.runs == 0 {
            return;
        }
        self.notes.push(format!(
            "runs {} to {} not run: {reason}; each counts as the mean of the {} runs made",
            self.runs + 1,
            self.runs + count,
            self.runs
        ));
        let scale = (self.runs + count) as f64 / self.runs as f64;
        for total in self.totals.values_mut() {
            *total *= scale;
        }
        self.runs += count;
    }

    /// The case's outcome over every run added: each item's mean over the runs, times the
    /// factor the game charges for what the runs showed together (`Game::charge_trace`).
    pub fn finish(
        self,
        assignment: &Assignment,
        case: &PreparedCase,
        limits: &RunLimits,
    ) -> CaseOutcome {
        let TraceTally {
            totals,
            mut notes,
            worst,
            slowest,
            runs,
            shown,
            lead,
            outputs,
            printed,
        } = self;
        // A fact, not a deduction: every run reads its own clock, so a program whose dice
        // follow it prints a new game each time.
        if printed > 1 && printed == runs && outputs.len() == 1 {
            notes.push(format!(
                "all runs: the {printed} runs printed the same game though each read its own clock: the program's dice do not follow the clock, so its grade rests on one game"
            ));
        }
        let runs = runs.max(1);
        let clocks: &[i64] = match &case.prepared.expect {
            Expectation::Trace { clocks, .. } => clocks,
            Expectation::Transcript(_) => &[],
        };
        let charges = assignment.game.charge_trace(clocks, &shown);
        for charge in &charges {
            notes.extend(
                charge
                    .notes
                    .iter()
                    .map(|n| format!("all runs, {}: {n}", charge.item)),
            );
        }
        let items = totals
            .into_iter()
            .map(|(item, total)| {
                let factor = charges
                    .iter()
                    .filter(|c| c.item == item)
                    .map(|c| c.fraction.clamp(0.0, 1.0))
                    .product::<f64>();
                let fraction = total / runs as f64 * factor;
                ItemOutcome {
                    item,
                    status: trace_status(fraction, worst),
                    fraction,
                }
            })
            .collect::<Vec<ItemOutcome>>();
        let ended = format!("{runs} runs; worst ending: {}", describe_end(worst, limits));
        // The reason is the first run's finding, else what no run showed, else how it ended.
        let charged = charges.iter().find_map(|c| {
            c.notes
                .first()
                .map(|n| format!("all runs, {}: {n}", c.item))
        });
        let explanation = Explanation {
            reason: lead.or(charged).unwrap_or_else(|| ended.clone()),
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
pub fn withheld_run(case: &PreparedCase, withheld: &Withheld) -> CaseOutcome {
    let mut run = build_error_run(case, "");
    run.ended = format!("not run: {}", withheld.reason);
    for item in &mut run.items {
        item.status = withheld.status;
    }
    run
}

/// A case not run because the submission's runs had spent their time (`reason`): a timeout
/// in every item.
pub fn budget_spent_run(case: &PreparedCase, reason: &str) -> CaseOutcome {
    let mut run = build_error_run(case, "");
    run.ended = format!("not run: {reason}");
    run.explanation.reason = run.ended.clone();
    for item in &mut run.items {
        item.status = Status::Timeout;
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
        visibility: case.visibility,
        concealed: false,
    }
}

/// Bytes of a run's standard error a report keeps: a sanitizer's report fits, a flood does
/// not make every report it is in megabytes long.
const KEPT_STDERR_BYTES: usize = 16 << 10;

/// A run's standard error as a report keeps it: the start, and how much more there was.
fn kept_stderr(stderr: &[u8]) -> String {
    if stderr.len() <= KEPT_STDERR_BYTES {
        return String::from_utf8_lossy(stderr).into_owned();
    }
    format!(
        "{}\n… {} more bytes on standard error not kept\n",
        String::from_utf8_lossy(&stderr[..KEPT_STDERR_BYTES]),
        stderr.len() - KEPT_STDERR_BYTES
    )
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
        Termination::MemoryLimit => format!(
            "stopped: used more than its {} MiB of memory",
            memory_mb(limits)
        ),
    }
}

/// The run's memory limit in MiB, as a report names it.
fn memory_mb(limits: &RunLimits) -> u64 {
    limits.run_memory_bytes.or(limits.memory_bytes).unwrap_or(0) >> 20
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignment::spec::CompareMode;

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

    /// The ludo assignment's first trace case, and limits for its runs.
    fn ludo_case() -> (Assignment, usize, RunLimits) {
        let project = crate::assignment::Project::locate(Some(std::path::Path::new(env!(
            "CARGO_MANIFEST_DIR"
        ))))
        .expect("the checkout");
        let assignment = Assignment::load(&project, "ludo").expect("ludo loads");
        let index = assignment
            .cases
            .iter()
            .position(|c| matches!(c.prepared.expect, Expectation::Trace { .. }))
            .expect("a trace case");
        let limits = RunLimits {
            timeout: Duration::from_secs(10),
            cpu_seconds: 11,
            memory_bytes: None,
            run_memory_bytes: None,
            output_bytes: 16 << 20,
            file_size_bytes: 0,
            open_files: 64,
            processes: 1,
        };
        (assignment, index, limits)
    }

    fn run(output: &str, termination: Termination) -> RunOutcome {
        RunOutcome {
            stdout: output.as_bytes().to_vec(),
            stderr: Vec::new(),
            termination,
            elapsed: Duration::ZERO,
            slept: Duration::ZERO,
            memory_limit_hit: false,
        }
    }

    /// The reason a trace case gives after these runs.
    fn trace_reason(runs: &[(&str, Termination)]) -> String {
        let (assignment, index, limits) = ludo_case();
        let case = &assignment.cases[index];
        let mut tally = TraceTally::new(case);
        for (output, termination) in runs {
            tally.add(&assignment, case, &run(output, *termination), &[], &limits);
        }
        tally.finish(&assignment, case, &limits).explanation.reason
    }

    #[test]
    fn a_failing_trace_case_names_its_first_real_finding_or_how_a_run_ended() {
        let good = crate::games::ludo::sim::simulate(3).text();
        // A line no form reads costs coverage and messages; it is not the rule finding.
        let lines: Vec<&str> = good.lines().collect();
        let count = lines
            .iter()
            .position(|l| l.contains("now has 1/4 on pieces on the board and 3/4"))
            .expect("a count line after the first entry");
        let mut edited: Vec<String> = lines.iter().map(|l| l.to_string()).collect();
        // Two pieces apart: no single missing line explains it.
        edited[count] = edited[count]
            .replace("1/4 on pieces", "3/4 on pieces")
            .replace("and 3/4", "and 1/4");
        edited.insert(count + 2, "Red is on fire today".to_string());
        let wrong = edited.join("\n");
        let reason = trace_reason(&[(&good, EXIT_0), (&wrong, EXIT_0), (&good, SEGV)]);
        assert!(
            reason.starts_with(&format!("run 2, rules: line {}: ", count + 1))
                && reason.contains("count line"),
            "{reason}"
        );
        assert_eq!(
            trace_reason(&[(&good, SEGV), (&wrong, EXIT_0)]),
            "run 1 crashed: Segmentation fault (SIGSEGV)"
        );
        let reason = trace_reason(&[(&good[..good.len() / 2], Termination::OutputLimit)]);
        assert!(
            reason.starts_with("run 1 stopped: printed more than"),
            "{reason}"
        );
    }

    #[test]
    fn runs_that_all_print_the_same_game_are_noted() {
        let (assignment, index, limits) = ludo_case();
        let case = &assignment.cases[index];
        let notes = |games: &[u64]| {
            let mut tally = TraceTally::new(case);
            for &seed in games {
                let game = crate::games::ludo::sim::simulate(seed).text();
                tally.add(&assignment, case, &run(&game, EXIT_0), &[], &limits);
            }
            tally.finish(&assignment, case, &limits).notes
        };
        let same = |notes: &[String]| notes.iter().any(|n| n.contains("printed the same game"));
        assert!(same(&notes(&[4, 4, 4])));
        assert!(!same(&notes(&[4, 5, 4])));
        assert!(!same(&notes(&[4])));
    }

    #[test]
    fn runs_presumed_after_a_program_hangs_count_as_the_mean_of_those_made() {
        let (assignment, index, limits) = ludo_case();
        let case = &assignment.cases[index];
        let game = crate::games::ludo::sim::simulate(5).text();
        let hang = Termination::Timeout(TimeLimit::Cpu);
        let partial = &game[..game.len() / 3];
        let mean = |presumed: usize| {
            let mut tally = TraceTally::new(case);
            for _ in 0..2 {
                tally.add(&assignment, case, &run(partial, hang), &[], &limits);
            }
            tally.presumed(presumed, "hanging");
            tally.finish(&assignment, case, &limits)
        };
        let (made, stopped) = (mean(0), mean(98));
        for (a, b) in made.items.iter().zip(&stopped.items) {
            assert!((a.fraction - b.fraction).abs() < 1e-9, "{a:?} {b:?}");
        }
        assert!(stopped
            .notes
            .iter()
            .any(|n| n
                == "runs 3 to 100 not run: hanging; each counts as the mean of the 2 runs made"));
    }
}
