//! LUDO-CS (UCSC SCS 1301 take-home): a seeded reference simulation and a trace checker.
//! Student programs take no input and seed from the clock, so each run is replayed by the
//! checker instead of diffed. Rules and decisions: `specs/ludo/README.md`.

pub mod board;
pub mod check;
pub mod sim;

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use serde::Deserialize;

use super::{Expectation, Game, ItemVerdict, Prepared, Showed, Target, TraceRun, TraceVerdict};
use crate::error::Error;
use crate::games::{CaseKind, CaseSpec};

pub const MESSAGES: &str = "messages";
pub const RULES: &str = "rules";
pub const FINISHES: &str = "finishes";
pub const BEHAVIOUR: &str = "behaviour";
pub const STRUCTURE: &str = "structure";

/// A trace case: run the submission `runs` times, run k reading the wall clock `clock` plus
/// k days (a clock-seeded program plays a different game each run, the same ones in every
/// grading), or once per second listed in `clocks`; `seed` picks the example game shown by
/// `referee expect`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TraceCase {
    runs: Option<usize>,
    clock: Option<i64>,
    clocks: Option<Vec<i64>>,
    seed: u64,
}

/// The first run's clock when a case names none: 2024-01-01 00:00 UTC.
pub const DEFAULT_CLOCK: i64 = 1_704_067_200;
const DAY: i64 = 86_400;

impl TraceCase {
    /// The clock of each run.
    fn clocks(&self, case: &CaseSpec) -> Result<Vec<i64>, Error> {
        match (self.runs, self.clock, &self.clocks) {
            (None, None, Some(clocks)) if !clocks.is_empty() => Ok(clocks.clone()),
            (None, None, Some(_)) => Err(case.error("clocks must list at least one second")),
            (Some(0), _, None) => Err(case.error("runs must be at least 1")),
            (Some(runs), clock, None) => {
                let first = clock.unwrap_or(DEFAULT_CLOCK);
                Ok((0..runs as i64).map(|k| first + k * DAY).collect())
            }
            (None, Some(_), None) => Err(case.error("clock needs runs (how many games)")),
            (None, None, None) => Err(case.error("give runs (with clock) or clocks")),
            (_, _, Some(_)) => {
                Err(case.error("clocks sets every run's clock: give it without runs or clock"))
            }
        }
    }
}

pub struct Ludo;

impl Game for Ludo {
    fn id(&self) -> &'static str {
        "ludo"
    }

    fn prepare_trace(&self, case: &CaseSpec) -> Result<Prepared, Error> {
        let trace: TraceCase = case.parse()?;
        let clocks = trace.clocks(case)?;
        Ok(Prepared {
            target: Target::Program,
            extra_flags: Vec::new(),
            args: Vec::new(),
            stdin: String::new(),
            srandom_seed: None,
            exit_code: None,
            expect: Expectation::Trace {
                clocks,
                example: sim::simulate(trace.seed),
            },
        })
    }

    fn check_trace(&self, case: &CaseSpec, run: &TraceRun) -> Result<TraceVerdict, Error> {
        if case.kind != CaseKind::Trace {
            return Err(case.error("ludo has only trace cases"));
        }
        Ok(check::judge_run(run))
    }

    fn charge_trace(&self, clocks: &[i64], shown: &[Showed]) -> Vec<ItemVerdict> {
        // The model's games are played here, when runs are judged, not when the case is
        // loaded: listing or printing the cases does not pay for them.
        let model: Vec<Showed> = clocks
            .iter()
            .take(shown.len())
            .map(|&clock| model_shows(clock))
            .collect();
        check::trace_charges(&model, shown)
    }
}

/// What the model's game seeded with `clock` shows (the program's run at that clock reads the
/// same second), as the checker reads it from its printed game. Kept for the process: a game
/// takes about 15 ms to play and check, and every submission of a class is charged against
/// the same games.
fn model_shows(clock: i64) -> Showed {
    static KEPT: OnceLock<Mutex<HashMap<i64, Showed>>> = OnceLock::new();
    let kept = KEPT.get_or_init(Mutex::default);
    if let Some(shown) = kept.lock().unwrap_or_else(|e| e.into_inner()).get(&clock) {
        return shown.clone();
    }
    let shown = check::showed(&check::check(&sim::simulate(clock as u64).text()));
    kept.lock()
        .unwrap_or_else(|e| e.into_inner())
        .insert(clock, shown.clone());
    shown
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(fields: &str) -> CaseSpec {
        CaseSpec {
            name: "t".into(),
            kind: CaseKind::Trace,
            description: None,
            file: "test.toml".into(),
            fields: toml::from_str(fields).expect("test fields are valid TOML"),
        }
    }

    #[test]
    fn a_trace_case_shows_the_seeded_game() {
        let prepared = Ludo
            .prepare(&case("runs = 3\nseed = 7"))
            .expect("valid case");
        match prepared.expect {
            Expectation::Trace { clocks, example } => {
                assert_eq!(
                    clocks,
                    [DEFAULT_CLOCK, DEFAULT_CLOCK + DAY, DEFAULT_CLOCK + 2 * DAY]
                );
                assert_eq!(example, sim::simulate(7));
                assert!(example.text().contains("player wins!!!"));
                // Runs that showed nothing are charged against the model's games at these
                // clocks, and a run that shows what the model's game shows is not.
                let nothing = vec![Showed::default(); clocks.len()];
                assert!(Ludo
                    .charge_trace(&clocks, &nothing)
                    .iter()
                    .any(|charge| charge.fraction < 1.0));
                let model: Vec<_> = clocks.iter().map(|&clock| model_shows(clock)).collect();
                assert!(Ludo
                    .charge_trace(&clocks, &model)
                    .iter()
                    .all(|charge| charge.fraction == 1.0));
            }
            Expectation::Transcript(_) => panic!("ludo cases are traces"),
        }
    }

    #[test]
    fn unknown_fields_and_zero_runs_are_errors() {
        assert!(Ludo
            .prepare(&case("runs = 3\nseed = 7\npolicy = 1"))
            .is_err());
        assert!(Ludo.prepare(&case("runs = 0\nseed = 7")).is_err());
    }

    #[test]
    fn a_case_names_its_first_clock_or_every_clock() {
        let clocks_of = |fields: &str| match Ludo.prepare(&case(fields)).map(|p| p.expect) {
            Ok(Expectation::Trace { clocks, .. }) => Ok(clocks),
            Ok(Expectation::Transcript(_)) => panic!("ludo cases are traces"),
            Err(e) => Err(e.to_string()),
        };
        assert_eq!(
            clocks_of("runs = 2\nclock = 1000\nseed = 7"),
            Ok(vec![1000, 1000 + DAY])
        );
        assert_eq!(clocks_of("clocks = [5, 3]\nseed = 7"), Ok(vec![5, 3]));
        for (fields, problem) in [
            ("clocks = []\nseed = 7", "at least one second"),
            ("clock = 5\nseed = 7", "clock needs runs"),
            ("seed = 7", "give runs"),
            ("runs = 2\nclocks = [5]\nseed = 7", "without runs or clock"),
        ] {
            let error = clocks_of(fields).expect_err(fields);
            assert!(error.contains(problem), "{fields}: {error}");
        }
    }
}
