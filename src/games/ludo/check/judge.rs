//! Judging: each colour's choices against its behaviour (section 2.1), and the rubric items
//! of one run.

use super::super::board::{Board, Colour, Dir, Loc, PieceId, HOME_PATH_CELLS};
use super::super::sim::{
    block_moves_with, captures_at, entry, single_move_with, Readings, SingleMove, Stopped,
};
use super::super::{BEHAVIOUR, FINISHES, MESSAGES, RULES, STRUCTURE};
use super::state::*;
use super::*;
use crate::games::{ItemVerdict, Showed, TraceRun, TraceVerdict};

impl Checker {
    /// Judges one roll's choice against the colour's behaviour, where it decides.
    pub(super) fn judge(&mut self, roll: &Roll) {
        self.show_roll(roll);
        if roll.sixes >= 3 && !roll.uncertain {
            self.blockade_kept(roll);
        }
        if roll.sixes >= 3 || roll.uncertain || roll.broke_rule || !(1..=6).contains(&roll.value) {
            return;
        }
        // A choice the model's reading of the moves finds against the behaviour is looked at
        // again under the other accepted readings.
        let model = self.verdict_under(roll, &Readings::MODEL);
        let agreed = if model == Some(false) {
            MOVE_READINGS[1..].iter().fold(model, |verdict, r| {
                either(verdict, self.verdict_under(roll, r))
            })
        } else {
            model
        };
        // Blue's cycle is followed on every roll, judged or not.
        if let Some(m) = blue_moved(roll, &self.board) {
            self.blue_next = (m.index + 1) % 4;
            self.blue_last = Some((roll.round, m));
        }
        // Such a choice is judged even where this colour's other choices are not (a piece
        // of unsure Approach count changes nothing about it).
        let against_every_reading = against_every_reading(roll, &self.suspect);
        let agreed = if against_every_reading {
            Some(false)
        } else {
            agreed.filter(|_| roll.judgeable)
        };
        if let Some(agreed) = agreed {
            // A roll that did nothing counts only if no line proves missing (see `check`).
            let tallies = if roll.acted() {
                &mut self.report.behaviour
            } else {
                &mut self.report.idle_behaviour
            };
            let tally = &mut tallies[roll.colour.index()];
            tally.decisions += 1;
            tally.agreed += u32::from(agreed);
            if !agreed && tally.first_disagreement.is_none() {
                tally.first_disagreement = Some(roll.line);
            }
            if against_every_reading {
                tally.against_every_reading += 1;
                tally.first_against_every_reading.get_or_insert(roll.line);
            }
        }
    }

    /// The features a roll showed, from what it did and where its pieces ended.
    fn show_roll(&mut self, roll: &Roll) {
        let shown = &mut self.report.shown;
        if roll.entered {
            shown.insert(Feature::LeaveBase);
        }
        if roll.captured {
            shown.insert(Feature::Capture);
        }
        if roll.made_block || roll.block_move {
            shown.insert(Feature::Block);
        }
        if roll.sixes >= 3 {
            shown.insert(Feature::ThirdSix);
        }
        for &(id, _) in &roll.moved {
            match self.board.piece(id).loc {
                Loc::HomePath(_) => {
                    shown.insert(Feature::HomeStraight);
                }
                Loc::Home => {
                    shown.insert(Feature::HomeStraight);
                    shown.insert(Feature::Home);
                }
                Loc::Base | Loc::Square(_) => {}
            }
        }
    }

    /// The roll's agreement with its colour's behaviour under one reading of the moves.
    fn verdict_under(&self, roll: &Roll, r: &Readings) -> Option<bool> {
        let agreed = match roll.colour {
            Colour::Red => judge_red(roll, r),
            Colour::Green => judge_green(roll, r),
            Colour::Yellow => judge_yellow(roll, r),
            Colour::Blue => {
                let moved = blue_moved(roll, &self.board);
                let per_roll = judge_blue(roll, self.blue_next, moved, r);
                // "If B1 is moved in the current round, B2 is considered in the next": on a
                // bonus roll of the same turn, the cycle may start again from the piece moved.
                let cyclic = match self.blue_last {
                    Some((round, last)) if per_roll == Some(false) && round == roll.round => {
                        either(per_roll, judge_blue(roll, last.index, moved, r))
                    }
                    _ => per_roll,
                };
                match roll.mystery {
                    Some(cell) if cyclic == Some(false) => either(
                        cyclic,
                        judge_blue_mystery(roll, self.blue_next, moved, cell, r),
                    ),
                    _ => cyclic,
                }
            }
        };
        // Rule 7 ignores a roll only when no piece can make the move, so a roll that did
        // nothing while a piece could leave base or move disagrees with every behaviour.
        match agreed {
            None if !roll.acted() && could_act(roll, r) == Tri::Yes => Some(false),
            decided => decided,
        }
    }
}

/// The readings of the rules that change which moves a colour has, the model's first: Rule
/// 10 read strictly (a piece in the home straight moves only on the exact roll Home) and
/// turning in at the next Approach after a capture (CS-1), alone and together.
const MOVE_READINGS: [Readings; 4] = [
    Readings::MODEL,
    Readings {
        exact_home_only: true,
        ..Readings::MODEL
    },
    Readings {
        turn_in_after_capture: true,
        ..Readings::MODEL
    },
    Readings {
        exact_home_only: true,
        turn_in_after_capture: true,
        ..Readings::MODEL
    },
];

