//! Property tests over the reference simulation's games: re-printed in each real output style
//! they give no finding; with one line garbled or deleted they give no rule finding, only a
//! `messages` note or a coverage effect.

use super::super::board::*;
use super::super::RULES;
use super::judge::*;
use super::read::*;
use super::words::*;
use super::*;
use crate::games::ludo::sim::simulate;
use crate::games::{ItemVerdict, TraceRun};

fn game(seed: u64) -> Vec<String> {
    simulate(seed).text().lines().map(String::from).collect()
}

/// The output styles real programs print games in (each accepted by the tolerant reading).
#[derive(Debug, Clone, Copy)]
enum Style {
    /// Squares written `L14`, summary pieces by number, the entry naming its square.
    LSquares,
    /// `Red has rolled 4`, `Red Player rolls 6` in the first round, `has won`.
    Tense,
    /// Colour names wrapped in ANSI escape codes.
    Escapes,
    /// `Red’s piece R1 moves from L14 to L18 ... in counter clock-wise direction`.
    Possessive,
    /// Capture lines naming only the captured piece.
    CaptureWording,
    /// `Piece 2 -> L16` under `Location of pieces of Red`, count lines without `on`.
    Summaries,
    /// Home straight as `Home Straight Cell 2`, moves home as `Red moves R1 to Home`.
    HomeStraight,
    /// Round banners, pass notes and the first player in other words.
    Banners,
    /// Home-straight cells numbered 1 to 5, `Home Straight Cell 5` the last.
    CellsFromOne,
    /// `Player G rolled a 5` and `Player Green Wins !!!`.
    PlayerLetters,
    /// Pieces named by a bare number from 0 after `piece` (`Red piece 0 ...` is R1).
    PiecesFromZero,
}

const STYLES: [Style; 11] = [
    Style::LSquares,
    Style::Tense,
    Style::Escapes,
    Style::Possessive,
    Style::CaptureWording,
    Style::Summaries,
    Style::HomeStraight,
    Style::Banners,
    Style::CellsFromOne,
    Style::PlayerLetters,
    Style::PiecesFromZero,
];

fn l_square(loc: Loc, c: Colour) -> String {
    match loc {
        Loc::Square(n) => format!("L{n}"),
        other => other.render(c),
    }
}

/// One reference line in `style`.
fn restyle(line: &str, style: Style) -> Vec<String> {
    let Some(msg) = parse(line) else {
        return vec![line.to_string()];
    };
    let same = vec![line.to_string()];
    match (style, msg) {
        (
            Style::LSquares,
            Msg::Move {
                colour,
                id,
                from,
                to,
                units,
                dir,
            },
        ) => vec![format!(
            "{} moves piece {id} from location {} to {} by {units} units in {} direction.",
            colour.name(),
            l_square(from, colour),
            l_square(to, colour),
            dir.word()
        )],
        (Style::LSquares, Msg::Enter(c, id)) => vec![format!(
            "{} player moves piece {id} to the starting point L{}.",
            c.name(),
            c.start()
        )],
        (Style::LSquares, Msg::PieceAt(id, loc)) => {
            vec![format!("Piece {id} -> {}", l_square(loc, id.colour))]
        }
        (Style::LSquares, Msg::Spawned(n)) => vec![format!(
            "A mystery cell has spawned in location L{n} and will be at this location for the next four rounds."
        )],
        (Style::Tense, Msg::Rolled(c, v)) => vec![format!("{} has rolled {v}", c.name())],
        (Style::Tense, Msg::FirstRoll(c, v)) => vec![format!("{} Player rolls {v}", c.name())],
        (Style::Tense, Msg::Wins(c)) => vec![format!("{} player has won!!!", c.name())],
        (Style::Escapes, _) => {
            let mut s = line.to_string();
            for c in Colour::SEATING {
                s = s.replace(c.name(), &format!("\u{1b}[0;3{}m{}\u{1b}[0m", c.index() + 1, c.name()));
            }
            vec![s]
        }
        (
            Style::Possessive,
            Msg::Move {
                colour,
                id,
                from,
                to,
                units,
                dir,
            },
        ) => vec![format!(
            "{}\u{2019}s piece {id} moves from {} to {} by {units} units in {} direction",
            colour.name(),
            l_square(from, colour),
            l_square(to, colour),
            match dir {
                Dir::Clockwise => "clock-wise",
                Dir::CounterClockwise => "counter clock-wise",
            }
        )],
        (Style::CaptureWording, Msg::Capture { victim, .. }) => vec![format!(
            "{} piece {victim} was captured and sent back to the base.",
            victim.colour.name()
        )],
        (Style::Summaries, Msg::LocationHeader(c)) => {
            vec![format!("Location of pieces of {}", c.name())]
        }
        (Style::Summaries, Msg::PieceAt(id, loc)) => vec![format!(
            "Piece {} -> {}",
            id.index + 1,
            match loc {
                Loc::Base => "In Base".to_string(),
                other => l_square(other, id.colour),
            }
        )],
        (Style::Summaries, Msg::Count(c, a, b)) => vec![format!(
            "{} player now has {a}/4 of pieces on the board and {b}/4 pieces on the base",
            c.name()
        )],
        (
            Style::HomeStraight,
            Msg::Move {
                colour,
                id,
                from,
                to,
                units,
                dir,
            },
        ) if matches!(to, Loc::HomePath(_) | Loc::Home) => {
            let cell = |loc: Loc| match loc {
                Loc::HomePath(k) => format!("Home Straight Cell {k}"),
                other => other.render(colour),
            };
            if to == Loc::Home {
                vec![format!("{} moves {id} to Home", colour.name())]
            } else if matches!(from, Loc::HomePath(_)) {
                vec![format!(
                    "{} moves {id} from location {} to {} by {units} units.",
                    colour.name(),
                    cell(from),
                    cell(to)
                )]
            } else {
                vec![format!(
                    "{} moves {id} from location {} to {} by {units} units in {}",
                    colour.name(),
                    cell(from),
                    cell(to),
                    dir.word()
                )]
            }
        }
        (Style::Banners, Msg::Highest(c)) => vec![
            format!("Player with highest roll is {} with a roll of 6", c.name()),
            "--- Round 1 ---".to_string(),
        ],
        (Style::Banners, Msg::Ignoring(c)) => {
            vec![line.to_string(), format!("{} is passing to the next player.", c.name())]
        }
        (Style::Banners, Msg::Separator) => vec![">>> Game round - 2".to_string()],
        (Style::CellsFromOne, _) => {
            let mut s = line.to_string();
            for c in Colour::SEATING {
                for k in (0..HOME_PATH_CELLS).rev() {
                    let cell = format!("{}homepath{k}", c.lower());
                    s = s.replace(&cell, &format!("Home Straight Cell {}", k + 1));
                }
            }
            vec![s]
        }
        (Style::PlayerLetters, Msg::Rolled(c, v)) => {
            vec![format!("Player {} rolled a {v}", c.letter())]
        }
        (Style::PlayerLetters, Msg::Wins(c)) => vec![format!("Player {} Wins !!!", c.name())],
        (Style::PiecesFromZero, _) => {
            let mut s = line.to_string();
            for id in Colour::SEATING.into_iter().flat_map(PieceId::all) {
                for piece in ["piece", "Piece"] {
                    s = s.replace(&format!("{piece} {id}"), &format!("{piece} {}", id.index));
                }
            }
            vec![s]
        }
        _ => same,
    }
}

