//! Running a submission's cases: batches (`batch`), the run cache (`runcache`), and pacing
//! (a program that keeps timing out gets a shorter time limit).

use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use std::sync::Mutex;
use std::time::Duration;

use rayon::prelude::*;

use crate::assignment::{Assignment, PreparedCase};
use crate::games::Expectation;
use crate::report::{CaseOutcome, Status};

use super::batch;
use super::build::Built;
use super::builds::BuildKey;
use super::judge::{
    build_error_run, judge_transcript, referee_failure_run, withheld_run, TraceTally,
};
use super::runcache::{RunInput, RunStore};
use super::sandbox::{RunLimits, RunOutcome, RunRequest};
use super::signature::{unit_function, Withheld};
use super::{Grader, Settings};

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

/// Runs every case of a submission whose binaries are `built`, in batches where it can, in
/// parallel, and judges each; results keep the case order whatever the scheduling.
pub fn run_cases(
    assignment: &Assignment,
    built: &HashMap<BuildKey, Built>,
    sources: &[(String, String)],
    withheld: &BTreeMap<String, Withheld>,
    grader: &Grader,
) -> Vec<CaseOutcome> {
    let settings = grader.settings;
    // With a cache, runs of a binary on an unchanged input are reused (see `runcache`).
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
        run_batches(assignment, built, &stores, grader)
    } else {
        HashMap::new()
    };
    // What the batches saw counts before any case runs alone: a program that hung in its
    // batch gets its shortened time limit sooner.
    let mut batched_in_order: Vec<(&usize, &RunOutcome)> = batched.iter().collect();
    batched_in_order.sort_by_key(|(index, _)| **index);
    for (&index, outcome) in batched_in_order {
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
            let target = RunTarget {
                binary,
                store: stores.get(&key),
                ran: batched.get(&index),
            };
            run_case(assignment, case, &target, sources, grader, pace)
        })
        .collect::<Vec<CaseOutcome>>();
    // Runs killed by an interrupt must not be kept as the program's runs.
    if super::sandbox::interrupted() {
        return judged;
    }
    for store in stores.into_values() {
        // A store that cannot be written only means these runs are made again next time.
        let _ = store.save();
    }
    judged
}

/// Runs one case (a trace case as many times as it asks) and judges it. Every run that did
/// not happen in a batch takes its time limit from, and reports its ending to, `pace`: a
/// trace case's runs count one by one, so a program that hangs in every game is stopped
/// sooner after the first few.
fn run_case(
    assignment: &Assignment,
    case: &PreparedCase,
    target: &RunTarget,
    sources: &[(String, String)],
    grader: &Grader,
    pace: &Mutex<Pace>,
) -> CaseOutcome {
    let settings = grader.settings;
    let pace = || pace.lock().unwrap_or_else(|e| e.into_inner());
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
                pace().record(&run);
            }
            run.notes.extend(shortened_note(settings, &limits));
            run
        }
        Expectation::Trace { clocks, .. } => {
            let mut tally = TraceTally::new(case);
            let mut shortened_notes = Vec::new();
            for index in 0..clocks.len() {
                let (outcome, limits) = match execute(case, target, grader, &limits_now(), index) {
                    Ok(ran) => ran,
                    Err(reason) => return referee_failure_run(case, &reason),
                };
                pace().record_run(outcome.termination.is_timeout(), outcome.elapsed);
                shortened_notes.extend(
                    shortened_note(settings, &limits)
                        .map(|note| format!("run {}: {note}", index + 1)),
                );
                let lost = tally.add(assignment, case, &outcome, sources);
                if settings.stop_trace_at_first_loss && lost {
                    break;
                }
            }
            let mut run = tally.finish(case, &settings.limits);
            run.notes.extend(shortened_notes);
            run
        }
    }
}

/// A binary to run, where its earlier runs are kept, and the case's outcome if it already
/// ran in a batch.
struct RunTarget<'a> {
    binary: &'a Path,
    store: Option<&'a RunStore>,
    ran: Option<&'a RunOutcome>,
}

/// Runs the cases of each binary (and argument list) in one sandboxed run (see `batch`) and
/// returns their outcomes by case index, with the kept run of each case that has one (as if
/// the batch had run it, so the pacing sees the same runs in the same order as when they
/// were made). Left out, to run on their own: trace cases, cases that need an environment (a
/// seed, the sanitizers) and any case the batch did not report.
fn run_batches(
    assignment: &Assignment,
    built: &HashMap<BuildKey, Built>,
    stores: &HashMap<&BuildKey, RunStore>,
    grader: &Grader,
) -> HashMap<usize, RunOutcome> {
    let limits = &grader.settings.limits;
    let sandbox = grader.sandbox.describe();
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
    // Kept under the settings' limits whatever the pacing gave it (see `runcache`).
    let full = &grader.settings.limits;
    let key = target.store.map(|store| {
        let sandbox = grader.sandbox.describe();
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
        let mut limits = settings.limits.clone();
        if self.timeouts_in_a_row < settings.timeouts_in_a_row {
            return limits;
        }
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