/// The verdict of a choice under two readings: it agrees when it agrees under either, is
/// not judged when either cannot decide it, and disagrees only when both say so.
fn either(first: Option<bool>, other: Option<bool>) -> Option<bool> {
    match (first, other) {
        (Some(true), _) | (_, Some(true)) => Some(true),
        (None, _) | (_, None) => None,
        (Some(false), Some(false)) => Some(false),
    }
}

/// The one piece Blue's roll brought out or moved alone, if it did.
fn blue_moved(roll: &Roll, after: &Board) -> Option<PieceId> {
    if roll.colour != Colour::Blue {
        None
    } else if roll.entered {
        PieceId::all(Colour::Blue)
            .into_iter()
            .find(|&id| roll.before.piece(id).loc == Loc::Base && after.piece(id).loc != Loc::Base)
    } else if roll.moved.len() == 1 && roll.stopped.is_none() {
        Some(roll.moved[0].0)
    } else {
        None
    }
}

/// Blue's pieces in its cycle: the next after the last one it moved first.
fn blue_cycle(blue_next: usize) -> impl Iterator<Item = PieceId> + Clone {
    (0..4).map(move |k| PieceId {
        colour: Colour::Blue,
        index: (blue_next + k) % 4,
    })
}

/// Whether Blue moving `moved` is moving `expected` (any piece in base stands for another).
fn blue_agrees(roll: &Roll, moved: Option<PieceId>, expected: PieceId) -> Option<bool> {
    let base = roll.before.piece(expected).loc == Loc::Base;
    moved.map(|m| m == expected || (base && roll.entered && roll.before.piece(m).loc == Loc::Base))
}

/// Blue moves the next movable piece in B1..B4 order after the last one it moved.
fn judge_blue(roll: &Roll, blue_next: usize, moved: Option<PieceId>, r: &Readings) -> Option<bool> {
    for id in blue_cycle(blue_next) {
        let can = if roll.before.piece(id).loc == Loc::Base {
            Tri::from(entry(&roll.before, Colour::Blue, roll.value).is_some())
        } else {
            outcomes(roll, id, r, |m| m.is_some_and(|m| m.is_ok()))
        };
        match can {
            Tri::No => continue,
            Tri::Maybe => return None,
            Tri::Yes => return blue_agrees(roll, moved, id),
        }
    }
    None
}

/// 2.1.4 read by direction: Blue "prioritizes landing on the mystery cell if it is moving
/// counterclockwise" (it moves such a piece before the next one in its cycle) and avoids
/// "landing on the mystery cell if it is moving clockwise" (it passes over such a piece when
/// another can move). Judged only when every Blue piece out has a known direction.
fn judge_blue_mystery(
    roll: &Roll,
    blue_next: usize,
    moved: Option<PieceId>,
    cell: u8,
    r: &Readings,
) -> Option<bool> {
    let board = &roll.before;
    let unknown = PieceId::all(Colour::Blue).into_iter().any(|id| {
        matches!(board.piece(id).loc, Loc::Square(_) | Loc::HomePath(_))
            && board.piece(id).dir.is_none()
    });
    if unknown {
        return None;
    }
    let single =
        |id: PieceId| single_move_with(board, id, roll.value, roll.round, r).and_then(|m| m.ok());
    let onto_cell = |id: PieceId, dir: Dir| {
        board.piece(id).dir == Some(dir) && single(id).is_some_and(|m| m.dest == Loc::Square(cell))
    };
    let can = |id: PieceId| {
        if board.piece(id).loc == Loc::Base {
            entry(board, Colour::Blue, roll.value).is_some()
        } else {
            single(id).is_some()
        }
    };
    let mut cycle = blue_cycle(blue_next);
    let expected = cycle
        .clone()
        .find(|&id| onto_cell(id, Dir::CounterClockwise))
        .or_else(|| {
            cycle
                .clone()
                .find(|&id| can(id) && !onto_cell(id, Dir::Clockwise))
        })
        .or_else(|| cycle.find(|&id| can(id)))?;
    blue_agrees(roll, moved, expected)
}

/// A choice no reading of the behaviour allows, which the agreement margin does not
/// cover: Yellow moving a piece (not capturing, not leaving base) while another of its
/// pieces in the home straight could go Home on this roll. That piece is the closest to
/// home under every way of counting, and every reading of Rule 10 lets it make the exact
/// roll home; a piece the replay is not sure of (found again after a lost line, or with
/// an aura that may still double or halve its move) is not used.
pub(super) fn against_every_reading(roll: &Roll, suspect: &BTreeSet<PieceId>) -> bool {
    let (c, board) = (roll.colour, &roll.before);
    let &[(mover, from)] = roll.moved.as_slice() else {
        return false;
    };
    if c != Colour::Yellow
        || !roll.known
        || roll.entered
        || roll.captured
        || roll.block_move
        || roll.stopped.is_some()
        || entry(board, c, roll.value).is_some()
    {
        return false;
    }
    PieceId::all(c).into_iter().any(|id| {
        let piece = board.piece(id);
        let Loc::HomePath(k) = piece.loc else {
            return false;
        };
        let farther = match from {
            Loc::Square(_) => true,
            Loc::HomePath(j) => j < k,
            Loc::Base | Loc::Home => false,
        };
        let no_aura = piece
            .aura
            .is_none_or(|(_, since)| roll.round > since + EFFECT_LAST_ROUND);
        id != mover
            && farther
            && no_aura
            && !suspect.contains(&id)
            && u32::from(HOME_PATH_CELLS - k) == roll.value
    })
}