fn restyled(seed: u64, style: Style) -> Vec<String> {
    game(seed)
        .iter()
        .flat_map(|line| restyle(line, style))
        .collect()
}

/// Findings a re-printed or damaged game must not give: violations, lines not understood, a
/// missing winner, behaviour disagreements.
fn findings(lines: &[String]) -> Vec<String> {
    let report = check(&lines.join("\n"));
    let mut found: Vec<String> = report.violations.iter().map(|v| v.to_string()).collect();
    found.extend(
        report
            .not_understood
            .iter()
            .map(|(n, t)| format!("line {n}: not understood: {t}")),
    );
    if report.winner.is_none() {
        found.push("no winner".into());
    }
    for c in Colour::SEATING {
        let a = report.behaviour[c.index()];
        if a.agreed != a.decisions {
            found.push(format!(
                "{}: behaviour {}/{}",
                c.name(),
                a.agreed,
                a.decisions
            ));
        }
    }
    found
}

#[test]
fn every_style_reads_1000_reference_games_without_findings() {
    use rayon::prelude::*;
    let failures: Vec<String> = (0..1000u64)
        .into_par_iter()
        .filter_map(|seed| {
            let style = STYLES[seed as usize % STYLES.len()];
            let lines = restyled(seed, style);
            let found = findings(&lines);
            (!found.is_empty()).then(|| {
                format!(
                    "seed {seed} {style:?}: {}",
                    found[..found.len().min(3)].join(" | ")
                )
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} failing games:\n{}",
        failures.len(),
        failures[..failures.len().min(12)].join("\n")
    );
}

/// A line no form reads, in place of line `at`.
fn garbled(lines: &[String], at: usize) -> Vec<String> {
    let mut damaged = lines.to_vec();
    damaged[at] = damaged[at]
        .split_whitespace()
        .rev()
        .collect::<Vec<_>>()
        .join("~");
    damaged
}

#[test]
fn one_garbled_line_gives_no_rule_finding_over_1000_games() {
    use rayon::prelude::*;
    let failures: Vec<String> = (0..1000u64)
        .into_par_iter()
        .filter_map(|seed| {
            let style = STYLES[seed as usize % STYLES.len()];
            let lines = restyled(seed, style);
            // A line of the game proper, spread over the game by the seed.
            let spread = 12 + (seed.wrapping_mul(2_654_435_761) as usize) % (lines.len() - 13);
            let at = (spread..lines.len()).find(|&i| parse(&lines[i]) != Some(Msg::Separator))?;
            let damaged = garbled(&lines, at);
            let report = check(&damaged.join("\n"));
            let ok = report.violations.is_empty()
                && report.not_understood.first().is_some_and(|n| n.0 == at + 1);
            (!ok).then(|| {
                format!(
                    "seed {seed} {style:?}, line {} garbled (\"{}\"), not understood {:?}: {}",
                    at + 1,
                    lines[at],
                    report.not_understood,
                    report
                        .violations
                        .iter()
                        .take(2)
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(" | ")
                )
            })
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} failing games:\n{}",
        failures.len(),
        failures[..failures.len().min(12)].join("\n")
    );
}

#[test]
fn a_garbled_move_costs_coverage_not_findings() {
    let lines = game(21);
    let at = lines
        .iter()
        .position(|l| matches!(parse(l), Some(Msg::Move { .. })))
        .expect("the game has a move");
    let run = |lines: &[String]| {
        let text = lines.join("\n");
        verdicts(&TraceRun {
            output: &text,
            timed_out: false,
            sources: None,
        })
    };
    let share = |verdicts: &[ItemVerdict], item: &str| {
        verdicts
            .iter()
            .find(|v| v.item == item)
            .map(|v| v.fraction)
            .unwrap_or(-1.0)
    };
    let whole = run(&lines);
    let damaged = run(&garbled(&lines, at));
    assert_eq!(share(&whole, RULES), 1.0);
    let rules = share(&damaged, RULES);
    assert!(rules < 1.0 && rules > 0.5, "rules {rules}");
    let notes = &damaged
        .iter()
        .find(|v| v.item == RULES)
        .expect("rules")
        .notes;
    assert!(
        notes[0].contains(&format!("1 lines not understood: {}", at + 1)),
        "{}",
        notes[0]
    );
}

/// The kinds of line a deletion takes out, one kind per game in turn.
const KINDS: [&str; 11] = [
    "roll",
    "move",
    "capture",
    "count",
    "location summary",
    "first-round roll",
    "block message",
    "entry",
    "mystery cell",
    "first player",
    "winner",
];

/// The kind of a line of a game, as `KINDS` names it.
fn kind(line: &str) -> Option<&'static str> {
    Some(match parse(line)? {
        Msg::Rolled(..) => "roll",
        Msg::Move { .. } | Msg::LooseMove { .. } => "move",
        Msg::Capture { .. } | Msg::CaptureOf(_) => "capture",
        Msg::Count(..) => "count",
        Msg::PieceAt(..) | Msg::LocationHeader(_) => "location summary",
        Msg::FirstRoll(..) | Msg::AnyRoll(..) => "first-round roll",
        Msg::Blocked { .. } | Msg::MovedBefore(..) | Msg::Ignoring(_) => "block message",
        Msg::Enter(..) => "entry",
        Msg::Spawned(_)
        | Msg::MysteryAt(_)
        | Msg::LandsMystery(_)
        | Msg::Teleported(..)
        | Msg::Aura(..)
        | Msg::Briefing(_)
        | Msg::Restricted(_)
        | Msg::Turned(_)
        | Msg::PitaToKotuwa(_) => "mystery cell",
        Msg::Highest(_) | Msg::Order(_) => "first player",
        Msg::Wins(_) | Msg::Place(..) => "winner",
        Msg::Intro(_) | Msg::Separator | Msg::Note => return None,
    })
}

#[test]
fn one_deleted_line_gives_no_rule_finding_over_1000_games() {
    use rayon::prelude::*;
    let results: Vec<(&str, Option<String>)> = (0..1000u64)
        .into_par_iter()
        .filter_map(|seed| {
            let style = STYLES[seed as usize % STYLES.len()];
            let lines = restyled(seed, style);
            // The kinds turn with each style's seeds (seed / styles), so every pair of style
            // and kind comes up; a game without a line of its kind takes the next kind.
            let (what, at) = (0..KINDS.len()).find_map(|k| {
                let what = KINDS[(seed as usize / STYLES.len() + k) % KINDS.len()];
                let of_kind: Vec<usize> = (0..lines.len())
                    .filter(|&i| kind(&lines[i]) == Some(what))
                    .collect();
                let pick = seed.wrapping_mul(2_654_435_761) as usize % of_kind.len().max(1);
                of_kind.get(pick).map(|&at| (what, at))
            })?;
            let mut damaged = lines.clone();
            damaged.remove(at);
            let report = check(&damaged.join("\n"));
            let failure = (!report.violations.is_empty()).then(|| {
                format!(
                    "seed {seed} {style:?}, {what} line {} deleted (\"{}\"): {}",
                    at + 1,
                    lines[at],
                    report
                        .violations
                        .iter()
                        .take(2)
                        .map(|v| v.to_string())
                        .collect::<Vec<_>>()
                        .join(" | ")
                )
            });
            Some((what, failure))
        })
        .collect();
    let failures: Vec<&String> = results.iter().filter_map(|r| r.1.as_ref()).collect();
    assert!(
        failures.is_empty(),
        "{} failing games:\n{}",
        failures.len(),
        failures[..failures.len().min(12)]
            .iter()
            .map(|f| f.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
    for what in KINDS {
        let deleted = results.iter().filter(|r| r.0 == what).count();
        assert!(deleted >= 40, "only {deleted} games lost a {what} line");
    }
}
