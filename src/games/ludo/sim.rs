//! A deterministic LUDO-CS game from a seed: traditional rules 1-11, CS-1 to CS-15 as ruled,
//! the four player behaviours, printed with the handout's section-3 messages.

use super::board::{
    Aura, Board, Colour, Dir, EnterPolicy, Layout, Loc, PieceId, Walk, FROM_APPROACH, FROM_ZERO,
    SQUARES,
};
use super::{FINISHES, MESSAGES};
use crate::games::Transcript;

/// Rounds an aura or a briefing lasts ("the next four rounds").
pub const EFFECT_ROUNDS: u32 = 4;
/// Rounds a mystery cell stays put.
pub const MYSTERY_ROUNDS: u32 = 4;
/// A safety stop; no game of the 1,000-seed property test comes near it.
const MAX_ROUNDS: u32 = 5000;

/// splitmix64: small, fast, and the same on every platform.
#[derive(Debug, Clone)]
pub struct SplitMix64 {
    state: u64,
}

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (the modulo bias is far below anything a game could show).
    pub fn below(&mut self, n: u32) -> u32 {
        (self.next_u64() % u64::from(n)) as u32
    }

    pub fn die(&mut self) -> u32 {
        self.below(6) + 1
    }
}

/// Readings of the handout that a correct program may take where the model takes another
/// (each quoted in `specs/ludo/README.md`). `Readings::MODEL`, the default, is the model's
/// game: `simulate(seed)` is `simulate_with(seed, &Readings::MODEL)`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Readings {
    /// Rule 10 read strictly: a piece in the home straight moves only on the exact roll Home,
    /// never within the straight, so a roll only such pieces could use is ignored (Rule 7).
    pub exact_home_only: bool,
    /// 2.1.4: Blue moves a counter-clockwise piece that lands on the mystery cell before the
    /// next one in its cycle, and passes over a clockwise piece whose move lands on it when
    /// another piece can move.
    pub blue_mystery: bool,
    /// CS-1's "second time" counted from before the capture: a piece that has captured turns
    /// in at its next Approach, whatever its direction.
    pub turn_in_after_capture: bool,
    /// Rule 11: the game goes on for second, third and fourth places; finished players are
    /// skipped and each later finisher is announced in turn.
    pub play_for_places: bool,
    /// Rule 4 and CS-2 each grant a roll: a six that also captures earns two.
    pub six_capture_two_rolls: bool,
    /// A tie for the highest first roll is rolled again by every player.
    pub reroll_first_ties: bool,
    /// Bhawana, Kotuwa and Pita-Kotuwa counted from square 0 (9, 27, 46).
    pub layout_from_zero: bool,
    /// 2.1.4's cycle counted per round ("if B1 is moved in the current round, B2 is
    /// considered in the next"): on a bonus roll of the same turn Blue considers the piece it
    /// moved first again.
    pub blue_cycle_per_round: bool,
}

impl Readings {
    pub const MODEL: Readings = Readings {
        exact_home_only: false,
        blue_mystery: false,
        turn_in_after_capture: false,
        play_for_places: false,
        six_capture_two_rolls: false,
        reroll_first_ties: false,
        layout_from_zero: false,
        blue_cycle_per_round: false,
    };

    pub const ALL: Readings = Readings {
        exact_home_only: true,
        blue_mystery: true,
        turn_in_after_capture: true,
        play_for_places: true,
        six_capture_two_rolls: true,
        reroll_first_ties: true,
        layout_from_zero: true,
        blue_cycle_per_round: true,
    };

