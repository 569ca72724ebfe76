//! Running a submission's cases: batches (`run::batch`), the run cache (`run::cache`), and pacing
//! (a program that keeps timing out gets a shorter time limit).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use rayon::prelude::*;

use crate::assignment::{Assignment, PreparedCase};
use crate::games::Expectation;
use crate::report::destination::file_safe;
use crate::report::{CaseOutcome, Status};

use crate::grade::build::built::Built;
use crate::grade::build::signature::{unit_function, Withheld};
use crate::grade::build::BuildKey;
use crate::grade::grader::{Grader, Settings};
use crate::grade::run::batch;
use crate::grade::run::cache::{RunInput, RunStore};
use crate::grade::run::sandbox::{self, RunLimits, RunOutcome, RunRequest};

use super::verdict::{
    budget_spent_run, build_error_run, judge_transcript, referee_failure_run, withheld_run,
    TraceTally,
};

/// Sanitizer settings: stop at the first error with a crash, so the case is a `crash` and
/// the report is on stderr.
const SANITIZER_ENV: [(&str, &str); 2] = [
    (
        "ASAN_OPTIONS",
        "abort_on_error=1:detect_leaks=0:color=never:symbolize=1",
    ),
    (
        "UBSAN_OPTIONS",
        "halt_on_error=1:abort_on_error=1:print_stacktrace=1:color=never",
    ),
];

/// A submission's cases judged, and what its runs slept.
pub struct Judged {
    pub cases: Vec<CaseOutcome>,
    /// Time the runs spent sleeping or blocked, all together.
    pub slept: Duration,
    /// Cases not run because the runs before them had slept the submission's budget.
    pub not_run: usize,
}

/// What each case's runs have slept (wall-clock time neither running nor waiting for a CPU),
/// against the submission's budget (`Settings::sleep_budget`). The rule goes by case order,
/// so which cases run does not depend on the scheduling: a case is not run when the cases
/// before it slept the budget in all, and a case's own runs stop once they slept it.
struct SleepBudget {
    limit: Duration,
    slept: Mutex<Vec<Duration>>,
}

impl SleepBudget {
    fn new(limit: Duration, cases: usize) -> Self {
        SleepBudget {
            limit,
            slept: Mutex::new(vec![Duration::ZERO; cases]),
        }
    }

    fn slept(&self) -> std::sync::MutexGuard<'_, Vec<Duration>> {
        self.slept.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn add(&self, case: usize, slept: Duration) {
        self.slept()[case] += slept;
    }

    /// Whether the cases before `case` have slept the budget (while they run, what they slept
    /// so far: when that is over the budget, so is their total).
    fn spent_before(&self, case: usize) -> bool {
        self.slept()[..case].iter().sum::<Duration>() >= self.limit
    }

    /// Whether `case`'s own runs have slept the budget.
    fn spent_by(&self, case: usize) -> bool {
        self.slept()[case] >= self.limit
    }

    /// What a batch of cases may still sleep before it stops (its cases come first of their
    /// binary, but the budget is the submission's: the cases before them are counted).
    fn left_before(&self, case: usize) -> Duration {
        self.limit
            .saturating_sub(self.slept()[..case].iter().sum::<Duration>())
    }

    /// Why a case is not run, in the report's words.
    fn reason(&self) -> String {
        format!(
            "stopped: this submission's runs slept {} s in all (time spent neither running nor waiting for a CPU: sleep() or waiting), the most a submission may",
            self.limit.as_secs_f64()
        )
    }
}

