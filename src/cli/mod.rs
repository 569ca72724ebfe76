//! The command line (a contract: see `docs/design.md`): one argument struct per subcommand.

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::builder::PossibleValuesParser;
use clap::{Args, Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use crate::assignment::cases::Visibility;
use crate::assignment::spec::Limits;
use crate::assignment::{Assignment, PreparedCase, Project};
use crate::error::Error;
use crate::games::{self, Expectation};
use crate::grade::build::cache::BuildCache;
use crate::grade::build::compiler::Compiler;
use crate::grade::intake::submission;
use crate::grade::run::sandbox::Sandbox;
use crate::grade::{self, Grader, Settings};
use crate::mutants;
use crate::report::audience::{self, Audience};
use crate::report::{self, BatchReport};

mod output;

use output::{check_writable, destinations, emit, progress_bar, Format};

#[derive(Parser)]
#[command(
    name = "referee",
    version = crate::assignment::embedded::long_version(),
    about = "Autograder and reference checker for C board-game assignments",
    long_about = "Autograder and reference checker for C board-game assignments.\n\n\
        referee compiles student C code, runs it in a sandbox on every case of the \
        assignment, compares its output with the Rust reference's, and scores each rubric \
        item. Failing cases come with the input that was given and a unified diff \
        ('-' lines are expected, '+' lines are what the program printed).",
    after_help = "Examples:\n  \
        referee grade reversi Lab6.c                     check one file\n  \
        referee grade reversi Lab6.c --case 'edge-*'     those cases in full (--all: every failure)\n  \
        referee grade reversi Lab6.c --sanitize --case handout-sample-4x4\n  \
        \x20                                                find the line a crash comes from\n  \
        referee grade reversi submissions/ -o out.json --format json\n  \
        referee grade reversi submissions/ --format json,csv,html -o out/\n  \
        referee gradescope-bundle reversi -o autograder.zip\n  \
        referee cases reversi                            list the cases and what they test\n  \
        referee expect reversi handout-sample-4x4 --input\n  \
        \x20                                                show a case's input and expected output\n  \
        referee check-trace ludo game.txt                replay a saved LUDO-CS game against the rules\n  \
        referee check-reference                          the model solutions must get full marks\n  \
        referee similar reversi submissions/             which submissions share code\n\n\
        Exit status: 0 when grading ran, 1 with --require-full (or check-reference) when \
        points are missing, 2 for a usage or configuration error."
)]
pub struct Cli {
    /// Folder holding referee's cases/, specs/ and reference/ (default: the current folder
    /// if it holds them, else the data compiled into referee, `--version` names its digest;
    /// also REFEREE_ROOT).
    #[arg(long, global = true, value_name = "DIR")]
    root: Option<PathBuf>,
    /// The course's private folder of cases, laid out like the project's
    /// (cases/<game>/*.toml), added to the project's cases (also REFEREE_PRIVATE). Kept in
    /// the course's own repository; hidden from student programs like the project.
    #[arg(long, global = true, value_name = "DIR")]
    private: Option<PathBuf>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Grade one submission or a folder of submissions.
    ///
    /// PATH is a .c file, a folder of .c/.h files, a .zip, or a folder of submissions (one
    /// file, folder or zip per student, or an LMS's download: see --layout).
    Grade(Box<GradeArgs>),
    /// Print what the reference expects for one case (its exact output).
    Expect(ExpectArgs),
    /// List the cases of an assignment with the rubric items they test.
    Cases(CasesArgs),
    /// Write a Gradescope autograder zip for one assignment.
    ///
    /// The zip holds setup.sh (installs a C compiler), run_autograder (grades
    /// /autograder/submission into /autograder/results/results.json), a referee executable
    /// (this one, or --binary: ship the static one of the release archive, which runs on any
    /// image; a referee built from source needs a glibc no newer than the image's), and the
    /// assignment's specs/ and cases/.
    GradescopeBundle(GradescopeBundleArgs),
    /// Write a GitHub Actions workflow for GitHub Classroom student repositories.
    ///
    /// The workflow downloads the release archive from --url (checked against the SHA-256 of
    /// --archive, and cached), grades the student's repository on every push with the cases
    /// compiled into that binary, and reports one test per auto-graded rubric item (full
    /// points or none) through Classroom's autograding reporter. See docs/distribution.md.
    ClassroomWorkflow(ClassroomWorkflowArgs),
    /// Check saved outputs of a trace-graded assignment (LUDO-CS) against the rules.
    ///
    /// Each FILE is one printed game (e.g. `./ludo > game.txt`). The trace checker replays
    /// it and prints every violation with its line number, the readings it detected and the
    /// per-item score the grader would give. Exit status 1 when a file loses points.
    CheckTrace(CheckTraceArgs),
    /// Grade the model solutions in reference/; exit 1 unless each gets full marks.
    CheckReference(CheckReferenceArgs),
    /// Grade mutants of the model solution: which bugs do the cases miss?
    ///
    /// Each mutant changes one operator, constant, condition, statement or return value of
    /// reference/GAME and is graded like a submission. Survivors (full marks) are either
    /// listed as equivalent in specs/GAME/mutants.toml or need a new case.
    Mutants(MutantsArgs),
    /// Which submissions share code, with the course's own code taken out.
    ///
    /// Reads the same inputs as `grade` (files, folders, zips, LMS downloads; the same
    /// files a build would use) and names submissions as grading does. Each submission is
    /// read with a C grammar into tokens with comments and layout dropped and every name and
    /// literal made alike, so renaming and reformatting hide nothing; runs of tokens are
    /// fingerprinted (winnowing) and every pair of submissions sharing fingerprints is
    /// scored: shared fingerprints over both submissions' fingerprints, 0 to 1. The
    /// template the spec names, --template files and code most of the class shares
    /// (--common) are left out, so students who only share the course's code score near 0.
    /// A high score is a reason to look, not a verdict: read the matched regions.
    #[command(after_help = "Examples:\n  \
        referee similar trouble submissions/                    ranked pairs with matched lines\n  \
        referee similar trouble submissions/ --format html -o similar.html\n  \
        \x20                                                     side by side, matches marked\n  \
        referee similar reversi canvas-download/ --archive fall2025/ --format json -o s.json\n  \
        referee similar othello submissions/ --template starter.c --common 0.3")]
    Similar(Box<SimilarArgs>),
}