pub(super) fn names(colours: &[Colour]) -> String {
    colours
        .iter()
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join(", ")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Tri {
    Yes,
    No,
    Maybe,
}

impl From<bool> for Tri {
    fn from(b: bool) -> Self {
        if b {
            Tri::Yes
        } else {
            Tri::No
        }
    }
}

/// Evaluates `test` on a piece's single move in every direction it may have (a piece that
/// has not moved yet has an unknown direction).
pub(super) fn outcomes(
    roll: &Roll,
    id: PieceId,
    r: &Readings,
    test: impl Fn(Option<Result<SingleMove, Stopped>>) -> bool,
) -> Tri {
    let dirs: Vec<Option<Dir>> = match roll.before.piece(id).dir {
        Some(d) => vec![Some(d)],
        None => vec![Some(Dir::Clockwise), Some(Dir::CounterClockwise)],
    };
    let results: Vec<bool> = dirs
        .into_iter()
        .map(|d| {
            let mut board = roll.before.clone();
            board.piece_mut(id).dir = d;
            test(single_move_with(&board, id, roll.value, roll.round, r))
        })
        .collect();
    if results.iter().all(|&r| r) {
        Tri::Yes
    } else if results.iter().all(|&r| !r) {
        Tri::No
    } else {
        Tri::Maybe
    }
}

/// Whether any of `pieces` passes `test` on its single move: Yes when one surely does, Maybe
/// when one might (its direction is not known yet), else No.
fn any_outcome(
    roll: &Roll,
    r: &Readings,
    pieces: impl IntoIterator<Item = PieceId>,
    test: impl Fn(Option<Result<SingleMove, Stopped>>) -> bool,
) -> Tri {
    let mut any_maybe = false;
    for id in pieces {
        match outcomes(roll, id, r, &test) {
            Tri::Yes => return Tri::Yes,
            Tri::Maybe => any_maybe = true,
            Tri::No => {}
        }
    }
    if any_maybe {
        Tri::Maybe
    } else {
        Tri::No
    }
}

/// Whether any piece passing `filter` can make a capturing single move.
pub(super) fn capture_available(
    roll: &Roll,
    r: &Readings,
    filter: impl Fn(PieceId) -> bool,
) -> Tri {
    let (board, c) = (&roll.before, roll.colour);
    let pieces = PieceId::all(c).into_iter().filter(|&id| filter(id));
    any_outcome(roll, r, pieces, |m| {
        m.is_some_and(|m| m.is_ok_and(|m| captures_at(board, c, m.dest)))
    })
}

/// Whether the rolling colour could leave base or make a single move on this roll.
pub(super) fn could_act(roll: &Roll, r: &Readings) -> Tri {
    if entry(&roll.before, roll.colour, roll.value).is_some() {
        return Tri::Yes;
    }
    any_outcome(roll, r, PieceId::all(roll.colour), |m| {
        m.is_some_and(|m| m.is_ok())
    })
}

pub(super) fn judge_red(roll: &Roll, r: &Readings) -> Option<bool> {
    let c = Colour::Red;
    let enter = entry(&roll.before, c, roll.value);
    let x = c.start();
    // Whether entering onto an opponent captures is a reading, so such rolls are not judged.
    let entry_capture = enter.is_some() && !roll.before.opponents_at(c, x).is_empty();
    match capture_available(roll, r, |_| true) {
        Tri::Yes if entry_capture => Some(roll.captured),
        Tri::Yes => Some(roll.captured && !red_victim_farther(roll, r)),
        Tri::No if entry_capture => None,
        Tri::No if enter.is_some() && roll.before.count_at(c, x) == 0 => Some(roll.entered),
        Tri::No if enter.is_none() => judge_red_block(roll, r),
        _ => None,
    }
}

/// How "the opponent piece closest to its home" (Red's victim) may be measured: from the
/// victim to its own home along its direction (as Yellow's "closest to its home" is), with or
/// without the lap it still owes before its home straight opens, or ("its" read as Red's)
/// from the victim's square to Red's Approach the shorter way round the board.
#[derive(Debug, Clone, Copy)]
enum VictimReading {
    OwnHome,
    OwnHomeNoLap,
    NearRedHome,
}

impl VictimReading {
    const ALL: [VictimReading; 3] = [Self::OwnHome, Self::OwnHomeNoLap, Self::NearRedHome];

    /// The victim's distance under this reading; None when its direction is not known yet.
    fn distance(self, board: &Board, victim: PieceId, square: u8) -> Option<u32> {
        let along = |to: u8, dir: Dir| u32::from(dir.squares_to(square, to));
        let to_home = u32::from(HOME_PATH_CELLS) + 1;
        match self {
            Self::OwnHome => board.piece(victim).dir.map(|_| board.distance_home(victim)),
            Self::OwnHomeNoLap => board
                .piece(victim)
                .dir
                .map(|dir| along(victim.colour.approach(), dir) + to_home),
            Self::NearRedHome => {
                let approach = Colour::Red.approach();
                let near =
                    along(approach, Dir::Clockwise).min(along(approach, Dir::CounterClockwise));
                Some(near + to_home)
            }
        }
    }
}

/// Whether Red's capture took a victim that every reading of "closest to its home" finds
/// farther than another capture Red could make with a single move (section 2.1). Not judged
/// (false) when a capture by entering was open, a piece's direction is not known yet, or
/// the roll was not one piece's plain move.
fn red_victim_farther(roll: &Roll, r: &Readings) -> bool {
    let (board, c) = (&roll.before, Colour::Red);
    let Some(taken) = single_mover(roll) else {
        return false;
    };
    let mut squares = Vec::new();
    for id in PieceId::all(c) {
        if board.piece(id).dir.is_none() && outcomes(roll, id, r, |m| m.is_some()) != Tri::No {
            return false;
        }
        if let Some(Ok(m)) = single_move_with(board, id, roll.value, roll.round, r) {
            if let Some(n) = m
                .dest
                .square()
                .filter(|&n| !board.opponents_at(c, n).is_empty())
            {
                squares.push((id, n));
            }
        }
    }
    let Some(&(_, taken_square)) = squares.iter().find(|(id, _)| *id == taken) else {
        return false;
    };
    let closest = |reading: VictimReading, square: u8| {
        board
            .opponents_at(c, square)
            .into_iter()
            .map(|v| reading.distance(board, v, square))
            .try_fold(u32::MAX, |best, d| d.map(|d| best.min(d)))
    };
    VictimReading::ALL.iter().all(|&reading| {
        let Some(taken) = closest(reading, taken_square) else {
            return false;
        };
        squares
            .iter()
            .any(|&(_, n)| closest(reading, n).is_some_and(|d| d < taken))
    })
}

/// Red "will always avoid creating blocks unless it is unavoidable": with no capture and no
/// piece to bring out, it moves a piece that does not land on its own.
fn judge_red_block(roll: &Roll, r: &Readings) -> Option<bool> {
    let board = &roll.before;
    // Where a piece lands depends on its direction.
    let unknown = PieceId::all(Colour::Red).into_iter().any(|id| {
        board.piece(id).dir.is_none() && outcomes(roll, id, r, |m| m.is_some()) != Tri::No
    });
    if unknown {
        return None;
    }
    let lands_on_own = |id: PieceId| {
        single_move_with(board, id, roll.value, roll.round, r).is_some_and(|m| {
            m.is_ok_and(|m| {
                m.dest
                    .square()
                    .is_some_and(|n| board.count_at(Colour::Red, n) > 0)
            })
        })
    };
    match movable_split(roll, r, lands_on_own)? {
        (true, true) => single_mover(roll).map(|id| !lands_on_own(id)),
        _ => None,
    }
}

/// Which pieces of the rolling colour can make their single move, split by `test` on the
/// piece: (some passing it can, some failing it can); None when that depends on a direction
/// not known yet.
fn movable_split(
    roll: &Roll,
    r: &Readings,
    test: impl Fn(PieceId) -> bool,
) -> Option<(bool, bool)> {
    let (mut pass, mut fail) = (false, false);
    for id in PieceId::all(roll.colour) {
        match outcomes(roll, id, r, |m| m.is_some_and(|m| m.is_ok())) {
            Tri::No => {}
            Tri::Maybe => return None,
            Tri::Yes if test(id) => pass = true,
            Tri::Yes => fail = true,
        }
    }
    Some((pass, fail))
}

/// The one piece a roll moved alone (no block move, no stop before a block).
fn single_mover(roll: &Roll) -> Option<PieceId> {
    match roll.moved.as_slice() {
        [(id, _)] if roll.stopped.is_none() && !roll.entered => Some(*id),
        _ => None,
    }
}

/// Green breaks a block only when no piece outside it can make the move ("prioritises
/// moving its other pieces home before breaking a block") and the block cannot move as one
/// ("always attempts to move forward using the block move").
fn judge_green_block(roll: &Roll, r: &Readings) -> Option<bool> {
    let (board, c) = (&roll.before, Colour::Green);
    let in_block = |id: PieceId| {
        board
            .piece(id)
            .loc
            .square()
            .is_some_and(|n| board.count_at(c, n) >= 2)
    };
    let (member_can, other_can) = movable_split(roll, r, in_block)?;
    // A block move must exist whatever the directions not known yet are.
    let unknown: Vec<PieceId> = PieceId::all(c)
        .into_iter()
        .filter(|&id| board.piece(id).loc.square().is_some() && board.piece(id).dir.is_none())
        .collect();
    let block_can = (0..1u32 << unknown.len()).all(|mask| {
        let mut trial = board.clone();
        for (k, &id) in unknown.iter().enumerate() {
            trial.piece_mut(id).dir = Some(if mask >> k & 1 == 0 {
                Dir::Clockwise
            } else {
                Dir::CounterClockwise
            });
        }
        !block_moves_with(&trial, c, roll.value, roll.round, r).is_empty()
    });
    if !member_can || !(other_can || block_can) {
        return None;
    }
    if roll.block_move {
        return Some(true);
    }
    single_mover(roll).map(|id| !in_block(id))
}

pub(super) fn judge_green(roll: &Roll, r: &Readings) -> Option<bool> {
    let c = Colour::Green;
    if entry(&roll.before, c, roll.value).is_none() {
        return judge_green_block(roll, r);
    }
    let board = &roll.before;
    let mut block = Tri::No;
    for id in PieceId::all(c) {
        let t = outcomes(roll, id, r, |m| {
            m.is_some_and(|m| {
                m.is_ok_and(|m| m.dest.square().is_some_and(|n| board.count_at(c, n) > 0))
            })
        });
        if t == Tri::Yes {
            block = Tri::Yes;
            break;
        }
        if t == Tri::Maybe {
            block = Tri::Maybe;
        }
    }
    match block {
        Tri::Yes => Some(roll.made_block),
        Tri::No => Some(roll.entered),
        Tri::Maybe => None,
    }
}

pub(super) fn judge_yellow(roll: &Roll, r: &Readings) -> Option<bool> {
    let c = Colour::Yellow;
    if entry(&roll.before, c, roll.value).is_some() {
        return Some(roll.entered);
    }
    let board = &roll.before;
    match capture_available(roll, r, |id| board.piece(id).captures == 0) {
        Tri::Yes => return Some(roll.captured),
        Tri::Maybe => return None,
        Tri::No => {}
    }
    let distance = |id: PieceId| board.distance_home_under(id, r.enter_policy());
    let mut best: Option<u32> = None;
    for id in PieceId::all(c) {
        match outcomes(roll, id, r, |m| m.is_some_and(|m| m.is_ok())) {
            Tri::Maybe => return None,
            Tri::No => {}
            Tri::Yes => {
                board.piece(id).dir?;
                let d = distance(id);
                best = Some(best.map_or(d, |b| b.min(d)));
            }
        }
    }
    let best = best?;
    match roll.moved.as_slice() {
        [(id, _)] if roll.stopped.is_none() && !roll.block_move => Some(distance(*id) == best),
        _ => Some(false),
    }
}

/// Whether C source text has a function named `main` (the word, followed by `(`).
pub(super) fn defines_main(text: &str) -> bool {
    text.match_indices("main").any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + 4..].trim_start().chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after == Some('(')
    })
}