/// Runs every case of a submission whose binaries are `built`, in batches where it can, in
/// parallel, and judges each; results keep the case order whatever the scheduling.
pub fn run_cases(
    assignment: &Assignment,
    built: &HashMap<BuildKey, Built>,
    sources: &[(String, String)],
    withheld: &BTreeMap<String, Withheld>,
    grader: &Grader,
    saved_runs: Option<&Path>,
) -> Judged {
    let settings = grader.settings;
    let budget = SleepBudget::new(settings.sleep_budget, assignment.cases.len());
    // With a cache, runs of a binary on an unchanged input are reused (see `run::cache`).
    let stores: HashMap<&BuildKey, RunStore> = grader
        .cache
        .map(|cache| {
            built
                .iter()
                .filter_map(|(key, build)| {
                    let binary = build.binary.as_ref()?;
                    let store = RunStore::open(cache.root(), binary).ok()?;
                    Some((key, store))
                })
                .collect()
        })
        .unwrap_or_default();
    // Per binary: timeouts in a row, and the slowest run that finished in time.
    let pace: HashMap<&BuildKey, Mutex<Pace>> = built
        .keys()
        .map(|key| (key, Mutex::new(Pace::default())))
        .collect();
    let batched = if settings.batch_cases {
        run_batches(assignment, built, &stores, grader, &budget)
    } else {
        HashMap::new()
    };
    // What the batches saw counts before any case runs alone: a program that hung in its
    // batch gets its shortened time limit sooner.
    let mut batched_in_order: Vec<(&usize, &RunOutcome)> = batched.iter().collect();
    batched_in_order.sort_by_key(|(index, _)| **index);
    for (&index, outcome) in batched_in_order {
        budget.add(index, outcome.slept);
        let prepared = &assignment.cases[index].prepared;
        let key = (prepared.target.clone(), prepared.extra_flags.clone());
        if let Some(pace) = pace.get(&key) {
            pace.lock()
                .unwrap_or_else(|e| e.into_inner())
                .record_run(outcome.termination.is_timeout(), outcome.elapsed);
        }
    }
    let judged = assignment
        .cases
        .par_iter()
        .enumerate()
        .map(|(index, case)| {
            let key = (
                case.prepared.target.clone(),
                case.prepared.extra_flags.clone(),
            );
            let (Some(build), Some(pace)) = (built.get(&key), pace.get(&key)) else {
                return referee_failure_run(case, "referee lost track of this case's build");
            };
            let Some(binary) = &build.binary else {
                return build_error_run(case, &build.log);
            };
            if let Some(withheld) = unit_function(case).and_then(|f| withheld.get(f)) {
                return withheld_run(case, withheld);
            }
            let ran = batched.get(&index);
            if ran.is_none() && budget.spent_before(index) {
                return budget_spent_run(case, &budget.reason());
            }
            let target = RunTarget {
                binary,
                store: stores.get(&key),
                ran,
            };
            let along = Along {
                pace,
                budget: &budget,
                index,
                saved_runs,
            };
            run_case(assignment, case, &target, sources, grader, &along)
        })
        .collect::<Vec<CaseOutcome>>();
    let judged = not_run_past_the_budget(assignment, judged, &budget);
    // Runs killed by an interrupt must not be kept as the program's runs.
    if sandbox::interrupted() {
        return judged;
    }
    for store in stores.into_values() {
        // A store that cannot be written only means these runs are made again next time.
        let _ = store.save();
    }
    judged
}

/// The cases after the one whose runs, with those of every case before it, slept the
/// submission's budget are not run (in case order, whatever order they ran in).
fn not_run_past_the_budget(
    assignment: &Assignment,
    mut judged: Vec<CaseOutcome>,
    budget: &SleepBudget,
) -> Judged {
    let slept = budget.slept().clone();
    let reason = budget.reason();
    let mut before = Duration::ZERO;
    let mut not_run = 0;
    for (index, (run, case)) in judged.iter_mut().zip(&assignment.cases).enumerate() {
        if before >= budget.limit {
            *run = budget_spent_run(case, &reason);
            not_run += 1;
        }
        before += slept[index];
    }
    Judged {
        cases: judged,
        slept: slept.iter().sum(),
        not_run,
    }
}

/// A trace case stops once its program's runs have hit the time limit this many times in a
/// row after the pacing shortened it, with no run of the case finished in time: a program
/// that hangs in every game is graded in seconds, and its runs left are counted as the mean
/// of those made (`TraceTally::presumed`), so stopping early changes its score little.
const HANGING_RUNS: usize = 2;

/// What a case's runs share with the submission's other cases: the pacing of its binary and
/// the sleep budget (`index`: the case's place in the submission).
struct Along<'a> {
    pace: &'a Mutex<Pace>,
    budget: &'a SleepBudget,
    index: usize,
    /// The submission's folder of `--save-runs`.
    saved_runs: Option<&'a Path>,
}