/// Arguments of `referee grade`.
#[derive(Args)]
struct GradeArgs {
    /// The assignment.
    #[arg(value_parser = game_ids())]
    game: String,
    /// Submissions to grade.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// Report formats, comma-separated or repeated; all come from one grading run.
    ///
    /// text: readable report (coloured on a terminal unless NO_COLOR is set;
    /// REFEREE_COLOR=always|never replaces the terminal check);
    /// json: the JSON contract plus "groups"; csv: one row per submission for a
    /// gradebook; junit: JUnit XML for CI; gradescope: Gradescope's results.json (exactly
    /// one submission); html: one self-contained page for the TA.
    #[arg(
        long,
        value_enum,
        value_delimiter = ',',
        default_value = "text",
        value_name = "FORMAT"
    )]
    format: Vec<Format>,
    /// Where the reports go (default: standard output, one format only).
    ///
    /// With one format, FILE is the report. With a folder (an existing one, or a path
    /// ending in '/') each format is written there as report.txt, report.json,
    /// report.csv, report.junit.xml, report.gradescope.json, report.html. Any other path
    /// with several formats is a stem: -o out/grades writes out/grades.json,
    /// out/grades.csv, … (a trailing format extension such as .json is dropped first).
    #[arg(short, long, value_name = "FILE|DIR/|STEM")]
    output: Option<PathBuf>,
    /// Submissions graded at once (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
    #[command(flatten)]
    limits: LimitOverrides,
    /// Exit with status 1 when any submission misses auto-graded points.
    #[arg(long)]
    require_full: bool,
    /// Build with AddressSanitizer and UndefinedBehaviorSanitizer and show their report
    /// for failing cases: finds out-of-bounds reads and writes, use of freed memory,
    /// overflows. Slower; scores can differ from a normal build.
    #[arg(long)]
    sanitize: bool,
    /// Write every run of a trace-graded case (LUDO-CS) to
    /// DIR/SUBMISSION/CASE/run-001.txt, ..., to replay one with `referee check-trace GAME
    /// FILE`. DIR must not exist yet or be empty.
    #[arg(long, value_name = "DIR")]
    save_runs: Option<PathBuf>,
    /// Folder of the build and run cache (default: REFEREE_CACHE, else
    /// ~/.cache/referee). Regrading reuses every build whose sources, flags and compiler
    /// are unchanged, and every run whose binary, input and limits are (a run stopped at
    /// its CPU-time limit too; not one the wall-clock backstop stopped).
    #[arg(long, value_name = "DIR", conflicts_with = "no_cache")]
    cache: Option<PathBuf>,
    /// Compile and run everything afresh and keep nothing.
    #[arg(long)]
    no_cache: bool,
    /// Run every case in a sandboxed run of its own. By default the cases of a
    /// submission's program (and of its unit-test harness) share one sandboxed run that
    /// forks a fresh process per case, in a fresh folder, with the same limits, and kills
    /// whatever a case leaves running: the same results for far less set-up.
    #[arg(long)]
    no_batch: bool,
    /// Show this case in full in the text report instead of one example per failing item
    /// (repeatable; `*` and `?` match any text and one character: --case 'edge-*').
    #[arg(long = "case", value_name = "NAME")]
    cases: Vec<String>,
    /// Show every failing case in full in the text report.
    #[arg(long, conflicts_with = "cases")]
    all: bool,
    #[command(flatten)]
    ta: crate::lms::TaOptions,
    #[command(flatten)]
    after: crate::adjust::AdjustOptions,
    #[command(flatten)]
    audience: AudienceOption,
}

/// Who the reports are for.
#[derive(Args)]
struct AudienceOption {
    /// student: cases a student may not see (visibility hidden, after_published, or
    /// after_due_date before the due date) appear only as "a hidden case of item X fails";
    /// ta: everything. Default: student for the text report of one submission, feedback
    /// files, gradescope, expect and cases; ta for a batch's text report, json, csv, junit
    /// and html.
    #[arg(long, value_enum, value_name = "WHO")]
    audience: Option<Audience>,
}