/// Whether C text defines a function: a `)` followed by `{` (a types header has none; a
/// logic file, `.c` or `.h`, has many). The handout asks for "three code files" holding the
/// types, the logic and main, so logic written as function bodies in a header counts.
fn defines_functions(text: &str) -> bool {
    text.match_indices(')')
        .any(|(at, _)| text[at + 1..].trim_start().starts_with('{'))
}

/// `structure`: three or more files (a types header, logic, main) and use of `struct`.
pub(super) fn structure(sources: &[(String, String)]) -> ItemVerdict {
    let c_files: Vec<&(String, String)> =
        sources.iter().filter(|(n, _)| n.ends_with(".c")).collect();
    let headers: Vec<&(String, String)> =
        sources.iter().filter(|(n, _)| n.ends_with(".h")).collect();
    let has_main = defines_main;
    let checks = [
        (
            sources.len() >= 3,
            format!("{} source files (three or more expected)", sources.len()),
        ),
        (
            headers
                .iter()
                .any(|(_, t)| t.contains("struct") || t.contains("typedef")),
            "a header file holding the types".to_string(),
        ),
        (
            c_files.iter().any(|(_, t)| has_main(t))
                && sources
                    .iter()
                    .any(|(_, t)| !has_main(t) && defines_functions(t)),
            "main in its own file, apart from the game logic".to_string(),
        ),
        (
            sources.iter().any(|(_, t)| t.contains("struct")),
            "use of struct".to_string(),
        ),
    ];
    let met = checks.iter().filter(|(ok, _)| *ok).count();
    ItemVerdict {
        item: STRUCTURE,
        fraction: met as f64 / checks.len() as f64,
        notes: checks
            .iter()
            .map(|(ok, what)| format!("{}: {what}", if *ok { "found" } else { "missing" }))
            .collect(),
    }
}