/// Runs one case (a trace case as many times as it asks) and judges it. Every run that did
/// not happen in a batch takes its time limit from, and reports its ending to, the pacing: a
/// trace case's runs count one by one, so a program that hangs in every game is stopped
/// sooner after the first few. A trace case's runs stop once they slept the sleep budget.
fn run_case(
    assignment: &Assignment,
    case: &PreparedCase,
    target: &RunTarget,
    sources: &[(String, String)],
    grader: &Grader,
    along: &Along,
) -> CaseOutcome {
    let settings = grader.settings;
    let pace = || along.pace.lock().unwrap_or_else(|e| e.into_inner());
    // A batch runs its cases with the full limits.
    let limits_now = || match target.ran {
        Some(_) => settings.limits.clone(),
        None => pace().limits(settings),
    };
    match &case.prepared.expect {
        Expectation::Transcript(expected) => {
            let (outcome, limits) = match execute(case, target, grader, &limits_now(), 0) {
                Ok(ran) => ran,
                Err(reason) => return referee_failure_run(case, &reason),
            };
            let mut run = judge_transcript(
                assignment,
                case,
                expected,
                &outcome,
                &limits,
                settings.detail,
            );
            if target.ran.is_none() {
                along.budget.add(along.index, outcome.slept);
                pace().record(&run);
            }
            run.notes.extend(shortened_note(settings, &limits));
            run
        }
        Expectation::Trace { clocks, .. } => {
            let mut tally = TraceTally::new(case);
            let mut shortened_notes = Vec::new();
            let mut finished_in_time = false;
            // Once a game of this case has run into the time limit, the case's later games get
            // the shortened limit: a program that hangs in some of its games (facing blocks
            // it never breaks) costs seconds per hung game, not the full limit each time.
            let mut hung_once = false;
            let mut shortened_by_case: Vec<(usize, Duration)> = Vec::new();
            for index in 0..clocks.len() {
                if along.budget.spent_by(along.index) {
                    tally.not_run(clocks.len() - index, &along.budget.reason());
                    break;
                }
                let by_case = hung_once && target.ran.is_none();
                let limits_of_run = if by_case {
                    pace().short_limits(settings)
                } else {
                    limits_now()
                };
                let (outcome, limits) = match execute(case, target, grader, &limits_of_run, index) {
                    Ok(ran) => ran,
                    Err(reason) => return referee_failure_run(case, &reason),
                };
                along.budget.add(along.index, outcome.slept);
                if let Some(folder) = along.saved_runs {
                    save_run(
                        &folder.join(file_safe(&case.spec.name)),
                        index,
                        &outcome.stdout,
                    )
                    .unwrap_or_else(|note| shortened_notes.push(note));
                }
                finished_in_time |= !outcome.termination.is_timeout();
                hung_once |= outcome.termination.is_timeout();
                pace().record_run(outcome.termination.is_timeout(), outcome.elapsed);
                if by_case && limits.timeout < settings.limits.timeout {
                    shortened_by_case.push((index + 1, limits.timeout));
                } else {
                    shortened_notes.extend(
                        shortened_note(settings, &limits)
                            .map(|note| format!("run {}: {note}", index + 1)),
                    );
                }
                let lost = tally.add(assignment, case, &outcome, sources, &limits);
                if settings.stop_trace_at_first_loss && lost {
                    break;
                }
                let in_a_row = pace().timeouts_in_a_row;
                let left = clocks.len() - index - 1;
                if !finished_in_time
                    && left > 0
                    && in_a_row >= settings.timeouts_in_a_row + HANGING_RUNS
                {
                    tally.presumed(
                        left,
                        &format!("the last {in_a_row} runs of this program in a row ended at the time limit and none of this case finished in time"),
                    );
                    break;
                }
            }
            let mut run = tally.finish(assignment, case, &settings.limits);
            run.notes.extend(shortened_notes);
            if let (Some(&(first, _)), Some(longest)) = (
                shortened_by_case.first(),
                shortened_by_case.iter().map(|&(_, limit)| limit).max(),
            ) {
                run.notes.push(format!(
                    "{} runs from run {first} on had a shortened time limit (at most {:.2} s): an earlier game of this case ran into the time limit",
                    shortened_by_case.len(),
                    longest.as_secs_f64()
                ));
            }
            run
        }
    }
}