/// Command-line overrides of the assignment's `[limits]`, applied in one place (`apply`).
#[derive(Args)]
struct LimitOverrides {
    /// CPU seconds per run; the wall clock stops a run at 3 x this + 1 s (default: the
    /// assignment's spec.toml).
    // A negative number is a value to refuse with the real rule, not a flag (clap would
    // suggest `-- -1`, which does not work either).
    #[arg(
        long,
        value_name = "SECONDS",
        value_parser = parse_timeout,
        allow_negative_numbers = true
    )]
    timeout: Option<f64>,
    /// Address space per run in MiB (default: the assignment's spec.toml).
    #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(16..=65536))]
    memory: Option<u64>,
    /// Output kept per run in KiB before the program is stopped (default: spec.toml).
    #[arg(long, value_name = "KIB", value_parser = clap::value_parser!(u64).range(1..=1048576))]
    output_limit: Option<u64>,
}

impl LimitOverrides {
    /// The spec's limits with every override given on the command line.
    fn apply(&self, spec: &Limits) -> Limits {
        let mut limits = spec.clone();
        limits.timeout = self.timeout.unwrap_or(limits.timeout);
        limits.memory_mb = self.memory.unwrap_or(limits.memory_mb);
        limits.output_kb = self.output_limit.unwrap_or(limits.output_kb);
        limits
    }
}

/// Arguments of `referee expect`.
#[derive(Args)]
struct ExpectArgs {
    #[arg(value_parser = game_ids())]
    game: String,
    /// The case name (see `referee cases GAME`).
    case: String,
    /// Print the case's input (stdin, arguments) before the output.
    #[arg(long)]
    input: bool,
    /// Prefix each expected line with the rubric item it shows.
    #[arg(long)]
    tags: bool,
    #[command(flatten)]
    audience: AudienceOption,
}

/// Arguments of `referee cases`.
#[derive(Args)]
struct CasesArgs {
    #[arg(value_parser = game_ids())]
    game: String,
    /// Also write each case to DIR to run it by hand: NAME.stdin, NAME.args (one argument
    /// per line), NAME.target (`program` or `harness`), NAME.flags (extra compiler flags,
    /// one per line) and NAME.expected.
    #[arg(long, value_name = "DIR")]
    export: Option<PathBuf>,
    #[command(flatten)]
    audience: AudienceOption,
}

/// Arguments of `referee gradescope-bundle`.
#[derive(Args)]
struct GradescopeBundleArgs {
    #[arg(value_parser = game_ids())]
    game: String,
    /// The zip to write.
    #[arg(short, long, value_name = "ZIP", default_value = "autograder.zip")]
    output: PathBuf,
    /// The referee executable to ship: the static one from the release archive
    /// (tools/release.sh) runs on any Gradescope image. Default: this very executable.
    #[arg(long, value_name = "FILE")]
    binary: Option<PathBuf>,
    #[command(flatten)]
    audience: AudienceOption,
}

/// Arguments of `referee classroom-workflow`.
#[derive(Args)]
struct ClassroomWorkflowArgs {
    #[arg(value_parser = game_ids())]
    game: String,
    /// The release archive students' workflows download (written by tools/release.sh,
    /// `referee-VERSION-x86_64-linux.tar.gz`): its SHA-256 goes into the workflow, which
    /// checks it before unpacking.
    #[arg(long, value_name = "FILE")]
    archive: PathBuf,
    /// Where that archive is served, e.g. a release asset of the course's repository:
    /// https://github.com/COURSE/referee/releases/download/vVERSION/referee-VERSION-x86_64-linux.tar.gz
    #[arg(long, value_name = "URL")]
    url: String,
    /// The workflow file to write.
    #[arg(
        short,
        long,
        value_name = "FILE",
        default_value = ".github/workflows/classroom.yml"
    )]
    output: PathBuf,
}

/// Arguments of `referee check-trace`.
#[derive(Args)]
struct CheckTraceArgs {
    #[arg(value_parser = game_ids())]
    game: String,
    /// Saved program outputs, one game per file.
    #[arg(required = true, value_name = "FILE")]
    files: Vec<PathBuf>,
}

/// Arguments of `referee check-reference`.
#[derive(Args)]
struct CheckReferenceArgs {
    /// One assignment (default: every assignment with a reference/ folder).
    #[arg(value_parser = game_ids())]
    game: Option<String>,
}

/// Arguments of `referee mutants`.
#[derive(Args)]
struct MutantsArgs {
    #[arg(value_parser = game_ids())]
    game: String,
    /// Grade N mutants picked by --seed instead of all of them.
    #[arg(long, value_name = "N")]
    sample: Option<usize>,
    /// The seed that picks the sample.
    #[arg(long, value_name = "S", default_value_t = 1)]
    seed: u64,
    /// Grade only these mutants, by the ids reports give them (e.g. --only 12,40).
    #[arg(
        long,
        value_name = "ID,...",
        value_delimiter = ',',
        conflicts_with = "sample"
    )]
    only: Option<Vec<usize>>,
    /// Exit with status 1 when a survivor is not listed as equivalent in mutants.toml.
    #[arg(long)]
    check: bool,
    /// text, or json (every mutant with its verdict).
    #[arg(long, value_enum, default_value = "text")]
    format: MutantsFormat,
    /// Mutants graded at once (default: the number of cores).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..))]
    jobs: Option<u16>,
}

