//! The game loop of the program (`main`), and the input policies that expand a seed into a
//! player's moves.

use super::board::{check_board_bounds, Board, Colour};
use super::{GAME, PRINT_BOARD};
use crate::games::Transcript;
use crate::rng::glibc::GlibcRandom;

/// One move as typed: `from to`.
pub type Move = (i32, i32);

/// What a prompt knows when it asks for a move.
pub struct Prompt<'a> {
    pub board: &'a Board,
    pub mover: Colour,
    /// Dice still usable for this move (both for the first move, one for the second).
    pub dice: &'a [i32],
    /// The die already used this turn, for the second move.
    pub used: Option<i32>,
    /// Turns begun so far, this one included.
    pub turn: usize,
}

/// Supplies the typed moves; `None` is end of input.
pub trait Player {
    fn next_move(&mut self, prompt: &Prompt) -> Option<Move>;
}

/// What a game reached, for tests that check the cases cover the rules.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    pub turns: usize,
    pub valid_moves: usize,
    pub invalid_moves: usize,
    pub hits: usize,
    pub entries: usize,
    pub bear_offs: usize,
    /// The second move of a turn was taken with D1 because the first used D2.
    pub second_die_first: usize,
}

/// The whole run: the start board, then turns until `0 0` (or end of input).
/// Returns the stdin typed and the tagged transcript.
pub fn play(mut dice: GlibcRandom, player: &mut dyn Player) -> (String, Transcript, Stats) {
    let mut board = Board::start();
    let mut out = Transcript::new();
    let mut stdin = String::new();
    let mut stats = Stats::default();
    out.print(PRINT_BOARD, &board.render());
    let mut mover = Colour::White;
    'game: loop {
        let d1 = i32::from(dice.roll_die());
        let d2 = i32::from(dice.roll_die());
        stats.turns += 1;
        out.begin_turn(
            format!("turn {}, {}, dice {d1} and {d2}", stats.turns, mover.name()),
            board.render(),
        );
        out.println(GAME, &format!("Rolling dice:  {d1} {d2}"));
        let mut remaining = vec![d1, d2];
        let mut used = None;
        for _ in 0..2 {
            loop {
                out.print(GAME, &format!("{}'s move:  ", mover.name()));
                let prompt = Prompt {
                    board: &board,
                    mover,
                    dice: &remaining,
                    used,
                    turn: stats.turns,
                };
                let Some((from, to)) = player.next_move(&prompt) else {
                    break 'game;
                };
                stdin.push_str(&format!("{from} {to}\n"));
                if (from, to) == (0, 0) {
                    break 'game;
                }
                // D1 is tried first; the die that accepts the move is used up.
                let Some(at) = remaining
                    .iter()
                    .position(|&die| board.check_move(mover, from, to, die))
                else {
                    stats.invalid_moves += 1;
                    out.println(GAME, "Invalid move");
                    continue;
                };
                let die = remaining.remove(at);
                if used.is_some() && die == d1 && d1 != d2 {
                    stats.second_die_first += 1;
                }
                record(&mut stats, &board, mover, from, to);
                board.apply(mover, from, to);
                out.print(GAME, &board.render());
                used = Some(die);
                break;
            }
        }
        mover = mover.opponent();
    }
    (stdin, out, stats)
}

fn record(stats: &mut Stats, board: &Board, mover: Colour, from: i32, to: i32) {
    stats.valid_moves += 1;
    if from == 0 {
        stats.entries += 1;
    }
    if to == 0 {
        stats.bear_offs += 1;
    } else if board.count(mover.opponent(), to) == 1 {
        stats.hits += 1;
    }
}

/// Moves listed in the case, in order.
pub struct Scripted {
    moves: std::vec::IntoIter<Move>,
}

impl Scripted {
    pub fn new(moves: Vec<Move>) -> Self {
        Self {
            moves: moves.into_iter(),
        }
    }
}

impl Player for Scripted {
    fn next_move(&mut self, _prompt: &Prompt) -> Option<Move> {
        self.moves.next()
    }
}

/// How a policy chooses among the valid moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Style {
    /// Any valid move, uniformly.
    Random,
    /// Bear off when possible, else move the checker furthest from home.
    Runner,
    /// Hit when possible, else bear off, else any valid move.
    Hitter,
}

/// Plays valid moves chosen by `style` (choices drawn from a glibc generator seeded with the
/// case's `seed`, separate from the dice), types an invalid move first at every
/// `invalid_every`-th prompt, and types `0 0` when stuck or after `turns` turns.
pub struct Policy {
    style: Style,
    choices: GlibcRandom,
    invalid_every: usize,
    turns: usize,
    prompts: usize,
    /// The invalid move just typed; the next answer to the same prompt is a valid one.
    owe_valid: bool,
    /// Kinds of invalid moves typed, for coverage tests.
    pub invalid_kinds: Vec<&'static str>,
}

impl Policy {
    pub fn new(style: Style, seed: u32, invalid_every: usize, turns: usize) -> Self {
        Self {
            style,
            choices: GlibcRandom::seeded(seed),
            invalid_every,
            turns,
            prompts: 0,
            owe_valid: false,
            invalid_kinds: Vec::new(),
        }
    }

    fn pick<T: Copy>(&mut self, options: &[T]) -> T {
        options[self.choices.next_raw() as usize % options.len()]
    }

