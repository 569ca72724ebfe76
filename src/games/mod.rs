//! Pure rule engines: a case in, the expected transcript out. No I/O, no processes, no clock.

pub mod backgammon;
pub mod case;
pub mod ludo;
pub mod othello;
pub mod reversi;
pub mod transcript;
pub mod trouble;

pub use case::{CaseKind, CaseSpec};
pub use transcript::{Line, Transcript};

use crate::error::Error;

/// Which binary a case runs.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Target {
    /// The student's program as submitted (its own `main`).
    Program,
    /// The game's C harness (`specs/<game>/harness.c`) linked with the student's functions.
    Harness,
}

/// What the grader needs to run one case and judge its output.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub target: Target,
    /// Extra compiler flags for this case's build (e.g. `-DNDEBUG`); cases with the same
    /// target and flags share one binary.
    pub extra_flags: Vec<String>,
    pub args: Vec<String>,
    pub stdin: String,
    /// Seed for glibc `srandom()`, applied before the student's `main` runs.
    pub srandom_seed: Option<u32>,
    /// When set, a run that ends with another exit status fails every item of the case.
    pub exit_code: Option<i32>,
    pub expect: Expectation,
}

impl Prepared {
    /// A program case: the student's `main` with this stdin.
    pub fn program(stdin: String, expected: Transcript) -> Self {
        Self {
            target: Target::Program,
            extra_flags: Vec::new(),
            args: Vec::new(),
            stdin,
            srandom_seed: None,
            exit_code: None,
            expect: Expectation::Transcript(expected),
        }
    }

    /// A unit case: the harness reads `script` on stdin and calls one function.
    pub fn unit(script: String, expected: Transcript) -> Self {
        Self {
            target: Target::Harness,
            ..Self::program(script, expected)
        }
    }
}

#[derive(Debug, Clone)]
pub enum Expectation {
    /// Compare stdout with this transcript.
    Transcript(Transcript),
    /// Run the program once per second of `clocks` (the wall clock that run reads) and check
    /// each output with the game's trace checker. `example` is a correct game from the
    /// reference, shown by `referee expect`.
    Trace {
        clocks: Vec<i64>,
        example: Transcript,
    },
}

/// One assignment's reference implementation.
pub trait Game: Sync {
    /// The id used on the command line and as the folder name under `cases/`, `specs/`.
    fn id(&self) -> &'static str;

    /// Expands one case into what to run and what it must print, by its kind. Games do not
    /// override this: they implement the `prepare_*` method of each kind they have.
    fn prepare(&self, case: &CaseSpec) -> Result<Prepared, Error> {
        match case.kind {
            CaseKind::Program => self.prepare_program(case),
            CaseKind::Unit => self.prepare_unit(case),
            CaseKind::Trace => self.prepare_trace(case),
        }
    }

    /// A program case (`kind = "program"`). Errors name the case (use `case.error(..)`).
    fn prepare_program(&self, case: &CaseSpec) -> Result<Prepared, Error> {
        Err(no_such_kind(self.id(), case))
    }

    /// A unit case (`kind = "unit"`): the harness calls one function.
    fn prepare_unit(&self, case: &CaseSpec) -> Result<Prepared, Error> {
        Err(no_such_kind(self.id(), case))
    }

    /// A trace case (`kind = "trace"`): judged by `check_trace`.
    fn prepare_trace(&self, case: &CaseSpec) -> Result<Prepared, Error> {
        Err(no_such_kind(self.id(), case))
    }

    /// A transcript case's output rewritten to the reference's reading where it prints
    /// another reading the handout allows (Trouble: line breaks before a turn header, the
    /// legal moves in another order), so both are graded alike; `None` when there is nothing
    /// to rewrite. Pure: whatever else the program printed is left as it is.
    fn as_reference(&self, _expected: &Transcript, _actual: &str) -> Option<String> {
        None
    }

    /// Judges one run of a trace case (`Expectation::Trace`). Only games with trace cases
    /// implement it.
    fn check_trace(&self, case: &CaseSpec, _run: &TraceRun) -> Result<TraceVerdict, Error> {
        Err(case.error(format!("{} has no trace checker", self.id())))
    }

    /// Judges what a trace case's runs showed together (`shown`: what each run's game showed,
    /// in the order of `clocks`) against the model's games at the same clocks: per item, a
    /// factor its mean over the runs is multiplied by, with notes. Only games with trace
    /// cases implement it.
    fn charge_trace(&self, _clocks: &[i64], _shown: &[Showed]) -> Vec<ItemVerdict> {
        Vec::new()
    }
}

/// The error for a case of a kind the game does not have.
fn no_such_kind(game: &str, case: &CaseSpec) -> Error {
    let kind = match case.kind {
        CaseKind::Program => "program",
        CaseKind::Unit => "unit",
        CaseKind::Trace => "trace",
    };
    case.error(format!("{game} has no {kind} cases"))
}

/// One finished run of a trace case, as the checker sees it.
#[derive(Debug, Clone)]
pub struct TraceRun<'a> {
    /// Stdout, decoded (invalid UTF-8 shown as U+FFFD).
    pub output: &'a str,
    /// The run was stopped at the time limit (so the game did not finish).
    pub timed_out: bool,
    /// The submission's source files: (file name, text); `None` when only an output is
    /// checked (`referee check-trace`), so items judged from the sources are left out.
    pub sources: Option<&'a [(String, String)]>,
}

/// A checker's judgement of one run: its items, and what its game showed (counted over the
/// case's runs by `Game::charge_trace`).
#[derive(Debug, Clone, PartialEq)]
pub struct TraceVerdict {
    pub items: Vec<ItemVerdict>,
    pub shown: Showed,
    /// The run's findings, the one to name first first, each with the item it costs: what a
    /// failing case's reason names (never a coverage or wording note).
    pub findings: Vec<(&'static str, String)>,
}

/// What one run's game showed, in the game's keys: the features of the game it showed, and
/// for each behaviour the checker judges (a player's, say), how many of its choices it could
/// judge. A case compares them over its runs with the model's games (`Game::charge_trace`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Showed {
    pub features: Vec<&'static str>,
    pub judged: Vec<(&'static str, u32)>,
}

/// A checker's judgement of one rubric item in one run: the share earned (0 to 1) and the
/// lines a student reads to see why (violations with line numbers, readings detected).
#[derive(Debug, Clone, PartialEq)]
pub struct ItemVerdict {
    pub item: &'static str,
    pub fraction: f64,
    pub notes: Vec<String>,
}

/// Every game referee knows, in the order the CLI lists them.
pub fn all() -> &'static [&'static dyn Game] {
    &[
        &trouble::Trouble,
        &backgammon::Backgammon,
        &reversi::Reversi,
        &othello::Othello,
        &ludo::Ludo,
    ]
}

/// Looks a game up by its id.
pub fn find(id: &str) -> Option<&'static dyn Game> {
    all().iter().copied().find(|g| g.id() == id)
}