/// Arguments of `referee similar`.
#[derive(Args)]
struct SimilarArgs {
    /// The assignment (its spec's [similar] template is taken out).
    #[arg(value_parser = game_ids())]
    game: String,
    /// Submissions to compare, as for `grade`: batch folders, zips, LMS downloads.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
    /// More code every student was given (a handout's file, starter code), taken out like
    /// the spec's template (repeatable; put the PATHs first, as files after --template are
    /// all templates).
    #[arg(long = "template", value_name = "FILE", num_args = 1..)]
    templates: Vec<PathBuf>,
    /// Earlier terms' submissions (a batch folder, repeatable): each is compared with this
    /// class, never with one another, and named ARCHIVE/NAME.
    #[arg(long = "archive", value_name = "DIR")]
    archives: Vec<PathBuf>,
    /// Code found in more than this share of the class (and in three submissions or more)
    /// is the course's or the language's, not a copy: it is left out. 1 keeps everything.
    #[arg(long, value_name = "SHARE", default_value_t = 0.5, value_parser = parse_share)]
    common: f64,
    /// text: ranked pairs with matched line ranges; json: {"pairs": [{"a", "b", "score",
    /// "matches"}, ...], "clusters"}; csv: one row per pair; html: one self-contained page
    /// with the pairs side by side, matches marked and template lines greyed.
    #[arg(long, value_enum, default_value = "text", value_name = "FORMAT")]
    format: SimilarFormat,
    /// The report's file (default: standard output).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Pairs reported, best first (0: every pair that shares code).
    #[arg(long, value_name = "N", default_value_t = 50)]
    top: usize,
    /// Score from which submissions are grouped into one cluster (0 to 1).
    #[arg(long, value_name = "SCORE", default_value_t = 0.5, value_parser = parse_share)]
    threshold: f64,
    /// How the batch folders are laid out (as for `grade`): auto recognises Canvas,
    /// Moodle, Gradescope and GitHub Classroom downloads.
    #[arg(long, value_enum, default_value = "auto", value_name = "LAYOUT")]
    layout: crate::grade::intake::layout::Lms,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum SimilarFormat {
    Text,
    Json,
    Csv,
    Html,
}

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
enum MutantsFormat {
    Text,
    Json,
}

/// Clap's error text (message, tips, usage, each on lines of their own) as one line:
/// `referee: error: MESSAGE (usage: USAGE; more with --help)`. `subcommand` is the one the
/// words typed name, if any, for the help to point to when clap gives no usage.
pub fn one_line_usage_error(rendered: &str, subcommand: Option<&str>) -> String {
    let mut message = Vec::new();
    let mut usage = None;
    for line in rendered.lines().map(str::trim) {
        if let Some(rest) = line.strip_prefix("Usage:") {
            usage = Some(rest.trim());
        } else if !line.is_empty() && !line.starts_with("For more information") {
            message.push(line.strip_prefix("error:").unwrap_or(line).trim());
        }
    }
    match usage {
        Some(usage) => format!(
            "referee: error: {} (usage: {usage}; more with --help)",
            message.join(" ")
        ),
        None => format!(
            "referee: error: {} (more with `referee {}--help`)",
            message.join(" "),
            subcommand.map(|s| format!("{s} ")).unwrap_or_default()
        ),
    }
}

fn game_ids() -> PossibleValuesParser {
    PossibleValuesParser::new(games::all().iter().map(|g| g.id()))
}

fn parse_share(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(share) if (0.0..=1.0).contains(&share) => Ok(share),
        _ => Err(format!("a share from 0 to 1 (e.g. 0.5), not '{text}'")),
    }
}

fn parse_timeout(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(seconds) if seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0 => Ok(seconds),
        _ => Err(format!(
            "the time limit must be a positive number of seconds, at most 3600 (e.g. 0.5), not '{text}'"
        )),
    }
}

/// Runs the command; the exit status is 0, 1 (points missing where that matters) or 2.
pub fn run(cli: Cli) -> Result<i32, Error> {
    let project = || Project::locate(cli.root.as_deref())?.with_private(cli.private.as_deref());
    match cli.command {
        Command::Grade(args) => grade(&project()?, *args),
        Command::Expect(args) => expect(&project()?, args),
        Command::Cases(args) => cases(&project()?, args),
        Command::GradescopeBundle(args) => gradescope_bundle(&project()?, args),
        Command::ClassroomWorkflow(args) => write_classroom_workflow(&project()?, args),
        Command::CheckTrace(args) => check_trace_files(&project()?, &args.game, &args.files),
        Command::CheckReference(args) => check_reference(&project()?, args.game.as_deref()),
        Command::Mutants(args) => mutants(&project()?, args),
        Command::Similar(args) => similar(&project()?, *args),
    }
}

