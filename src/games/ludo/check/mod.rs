//! The trace checker: reads a printed LUDO-CS game line by line, replays it on the board and
//! reports every line the rules forbid. It never stops at the first problem: an unreadable
//! line is reported and skipped, and after a violation the replay follows what the program
//! printed (a piece said to be at 14 is put at 14), so one bug is reported once. A line
//! missing from the output (seen as a disagreement one missing line explains) costs coverage, as an
//! unreadable line does, not a finding.
//!
//! `read` turns lines into messages, `replay` and `moves` follow them on the board, `judge`
//! scores the rubric items from what the replay found.

mod certainty;
#[cfg(test)]
mod feature_tests;
mod features;
mod forms;
mod judge;
mod moves;
#[cfg(test)]
mod mutant_tests;
mod mystery;
#[cfg(test)]
mod property_tests;
mod read;
#[cfg(test)]
mod reading_tests;
mod replay;
mod start;
mod state;
#[cfg(test)]
mod tests;
mod words;

use std::collections::{BTreeMap, BTreeSet};

use super::board::Colour;

pub use features::Feature;
pub use judge::{
    behaviour_charge, coverage_factor, feature_charge, judge_run, rule_share, showed,
    trace_charges, verdicts,
};

/// A colour whose choices agree this often with its stated behaviour gets full marks: the
/// handout leaves tie-breaks open, so a correct program may differ now and then. A choice
/// wrong under every reading is not such a difference: no margin covers it.
const BEHAVIOUR_FULL: f64 = 0.95;
/// A run in which at least this many rules could be checked earns `rules` in full where it
/// obeyed them; one in which fewer could, in proportion (see `rule_share`). The model's
/// games exercise 16 to 19 rules each (300 games); programs whose games the checker reads
/// in part, 8 to 15.
const RULES_SEEN_FULL: usize = 12;
/// A colour's behaviour is credited in full when at least this many of its choices were
/// judged per game over a case's runs (see `behaviour_charge`). In the model's games the
/// median colour has 8 to 91 judged choices per game.
const JUDGED_PER_GAME: f64 = 1.0;
/// Notes listed per item before the rest are summarised.
const MAX_NOTES: usize = 25;

/// One line the rules forbid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub line: usize,
    pub text: String,
    /// The rule's name as the handout or ruling gives it ("Rule 2", "CS-7", "count line").
    pub rule: &'static str,
    pub why: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}: \"{}\": {}: {}",
            self.line, self.text, self.rule, self.why
        )
    }
}

/// Agreement of one colour's choices with its behaviour (section 2.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Agreement {
    pub decisions: u32,
    pub agreed: u32,
    /// The roll line of the first choice that disagrees.
    pub first_disagreement: Option<usize>,
    /// Disagreeing choices that are wrong under every reading of the behaviour.
    pub against_every_reading: u32,
    /// The roll line of the first of those.
    pub first_against_every_reading: Option<usize>,
}

/// Everything the checker found in one output.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Non-blank lines.
    pub lines: usize,
    /// Roll lines of the game proper (after the first-player rolls).
    pub rolls: usize,
    /// (line number, text) of lines no message form matches.
    pub unreadable: Vec<(usize, String)>,
    /// Required messages that never appeared.
    pub missing: Vec<String>,
    pub violations: Vec<Violation>,
    /// Readings detected where the rulings accept several.
    pub readings: BTreeSet<String>,
    /// The first winner announced with all four pieces home.
    pub winner: Option<Colour>,
    pub behaviour: [Agreement; 4],
    /// Choices on rolls that did nothing: added to `behaviour` only when no line of the game
    /// was found missing or not understood, since a missing line could be their action.
    pub idle_behaviour: [Agreement; 4],
    /// (line number, form, text) of lines read in a wording other than the handout's.
    pub tolerated: Vec<(usize, &'static str, String)>,
    /// (line number, text) of lines of the game that no form reads.
    pub not_understood: Vec<(usize, String)>,
    /// Lines of the game that bear on the rules (rolls, moves, counts, summaries, ...) and
    /// lines of the game not understood.
    pub relevant: usize,
    /// Of those, lines read while the replay knew every piece and the turn.
    pub checked: usize,
    /// Findings not reported because they depend on pieces or turns the replay lost track of.
    pub withheld: usize,
    /// Lines at which the program's lines showed a line of the game missing before them (a
    /// roll, move, capture, ... not printed): counted as lines not checked, not as findings.
    pub missing_lines: Vec<usize>,
    /// Checked decisions per rule (a reported violation is one): the rules the game exercised.
    pub decisions: BTreeMap<&'static str, usize>,
    /// The handout's features the game showed (see `Feature`).
    pub shown: BTreeSet<Feature>,
}

/// Checks one printed game.
pub fn check(output: &str) -> Report {
    let mut checker = replay::replay(output);
    checker.finish();
    let mut report = checker.report;
    if report.winner.is_some() {
        report.shown.insert(Feature::Winner);
    }
    report
        .shown
        .extend(output.lines().flat_map(features::named_in));
    if report.missing_lines.is_empty() && report.not_understood.is_empty() {
        for (all, idle) in report.behaviour.iter_mut().zip(report.idle_behaviour) {
            all.decisions += idle.decisions;
            all.agreed += idle.agreed;
            all.first_disagreement = earlier(all.first_disagreement, idle.first_disagreement);
            all.against_every_reading += idle.against_every_reading;
            all.first_against_every_reading = earlier(
                all.first_against_every_reading,
                idle.first_against_every_reading,
            );
        }
    }
    report
}

fn earlier(a: Option<usize>, b: Option<usize>) -> Option<usize> {
    match (a, b) {
        (Some(a), Some(b)) => Some(a.min(b)),
        (a, b) => a.or(b),
    }
}