/// Writes a trace run's output as `folder/run-NNN.txt` (numbered from 1), for `check-trace`;
/// `Err` is a note for the report (the grade does not depend on it).
fn save_run(folder: &Path, index: usize, stdout: &[u8]) -> Result<(), String> {
    let path = folder.join(format!("run-{:03}.txt", index + 1));
    std::fs::create_dir_all(folder)
        .and_then(|()| std::fs::write(&path, stdout))
        .map_err(|e| format!("run {}: not saved to {}: {e}", index + 1, path.display()))
}

/// A binary to run, where its earlier runs are kept, and the case's outcome if it already
/// ran in a batch.
struct RunTarget<'a> {
    binary: &'a Path,
    store: Option<&'a RunStore>,
    ran: Option<&'a RunOutcome>,
}

/// Runs the cases of each binary (and argument list) in one sandboxed run (see `run::batch`) and
/// returns their outcomes by case index, with the kept run of each case that has one (as if
/// the batch had run it, so the pacing sees the same runs in the same order as when they
/// were made). Left out, to run on their own: trace cases, cases that need an environment (a
/// seed, the sanitizers) and any case the batch did not report.
fn run_batches(
    assignment: &Assignment,
    built: &HashMap<BuildKey, Built>,
    stores: &HashMap<&BuildKey, RunStore>,
    grader: &Grader,
    budget: &SleepBudget,
) -> HashMap<usize, RunOutcome> {
    let limits = &grader.settings.limits;
    let sandbox = grader.sandbox.run_identity();
    let mut groups: HashMap<(BuildKey, &[String]), Vec<usize>> = HashMap::new();
    let mut outcomes = HashMap::new();
    for (index, case) in assignment.cases.iter().enumerate() {
        let prepared = &case.prepared;
        let key = (prepared.target.clone(), prepared.extra_flags.clone());
        let batchable = matches!(prepared.expect, Expectation::Transcript(_))
            && case_env(case, grader, 0).is_empty()
            && built.get(&key).is_some_and(|b| b.binary.is_some());
        if !batchable {
            continue;
        }
        let kept = stores
            .get(&key)
            .and_then(|store| store.get(&store.key(&run_input(case, &[], limits, &sandbox))));
        match kept {
            Some(kept) => {
                outcomes.insert(index, kept.outcome);
            }
            None => groups.entry((key, &prepared.args)).or_default().push(index),
        }
    }
    for ((key, args), indices) in groups {
        let Some(binary) = built.get(&key).and_then(|b| b.binary.as_ref()) else {
            continue;
        };
        let request = batch::Batch {
            program: binary,
            args,
            inputs: indices
                .iter()
                .map(|&i| assignment.cases[i].prepared.stdin.as_bytes())
                .collect(),
            limits,
            sleep: budget.left_before(indices[0]),
        };
        // A batch that could not run leaves its cases to runs of their own.
        if let Ok(ran) = batch::run(grader.sandbox, &request) {
            outcomes.extend(indices.into_iter().zip(ran));
        }
    }
    outcomes
}