/// `referee grade`.
fn grade(project: &Project, args: GradeArgs) -> Result<i32, Error> {
    let GradeArgs {
        game,
        paths,
        format,
        output,
        jobs,
        require_full,
        sanitize,
        save_runs,
        cache,
        no_cache,
        no_batch,
        limits,
        cases,
        all,
        ta,
        after,
        audience,
    } = args;
    let destinations = destinations(&format, output.as_deref())?;
    let assignment = Assignment::load(project, &game)?;
    check_case_patterns(&assignment, &cases)?;
    let after = after.read(&assignment.spec)?;
    let text_options = report::text::Options {
        paint: report::text::Paint::default(),
        cases,
        all,
    };
    let gradescope = format.contains(&Format::Gradescope);
    let discovered = submission::discover_as(&paths, &assignment.spec.submission, ta.layout)?;
    let submissions = discovered.submissions;
    let graded: Vec<PathBuf> = submissions.iter().map(|s| s.path.clone()).collect();
    check_writable(&destinations, &graded)?;
    if let Some(dir) = &save_runs {
        check_save_runs(dir, &graded)?;
    }
    ta.check_files(&graded)?;
    ta.check(&submissions)?;
    after.check(&submissions)?;
    if gradescope && submissions.len() != 1 {
        return Err(report::gradescope::one_submission_error(submissions.len()));
    }
    let compiler = Compiler::find()?;
    let cache_dir = if no_cache {
        None
    } else {
        cache.or_else(BuildCache::default_dir)
    };
    let build_cache = cache_dir
        .map(|dir| {
            BuildCache::open(dir.clone()).map_err(|e| {
                Error::config(format!("{}: cannot use as build cache: {e}", dir.display()))
            })
        })
        .transpose()?;
    let sandbox = new_sandbox(project, build_cache.as_ref().map(BuildCache::root))?;
    let limits = limits.apply(&assignment.spec.limits);
    let mut settings = Settings::new(&limits, jobs.map(usize::from));
    if sanitize {
        settings = settings.with_sanitizers();
    }
    settings.batch_cases = !no_batch;
    settings.save_runs = save_runs;
    let grader = Grader {
        compiler: &compiler,
        sandbox: &sandbox,
        cache: build_cache.as_ref(),
        settings: &settings,
    };
    let started = Instant::now();
    let bar = progress_bar(submissions.len());
    let mut batch = grade::grade_with_progress(&assignment, &submissions, &grader, &|graded| {
        if let Some(bar) = &bar {
            bar.set_message(graded.name.clone());
            bar.inc(1);
        }
    })?;
    batch.skipped = discovered.skipped;
    if let Some(bar) = &bar {
        bar.finish_and_clear();
    }
    let seconds = started.elapsed().as_secs_f64();
    after.apply(&mut batch, &submissions);
    let students = audience::for_students(&batch, after.due_passed());
    let view = |default: Audience| match audience.audience.unwrap_or(default) {
        Audience::Student => students.as_ref(),
        Audience::Ta => &batch,
    };
    // The text report of one submission is the student's self-check, whoever runs it.
    let text_reader = if batch.submissions.len() == 1 {
        Audience::Student
    } else {
        Audience::Ta
    };
    for (format, path) in &destinations {
        let reader = match format {
            Format::Text => text_reader,
            Format::Gradescope => Audience::Student,
            Format::Json | Format::Csv | Format::Junit | Format::Html => Audience::Ta,
        };
        let shown = view(reader);
        let text = match format {
            Format::Text if path.is_none() => {
                let paint = report::text::Paint::for_stdout();
                report::text::render_with(
                    shown,
                    &report::text::Options {
                        paint,
                        ..text_options.clone()
                    },
                )
            }
            Format::Text => report::text::render_with(shown, &text_options),
            Format::Json => report::json::render(shown),
            Format::Csv => report::csv::render(shown),
            Format::Junit => report::junit::render(shown),
            Format::Gradescope => report::gradescope::render(shown, seconds)?,
            Format::Html => report::html::render(shown),
        };
        emit(&text, path.as_deref())?;
    }
    for path in ta.write(view(Audience::Student))? {
        eprintln!("wrote {}", path.display());
    }
    if destinations.iter().all(|(_, path)| path.is_some()) {
        for (_, path) in &destinations {
            if let Some(path) = path {
                eprintln!("wrote {}", path.display());
            }
        }
        eprintln!("{}", report::text::summary(&batch));
    }
    let missing = batch.submissions.iter().any(|s| !s.full_marks());
    Ok(if require_full && missing { 1 } else { 0 })
}

/// `referee expect`.
fn expect(project: &Project, args: ExpectArgs) -> Result<i32, Error> {
    let ExpectArgs {
        game,
        case,
        input,
        tags,
        audience,
    } = args;
    let assignment = Assignment::load(project, &game)?;
    let found = assignment.case(&case).ok_or_else(|| {
        Error::config(format!(
            "{game} has no case named '{case}' (list them with `referee cases {game}`)"
        ))
    })?;
    if audience.audience.unwrap_or(Audience::Student) == Audience::Student
        && !found
            .visibility
            .shown_to_students(spec_due_passed(&assignment))
    {
        return Err(Error::config(format!(
            "{game}: case '{case}' is {}: its input and expected output are not shown to students (course staff: --audience ta)",
            found.visibility.as_str()
        )));
    }
    let mut out = String::new();
    if input {
        if !found.prepared.args.is_empty() {
            out.push_str(&format!("# arguments: {:?}\n", found.prepared.args));
        }
        out.push_str("# stdin:\n");
        out.push_str(&found.prepared.stdin);
        out.push_str("# expected output:\n");
    }
    let transcript = match &found.prepared.expect {
        Expectation::Transcript(t) => t,
        Expectation::Trace { example, .. } => example,
    };
    if tags {
        for line in transcript.lines() {
            out.push_str(&format!("{:>16} | {}\n", line.item, line.text));
        }
    } else {
        out.push_str(&transcript.text());
    }
    emit(&out, None)?;
    Ok(0)
}