    fn choose_valid(&mut self, prompt: &Prompt, valid: &[Move]) -> Move {
        let mover = prompt.mover;
        let preferred: Vec<Move> = match self.style {
            Style::Random => Vec::new(),
            Style::Runner => {
                let bear_offs: Vec<Move> = valid.iter().copied().filter(|m| m.1 == 0).collect();
                if bear_offs.is_empty() {
                    // Pips from the checker's point to off; the bar is furthest (25).
                    let back = |m: &Move| match mover {
                        _ if m.0 == 0 => 25,
                        Colour::White => m.0,
                        Colour::Red => 25 - m.0,
                    };
                    let furthest = valid.iter().map(back).max().unwrap_or(0);
                    valid
                        .iter()
                        .copied()
                        .filter(|m| back(m) == furthest)
                        .collect()
                } else {
                    bear_offs
                }
            }
            Style::Hitter => {
                let hits: Vec<Move> = valid
                    .iter()
                    .copied()
                    .filter(|m| m.1 != 0 && prompt.board.count(mover.opponent(), m.1) == 1)
                    .collect();
                if hits.is_empty() {
                    valid.iter().copied().filter(|m| m.1 == 0).collect()
                } else {
                    hits
                }
            }
        };
        if preferred.is_empty() {
            self.pick(valid)
        } else {
            self.pick(&preferred)
        }
    }
}

impl Player for Policy {
    fn next_move(&mut self, prompt: &Prompt) -> Option<Move> {
        let valid = valid_moves(prompt);
        if valid.is_empty() || prompt.turn > self.turns {
            return Some((0, 0));
        }
        if !self.owe_valid {
            self.prompts += 1;
            if self.invalid_every > 0 && self.prompts % self.invalid_every == 0 {
                let invalid = invalid_moves(prompt);
                if !invalid.is_empty() {
                    let (kind, mv) = self.pick(&invalid);
                    self.invalid_kinds.push(kind);
                    self.owe_valid = true;
                    return Some(mv);
                }
            }
        }
        self.owe_valid = false;
        Some(self.choose_valid(prompt, &valid))
    }
}

/// Every `from to` that some usable die accepts, in a fixed order.
pub fn valid_moves(prompt: &Prompt) -> Vec<Move> {
    let mut moves = Vec::new();
    for from in 0..=24 {
        for to in 0..=24 {
            if (from, to) != (0, 0)
                && prompt
                    .dice
                    .iter()
                    .any(|&die| prompt.board.check_move(prompt.mover, from, to, die))
            {
                moves.push((from, to));
            }
        }
    }
    moves
}

/// Plausible mistakes that every usable die refuses, each with the rule it breaks.
pub fn invalid_moves(prompt: &Prompt) -> Vec<(&'static str, Move)> {
    let board = prompt.board;
    let mover = prompt.mover;
    let sign = match mover {
        Colour::White => -1,
        Colour::Red => 1,
    };
    let refused = |mv: Move| {
        mv != (0, 0)
            && !prompt
                .dice
                .iter()
                .any(|&die| board.check_move(mover, mv.0, mv.1, die))
    };
    let owns = |point: i32| board.count(mover, point) > 0;
    let mut found: Vec<(&'static str, Move)> = Vec::new();
    let mut add = |kind: &'static str, mv: Move| {
        if refused(mv) && !found.contains(&(kind, mv)) {
            found.push((kind, mv));
        }
    };
    let all_dice = [1, 2, 3, 4, 5, 6];
    for from in 1..=24 {
        for &die in prompt.dice {
            let to = from + sign * die;
            let back = from - sign * die;
            if owns(from) {
                if board.bar(mover) > 0 && check_board_bounds(to) {
                    add("basic-move-while-on-bar", (from, to));
                }
                if check_board_bounds(to) && board.count(mover.opponent(), to) >= 2 {
                    add("blocked-point", (from, to));
                }
                if !check_board_bounds(to) {
                    add("past-the-edge", (from, to));
                    if !board.all_home(mover) {
                        add("bear-off-not-all-home", (from, 0));
                    }
                }
                if check_board_bounds(back) && board.count(mover.opponent(), back) <= 1 {
                    add("wrong-direction", (from, back));
                }
            } else if check_board_bounds(to) && board.count(mover.opponent(), to) <= 1 {
                add("no-own-checker", (from, to));
            }
        }
        if owns(from) {
            for die in all_dice {
                let to = from + sign * die;
                if !prompt.dice.contains(&die) && check_board_bounds(to) {
                    add("wrong-distance", (from, to));
                }
            }
            if board.all_home(mover) {
                add("bear-off-too-far", (from, 0));
            }
        }
    }
    for die in all_dice {
        let entry = match mover {
            Colour::White => 25 - die,
            Colour::Red => die,
        };
        if board.bar(mover) == 0 {
            add("entry-with-empty-bar", (0, entry));
        } else {
            add("entry-wrong-point", (0, entry));
            if mover == Colour::White {
                // A common slip: entering white from "25" instead of 0.
                add("entry-from-25", (25, entry));
            }
        }
    }
    if let Some(used) = prompt.used {
        for from in 0..=24 {
            for to in 0..=24 {
                if board.check_move(mover, from, to, used) {
                    add("die-already-used", (from, to));
                }
            }
        }
    }
    found
}