    /// Each reading alone, by name.
    pub fn each() -> [(&'static str, Readings); 8] {
        let m = Readings::MODEL;
        [
            (
                "exact roll home only",
                Readings {
                    exact_home_only: true,
                    ..m
                },
            ),
            (
                "Blue's mystery-cell preference",
                Readings {
                    blue_mystery: true,
                    ..m
                },
            ),
            (
                "turning in after a capture",
                Readings {
                    turn_in_after_capture: true,
                    ..m
                },
            ),
            (
                "play on for places",
                Readings {
                    play_for_places: true,
                    ..m
                },
            ),
            (
                "a six that captures earns two rolls",
                Readings {
                    six_capture_two_rolls: true,
                    ..m
                },
            ),
            (
                "first-roll ties rolled again",
                Readings {
                    reroll_first_ties: true,
                    ..m
                },
            ),
            (
                "layout from square 0",
                Readings {
                    layout_from_zero: true,
                    ..m
                },
            ),
            (
                "Blue's cycle per round",
                Readings {
                    blue_cycle_per_round: true,
                    ..m
                },
            ),
        ]
    }

    /// When a piece turns from its Approach into the home straight.
    pub fn enter_policy(&self) -> EnterPolicy {
        if self.turn_in_after_capture {
            EnterPolicy::WhenCaptured
        } else {
            EnterPolicy::Strict
        }
    }
}

/// Bhawana's effect on a move made in `round`, if it still lasts.
pub fn aura_in(aura: Option<(Aura, u32)>, round: u32) -> Option<Aura> {
    aura.filter(|&(_, since)| round < since + EFFECT_ROUNDS)
        .map(|(kind, _)| kind)
}

pub fn briefed_in(briefing: Option<u32>, round: u32) -> bool {
    briefing.is_some_and(|since| round < since + EFFECT_ROUNDS)
}

/// Squares a roll moves a piece: doubled when energised, halved (rounded down) when sick.
pub fn steps_for(aura: Option<Aura>, roll: u32) -> u32 {
    match aura {
        Some(Aura::Energised) => roll * 2,
        Some(Aura::Sick) => roll / 2,
        None => roll,
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SingleMove {
    pub id: PieceId,
    pub steps: u32,
    pub dest: Loc,
    pub passes: u32,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BlockMove {
    pub square: u8,
    pub dir: Dir,
    pub steps: u32,
    /// Each member with where it ends and its Approach count.
    pub members: Vec<(PieceId, Loc, u32)>,
}

/// A piece an opposing block stops (CS-3): it can still reach `before` (`steps` may be 0).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stopped {
    pub id: PieceId,
    pub before: Loc,
    pub by: PieceId,
    pub steps: u32,
    pub passes: u32,
    /// Where the full roll would have taken it.
    pub would: Loc,
}

/// Everything a colour may do with one roll.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub enter: Option<PieceId>,
    pub singles: Vec<SingleMove>,
    pub blocks: Vec<BlockMove>,
    pub stopped: Vec<Stopped>,
}

/// Whether the colour can bring a piece to X with this roll (Rule 2; not onto a block).
pub fn entry(board: &Board, colour: Colour, roll: u32) -> Option<PieceId> {
    if roll != 6 || board.opposing_block_at(colour, colour.start()).is_some() {
        return None;
    }
    PieceId::all(colour)
        .into_iter()
        .find(|&id| board.piece(id).loc == Loc::Base)
}

/// The one move piece `id` can make alone with `roll` in `round`, or why it cannot.
pub fn single_move(
    board: &Board,
    id: PieceId,
    roll: u32,
    round: u32,
) -> Option<Result<SingleMove, Stopped>> {
    single_move_with(board, id, roll, round, &Readings::MODEL)
}

/// `single_move` under `readings`.
pub fn single_move_with(
    board: &Board,
    id: PieceId,
    roll: u32,
    round: u32,
    readings: &Readings,
) -> Option<Result<SingleMove, Stopped>> {
    let piece = board.piece(id);
    let dir = piece.dir?;
    if !matches!(piece.loc, Loc::Square(_) | Loc::HomePath(_)) || briefed_in(piece.briefing, round)
    {
        return None;
    }
    let steps = steps_for(aura_in(piece.aura, round), roll);
    if steps == 0 {
        return None;
    }
    let policy = readings.enter_policy();
    match board.walk(id, dir, steps, policy, 1, true) {
        // Read strictly, Rule 10 lets a piece in the home straight move only Home.
        Walk::Reached { dest, .. }
            if readings.exact_home_only
                && matches!(piece.loc, Loc::HomePath(_))
                && dest != Loc::Home =>
        {
            None
        }
        Walk::Reached { dest, passes } => Some(Ok(SingleMove {
            id,
            steps,
            dest,
            passes,
        })),
        Walk::Blocked {
            before,
            by,
            steps_done,
            passes,
            ..
        } => Some(Err(Stopped {
            id,
            before,
            by,
            steps: steps_done,
            passes,
            would: unblocked_dest(board, id, dir, steps, policy),
        })),
        Walk::Overshoot => None,
    }
}

/// Where a walk ends when no opponent stands in the way (for the "blocked from" message).
fn unblocked_dest(board: &Board, id: PieceId, dir: Dir, steps: u32, policy: EnterPolicy) -> Loc {
    let mut alone = Board::new();
    *alone.piece_mut(id) = board.piece(id).clone();
    match alone.walk(id, dir, steps, policy, 1, true) {
        Walk::Reached { dest, .. } => dest,
        _ => board.piece(id).loc,
    }
}

/// The direction a block of mixed directions moves in (CS-4): that of the member farthest
/// from home.
fn block_dir(board: &Board, ids: &[PieceId]) -> Option<Dir> {
    ids.iter()
        .max_by_key(|&&id| (board.distance_home(id), std::cmp::Reverse(id.index)))
        .and_then(|&id| board.piece(id).dir)
}

/// Every move of two or more pieces sharing a square, by the roll divided by their number.
pub fn block_moves(board: &Board, colour: Colour, roll: u32, round: u32) -> Vec<BlockMove> {
    block_moves_with(board, colour, roll, round, &Readings::MODEL)
}

/// `block_moves` under `readings`.
pub fn block_moves_with(
    board: &Board,
    colour: Colour,
    roll: u32,
    round: u32,
    readings: &Readings,
) -> Vec<BlockMove> {
    let mut moves = Vec::new();
    let mut squares: Vec<u8> = PieceId::all(colour)
        .into_iter()
        .filter_map(|id| board.piece(id).loc.square())
        .collect();
    squares.sort_unstable();
    squares.dedup();
    for square in squares {
        let ids: Vec<PieceId> = PieceId::all(colour)
            .into_iter()
            .filter(|&id| {
                let p = board.piece(id);
                p.loc == Loc::Square(square) && p.dir.is_some() && !briefed_in(p.briefing, round)
            })
            .collect();
        if ids.len() < 2 {
            continue;
        }
        let steps = roll / ids.len() as u32;
        let Some(dir) = block_dir(board, &ids) else {
            continue;
        };
        if steps == 0 {
            continue;
        }
        let mut members = Vec::new();
        for &id in &ids {
            let own = board.piece(id).dir == Some(dir);
            let policy = if own {
                readings.enter_policy()
            } else {
                EnterPolicy::Never
            };
            match board.walk(id, dir, steps, policy, ids.len(), own) {
                Walk::Reached { dest, passes } => members.push((id, dest, passes)),
                _ => break,
            }
        }
        if members.len() == ids.len() {
            moves.push(BlockMove {
                square,
                dir,
                steps,
                members,
            });
        }
    }
    moves
}

pub fn options(
    board: &Board,
    colour: Colour,
    roll: u32,
    round: u32,
    readings: &Readings,
) -> Options {
    let mut opts = Options {
        enter: entry(board, colour, roll),
        blocks: block_moves_with(board, colour, roll, round, readings),
        ..Options::default()
    };
    for id in PieceId::all(colour) {
        match single_move_with(board, id, roll, round, readings) {
            Some(Ok(single)) => opts.singles.push(single),
            Some(Err(stopped)) => opts.stopped.push(stopped),
            None => {}
        }
    }
    opts
}

/// Whether landing on `dest` captures.
pub fn captures_at(board: &Board, colour: Colour, dest: Loc) -> bool {
    dest.square()
        .is_some_and(|n| !board.opponents_at(colour, n).is_empty())
}

/// What a colour chose for one roll.
#[derive(Debug, Clone)]
enum Choice {
    Enter(PieceId),
    Single(SingleMove),
    Block(BlockMove),
    Stopped(Stopped),
}

struct Sim {
    rng: SplitMix64,
    board: Board,
    layout: Layout,
    out: Transcript,
    round: u32,
    order: [Colour; 4],
    mystery: Option<(u8, u32)>,
    last_mystery: Option<u8>,
    first_entry_round: Option<u32>,
    blue_next: usize,
    /// The round and the piece of Blue's last move (its cycle counted per round).
    blue_last: Option<(u32, usize)>,
    threes: [u32; 4],
    readings: Readings,
}

/// The game the reference plays from `seed`.
pub fn simulate(seed: u64) -> Transcript {
    simulate_with(seed, &Readings::MODEL)
}

/// The game a correct program taking `readings` plays from `seed`.
pub fn simulate_with(seed: u64, readings: &Readings) -> Transcript {
    let mut sim = Sim {
        rng: SplitMix64::new(seed),
        board: Board::new(),
        layout: if readings.layout_from_zero {
            FROM_ZERO
        } else {
            FROM_APPROACH
        },
        out: Transcript::new(),
        round: 1,
        order: Colour::SEATING,
        mystery: None,
        last_mystery: None,
        first_entry_round: None,
        blue_next: 0,
        blue_last: None,
        threes: [0; 4],
        readings: *readings,
    };
    sim.play();
    sim.out
}

impl Sim {
    fn say(&mut self, text: &str) {
        self.out.println(MESSAGES, text);
    }

    fn play(&mut self) {
        for colour in Colour::SEATING {
            let l = colour.letter();
            self.say(&format!(
                "The {} player has four (04) pieces named {l}1, {l}2, {l}3, and {l}4.",
                colour.lower()
            ));
        }
        let first = loop {
            let mut best: Option<(u32, Colour)> = None;
            let mut tied = false;
            for colour in Colour::SEATING {
                let roll = self.rng.die();
                self.say(&format!("{} rolls {roll}", colour.name()));
                // Ties go to the first of the highest in seating order, or are rolled again.
                if best.is_none_or(|(b, _)| roll > b) {
                    best = Some((roll, colour));
                    tied = false;
                } else if best.is_some_and(|(b, _)| roll == b) {
                    tied = true;
                }
            }
            if !(tied && self.readings.reroll_first_ties) {
                break best.map_or(Colour::Red, |(_, c)| c);
            }
        };
        self.order = [0, 1, 2, 3].map(|k| Colour::SEATING[(first.index() + k) % 4]);
        self.say(&format!(
            "{} player has the highest roll and will begin the game.",
            first.name()
        ));
        let [a, b, c, d] = self.order.map(Colour::name);
        self.say(&format!(
            "The order of a single round is {a}, {b}, {c}, and {d}."
        ));
        // Colours in the order they brought all four pieces home.
        let mut finished: Vec<Colour> = Vec::new();
        while self.round <= MAX_ROUNDS {
            for colour in self.order {
                if finished.contains(&colour) {
                    continue;
                }
                self.turn(colour);
                if self.board.all_home(colour) {
                    // Later places are announced in the handout's winner wording, in order.
                    self.out
                        .println(FINISHES, &format!("{} player wins!!!", colour.name()));
                    finished.push(colour);
                    if !self.readings.play_for_places || finished.len() == 3 {
                        return;
                    }
                }
            }
            self.end_round();
            self.round += 1;
        }
    }

    fn turn(&mut self, colour: Colour) {
        let mut sixes = 0;
        // Extra rolls earned and not yet taken (only counted when a six and a capture each
        // earn one).
        let mut owed = 0u32;
        loop {
            let roll = self.rng.die();
            self.say(&format!("{} player rolled {roll}.", colour.name()));
            sixes = if roll == 6 { sixes + 1 } else { 0 };
            if sixes == 3 {
                self.break_blockade(colour);
                return;
            }
            self.cs13_threes(colour, roll);
            let captured = self.act(colour, roll);
            if self.board.all_home(colour) {
                return;
            }
            if self.readings.six_capture_two_rolls {
                owed = (owed + u32::from(roll == 6) + u32::from(captured)).min(2);
                if owed == 0 {
                    return;
                }
                owed -= 1;
            } else if !(roll == 6 || captured) {
                return;
            }
        }
    }

    /// CS-13: three threes in a row send a briefed piece to base.
    fn cs13_threes(&mut self, colour: Colour, roll: u32) {
        let count = &mut self.threes[colour.index()];
        *count = if roll == 3 { *count + 1 } else { 0 };
        if *count < 3 {
            return;
        }
        *count = 0;
        for id in PieceId::all(colour) {
            if briefed_in(self.board.piece(id).briefing, self.round)
                && matches!(self.board.piece(id).loc, Loc::Square(_))
            {
                self.say(&format!(
                    "{} piece {id} is movement-restricted and has rolled three consecutively. Teleporting piece {id} to base.",
                    colour.name()
                ));
                self.board.piece_mut(id).reset();
            }
        }
    }

    /// CS-6: on the third six a blockade is broken: all pieces but one move on in their own
    /// direction, six squares between them.
    fn break_blockade(&mut self, colour: Colour) {
        let Some(block) = block_moves_with(&self.board, colour, 6, self.round, &self.readings)
            .into_iter()
            .next()
        else {
            return;
        };
        let movers: Vec<PieceId> = block.members.iter().skip(1).map(|m| m.0).collect();
        let steps = 6 / movers.len() as u32;
        for id in movers {
            let Some(dir) = self.board.piece(id).dir else {
                continue;
            };
            match self
                .board
                .walk(id, dir, steps, self.readings.enter_policy(), 1, true)
            {
                Walk::Reached { dest, passes } => {
                    self.move_piece(id, dest, passes, steps, dir);
                    self.land(id, dest, &[id]);
                }
                Walk::Blocked {
                    before,
                    steps_done,
                    passes,
                    ..
                } if steps_done > 0 => {
                    self.move_piece(id, before, passes, steps_done, dir);
                    self.land(id, before, &[id]);
                }
                _ => {}
            }
        }
    }

    fn choose(&mut self, colour: Colour, roll: u32) -> Option<Choice> {
        let opts = options(&self.board, colour, roll, self.round, &self.readings);
        let board = &self.board;
        let policy = self.readings.enter_policy();
        let closest = |moves: Vec<&SingleMove>| {
            moves
                .into_iter()
                .min_by_key(|m| (board.distance_home_under(m.id, policy), m.id.index))
                .cloned()
        };
        let own_at = |dest: Loc| dest.square().is_some_and(|n| board.count_at(colour, n) > 0);
        let in_block = |id: PieceId| {
            board
                .piece(id)
                .loc
                .square()
                .is_some_and(|n| board.count_at(colour, n) >= 2)
        };
        let captures: Vec<&SingleMove> = opts
            .singles
            .iter()
            .filter(|m| captures_at(board, colour, m.dest))
            .collect();
        let choice = match colour {
            Colour::Red => {
                // The capture whose victim is closest to its own home.
                let victim_distance = |dest: Loc| {
                    dest.square()
                        .map(|n| {
                            board
                                .opponents_at(colour, n)
                                .into_iter()
                                .map(|v| board.distance_home(v))
                                .min()
                                .unwrap_or(u32::MAX)
                        })
                        .unwrap_or(u32::MAX)
                };
                let entry_capture = opts
                    .enter
                    .filter(|_| captures_at(board, colour, Loc::Square(colour.start())));
                let best_capture = captures
                    .iter()
                    .min_by_key(|m| (victim_distance(m.dest), m.id.index))
                    .map(|m| (*m).clone());
                match (best_capture, entry_capture) {
                    (Some(m), Some(e)) => {
                        if victim_distance(Loc::Square(colour.start())) < victim_distance(m.dest) {
                            Some(Choice::Enter(e))
                        } else {
                            Some(Choice::Single(m))
                        }
                    }
                    (Some(m), None) => Some(Choice::Single(m)),
                    (None, Some(e)) => Some(Choice::Enter(e)),
                    (None, None) => opts.enter.map(Choice::Enter).or_else(|| {
                        closest(opts.singles.iter().filter(|m| !own_at(m.dest)).collect())
                            .or_else(|| closest(opts.singles.iter().collect()))
                            .map(Choice::Single)
                    }),
                }
            }
            Colour::Green => {
                let making_block =
                    closest(opts.singles.iter().filter(|m| own_at(m.dest)).collect());
                match (opts.enter, making_block) {
                    (Some(_), Some(m)) => Some(Choice::Single(m)),
                    (Some(e), None) => Some(Choice::Enter(e)),
                    (None, _) => closest(opts.singles.iter().filter(|m| !in_block(m.id)).collect())
                        .map(Choice::Single)
                        .or_else(|| opts.blocks.first().cloned().map(Choice::Block))
                        .or_else(|| closest(opts.singles.iter().collect()).map(Choice::Single)),
                }
            }
            Colour::Yellow => opts.enter.map(Choice::Enter).or_else(|| {
                closest(
                    captures
                        .iter()
                        .copied()
                        .filter(|m| board.piece(m.id).captures == 0)
                        .collect(),
                )
                .or_else(|| closest(opts.singles.iter().collect()))
                .map(Choice::Single)
            }),
            Colour::Blue => {
                let start = match self.blue_last {
                    Some((round, index))
                        if self.readings.blue_cycle_per_round && round == self.round =>
                    {
                        index
                    }
                    _ => self.blue_next,
                };
                let cycle = (0..4).map(|k| PieceId {
                    colour,
                    index: (start + k) % 4,
                });
                let single = |id: PieceId| opts.singles.iter().find(|m| m.id == id);
                let cell = self
                    .mystery
                    .filter(|_| self.readings.blue_mystery)
                    .map(|(n, _)| Loc::Square(n));
                let onto_cell = |id: PieceId, dir: Dir| {
                    board.piece(id).dir == Some(dir)
                        && single(id).is_some_and(|m| Some(m.dest) == cell)
                };
                let pick = |skip: &dyn Fn(PieceId) -> bool| {
                    cycle.clone().find_map(|id| {
                        if opts.enter.is_some() && board.piece(id).loc == Loc::Base {
                            Some(Choice::Enter(id))
                        } else {
                            single(id)
                                .filter(|_| !skip(id))
                                .cloned()
                                .map(Choice::Single)
                        }
                    })
                };
                cycle
                    .clone()
                    .find(|&id| onto_cell(id, Dir::CounterClockwise))
                    .and_then(single)
                    .cloned()
                    .map(Choice::Single)
                    .or_else(|| pick(&|id| onto_cell(id, Dir::Clockwise)))
                    .or_else(|| pick(&|_| false))
            }
        };
        choice
            .or_else(|| opts.blocks.first().cloned().map(Choice::Block))
            .or_else(|| {
                opts.stopped
                    .iter()
                    .max_by_key(|s| (s.steps, std::cmp::Reverse(s.id.index)))
                    .cloned()
                    .map(Choice::Stopped)
            })
    }

    /// Plays one roll; true when it captured (a bonus roll, CS-2).
    fn act(&mut self, colour: Colour, roll: u32) -> bool {
        let Some(choice) = self.choose(colour, roll) else {
            return false;
        };
        let name = colour.name();
        match choice {
            Choice::Enter(id) => {
                if colour == Colour::Blue {
                    self.blue_next = (id.index + 1) % 4;
                    self.blue_last = Some((self.round, id.index));
                }
                let x = colour.start();
                let dir = if self.rng.below(2) == 0 {
                    Dir::Clockwise
                } else {
                    Dir::CounterClockwise
                };
                let piece = self.board.piece_mut(id);
                piece.reset();
                piece.loc = Loc::Square(x);
                piece.dir = Some(dir);
                self.first_entry_round.get_or_insert(self.round);
                self.say(&format!(
                    "{name} player moves piece {id} to the starting point."
                ));
                self.say(&self.count_line(colour));
                self.capture(id, x, &[id])
            }
            Choice::Single(m) => {
                if colour == Colour::Blue {
                    self.blue_next = (m.id.index + 1) % 4;
                    self.blue_last = Some((self.round, m.id.index));
                }
                let dir = self.board.piece(m.id).dir.unwrap_or(Dir::Clockwise);
                self.move_piece(m.id, m.dest, m.passes, m.steps, dir);
                self.land(m.id, m.dest, &[m.id])
            }
            Choice::Block(block) => {
                for &(id, dest, passes) in &block.members {
                    self.move_piece(id, dest, passes, block.steps, block.dir);
                }
                let mut captured = false;
                for &(id, dest, _) in &block.members {
                    if let Loc::Square(n) = dest {
                        let group: Vec<PieceId> = block
                            .members
                            .iter()
                            .filter(|m| m.1 == dest)
                            .map(|m| m.0)
                            .collect();
                        captured |= self.capture(id, n, &group);
                    }
                }
                for &(id, dest, _) in &block.members {
                    self.mystery_landing(id, dest);
                }
                captured
            }
            Choice::Stopped(s) => {
                let piece = self.board.piece(s.id).clone();
                let by = s.by;
                self.say(&format!(
                    "{name} piece {} is blocked from moving from {} to {} by {} piece {by}.",
                    s.id,
                    piece.loc.render(colour),
                    s.would.render(colour),
                    by.colour.name()
                ));
                if s.steps == 0 {
                    self.say(&format!("{name} does not have other pieces on the board to move instead of the blocked piece. Ignoring the throw and moving on to the next player."));
                    return false;
                }
                self.say(&format!("{name} does not have other pieces on the board to move instead of the blocked piece. Moved the piece to square {} which is the cell before the block.", s.before.render(colour)));
                let moved = self.board.piece_mut(s.id);
                moved.loc = s.before;
                moved.passes = s.passes;
                self.land(s.id, s.before, &[s.id])
            }
        }
    }

    fn move_piece(&mut self, id: PieceId, dest: Loc, passes: u32, steps: u32, dir: Dir) {
        let colour = id.colour;
        let from = self.board.piece(id).loc;
        self.say(&format!(
            "{} moves piece {id} from location {} to {} by {steps} units in {} direction.",
            colour.name(),
            from.render(colour),
            dest.render(colour),
            dir.word()
        ));
        let piece = self.board.piece_mut(id);
        piece.loc = dest;
        piece.passes = passes;
    }

    /// Captures on the landing square, then the mystery cell.
    fn land(&mut self, id: PieceId, dest: Loc, group: &[PieceId]) -> bool {
        let captured = dest.square().is_some_and(|n| self.capture(id, n, group));
        self.mystery_landing(id, dest);
        captured
    }

    /// Sends every opposing piece on `square` to base (Rule 6, CS-8, CS-9).
    fn capture(&mut self, id: PieceId, square: u8, group: &[PieceId]) -> bool {
        let victims = self.board.opponents_at(id.colour, square);
        if victims.is_empty() || self.board.piece(id).loc != Loc::Square(square) {
            return false;
        }
        for victim in victims {
            self.say(&format!(
                "{} piece {id} lands on square {square}, captures {} piece {victim}, and returns it to the base.",
                id.colour.name(),
                victim.colour.name()
            ));
            self.board.piece_mut(victim).reset();
            self.say(&self.count_line(id.colour));
        }
        for &member in group {
            self.board.piece_mut(member).captures += 1;
        }
        true
    }

    fn count_line(&self, colour: Colour) -> String {
        let counts = self.board.counts(colour);
        format!(
            "{} player now has {}/4 on pieces on the board and {}/4 pieces on the base.",
            colour.name(),
            counts.standard + counts.home_path,
            counts.base
        )
    }

    /// CS-11 to CS-14 for a piece that ended a move on the mystery cell.
    fn mystery_landing(&mut self, id: PieceId, dest: Loc) {
        let Some((cell, _)) = self.mystery else {
            return;
        };
        if dest != Loc::Square(cell) || self.board.piece(id).loc != dest {
            return;
        }
        let colour = id.colour;
        let name = colour.name();
        let place = ["Bhawana", "Kotuwa", "Pita-Kotuwa", "Base", "X", "Approach"]
            [self.rng.below(6) as usize];
        self.say(&format!(
            "{name} player lands on a mystery cell and is teleported to {place}."
        ));
        self.say(&format!("{name} piece {id} teleported to {place}."));
        let round = self.round;
        let layout = self.layout;
        match place {
            "Bhawana" => {
                self.board.piece_mut(id).loc = Loc::Square(layout.bhawana);
                let aura = if self.rng.below(2) == 0 {
                    self.say(&format!(
                        "{name} piece {id} feels energized, and movement speed doubles."
                    ));
                    Aura::Energised
                } else {
                    self.say(&format!(
                        "{name} piece {id} feels sick, and movement speed halves."
                    ));
                    Aura::Sick
                };
                self.board.piece_mut(id).aura = Some((aura, round));
            }
            "Kotuwa" => self.brief(id, layout.kotuwa),
            "Pita-Kotuwa" => {
                self.board.piece_mut(id).loc = Loc::Square(layout.pita_kotuwa);
                if self.board.piece(id).dir == Some(Dir::Clockwise) {
                    self.say(&format!("The {name} piece {id}, which was moving clockwise, has changed to moving counterclockwise."));
                    let piece = self.board.piece_mut(id);
                    piece.dir = Some(Dir::CounterClockwise);
                    piece.turned = true;
                } else {
                    self.say(&format!("The {name} piece {id} is moving in a counterclockwise direction. Teleporting to Kotuwa from Pita-Kotuwa."));
                    self.brief(id, layout.kotuwa);
                }
            }
            "Base" => self.board.piece_mut(id).reset(),
            "X" => self.board.piece_mut(id).loc = Loc::Square(colour.start()),
            _ => self.board.piece_mut(id).loc = Loc::Square(colour.approach()),
        }
    }

    fn brief(&mut self, id: PieceId, kotuwa: u8) {
        self.say(&format!(
            "{} piece {id} attends briefing and cannot move for four rounds.",
            id.colour.name()
        ));
        let piece = self.board.piece_mut(id);
        piece.loc = Loc::Square(kotuwa);
        piece.briefing = Some(self.round);
    }

    fn end_round(&mut self) {
        for colour in Colour::SEATING {
            self.say(&self.count_line(colour));
            self.say("============================");
            self.say(&format!("Location of pieces {}", colour.name()));
            self.say("============================");
            for id in PieceId::all(colour) {
                let loc = self.board.piece(id).loc.render(colour);
                self.say(&format!("Piece {id} -> {loc}"));
            }
        }
        match self.mystery {
            Some((cell, left)) => {
                self.say(&format!(
                    "The mystery cell is at {cell} and will be at that location for the next {} rounds.",
                    left - 1
                ));
                if left > 1 {
                    self.mystery = Some((cell, left - 1));
                } else {
                    self.spawn_mystery();
                }
            }
            None => {
                if self
                    .first_entry_round
                    .is_some_and(|first| self.round >= first + 2)
                {
                    self.spawn_mystery();
                }
            }
        }
    }

    /// CS-10: on an empty square, never where the last one was.
    fn spawn_mystery(&mut self) {
        let free: Vec<u8> = (0..SQUARES)
            .filter(|&n| self.board.on_square(n).is_empty() && Some(n) != self.last_mystery)
            .collect();
        if free.is_empty() {
            self.mystery = None;
            return;
        }
        let cell = free[self.rng.below(free.len() as u32) as usize];
        self.mystery = Some((cell, MYSTERY_ROUNDS));
        self.last_mystery = Some(cell);
        self.say(&format!("A mystery cell has spawned in location {cell} and will be at this location for the next four rounds."));
    }
}