/// `referee cases`.
fn cases(project: &Project, args: CasesArgs) -> Result<i32, Error> {
    let CasesArgs {
        game,
        export,
        audience,
    } = args;
    let assignment = Assignment::load(project, &game)?;
    let for_staff = audience.audience == Some(Audience::Ta);
    let due_passed = spec_due_passed(&assignment);
    let shown = |case: &PreparedCase| for_staff || case.visibility.shown_to_students(due_passed);
    if let Some(dir) = &export {
        export_cases(&assignment, dir, &shown)?;
    }
    // A case a student may not see is listed by a placeholder, with its items only.
    let mut hidden = 0;
    let rows: Vec<(String, Option<&str>, &PreparedCase)> = assignment
        .cases
        .iter()
        .map(|case| {
            if shown(case) {
                (
                    case.spec.name.clone(),
                    case.spec.description.as_deref(),
                    case,
                )
            } else {
                hidden += 1;
                (format!("hidden case {hidden}"), None, case)
            }
        })
        .collect();
    let width = rows.iter().map(|(name, ..)| name.len()).max().unwrap_or(4);
    let mut out = String::new();
    for (name, description, case) in &rows {
        let kind = format!("{:?}", case.spec.kind).to_lowercase();
        let visibility = match case.visibility {
            Visibility::Visible => String::new(),
            other => format!("  [{}]", other.as_str()),
        };
        out.push_str(&format!(
            "{name:<width$}  {kind:<7}  {}{visibility}{}\n",
            case.items.join(","),
            description.map(|d| format!("  — {d}")).unwrap_or_default()
        ));
    }
    out.push_str(&format!("{} cases\n", assignment.cases.len()));
    emit(&out, None)?;
    Ok(0)
}

/// `referee gradescope-bundle`.
fn gradescope_bundle(project: &Project, args: GradescopeBundleArgs) -> Result<i32, Error> {
    let GradescopeBundleArgs {
        game,
        output,
        binary,
        audience,
    } = args;
    // Loading checks that the spec and cases are sound before they are shipped.
    Assignment::load(project, &game)?;
    let audience = audience.audience.unwrap_or(Audience::Student);
    crate::report::destination::refuse_overwrite(&output, &[])?;
    crate::bundle::write(project, &game, &output, binary.as_deref(), audience)?;
    eprintln!("wrote {}", output.display());
    Ok(0)
}

/// `--save-runs DIR`: a folder that does not exist yet, or an empty one, outside every
/// submission (saved runs never mix with older ones or land among a student's files).
fn check_save_runs(dir: &Path, graded: &[PathBuf]) -> Result<(), Error> {
    let shown = dir.display();
    if crate::report::destination::inside(dir, graded) {
        return Err(Error::config(format!(
            "--save-runs {shown}: inside a submission being graded (choose a folder outside the submissions)"
        )));
    }
    match std::fs::symlink_metadata(dir) {
        Err(_) => Ok(()),
        Ok(meta) if meta.is_dir() => {
            let mut entries = std::fs::read_dir(dir)
                .map_err(|e| Error::config(format!("--save-runs {shown}: cannot read: {e}")))?;
            if entries.next().is_some() {
                Err(Error::config(format!(
                    "--save-runs {shown}: not empty (choose a new folder: saved runs never mix with older ones)"
                )))
            } else {
                Ok(())
            }
        }
        Ok(_) => Err(Error::config(format!(
            "--save-runs {shown}: exists and is not a folder"
        ))),
    }
}

/// Every `--case` pattern must name at least one case of the assignment.
fn check_case_patterns(assignment: &Assignment, patterns: &[String]) -> Result<(), Error> {
    for pattern in patterns {
        let found = assignment
            .cases
            .iter()
            .any(|c| report::summary::matches_pattern(pattern, &c.spec.name));
        if !found {
            return Err(Error::config(format!(
                "--case {pattern}: {} has no such case (list them with `referee cases {}`)",
                assignment.game.id(),
                assignment.game.id()
            )));
        }
    }
    Ok(())
}

/// `referee classroom-workflow`.
fn write_classroom_workflow(project: &Project, args: ClassroomWorkflowArgs) -> Result<i32, Error> {
    let ClassroomWorkflowArgs {
        game,
        archive,
        url,
        output,
    } = args;
    let output = output.as_path();
    let assignment = Assignment::load(project, &game)?;
    let release = crate::lms::Release::of_archive(&archive, &url)?;
    let text = crate::lms::classroom_workflow(&game, &assignment.spec.items, &release);
    crate::report::destination::refuse_overwrite(output, &[])?;
    if let Some(parent) = output.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| Error::config(format!("{}: cannot create: {e}", parent.display())))?;
    }
    emit(&text, Some(output))?;
    eprintln!("wrote {}", output.display());
    Ok(0)
}

fn check_reference(project: &Project, only: Option<&str>) -> Result<i32, Error> {
    let ids: Vec<&str> = match only {
        Some(id) => vec![id],
        None => games::all()
            .iter()
            .map(|g| g.id())
            .filter(|id| project.reference_dir(id).is_dir())
            .collect(),
    };
    let compiler = Compiler::find()?;
    let sandbox = new_sandbox(project, None)?;
    let mut all_full = true;
    for id in ids {
        let assignment = Assignment::load(project, id)?;
        let dir = project.reference_dir(id);
        let submissions = submission::discover(&[dir], &assignment.spec.submission)?.submissions;
        let settings = Settings::new(&assignment.spec.limits, None);
        // Always built afresh: this is the check CI relies on.
        let grader = Grader {
            compiler: &compiler,
            sandbox: &sandbox,
            cache: None,
            settings: &settings,
        };
        let batch: BatchReport = grade::grade(&assignment, &submissions, &grader)?;
        emit(&report::text::render(&batch), None)?;
        all_full &= batch.submissions.iter().all(|s| s.full_marks());
    }
    Ok(if all_full { 0 } else { 1 })
}