/// One colour's share of `behaviour`: its agreement, full from `BEHAVIOUR_FULL` on unless a
/// choice was wrong under every reading.
pub(super) fn colour_share(a: &Agreement) -> f64 {
    let rate = f64::from(a.agreed) / f64::from(a.decisions);
    if rate >= BEHAVIOUR_FULL && a.against_every_reading == 0 {
        1.0
    } else {
        rate
    }
}

pub(super) fn capped(mut notes: Vec<String>) -> Vec<String> {
    if notes.len() > MAX_NOTES {
        let rest = notes.len() - MAX_NOTES;
        notes.truncate(MAX_NOTES);
        notes.push(format!("... and {rest} more"));
    }
    notes
}

/// The per-item judgement of one run (see `specs/ludo/README.md` for the scoring).
pub fn verdicts(run: &TraceRun) -> Vec<ItemVerdict> {
    judge_run(run).items
}

/// One run judged: its items and the features its game showed.
pub fn judge_run(run: &TraceRun) -> TraceVerdict {
    let report = check(run.output);
    TraceVerdict {
        items: items(&report, run),
        shown: showed(&report),
        findings: findings(&report),
    }
}

/// What a run's game showed: its features, and how many choices of each colour were judged.
pub fn showed(report: &Report) -> Showed {
    Showed {
        features: report.shown.iter().map(|f| f.key()).collect(),
        judged: Colour::SEATING
            .iter()
            .map(|c| (c.name(), report.behaviour[c.index()].decisions))
            .collect(),
    }
}

