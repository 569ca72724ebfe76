//! The grading pipeline, one room per step:
//!
//! - `intake`: finding submissions (files, folders, zips, LMS exports);
//! - `build`: compiling them (compile and link, the build cache, facts from the sources and
//!   objects, the handout's signatures, `main` renamed for the unit harness);
//! - `run`: running programs in the sandbox (batches, kept runs, referee's runtime);
//! - `judge`: running each case and judging what the program printed;
//! - `score`: points per rubric item.
//!
//! This module strings them together; `grader` holds what one grading run shares.

pub mod build;
pub mod digest;
pub mod grader;
pub mod intake;
pub mod judge;
pub mod run;
pub mod score;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use serde_json::{json, Value};

use crate::assignment::cases::Visibility;
use crate::assignment::Assignment;
use crate::error::Error;
use crate::games::Target;
use crate::report::model::BuildReport;
use crate::report::{BatchReport, SubmissionReport};
use build::compile::{self, Workspace};
use build::{facts, signature, Builds};
pub use grader::{Grader, Settings};
use intake::submission::Submission;
use judge::cases;
use judge::verdict::build_error_run;
use run::sandbox;

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
        data: assignment.data.clone(),
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
    if let Some(problem) = &submission.problem {
        // Nothing was read as the student's program (binary, too large, no .c file), so no
        // fact about it would be true: the report gives the one reason.
        return failed_build(assignment, submission, problem.clone(), BTreeMap::new());
    }
    let mut facts = facts::source_facts(&assignment.spec.facts, &sources);
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
    if let Some(note) = compile::fcommon_note(&program.log) {
        facts.insert("linked_with_fcommon".into(), json!(note));
    }
    let warnings = program.log.matches("warning:").count();
    facts.insert("compiler_warnings".into(), json!(warnings));

    // Build every binary the cases need, then run them all.
    for case in &assignment.cases {
        builds.get(&case.prepared.target, &case.prepared.extra_flags);
    }
    let withheld = signature::withheld_functions(assignment, &sources, &mut facts);
    let saved_runs = grader
        .settings
        .save_runs
        .as_ref()
        .map(|dir| dir.join(crate::report::destination::file_safe(&submission.name)));
    let judged = cases::run_cases(
        assignment,
        &builds.done,
        &sources,
        &withheld,
        grader,
        saved_runs.as_deref(),
    );
    facts.extend(sleep_facts(&judged, grader.settings));
    // The fact names a case and what it printed, and facts reach students: visible cases only.
    let unit_runs = judged
        .cases
        .iter()
        .zip(&assignment.cases)
        .filter(|(_, case)| case.prepared.target == Target::Harness)
        .filter(|(_, case)| case.visibility == Visibility::Visible)
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
    score::score_submission(&assignment.spec, submission, judged.cases, build, facts)
}

/// Seconds of sleep below which a submission's runs are not reported as slow: what waiting
/// for the disk or the loader may add up to over a class's worth of cases.
const SLEEP_REPORTED_SECONDS: u64 = 5;

/// Facts about time the runs spent sleeping or blocked: how long in all (when it is long
/// enough to slow grading), and the cases the sleep budget left out.
fn sleep_facts(judged: &cases::Judged, settings: &Settings) -> BTreeMap<String, Value> {
    let mut facts = BTreeMap::new();
    let seconds = judged.slept.as_secs();
    if seconds >= SLEEP_REPORTED_SECONDS {
        facts.insert("slept_seconds".into(), json!(seconds));
    }
    if judged.not_run > 0 {
        facts.insert(
            "stopped".into(),
            json!(format!(
                "{} s of sleep for this submission spent (time its runs spent neither running nor waiting for a CPU); {} cases not run",
                settings.sleep_budget.as_secs(),
                judged.not_run
            )),
        );
    }
    facts
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