/// `referee mutants`.
fn mutants(project: &Project, args: MutantsArgs) -> Result<i32, Error> {
    let assignment = Assignment::load(project, &args.game)?;
    let model_dir = project.reference_dir(&args.game);
    let model = submission::discover(&[model_dir], &assignment.spec.submission)?
        .submissions
        .into_iter()
        .next()
        .ok_or_else(|| Error::config(format!("reference/{}: no model solution", args.game)))?;
    let spec_dir = project.root.join("specs").join(&args.game);
    let equivalents = mutants::equivalents::Equivalents::load(&spec_dir.join("mutants.toml"))?;
    let compiler = Compiler::find()?;
    let build_cache = BuildCache::default_dir().and_then(|dir| BuildCache::open(dir).ok());
    let sandbox = new_sandbox(project, build_cache.as_ref().map(BuildCache::root))?;
    let settings = Settings::new(&assignment.spec.limits, args.jobs.map(usize::from));
    let grader = Grader {
        compiler: &compiler,
        sandbox: &sandbox,
        cache: build_cache.as_ref(),
        settings: &settings,
    };
    let plan = mutants::Plan {
        assignment: &assignment,
        model: &model,
        headers: mutants::spec_headers(&spec_dir),
        sample: args.sample,
        seed: args.seed,
        only: args.only,
        equivalents: &equivalents,
    };
    let report = mutants::run(&plan, &grader)?;
    let text = match args.format {
        MutantsFormat::Text => mutants::render_text(&report),
        MutantsFormat::Json => serde_json::to_string_pretty(&report)
            .map_err(|e| Error::config(format!("cannot write the JSON report: {e}")))?,
    };
    emit(&text, None)?;
    Ok(if args.check && report.unexplained > 0 {
        1
    } else {
        0
    })
}

/// `referee similar`.
fn similar(project: &Project, args: SimilarArgs) -> Result<i32, Error> {
    let assignment = Assignment::load(project, &args.game)?;
    let spec = &assignment.spec;
    let format = match args.format {
        SimilarFormat::Text => Format::Text,
        SimilarFormat::Json => Format::Json,
        SimilarFormat::Csv => Format::Csv,
        SimilarFormat::Html => Format::Html,
    };
    let destination = destinations(&[format], args.output.as_deref())?
        .into_iter()
        .next()
        .and_then(|(_, path)| path);
    let mut templates = Vec::new();
    for name in &spec.similar.template {
        templates.push(read_template(&spec.dir.join(name))?);
    }
    if !spec.similar.template_text.trim().is_empty() {
        templates.push(crate::similar::SourceText {
            name: "spec.toml [similar] template_text".into(),
            text: spec.similar.template_text.clone(),
        });
    }
    for path in &args.templates {
        templates.push(read_template(path)?);
    }
    let class = submission::discover_as(&args.paths, &spec.submission, args.layout)?;
    let mut documents = Vec::new();
    let mut read = Vec::new();
    for found in class.submissions {
        read.push(found.path.clone());
        documents.extend(similarity_document(found, None, &spec.submission.provided));
    }
    for archive in &args.archives {
        let label = archive.file_name().map_or_else(
            || archive.display().to_string(),
            |n| n.to_string_lossy().into_owned(),
        );
        let earlier =
            submission::discover_as(std::slice::from_ref(archive), &spec.submission, args.layout)?;
        for found in earlier.submissions {
            read.push(found.path.clone());
            documents.extend(similarity_document(
                found,
                Some(&label),
                &spec.submission.provided,
            ));
        }
    }
    if documents.iter().filter(|d| !d.archived).count() < 2 && args.archives.is_empty() {
        return Err(Error::config(format!(
            "{}: fewer than two submissions to compare",
            args.paths
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        )));
    }
    if let Some(path) = &destination {
        check_writable(&[(format, Some(path.clone()))], &read)?;
    }
    let options = crate::similar::Options {
        common_share: args.common,
        top: args.top,
        threshold: args.threshold,
    };
    let comparison = crate::similar::compare(documents, &templates, &options);
    let text = match args.format {
        SimilarFormat::Text => crate::similar::render::text::render(&comparison),
        SimilarFormat::Json => crate::similar::render::json::render(&comparison),
        SimilarFormat::Csv => crate::similar::render::csv::render(&comparison),
        SimilarFormat::Html => crate::similar::render::html::render(&comparison, &spec.title),
    };
    emit(&text, destination.as_deref())?;
    if let Some(path) = &destination {
        eprintln!("wrote {}", path.display());
    }
    Ok(0)
}