/// A run's findings in the order a failing case names them: rule violations by line (those
/// found at the end of the game last), then each colour's first choice against its
/// behaviour, the missing winner, the required messages missing, the first line not
/// understood. Coverage and wording notes are not findings.
fn findings(report: &Report) -> Vec<(&'static str, String)> {
    let mut violations: Vec<&Violation> = report.violations.iter().collect();
    violations.sort_by_key(|v| if v.line == 0 { usize::MAX } else { v.line });
    let mut found: Vec<(&'static str, String)> =
        violations.iter().map(|v| (RULES, v.to_string())).collect();
    for c in Colour::SEATING {
        let a = report.behaviour[c.index()];
        let lost = a.decisions > 0 && colour_share(&a) < 1.0;
        if let Some(line) = a
            .first_against_every_reading
            .or(a.first_disagreement)
            .filter(|_| lost)
        {
            found.push((
                BEHAVIOUR,
                format!(
                    "line {line}: {}'s choice on this roll does not follow its behaviour ({} of {} decisions agree)",
                    c.name(),
                    a.agreed,
                    a.decisions
                ),
            ));
        }
    }
    if report.winner.is_none() {
        found.push((
            FINISHES,
            "no winner with all four pieces home was announced".into(),
        ));
    }
    found.extend(
        report
            .missing
            .iter()
            .map(|m| (MESSAGES, format!("missing: {m}"))),
    );
    found.extend(
        report
            .not_understood
            .first()
            .map(|(n, text)| (MESSAGES, format!("line {n}: not understood: \"{text}\""))),
    );
    found
}

/// What lines not read and checked cost a run's `rules`: at most one listed feature's share,
/// so a program that shows a feature more can never score lower for printing it in lines
/// the checker reads less of (see `feature_charge`).
pub fn coverage_factor(coverage: f64) -> f64 {
    1.0 - (1.0 - coverage.clamp(0.0, 1.0)) / Feature::ALL.len() as f64
}

/// The features of the handout's game the model shows in at least half of `games` games.
fn expected_features(model: &[Vec<&str>]) -> Vec<(Feature, usize)> {
    Feature::ALL
        .into_iter()
        .map(|f| (f, model.iter().filter(|g| g.contains(&f.key())).count()))
        .filter(|&(_, seen)| seen > 0 && 2 * seen >= model.len())
        .collect()
}

/// A case's charges for what its runs showed against the model's games at the same clocks:
/// features never shown (`rules`) and behaviour not seen (`behaviour`).
pub fn trace_charges(model: &[Showed], shown: &[Showed]) -> Vec<ItemVerdict> {
    feature_charge(&feature_lists(model), &feature_lists(shown))
        .into_iter()
        .chain(behaviour_charge(model, shown))
        .collect()
}

/// The features each run showed, as `feature_charge` counts them.
fn feature_lists(runs: &[Showed]) -> Vec<Vec<&'static str>> {
    runs.iter().map(|r| r.features.clone()).collect()
}

/// Of the `expected` features, those no game of `shown` shows.
fn never_shown(expected: &[(Feature, usize)], shown: &[Vec<&str>]) -> Vec<(Feature, usize)> {
    expected
        .iter()
        .copied()
        .filter(|(f, _)| !shown.iter().any(|g| g.contains(&f.key())))
        .collect()
}

/// The three points of each colour's behaviour (section 2.1) and the feature of the game each
/// one is about, if any: Red captures, keeps one piece out and avoids blocks; Green empties
/// its base, moves as a block and breaks blocks last; Yellow empties its base, captures and
/// moves the piece closest to Home; Blue moves in a cycle and seeks or avoids the mystery
/// cell by direction.
const BEHAVIOUR_NEEDS: [(Colour, [Option<Feature>; 3]); 4] = [
    (
        Colour::Red,
        [
            Some(Feature::Capture),
            Some(Feature::LeaveBase),
            Some(Feature::Block),
        ],
    ),
    (
        Colour::Green,
        [
            Some(Feature::LeaveBase),
            Some(Feature::Block),
            Some(Feature::Block),
        ],
    ),
    (
        Colour::Yellow,
        [Some(Feature::LeaveBase), Some(Feature::Capture), None],
    ),
    (
        Colour::Blue,
        [None, Some(Feature::MysteryCell), Some(Feature::MysteryCell)],
    ),
];

