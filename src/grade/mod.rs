//! Submission → build → run → compare → score.

pub mod batch;
pub mod build;
pub mod cache;
pub mod compare;
pub mod facts;
pub mod layout;
pub mod runcache;
pub mod sandbox;
pub mod submission;

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use rayon::prelude::*;
use serde_json::{json, Value};

use crate::cases::{self, CaseSpec};
use crate::error::Error;
use crate::games::{self, Expectation, Game, Prepared, Target, TraceRun};
use crate::report::model::BuildReport;
use crate::report::{BatchReport, CaseResult, CaseRun, ItemReport, Status, SubmissionReport};
use crate::spec::{Limits, Spec};
use build::{Built, Compiler, Workspace};
use compare::Mismatch;
use runcache::{RunInput, RunStore};
use sandbox::{RunLimits, RunOutcome, RunRequest, Sandbox, Termination};
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
        // Resolved against the current folder now: builds run in other folders, where a
        // relative path to the harness would name nothing.
        let candidates: Vec<PathBuf> = candidates
            .into_iter()
            .map(|root| std::path::absolute(&root).unwrap_or(root))
            .collect();
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
        build::check_spec_files(&spec)?;
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
    /// Build with the sanitizers (`--sanitize`) and show their reports.
    pub sanitize: bool,
    pub timeouts_in_a_row: usize,
    /// Run the cases of each binary of a submission in one sandboxed run (see `batch`).
    pub batch_cases: bool,
}

impl Settings {
    /// The spec's limits, with a command-line timeout taking precedence.
    pub fn new(limits: &Limits, timeout: Option<f64>, jobs: Option<usize>) -> Self {
        let timeout = timeout.unwrap_or(limits.timeout);
        Settings {
            sanitize: false,
            batch_cases: true,
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
    Ok(BatchReport {
        game: assignment.game.id().to_string(),
        sandbox: grader.sandbox.describe(),
        submissions: reports,
        skipped: Vec::new(),
    })
}

fn grade_one(
    assignment: &Assignment,
    submission: &Submission,
    grader: &Grader,
) -> SubmissionReport {
    let settings = grader.settings;
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
        timeout: settings.compile_timeout,
        sanitize: settings.sanitize,
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

    // Build every binary the cases need, then run the cases in parallel; results keep the
    // case order whatever the scheduling.
    for case in &assignment.cases {
        builds.get(&case.prepared.target, &case.prepared.extra_flags);
    }
    let built = &builds.done;
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
                .record_run(outcome.termination == Termination::Timeout, outcome.elapsed);
        }
    }
    let judged: Vec<Judged> = assignment
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
            let ran = batched.get(&index);
            // A batch runs its cases with the full limits.
            let (limits, streak) = match ran {
                Some(_) => (settings.limits.clone(), 0),
                None => {
                    let pace = pace.lock().unwrap_or_else(|e| e.into_inner());
                    (pace.limits(settings), pace.timeouts_in_a_row)
                }
            };
            let target = RunTarget {
                binary,
                store: stores.get(&key),
                ran,
            };
            let mut run = run_case(assignment, case, &target, &sources, grader, &limits);
            if limits.timeout < settings.limits.timeout {
                run.0.notes.push(format!(
                    "run with a shortened time limit of {:.2} s: the previous {streak} runs of this program timed out",
                    limits.timeout.as_secs_f64(),
                ));
            }
            if ran.is_none() {
                pace.lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .record(&run.0);
            }
            run
        })
        .collect();
    for store in stores.into_values() {
        // A store that cannot be written only means these runs are made again next time.
        let _ = store.save();
    }
    let mut runs = Vec::with_capacity(judged.len());
    let mut results: BTreeMap<String, Vec<CaseResult>> = BTreeMap::new();
    for (run, per_item) in judged {
        for (item, result) in per_item {
            results.entry(item).or_default().push(result);
        }
        runs.push(run);
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
        BuildReport { ok: build_ok, log },
        facts,
        runs,
    )
}

fn finish(
    submission: &Submission,
    items: Vec<ItemReport>,
    build: BuildReport,
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
        build,
        items,
        facts,
        ignored: submission.ignored.clone(),
        notes: submission.notes.clone(),
        student: submission.student.clone(),
        id: submission.id.clone(),
        late: submission.late,
        runs,
    }
}