/// A submission as the comparison reads it: the files its build would use (a student's copy
/// of a file the spec provides is replaced in the build, so it is left out here too). One
/// that cannot be read as C source (binary, empty, unreadable) is left out with a one-line
/// message.
fn similarity_document(
    found: submission::Submission,
    archive: Option<&str>,
    provided: &[String],
) -> Option<crate::similar::Document> {
    let name = match archive {
        Some(label) => format!("{label}/{}", found.name),
        None => found.name.clone(),
    };
    let unreadable = found.files.iter().find(|f| f.bytes.contains(&0));
    let problem = match (&found.problem, unreadable) {
        (_, Some(file)) => Some(format!("{} is binary, not C source", file.name)),
        (Some(problem), None) if found.files.iter().all(|f| !f.is_c()) => Some(problem.clone()),
        _ if found
            .files
            .iter()
            .all(|f| f.bytes.iter().all(u8::is_ascii_whitespace)) =>
        {
            Some("no code (empty files)".to_string())
        }
        _ => None,
    };
    if let Some(problem) = problem {
        eprintln!(
            "referee: {name} ({}): {problem}; left out of the comparison",
            found.path.display()
        );
        return None;
    }
    Some(crate::similar::Document {
        name,
        files: found
            .files
            .iter()
            .filter(|f| !provided.contains(&f.name))
            .map(|f| crate::similar::SourceText {
                name: f.name.clone(),
                text: f.text(),
            })
            .collect(),
        archived: archive.is_some(),
    })
}

/// A template file: C source as text (a binary file is refused).
fn read_template(path: &Path) -> Result<crate::similar::SourceText, Error> {
    let bytes = std::fs::read(path)
        .map_err(|e| Error::config(format!("{}: cannot read the template: {e}", path.display())))?;
    if bytes.contains(&0) {
        return Err(Error::config(format!(
            "{}: a binary file, not a C template",
            path.display()
        )));
    }
    Ok(crate::similar::SourceText {
        name: path.display().to_string(),
        text: String::from_utf8_lossy(&bytes).into_owned(),
    })
}

fn check_trace_files(project: &Project, game: &str, files: &[PathBuf]) -> Result<i32, Error> {
    let assignment = Assignment::load(project, game)?;
    let case = assignment
        .cases
        .iter()
        .find(|c| matches!(c.prepared.expect, Expectation::Trace { .. }))
        .ok_or_else(|| {
            Error::config(format!(
                "{game} is graded by diffing, not by a trace checker (use `referee grade`)"
            ))
        })?;
    let mut all_full = true;
    let mut out = String::new();
    for file in files {
        let bytes = std::fs::read(file)
            .map_err(|e| Error::config(format!("{}: cannot read: {e}", file.display())))?;
        if bytes.contains(&0) {
            return Err(Error::config(format!(
                "{}: a binary file, not a saved program output",
                file.display()
            )));
        }
        let output = String::from_utf8_lossy(&bytes);
        let run = games::TraceRun {
            output: &output,
            timed_out: false,
            sources: None,
        };
        let verdicts = assignment.game.check_trace(&case.spec, &run)?.items;
        out.push_str(&format!("{}\n", file.display()));
        for verdict in &verdicts {
            all_full &= verdict.fraction >= 1.0;
            out.push_str(&format!(
                "  {:<10} {:>4.0}%\n",
                verdict.item,
                verdict.fraction * 100.0
            ));
            for note in &verdict.notes {
                out.push_str(&format!("      {note}\n"));
            }
        }
    }
    emit(&out, None)?;
    Ok(if all_full { 0 } else { 1 })
}

/// Writes the cases `shown` picks (a student's export leaves out the cases they may not see).
fn export_cases(
    assignment: &Assignment,
    dir: &Path,
    shown: &dyn Fn(&PreparedCase) -> bool,
) -> Result<(), Error> {
    let fail = |e: std::io::Error| Error::config(format!("{}: cannot export: {e}", dir.display()));
    std::fs::create_dir_all(dir).map_err(fail)?;
    for case in assignment.cases.iter().filter(|case| shown(case)) {
        let prepared = &case.prepared;
        let expected = match &prepared.expect {
            Expectation::Transcript(t) => t.text(),
            Expectation::Trace { example, .. } => example.text(),
        };
        let target = match prepared.target {
            games::Target::Program => "program\n",
            games::Target::Harness => "harness\n",
        };
        let lines = |list: &[String]| list.iter().map(|a| format!("{a}\n")).collect::<String>();
        let files = [
            ("stdin", prepared.stdin.clone()),
            ("args", lines(&prepared.args)),
            ("target", target.to_string()),
            ("flags", lines(&prepared.extra_flags)),
            ("expected", expected),
        ];
        for (extension, text) in files {
            let path = dir.join(format!("{}.{extension}", case.spec.name));
            std::fs::write(path, text).map_err(fail)?;
        }
    }
    Ok(())
}

/// Whether the spec's due date has passed (students then see its `after_due_date` cases).
fn spec_due_passed(assignment: &Assignment) -> bool {
    crate::adjust::spec_due(&assignment.spec)
        .is_some_and(|due| due < crate::assignment::deadline::Moment::now())
}

/// The sandbox for student programs, with the project (cases, references), the private
/// folder of cases and the build cache (other students' binaries) hidden from them.
fn new_sandbox(project: &Project, cache: Option<&Path>) -> Result<Sandbox, Error> {
    let hidden = std::iter::once(project.root.as_path())
        .chain(project.private.as_deref())
        .chain(cache)
        .map(|dir| dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf()))
        .collect();
    let sandbox = match std::env::var("REFEREE_ISOLATION").as_deref() {
        Ok("basic") => Sandbox::without_namespaces(hidden),
        Ok("auto") | Err(_) => Sandbox::new(hidden),
        Ok(other) => {
            return Err(Error::config(format!(
                "REFEREE_ISOLATION={other}: use 'basic' (no namespaces, as in a locked-down container) or 'auto'"
            )))
        }
    };
    sandbox.map_err(|e| Error::config(format!("cannot set up the sandbox's scratch folder: {e}")))
}