/// A case's charge for features never shown: of the features the model's games at the same
/// clocks show in at least half of them (as many games as the program played), each one no
/// game of the program shows costs its share of `rules` (the case's mean is multiplied by the
/// share of those features shown), with one note each: "in 100 games no piece was ever
/// captured; the model captures in 97 of 100". None when the program played no game.
pub fn feature_charge(
    model: &[Vec<&'static str>],
    shown: &[Vec<&'static str>],
) -> Option<ItemVerdict> {
    let games = shown.len();
    if games == 0 {
        return None;
    }
    let model = &model[..games.min(model.len())];
    let expected = expected_features(model);
    if expected.is_empty() {
        return None;
    }
    let missing = never_shown(&expected, shown);
    let notes = missing
        .iter()
        .map(|&(f, seen)| {
            let (absent, model_does) = f.absence();
            format!(
                "missing feature: in {games} games {absent}; the model {model_does} in {seen} of {}",
                model.len()
            )
        })
        .collect();
    Some(ItemVerdict {
        item: RULES,
        fraction: 1.0 - missing.len() as f64 / expected.len() as f64,
        notes,
    })
}

/// A case's charge for behaviour not seen, per colour (`behaviour` is multiplied by the mean
/// of the four colours' credit, with a note for each colour under full credit):
/// - choices judged: a colour is credited in full when at least `JUDGED_PER_GAME` of its
///   choices per game were judged over the case's runs, in proportion below, since a
///   behaviour the checker could not see is not shown to be followed (one agreeing choice in
///   a game is no evidence of the whole behaviour); the note names the model's count;
/// - features: each of the three points of its behaviour that is about a feature of the game
///   the program never shows (see `feature_charge`) costs a third, since a program that
///   never captures cannot follow "Red prioritises capturing".
///
/// None when the program played no game.
pub fn behaviour_charge(model: &[Showed], shown: &[Showed]) -> Option<ItemVerdict> {
    let games = shown.len();
    if games == 0 {
        return None;
    }
    let model = &model[..games.min(model.len())];
    let missing = never_shown(
        &expected_features(&feature_lists(model)),
        &feature_lists(shown),
    );
    let judged = |runs: &[Showed], colour: &str| -> u32 {
        runs.iter()
            .flat_map(|r| &r.judged)
            .filter(|(c, _)| *c == colour)
            .map(|&(_, n)| n)
            .sum()
    };
    let mut credit = 0.0;
    let mut notes = Vec::new();
    for (c, needs) in BEHAVIOUR_NEEDS {
        let program = judged(shown, c.name());
        let seen = (f64::from(program) / (JUDGED_PER_GAME * games as f64)).min(1.0);
        if seen < 1.0 {
            notes.push(format!(
                "{}: {program} {} judged in {games} games (the model's games: {}), fewer than {JUDGED_PER_GAME} per game: its behaviour is credited at {:.0}%",
                c.name(),
                if program == 1 { "choice" } else { "choices" },
                judged(model, c.name()),
                seen * 100.0
            ));
        }
        let lacking: Vec<Feature> = needs
            .iter()
            .flatten()
            .copied()
            .filter(|f| missing.iter().any(|(m, _)| m == f))
            .collect();
        if !lacking.is_empty() {
            let mut names: Vec<&str> = lacking.iter().map(|f| f.key()).collect();
            names.dedup();
            notes.push(format!(
                "{}: {} of the 3 points of its behaviour (section 2.1) {} about {}, which no game shows",
                c.name(),
                lacking.len(),
                if lacking.len() == 1 { "is" } else { "are" },
                names.join(" and ")
            ));
        }
        let followable = 1.0 - lacking.len() as f64 / needs.len() as f64;
        credit += seen * followable / BEHAVIOUR_NEEDS.len() as f64;
    }
    Some(ItemVerdict {
        item: BEHAVIOUR,
        fraction: credit,
        notes,
    })
}

/// The items of one run from the checker's report.
fn items(report: &Report, run: &TraceRun) -> Vec<ItemVerdict> {
    let expected = report.lines + report.missing.len();
    let readable = report.lines - report.unreadable.len();
    let messages = if expected == 0 {
        0.0
    } else {
        readable as f64 / expected as f64
    };
    let message_notes = message_notes(report);

    // Rules and behaviour are earned only for the share of the game that was read and
    // checked: unreadable output does not earn points for rules it was never checked on.
    let coverage = if report.relevant == 0 {
        1.0
    } else {
        report.checked as f64 / report.relevant as f64
    };
    // A run that never got to play earns nothing for rules it never had to follow.
    let rules = if report.rolls == 0 {
        0.0
    } else {
        rule_share(&report.decisions, &report.violations) * coverage_factor(coverage)
    };
    let mut rule_notes = vec![coverage_note(report), rule_decisions_note(report)];
    let exercised = rule_tally(&report.decisions, &report.violations).0.len();
    if report.rolls > 0 && exercised < RULES_SEEN_FULL {
        rule_notes.push(format!(
            "only {exercised} rules could be checked in this game, fewer than {RULES_SEEN_FULL}: rules are credited for {exercised} of {RULES_SEEN_FULL}"
        ));
    }
    rule_notes.extend(report.violations.iter().map(|v| v.to_string()));
    rule_notes = capped(rule_notes);
    if report.withheld > 0 {
        rule_notes.push(format!(
            "{} possible findings not reported: they depend on pieces or turns the checker lost track of after a line it could not read",
            report.withheld
        ));
    }
    if report.rolls == 0 {
        rule_notes.push("no roll was printed, so the game was never played".into());
    }
    rule_notes.extend(report.readings.iter().map(|r| format!("reading: {r}")));

    let finishes = report.winner.is_some() && !run.timed_out;
    let finish_note = match (report.winner, run.timed_out) {
        (_, true) => "the run was stopped at the time limit".to_string(),
        (Some(c), false) => format!("{} wins with all four pieces home", c.name()),
        (None, false) => "no winner with all four pieces home was announced".to_string(),
    };

    let mut rates = Vec::new();
    let mut behaviour_notes = Vec::new();
    for c in Colour::SEATING {
        let a = report.behaviour[c.index()];
        if a.decisions == 0 {
            behaviour_notes.push(format!("{}: no decision its behaviour settles", c.name()));
            continue;
        }
        rates.push(colour_share(&a));
        let first = a
            .first_disagreement
            .map(|line| format!(" (the first that does not: the roll on line {line})"))
            .unwrap_or_default();
        let against = a
            .first_against_every_reading
            .map(|line| {
                format!(
                    "; {} of them wrong under every reading of it, which no margin covers (the first: the roll on line {line})",
                    a.against_every_reading
                )
            })
            .unwrap_or_default();
        behaviour_notes.push(format!(
            "{}: {}/{} decisions agree with its behaviour{first}{against}",
            c.name(),
            a.agreed,
            a.decisions
        ));
    }
    let behaviour = if rates.is_empty() {
        0.0
    } else {
        rates.iter().sum::<f64>() / rates.len() as f64
    };

    vec![
        ItemVerdict {
            item: MESSAGES,
            fraction: messages,
            notes: message_notes,
        },
        ItemVerdict {
            item: RULES,
            fraction: rules,
            notes: rule_notes,
        },
        ItemVerdict {
            item: FINISHES,
            fraction: if finishes { 1.0 } else { 0.0 },
            notes: vec![finish_note],
        },
        ItemVerdict {
            item: BEHAVIOUR,
            fraction: behaviour,
            notes: behaviour_notes,
        },
    ]
    .into_iter()
    .chain(run.sources.map(structure))
    .collect()
}

/// The rules a run exercised (at least one checked decision under each; a violation is one)
/// and those of them broken at least once.
fn rule_tally<'a>(
    decisions: &'a BTreeMap<&'static str, usize>,
    violations: &'a [Violation],
) -> (BTreeSet<&'a str>, BTreeSet<&'a str>) {
    let broken: BTreeSet<&str> = violations.iter().map(|v| v.rule).collect();
    let exercised = decisions
        .keys()
        .copied()
        .chain(broken.iter().copied())
        .collect();
    (exercised, broken)
}

/// The share of rule decisions obeyed: a rule the run exercised is one decision, obeyed when
/// none of its checked decisions was violated. So a bug costs its rule's share once however
/// often it shows, and no bug hides among thousands of obeyed lines. A run in which fewer
/// than `RULES_SEEN_FULL` rules could be checked is credited for those it was seen to obey
/// out of `RULES_SEEN_FULL`: a game the checker could hardly follow shows little of the
/// rules, and reading less of a game must not earn more.
pub fn rule_share(decisions: &BTreeMap<&'static str, usize>, violations: &[Violation]) -> f64 {
    let (exercised, broken) = rule_tally(decisions, violations);
    (exercised.len() - broken.len()) as f64 / exercised.len().max(RULES_SEEN_FULL) as f64
}

/// "11 of 12 rules exercised obeyed in every checked decision (broken: count line)".
fn rule_decisions_note(report: &Report) -> String {
    let (exercised, broken) = rule_tally(&report.decisions, &report.violations);
    let mut note = format!(
        "{} of {} rules exercised obeyed in every checked decision",
        exercised.len() - broken.len(),
        exercised.len()
    );
    if !broken.is_empty() {
        note.push_str(&format!(
            " (broken: {})",
            broken.into_iter().collect::<Vec<_>>().join(", ")
        ));
    }
    note
}

/// How much of the game was read: "read and checked 1204 of 1260 lines of the game; 3 lines
/// not understood: 57, 803, 990; 1 lines missing before: 412".
fn coverage_note(report: &Report) -> String {
    let mut note = format!(
        "read and checked {} of {} lines of the game",
        report.checked, report.relevant
    );
    let not_understood: Vec<usize> = report.not_understood.iter().map(|(n, _)| *n).collect();
    for (lines, what) in [
        (&not_understood, "lines not understood"),
        (&report.missing_lines, "lines missing before"),
    ] {
        if lines.is_empty() {
            continue;
        }
        let first: Vec<String> = lines
            .iter()
            .take(MAX_NOTES)
            .map(|n| n.to_string())
            .collect();
        let more = lines.len().saturating_sub(MAX_NOTES);
        note.push_str(&format!(
            "; {} {what}: {}{}",
            lines.len(),
            first.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        ));
    }
    note
}

/// `messages` notes: each wording other than the handout's once, with its first line, then
/// the lines not understood and the required messages missing.
fn message_notes(report: &Report) -> Vec<String> {
    let mut notes = Vec::new();
    let mut forms: Vec<(&str, usize, usize, &str)> = Vec::new();
    for (line, form, text) in &report.tolerated {
        match forms.iter_mut().find(|f| f.0 == *form) {
            Some(f) => f.1 += 1,
            None => forms.push((form, 1, *line, text)),
        }
    }
    for (form, count, line, text) in forms {
        notes.push(format!(
            "{count} lines read as \"{form}\" in a wording other than the handout's (first at line {line}: \"{text}\")"
        ));
    }
    let listed: BTreeSet<usize> = report
        .tolerated
        .iter()
        .map(|t| t.0)
        .chain(report.not_understood.iter().map(|t| t.0))
        .collect();
    let others: Vec<&(usize, String)> = report
        .unreadable
        .iter()
        .filter(|(n, _)| !listed.contains(n))
        .collect();
    if let Some((line, text)) = others.first() {
        notes.push(format!(
            "{} lines that are no section-3 message (first at line {line}: \"{text}\")",
            others.len()
        ));
    }
    let unread: Vec<String> = report
        .not_understood
        .iter()
        .map(|(n, text)| format!("line {n}: not understood: \"{text}\""))
        .collect();
    notes.extend(capped(unread));
    notes.extend(report.missing.iter().map(|m| format!("missing: {m}")));
    notes
}