/// Runs one case under `limits` (the settings', or shorter when the pacing says so), or
/// reuses the kept outcome of the same run; returns the outcome and the limits it ran under.
/// `run_index` numbers the runs of a trace case from 0: each reads its own second of the
/// case's clocks, so programs seeded by `time()` play a different game in each run and the
/// same games in every grading.
fn execute(
    case: &PreparedCase,
    target: &RunTarget,
    grader: &Grader,
    limits: &RunLimits,
    run_index: usize,
) -> Result<(RunOutcome, RunLimits), String> {
    let env = case_env(case, grader, run_index);
    // Kept under the settings' limits whatever the pacing gave it (see `run::cache`).
    let full = &grader.settings.limits;
    let key = target.store.map(|store| {
        let sandbox = grader.sandbox.run_identity();
        store.key(&run_input(case, &env, full, &sandbox))
    });
    if let (Some(store), Some(key)) = (target.store, &key) {
        if let Some(kept) = store.get(key) {
            let limits = RunLimits {
                timeout: kept.timeout,
                ..full.clone()
            };
            return Ok((kept.outcome, limits));
        }
    }
    if let Some(outcome) = target.ran {
        if let (Some(store), Some(key)) = (target.store, key) {
            store.put(key, outcome, full.timeout);
        }
        return Ok((outcome.clone(), full.clone()));
    }
    let outcome = grader
        .sandbox
        .run(&RunRequest {
            program: target.binary,
            args: &case.prepared.args,
            stdin: case.prepared.stdin.as_bytes(),
            env: &env,
            limits,
            silence: None,
        })
        .map_err(|e| format!("referee could not run the program: {e}"))?;
    if let (Some(store), Some(key)) = (target.store, key) {
        store.put(key, &outcome, limits.timeout);
    }
    Ok((outcome, limits.clone()))
}

/// The variables a run of `case` gets on top of the sandbox's fixed minimum.
fn case_env(case: &PreparedCase, grader: &Grader, run_index: usize) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = case
        .prepared
        .srandom_seed
        .map(|seed| ("REFEREE_SRANDOM".to_string(), seed.to_string()))
        .into_iter()
        .collect();
    if let Expectation::Trace { clocks, .. } = &case.prepared.expect {
        if let Some(second) = clocks.get(run_index) {
            env.push(("REFEREE_FIXED_TIME".to_string(), second.to_string()));
        }
    }
    if grader.settings.sanitize {
        env.extend(
            SANITIZER_ENV
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string())),
        );
    }
    env
}

/// What identifies a run of `case` in the run cache.
fn run_input<'a>(
    case: &'a PreparedCase,
    env: &'a [(String, String)],
    limits: &'a RunLimits,
    sandbox: &'a str,
) -> RunInput<'a> {
    RunInput {
        args: &case.prepared.args,
        stdin: case.prepared.stdin.as_bytes(),
        env,
        limits,
        sandbox,
    }
}

/// The report's note on a run made under `limits` when the pacing shortened its time limit.
fn shortened_note(settings: &Settings, limits: &RunLimits) -> Option<String> {
    (limits.timeout < settings.limits.timeout).then(|| {
        format!(
            "run with a shortened time limit of {:.2} s: {} or more runs of this program in a row had timed out",
            limits.timeout.as_secs_f64(),
            settings.timeouts_in_a_row,
        )
    })
}

/// How one binary has been doing: after `Settings::timeouts_in_a_row` timeouts in a row, its
/// next runs get a short time limit, so a program that hangs on every case costs the batch
/// seconds, not cases x timeout; what it prints before hanging is still judged item by item.
/// Any run that finishes in time restores the full limit.
#[derive(Default)]
struct Pace {
    timeouts_in_a_row: usize,
    slowest_finished: Duration,
}

impl Pace {
    /// The limits of the next run.
    fn limits(&self, settings: &Settings) -> RunLimits {
        if self.timeouts_in_a_row < settings.timeouts_in_a_row {
            return settings.limits.clone();
        }
        self.short_limits(settings)
    }

    /// The limits with the shortened time limit: a fifth of the limit, at least three times
    /// the slowest run of this program that finished in time.
    fn short_limits(&self, settings: &Settings) -> RunLimits {
        let mut limits = settings.limits.clone();
        let short = (limits.timeout / 5)
            .max(Duration::from_millis(200))
            .max(self.slowest_finished * 3);
        limits.timeout = limits.timeout.min(short);
        limits
    }

    fn record(&mut self, run: &CaseOutcome) {
        let timed_out = run.items.iter().any(|i| i.status == Status::Timeout);
        self.record_run(timed_out, run.elapsed);
    }

    fn record_run(&mut self, timed_out: bool, elapsed: Duration) {
        if timed_out {
            self.timeouts_in_a_row += 1;
        } else {
            self.timeouts_in_a_row = 0;
            self.slowest_finished = self.slowest_finished.max(elapsed);
        }
    }
}
