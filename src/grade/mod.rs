//! The grading pipeline: submission → build → run → judge → score. Each step is a module of
//! its own; this one strings them together.

pub mod batch;
pub mod build;
pub mod builds;
pub mod cache;
pub mod facts;
pub mod judge;
pub mod layout;
pub mod rename;
pub mod run;
pub mod runcache;
pub mod sandbox;
pub mod score;
pub mod shortcuts;
pub mod signature;
pub mod submission;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

use rayon::prelude::*;
use serde_json::{json, Value};

use crate::assignment::spec::Limits;
use crate::assignment::Assignment;
use crate::compare::Detail;
use crate::error::Error;
use crate::games::Target;
use crate::report::model::BuildReport;
use crate::report::{BatchReport, SubmissionReport};
use build::{Compiler, Workspace};
use builds::Builds;
use judge::build_error_run;
use sandbox::{RunLimits, Sandbox};
use submission::Submission;

/// Settings for one grading run.
#[derive(Debug, Clone)]
pub struct Settings {
    pub limits: RunLimits,
    pub compile_timeout: Duration,
    pub jobs: usize,
    /// Build with the sanitizers (`--sanitize`) and show their reports.
    pub sanitize: bool,
    pub timeouts_in_a_row: usize,
    /// Run the cases of each binary of a submission in one sandboxed run (see `batch`).
    pub batch_cases: bool,
    /// What a failing transcript case records: everything a report shows, or only which
    /// items failed (`referee mutants`); scores are the same either way.
    pub detail: Detail,
    /// Stop a trace case's runs at the first that loses points (`referee mutants`: one
    /// finding in any run kills a mutant, so later runs would only cost time, memory and
    /// run-cache space). Never set for submissions, whose score averages every run.
    pub stop_trace_at_first_loss: bool,
}

impl Settings {
    /// Settings from the limits (the spec's, with any command-line overrides applied).
    pub fn new(limits: &Limits, jobs: Option<usize>) -> Self {
        let timeout = limits.timeout;
        Settings {
            sanitize: false,
            batch_cases: true,
            detail: Detail::Full,
            stop_trace_at_first_loss: false,
            timeouts_in_a_row: limits.timeouts_in_a_row.max(1),
            limits: RunLimits {
                timeout: Duration::from_secs_f64(timeout),
                // Above the wall-clock limit, so a busy loop is stopped by the clock first.
                cpu_seconds: limits.cpu_seconds.max(timeout.ceil() as u64 + 1),
                memory_bytes: Some(limits.memory_mb << 20),
                output_bytes: (limits.output_kb << 10) as usize,
                file_size_bytes: limits.file_size_kb << 10,
                open_files: 64,
                processes: limits.processes,
            },
            compile_timeout: Duration::from_secs_f64(limits.compile_timeout),
            jobs: jobs
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        }
    }

    /// Sanitizer builds: their shadow memory needs the address-space limit lifted.
    pub fn with_sanitizers(mut self) -> Self {
        self.sanitize = true;
        self.limits.memory_bytes = None;
        self
    }
}

/// What one grading run shares: the compiler, the sandbox, the build cache and the settings.
pub struct Grader<'a> {
    pub compiler: &'a Compiler,
    pub sandbox: &'a Sandbox,
    pub cache: Option<&'a cache::BuildCache>,
    pub settings: &'a Settings,
}

/// Grades every submission; results come back in submission order.
pub fn grade(
    assignment: &Assignment,
    submissions: &[Submission],
    grader: &Grader,
) -> Result<BatchReport, Error> {
    grade_with_progress(assignment, submissions, grader, &|_| {})
}

/// `grade`, calling `on_graded` (from a worker thread) as each submission is finished, for
/// a progress bar.
pub fn grade_with_progress(
    assignment: &Assignment,
    submissions: &[Submission],
    grader: &Grader,
    on_graded: &(dyn Fn(&SubmissionReport) + Sync),
) -> Result<BatchReport, Error> {
    let settings = grader.settings;
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.jobs.max(1))
        .build()
        .map_err(|e| Error::config(format!("cannot start worker threads: {e}")))?;
    let reports = pool.install(|| {
        submissions
            .par_iter()
            .map(|s| {
                let report = grade_one(assignment, s, grader);
                on_graded(&report);
                report
            })
            .collect::<Vec<_>>()
    });
    // Runs killed by an interrupt are not outcomes: no report, the interrupt's exit status.
    sandbox::wait_for_interrupt_exit();
    Ok(BatchReport {
        game: assignment.game.id().to_string(),
        sandbox: grader.sandbox.describe(),
        submissions: reports,
        skipped: Vec::new(),
    })
}

