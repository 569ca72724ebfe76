//! Submission → build → run → compare → score.

pub mod build;
pub mod compare;
pub mod facts;
pub mod sandbox;
pub mod submission;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::time::Duration;

use rayon::prelude::*;
use serde_json::{json, Value};

use crate::cases::{self, CaseSpec};
use crate::error::Error;
use crate::games::{self, Expectation, Game, Prepared, Target, TraceRun};
use crate::report::{BatchReport, CaseResult, CaseRun, ItemReport, Status, SubmissionReport};
use crate::spec::{Limits, Spec};
use build::{Built, Compiler, Workspace};
use compare::Mismatch;
use sandbox::{RunLimits, RunOutcome, RunRequest, Termination};
use submission::Submission;

/// Where the project's `cases/`, `specs/` and `reference/` folders are.
#[derive(Debug, Clone)]
pub struct Project {
    pub root: PathBuf,
}

impl Project {
    /// `--root`, else `REFEREE_ROOT`, else the current folder if it holds `specs/`, else the
    /// checkout referee was built from.
    pub fn locate(explicit: Option<&Path>) -> Result<Self, Error> {
        let candidates: Vec<PathBuf> = match explicit {
            Some(root) => vec![root.to_path_buf()],
            None => std::env::var_os("REFEREE_ROOT")
                .map(PathBuf::from)
                .into_iter()
                .chain(std::env::current_dir().ok())
                .chain(Some(PathBuf::from(env!("CARGO_MANIFEST_DIR"))))
                .collect(),
        };
        candidates
            .iter()
            .find(|root| root.join("specs").is_dir() && root.join("cases").is_dir())
            .map(|root| Project { root: root.clone() })
            .ok_or_else(|| {
                Error::config(format!(
                    "cannot find referee's specs/ and cases/ folders (looked in {}); run from the referee checkout or pass --root DIR",
                    candidates
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    }

    pub fn reference_dir(&self, game: &str) -> PathBuf {
        self.root.join("reference").join(game)
    }
}

/// A case expanded by the reference, with the rubric items it is judged on.
#[derive(Debug, Clone)]
pub struct PreparedCase {
    pub spec: CaseSpec,
    pub prepared: Prepared,
    pub items: Vec<String>,
}

/// One game ready to grade: reference, rubric and expanded cases.
pub struct Assignment {
    pub game: &'static dyn Game,
    pub spec: Spec,
    pub cases: Vec<PreparedCase>,
}

impl Assignment {
    /// Loads the spec and the cases and expands every case with the reference, so a broken
    /// case file is reported before anything is compiled.
    pub fn load(project: &Project, id: &str) -> Result<Self, Error> {
        let game = games::find(id).ok_or_else(|| {
            Error::config(format!(
                "unknown game '{id}' (known: {})",
                games::all()
                    .iter()
                    .map(|g| g.id())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        let spec = Spec::load(&project.root.join("specs").join(id))?;
        let case_specs = cases::load_dir(&project.root.join("cases").join(id))?;
        let auto_items: Vec<String> = spec
            .items
            .iter()
            .filter(|i| !i.manual)
            .map(|i| i.id.clone())
            .collect();
        let mut cases = Vec::with_capacity(case_specs.len());
        for case in case_specs {
            let prepared = game.prepare(&case)?;
            let items = match &prepared.expect {
                Expectation::Transcript(t) => t.items().into_iter().map(String::from).collect(),
                Expectation::Trace { .. } => auto_items.clone(),
            };
            for item in &items {
                match spec.item(item) {
                    Some(found) if !found.manual => {}
                    _ => {
                        return Err(case.error(format!(
                            "its output is tagged with item '{item}', which specs/{id}/spec.toml does not list as an auto-graded item"
                        )))
                    }
                }
            }
            cases.push(PreparedCase {
                spec: case,
                prepared,
                items,
            });
        }
        for item in &auto_items {
            if !cases.iter().any(|c| c.items.contains(item)) {
                return Err(Error::config(format!(
                    "specs/{id}/spec.toml: item '{item}' has no case that tests it"
                )));
            }
        }
        Ok(Assignment { game, spec, cases })
    }

    pub fn case(&self, name: &str) -> Option<&PreparedCase> {
        self.cases.iter().find(|c| c.spec.name == name)
    }
}

/// Settings for one grading run.
#[derive(Debug, Clone)]
pub struct Settings {
    pub limits: RunLimits,
    pub compile_timeout: Duration,
    pub jobs: usize,
}

impl Settings {
    /// The spec's limits, with a command-line timeout taking precedence.
    pub fn new(limits: &Limits, timeout: Option<f64>, jobs: Option<usize>) -> Self {
        let timeout = timeout.unwrap_or(limits.timeout);
        Settings {
            limits: RunLimits {
                timeout: Duration::from_secs_f64(timeout),
                cpu_seconds: limits.cpu_seconds.max(timeout.ceil() as u64),
                memory_bytes: limits.memory_mb << 20,
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
}

/// Grades every submission; results come back in submission order.
pub fn grade(
    assignment: &Assignment,
    submissions: &[Submission],
    compiler: &Compiler,
    settings: &Settings,
) -> Result<BatchReport, Error> {
    grade_with_progress(assignment, submissions, compiler, settings, &|_| {})
}

/// `grade`, calling `on_graded` (from a worker thread) as each submission is finished, for
/// a progress bar.
pub fn grade_with_progress(
    assignment: &Assignment,
    submissions: &[Submission],
    compiler: &Compiler,
    settings: &Settings,
    on_graded: &(dyn Fn(&SubmissionReport) + Sync),
) -> Result<BatchReport, Error> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(settings.jobs.max(1))
        .build()
        .map_err(|e| Error::config(format!("cannot start worker threads: {e}")))?;
    let reports = pool.install(|| {
        submissions
            .par_iter()
            .map(|s| {
                let report = grade_one(assignment, s, compiler, settings);
                on_graded(&report);
                report
            })
            .collect::<Vec<_>>()
    });
    Ok(BatchReport {
        game: assignment.game.id().to_string(),
        submissions: reports,
    })
}

fn grade_one(
    assignment: &Assignment,
    submission: &Submission,
    compiler: &Compiler,
    settings: &Settings,
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
    let workspace = match Workspace::create(submission, &assignment.spec) {
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
        compiler,
        timeout: settings.compile_timeout,
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
    let warnings = program.log.matches("warning:").count();
    facts.insert("compiler_warnings".into(), json!(warnings));

    let mut runs = Vec::with_capacity(assignment.cases.len());
    let mut results: BTreeMap<String, Vec<CaseResult>> = BTreeMap::new();
    for case in &assignment.cases {
        let built = builds.get(&case.prepared.target, &case.prepared.extra_flags);
        let run = match &built.binary {
            Some(binary) => run_case(assignment, case, binary, &sources, &settings.limits),
            None => build_error_run(case, &built.log),
        };
        for (item, result) in run.1 {
            results.entry(item).or_default().push(result);
        }
        runs.push(run.0);
    }
    let harness_failed = builds
        .done
        .iter()
        .filter(|((target, _), built)| *target == Target::Harness && built.binary.is_none())
        .map(|(_, built)| built.log.clone())
        .next();
    if let Some(harness_log) = harness_failed {
        log.push_str("\nThe unit-test harness could not be built with your code, so the unit cases did not run:\n");
        log.push_str(&harness_log);
    }
    let items = score_items(&assignment.spec, results);
    finish(
        submission,
        items,
        BuildReportParts { ok: build_ok, log },
        facts,
        runs,
    )
}

struct BuildReportParts {
    ok: bool,
    log: String,
}

fn finish(
    submission: &Submission,
    items: Vec<ItemReport>,
    build: BuildReportParts,
    facts: BTreeMap<String, Value>,
    runs: Vec<CaseRun>,
) -> SubmissionReport {
    let score = items.iter().filter_map(|i| i.score).sum::<f64>();
    let max_score = items
        .iter()
        .filter(|i| !i.manual)
        .map(|i| i.max_score)
        .sum::<f64>();
    SubmissionReport {
        name: submission.name.clone(),
        path: submission.path.display().to_string(),
        score: round(score),
        max_score: round(max_score),
        build: crate::report::model::BuildReport {
            ok: build.ok,
            log: build.log,
        },
        items,
        facts,
        runs,
    }
}

fn round(points: f64) -> f64 {
    (points * 1000.0).round() / 1000.0
}

/// Builds per (target, flags), made on first use and kept for the submission.
struct Builds<'a> {
    workspace: &'a Workspace,
    assignment: &'a Assignment,
    compiler: &'a Compiler,
    timeout: Duration,
    done: HashMap<(Target, Vec<String>), Built>,
}

impl Builds<'_> {
    fn get(&mut self, target: &Target, extra: &[String]) -> &Built {
        let key = (target.clone(), extra.to_vec());
        let (workspace, assignment, compiler, timeout) =
            (self.workspace, self.assignment, self.compiler, self.timeout);
        self.done.entry(key).or_insert_with(|| {
            workspace
                .build(compiler, &assignment.spec, target, extra, timeout)
                .unwrap_or_else(|e| Built {
                    binary: None,
                    log: format!("referee could not run the compiler: {e}\n"),
                    objects: Vec::new(),
                })
        })
    }
}

fn failed_build(
    assignment: &Assignment,
    submission: &Submission,
    reason: String,
    facts: BTreeMap<String, Value>,
) -> SubmissionReport {
    let mut results: BTreeMap<String, Vec<CaseResult>> = BTreeMap::new();
    let mut runs = Vec::new();
    for case in &assignment.cases {
        let (run, per_item) = build_error_run(case, &reason);
        for (item, result) in per_item {
            results.entry(item).or_default().push(result);
        }
        runs.push(run);
    }
    let items = score_items(&assignment.spec, results);
    finish(
        submission,
        items,
        BuildReportParts {
            ok: false,
            log: reason,
        },
        facts,
        runs,
    )
}

type Judged = (CaseRun, Vec<(String, CaseResult)>);

fn build_error_run(case: &PreparedCase, log: &str) -> Judged {
    let per_item = case
        .items
        .iter()
        .map(|item| {
            (
                item.clone(),
                CaseResult {
                    name: case.spec.name.clone(),
                    status: Status::BuildError,
                    mismatch: Mismatch::None,
                    diff: String::new(),
                    fraction: 0.0,
                },
            )
        })
        .collect();
    let first_line = log.lines().find(|l| !l.trim().is_empty()).unwrap_or("");
    (
        CaseRun {
            name: case.spec.name.clone(),
            description: case.spec.description.clone(),
            args: case.prepared.args.clone(),
            stdin: case.prepared.stdin.clone(),
            items: case
                .items
                .iter()
                .map(|i| (i.clone(), Status::BuildError))
                .collect(),
            ended: format!("not run: the build failed ({first_line})"),
            mismatch: Mismatch::None,
            diff: String::new(),
            notes: Vec::new(),
            stderr: String::new(),
            output_digest: None,
        },
        per_item,
    )
}

fn execute(case: &PreparedCase, binary: &Path, limits: &RunLimits) -> Result<RunOutcome, String> {
    let env: Vec<(String, String)> = case
        .prepared
        .srandom_seed
        .map(|seed| ("REFEREE_SRANDOM".to_string(), seed.to_string()))
        .into_iter()
        .collect();
    sandbox::run(&RunRequest {
        program: binary,
        args: &case.prepared.args,
        stdin: case.prepared.stdin.as_bytes(),
        env: &env,
        cwd: None,
        limits,
    })
    .map_err(|e| format!("referee could not run the program: {e}"))
}

fn describe_end(termination: Termination, limits: &RunLimits) -> String {
    match termination {
        Termination::Exited(code) => format!("exit status {code}"),
        Termination::Signaled(signal) => sandbox::signal_name(signal),
        Termination::Timeout => format!(
            "stopped: still running after {} s (an endless loop, or waiting for input that never comes?)",
            limits.timeout.as_secs_f64()
        ),
        Termination::OutputLimit => format!(
            "stopped: printed more than {} KiB",
            limits.output_bytes >> 10
        ),
    }
}

fn run_case(
    assignment: &Assignment,
    case: &PreparedCase,
    binary: &Path,
    sources: &[(String, String)],
    limits: &RunLimits,
) -> Judged {
    match &case.prepared.expect {
        Expectation::Transcript(expected) => judge_transcript(
            assignment,
            case,
            expected,
            execute(case, binary, limits),
            limits,
        ),
        Expectation::Trace { runs, .. } => {
            judge_trace(assignment, case, *runs, binary, sources, limits)
        }
    }
}

fn judge_transcript(
    assignment: &Assignment,
    case: &PreparedCase,
    expected: &games::Transcript,
    outcome: Result<RunOutcome, String>,
    limits: &RunLimits,
) -> Judged {
    let outcome = match outcome {
        Ok(outcome) => outcome,
        Err(reason) => return build_error_run(case, &reason),
    };
    let actual = String::from_utf8_lossy(&outcome.stdout);
    let comparison = compare::compare(expected, &actual, assignment.spec.compare.mode);
    let mut notes = Vec::new();
    let wrong_exit = match (case.prepared.exit_code, outcome.termination) {
        (Some(want), Termination::Exited(got)) if want != got => {
            notes.push(format!("the program must exit with status {want}"));
            true
        }
        _ => false,
    };
    // A run that ended abnormally (crash, timeout, output cut) costs the items whose lines
    // it spoiled; when everything printed so far matched, the item that should have
    // finished the run.
    let abnormal = match outcome.termination {
        Termination::Exited(_) => None,
        Termination::Signaled(_) => Some(Status::Crash),
        Termination::Timeout => Some(Status::Timeout),
        Termination::OutputLimit => Some(Status::OutputLimit),
    };
    let last_item = expected.lines().last().map(|l| l.item);
    let status_of = |item: &str| -> Status {
        let spoiled = comparison.failed_items.contains(item);
        match abnormal {
            Some(status) if spoiled => status,
            Some(status) if comparison.failed_items.is_empty() && last_item == Some(item) => status,
            Some(_) => Status::Pass,
            None if wrong_exit || spoiled => Status::Fail,
            None => Status::Pass,
        }
    };
    let statuses: Vec<(String, Status)> = case
        .items
        .iter()
        .map(|item| (item.clone(), status_of(item)))
        .collect();
    let per_item = statuses
        .iter()
        .map(|(item, status)| {
            let passed = *status == Status::Pass;
            (
                item.clone(),
                CaseResult {
                    name: case.spec.name.clone(),
                    status: *status,
                    mismatch: if passed {
                        Mismatch::None
                    } else {
                        comparison.mismatch
                    },
                    diff: if passed {
                        String::new()
                    } else {
                        comparison.diff.clone()
                    },
                    fraction: if passed { 1.0 } else { 0.0 },
                },
            )
        })
        .collect();
    (
        CaseRun {
            name: case.spec.name.clone(),
            description: case.spec.description.clone(),
            args: case.prepared.args.clone(),
            stdin: case.prepared.stdin.clone(),
            items: statuses,
            ended: describe_end(outcome.termination, limits),
            mismatch: comparison.mismatch,
            diff: comparison.diff,
            notes,
            stderr: String::from_utf8_lossy(&outcome.stderr).into_owned(),
            output_digest: Some(crate::report::groups::digest(&outcome.stdout)),
        },
        per_item,
    )
}

fn judge_trace(
    assignment: &Assignment,
    case: &PreparedCase,
    runs: usize,
    binary: &Path,
    sources: &[(String, String)],
    limits: &RunLimits,
) -> Judged {
    let mut totals: BTreeMap<String, f64> = case.items.iter().map(|i| (i.clone(), 0.0)).collect();
    let mut notes = Vec::new();
    let mut worst = Termination::Exited(0);
    let runs = runs.max(1);
    for index in 1..=runs {
        let outcome = match execute(case, binary, limits) {
            Ok(outcome) => outcome,
            Err(reason) => return build_error_run(case, &reason),
        };
        if outcome.termination != Termination::Exited(0) {
            worst = outcome.termination;
        }
        let output = String::from_utf8_lossy(&outcome.stdout);
        let run = TraceRun {
            output: &output,
            timed_out: outcome.termination == Termination::Timeout,
            sources,
        };
        match assignment.game.check_trace(&case.spec, &run) {
            Ok(verdicts) => {
                for verdict in verdicts {
                    if let Some(total) = totals.get_mut(verdict.item) {
                        *total += verdict.fraction.clamp(0.0, 1.0);
                    }
                    notes.extend(
                        verdict
                            .notes
                            .into_iter()
                            .map(|n| format!("run {index}, {}: {n}", verdict.item)),
                    );
                }
            }
            Err(e) => notes.push(format!("run {index}: {e}")),
        }
    }
    let mut statuses = Vec::new();
    let mut per_item = Vec::new();
    for (item, total) in totals {
        let fraction = total / runs as f64;
        let status = if fraction >= 1.0 - 1e-9 {
            Status::Pass
        } else {
            match worst {
                Termination::Timeout => Status::Timeout,
                Termination::OutputLimit => Status::OutputLimit,
                Termination::Signaled(_) => Status::Crash,
                Termination::Exited(_) => Status::Fail,
            }
        };
        statuses.push((item.clone(), status));
        per_item.push((
            item.clone(),
            CaseResult {
                name: case.spec.name.clone(),
                status,
                mismatch: if status == Status::Pass {
                    Mismatch::None
                } else {
                    Mismatch::Content
                },
                diff: notes
                    .iter()
                    .filter(|n| n.contains(&format!(", {item}: ")))
                    .cloned()
                    .collect::<Vec<_>>()
                    .join("\n"),
                fraction,
            },
        ));
    }
    (
        CaseRun {
            name: case.spec.name.clone(),
            description: case.spec.description.clone(),
            args: case.prepared.args.clone(),
            stdin: case.prepared.stdin.clone(),
            items: statuses,
            ended: format!("{runs} runs; worst ending: {}", describe_end(worst, limits)),
            mismatch: Mismatch::None,
            diff: String::new(),
            notes,
            stderr: String::new(),
            output_digest: None,
        },
        per_item,
    )
}

/// Each item's score: its points times the share of its (case, item) pairs earned.
fn score_items(spec: &Spec, mut results: BTreeMap<String, Vec<CaseResult>>) -> Vec<ItemReport> {
    spec.items
        .iter()
        .map(|item| {
            let cases = results.remove(&item.id).unwrap_or_default();
            let score = if item.manual {
                None
            } else if cases.is_empty() {
                Some(0.0)
            } else {
                let earned: f64 = cases.iter().map(|c| c.fraction).sum();
                Some(round(item.points * earned / cases.len() as f64))
            };
            ItemReport {
                id: item.id.clone(),
                score,
                max_score: item.points,
                manual: item.manual,
                cases,
            }
        })
        .collect()
}