fn round(points: f64) -> f64 {
    (points * 1000.0).round() / 1000.0
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
    fn limits(&self, settings: &Settings) -> RunLimits {
        let mut limits = settings.limits.clone();
        if self.timeouts_in_a_row >= settings.timeouts_in_a_row {
            let short = (limits.timeout / 5)
                .max(Duration::from_millis(200))
                .max(self.slowest_finished * 3);
            limits.timeout = limits.timeout.min(short);
        }
        limits
    }

    fn record(&mut self, run: &CaseRun) {
        let timed_out = run
            .items
            .iter()
            .any(|(_, status)| *status == Status::Timeout);
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

/// Builds per (target, flags), made on first use and kept for the submission.
struct Builds<'a> {
    workspace: &'a Workspace<'a>,
    assignment: &'a Assignment,
    compiler: &'a Compiler,
    timeout: Duration,
    sanitize: bool,
    cache: Option<&'a cache::BuildCache>,
    done: HashMap<BuildKey, Built>,
}

/// A binary of a submission: which target, built with which extra flags.
type BuildKey = (Target, Vec<String>);

impl Builds<'_> {
    fn get(&mut self, target: &Target, extra: &[String]) -> &Built {
        let key = (target.clone(), extra.to_vec());
        let (workspace, assignment, compiler, timeout, cache) = (
            self.workspace,
            self.assignment,
            self.compiler,
            self.timeout,
            self.cache,
        );
        let mut flags = extra.to_vec();
        if self.sanitize {
            flags.extend(assignment.spec.build.sanitize_flags.iter().cloned());
        }
        self.done.entry(key).or_insert_with(|| {
            workspace
                .build(compiler, &assignment.spec, target, &flags, timeout, cache)
                .unwrap_or_else(|e| Built {
                    binary: None,
                    log: format!("referee could not run the compiler: {e}\n"),
                    objects: Vec::new(),
                    cached: false,
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
        BuildReport {
            ok: false,
            log: reason,
        },
        facts,
        runs,
    )
}

type Judged = (CaseRun, Vec<(String, CaseResult)>);

/// A case's run record with its identity and input filled in and nothing observed yet.
fn case_run(case: &PreparedCase, items: Vec<(String, Status)>, ended: String) -> CaseRun {
    CaseRun {
        name: case.spec.name.clone(),
        description: case.spec.description.clone(),
        args: case.prepared.args.clone(),
        stdin: case.prepared.stdin.clone(),
        items,
        ended,
        mismatch: Mismatch::None,
        diff: String::new(),
        notes: Vec::new(),
        stderr: String::new(),
        output_digest: None,
        elapsed: Duration::ZERO,
    }
}

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
    // The first error says why; warnings before it do not.
    let first_line = log
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| log.lines().find(|l| !l.trim().is_empty()))
        .unwrap_or("");
    let items = case
        .items
        .iter()
        .map(|i| (i.clone(), Status::BuildError))
        .collect();
    (
        case_run(
            case,
            items,
            format!("not run: the build failed ({first_line})"),
        ),
        per_item,
    )
}

/// A case referee itself could not run (reported as a build error, with the reason, so
/// it is never mistaken for the student's failure or silently scored).
fn referee_failure_run(case: &PreparedCase, reason: &str) -> Judged {
    let (mut run, per_item) = build_error_run(case, "");
    run.ended = format!("not run: {reason}");
    (run, per_item)
}

/// A binary to run, where its earlier runs are kept, and the case's outcome if it already
/// ran in a batch.
struct RunTarget<'a> {
    binary: &'a Path,
    store: Option<&'a RunStore>,
    ran: Option<&'a RunOutcome>,
}

/// Runs the cases of each binary (and argument list) in one sandboxed run (see `batch`) and
/// returns their outcomes by case index. Left out, to run on their own: trace cases, cases
/// with a kept run, cases that need an environment (a seed, the sanitizers) and any case the
/// batch did not report.
fn run_batches(
    assignment: &Assignment,
    built: &HashMap<BuildKey, Built>,
    stores: &HashMap<&BuildKey, RunStore>,
    grader: &Grader,
) -> HashMap<usize, RunOutcome> {
    let limits = &grader.settings.limits;
    let sandbox = grader.sandbox.describe();
    let mut groups: HashMap<(BuildKey, &[String]), Vec<usize>> = HashMap::new();
    for (index, case) in assignment.cases.iter().enumerate() {
        let prepared = &case.prepared;
        let key = (prepared.target.clone(), prepared.extra_flags.clone());
        let batchable = matches!(prepared.expect, Expectation::Transcript(_))
            && case_env(case, grader, 0).is_empty()
            && built.get(&key).is_some_and(|b| b.binary.is_some());
        if !batchable {
            continue;
        }
        let kept = stores.get(&key).is_some_and(|store| {
            store
                .get(&store.key(&run_input(case, &[], limits, &sandbox)))
                .is_some()
        });
        if !kept {
            groups.entry((key, &prepared.args)).or_default().push(index);
        }
    }
    let mut outcomes = HashMap::new();
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

/// Runs one case, or reuses the kept outcome of the same run. `run_index` numbers the runs
/// of a trace case from 0: each later run sees the clock a day further on, so programs seeded
/// by `time()` play different games.
fn execute(
    case: &PreparedCase,
    target: &RunTarget,
    grader: &Grader,
    limits: &RunLimits,
    run_index: usize,
) -> Result<RunOutcome, String> {
    let env = case_env(case, grader, run_index);
    let key = target.store.map(|store| {
        let sandbox = grader.sandbox.describe();
        store.key(&run_input(case, &env, limits, &sandbox))
    });
    if let (Some(store), Some(key)) = (target.store, &key) {
        if let Some(kept) = store.get(key) {
            return Ok(kept);
        }
    }
    if let Some(outcome) = target.ran {
        if let (Some(store), Some(key)) = (target.store, key) {
            store.put(key, outcome);
        }
        return Ok(outcome.clone());
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
        store.put(key, &outcome);
    }
    Ok(outcome)
}

/// The variables a run of `case` gets on top of the sandbox's fixed minimum.
fn case_env(case: &PreparedCase, grader: &Grader, run_index: usize) -> Vec<(String, String)> {
    let mut env: Vec<(String, String)> = case
        .prepared
        .srandom_seed
        .map(|seed| ("REFEREE_SRANDOM".to_string(), seed.to_string()))
        .into_iter()
        .collect();
    if run_index > 0 {
        env.push((
            "REFEREE_TIME_OFFSET".to_string(),
            (run_index * 86_400).to_string(),
        ));
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
    target: &RunTarget,
    sources: &[(String, String)],
    grader: &Grader,
    limits: &RunLimits,
) -> Judged {
    match &case.prepared.expect {
        Expectation::Transcript(expected) => judge_transcript(
            assignment,
            case,
            expected,
            execute(case, target, grader, limits, 0),
            limits,
        ),
        Expectation::Trace { runs, .. } => {
            judge_trace(assignment, case, *runs, target, sources, grader, limits)
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
        Err(reason) => return referee_failure_run(case, &reason),
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
            mismatch: comparison.mismatch,
            diff: comparison.diff,
            notes,
            stderr: String::from_utf8_lossy(&outcome.stderr).into_owned(),
            output_digest: Some(crate::report::groups::digest(&outcome.stdout)),
            elapsed: outcome.elapsed,
            ..case_run(case, statuses, describe_end(outcome.termination, limits))
        },
        per_item,
    )
}

fn judge_trace(
    assignment: &Assignment,
    case: &PreparedCase,
    runs: usize,
    target: &RunTarget,
    sources: &[(String, String)],
    grader: &Grader,
    limits: &RunLimits,
) -> Judged {
    let mut totals: BTreeMap<String, f64> = case.items.iter().map(|i| (i.clone(), 0.0)).collect();
    let mut notes = Vec::new();
    let mut worst = Termination::Exited(0);
    let mut slowest = Duration::ZERO;
    let runs = runs.max(1);
    for index in 1..=runs {
        let outcome = match execute(case, target, grader, limits, index - 1) {
            Ok(outcome) => outcome,
            Err(reason) => return referee_failure_run(case, &reason),
        };
        if outcome.termination != Termination::Exited(0) {
            worst = outcome.termination;
        }
        slowest = slowest.max(outcome.elapsed);
        let output = String::from_utf8_lossy(&outcome.stdout);
        let run = TraceRun {
            output: &output,
            timed_out: outcome.termination == Termination::Timeout,
            sources: Some(sources),
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
            notes,
            elapsed: slowest,
            ..case_run(
                case,
                statuses,
                format!("{runs} runs; worst ending: {}", describe_end(worst, limits)),
            )
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