/// Grades one submission: source facts, builds, runs, judgement, scores.
fn grade_one(
    assignment: &Assignment,
    submission: &Submission,
    grader: &Grader,
) -> SubmissionReport {
    let sources: Vec<(String, String)> = submission
        .files
        .iter()
        .map(|f| (f.name.clone(), f.text()))
        .collect();
    let mut facts = facts::source_facts(&assignment.spec.facts, &sources);
    if let Some(problem) = &submission.problem {
        return failed_build(assignment, submission, problem.clone(), facts);
    }
    let workspace = match Workspace::create(submission, &assignment.spec, grader.sandbox) {
        Ok(w) => w,
        Err(e) => {
            return failed_build(
                assignment,
                submission,
                format!("referee could not prepare the build folder: {e}"),
                facts,
            )
        }
    };
    let mut builds = Builds {
        workspace: &workspace,
        assignment,
        compiler: grader.compiler,
        timeout: grader.settings.compile_timeout,
        sanitize: grader.settings.sanitize,
        cache: grader.cache,
        done: HashMap::new(),
    };
    let program = builds.get(&Target::Program, &[]);
    let build_ok = program.binary.is_some();
    let mut log = program.log.clone();
    if assignment.spec.facts.globals && build_ok {
        let objects: Vec<&Path> = program.objects.iter().map(PathBuf::as_path).collect();
        let value = match facts::globals(&objects, &assignment.spec.facts.template_globals) {
            Ok(names) => json!(names),
            Err(reason) => json!(format!("unknown: {reason}")),
        };
        facts.insert("globals".into(), value);
    }
    if let Some(note) = build::fcommon_note(&program.log) {
        facts.insert("linked_with_fcommon".into(), json!(note));
    }
    let warnings = program.log.matches("warning:").count();
    facts.insert("compiler_warnings".into(), json!(warnings));

    // Build every binary the cases need, then run them all.
    for case in &assignment.cases {
        builds.get(&case.prepared.target, &case.prepared.extra_flags);
    }
    let withheld = signature::withheld_functions(assignment, &sources, &mut facts);
    let judged = run::run_cases(assignment, &builds.done, &sources, &withheld, grader);
    let unit_runs = judged
        .iter()
        .zip(&assignment.cases)
        .filter(|(_, case)| case.prepared.target == Target::Harness)
        .map(|(run, _)| (run.name.as_str(), run.stderr.as_str()));
    if let Some(side_effects) = facts::unit_side_effects(unit_runs) {
        facts.insert("side_effects".into(), side_effects);
    }
    let harness_failed = builds
        .done
        .iter()
        .filter(|((target, _), built)| *target == Target::Harness && built.binary.is_none())
        .map(|(_, built)| built.log.clone())
        .next();
    // When the program itself failed to build, the harness failed on the same errors.
    if let Some(harness_log) = harness_failed.filter(|_| build_ok) {
        log.push_str("\nThe unit-test harness could not be built with your code, so the unit cases did not run:\n");
        log.push_str(&harness_log);
    }
    let build = BuildReport { ok: build_ok, log };
    score::score_submission(&assignment.spec, submission, judged, build, facts)
}

/// A submission that could not be built at all: every case is a build error.
fn failed_build(
    assignment: &Assignment,
    submission: &Submission,
    reason: String,
    facts: BTreeMap<String, Value>,
) -> SubmissionReport {
    let judged = assignment
        .cases
        .iter()
        .map(|case| build_error_run(case, &reason))
        .collect();
    let build = BuildReport {
        ok: false,
        log: reason,
    };
    score::score_submission(&assignment.spec, submission, judged, build, facts)
}
