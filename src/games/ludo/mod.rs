//! LUDO-CS (UCSC SCS 1301 take-home): a seeded reference simulation and a trace checker.
//! Student programs take no input and seed from the clock, so each run is replayed by the
//! checker instead of diffed. Rules and decisions: `specs/ludo/README.md`.

pub mod board;
pub mod check;
pub mod sim;

use serde::Deserialize;

use super::{Expectation, Game, ItemVerdict, Prepared, Target, TraceRun};
use crate::error::Error;
use crate::games::{CaseKind, CaseSpec};

pub const MESSAGES: &str = "messages";
pub const RULES: &str = "rules";
pub const FINISHES: &str = "finishes";
pub const BEHAVIOUR: &str = "behaviour";
pub const STRUCTURE: &str = "structure";

/// A trace case: run the submission `runs` times; `seed` picks the example game shown by
/// `referee expect`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct TraceCase {
    runs: usize,
    seed: u64,
}

pub struct Ludo;

impl Game for Ludo {
    fn id(&self) -> &'static str {
        "ludo"
    }

    fn prepare_trace(&self, case: &CaseSpec) -> Result<Prepared, Error> {
        let trace: TraceCase = case.parse()?;
        if trace.runs == 0 {
            return Err(case.error("runs must be at least 1"));
        }
        Ok(Prepared {
            target: Target::Program,
            extra_flags: Vec::new(),
            args: Vec::new(),
            stdin: String::new(),
            srandom_seed: None,
            exit_code: None,
            expect: Expectation::Trace {
                runs: trace.runs,
                example: sim::simulate(trace.seed),
            },
        })
    }

    fn check_trace(&self, case: &CaseSpec, run: &TraceRun) -> Result<Vec<ItemVerdict>, Error> {
        if case.kind != CaseKind::Trace {
            return Err(case.error("ludo has only trace cases"));
        }
        Ok(check::verdicts(run))
    }
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
            Expectation::Trace { runs, example } => {
                assert_eq!(runs, 3);
                assert_eq!(example, sim::simulate(7));
                assert!(example.text().contains("player wins!!!"));
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
}
