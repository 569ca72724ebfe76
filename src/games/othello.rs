//! Othello with flip-count scoring (Hacettepe BBM103 PA5): a whole game per program case.
//! Rules, and decisions the course's rulings leave open: `specs/othello/README.md`.

use serde::Deserialize;

use super::{Game, Prepared, Transcript};
use crate::error::Error;
use crate::games::CaseSpec;

/// Rubric items (a contract: `specs/othello/spec.toml` uses the same ids).
pub const ARGUMENTS: &str = "arguments";
pub const BOARD: &str = "board";
pub const MOVES: &str = "moves";
pub const PASSING: &str = "passing";
pub const SCORING: &str = "scoring";

pub const COUNT_ERROR: &str = "Error : Invalid number of command line arguments.";
pub const FORMAT_ERROR: &str = "Error : Invalid format for command line arguments. The size argument should be an even positive integer number greater then or equal to 4.";
pub const INVALID_MOVE: &str = "Error : Invalid move. Please make another move : ";
pub const GAME_OVER: &str = "Game over.";

/// The largest size the cases use (the ruling: tests use sizes up to 26).
pub const MAX_SIZE: usize = 26;

/// A piece's value stops growing after this many flips.
const FLIPS_THAT_SCORE: u32 = 4;

const DIRECTIONS: [(isize, isize); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    Black,
    White,
}

impl Colour {
    pub fn other(self) -> Self {
        match self {
            Colour::Black => Colour::White,
            Colour::White => Colour::Black,
        }
    }

    fn symbol(self) -> char {
        match self {
            Colour::Black => 'X',
            Colour::White => 'O',
        }
    }

    fn name(self) -> &'static str {
        match self {
            Colour::Black => "Black",
            Colour::White => "White",
        }
    }
}

/// A piece on the board: the colour showing, its value and how often it was flipped.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Piece {
    pub colour: Colour,
    pub value: u64,
    pub flips: u32,
}

impl Piece {
    fn placed(colour: Colour) -> Self {
        Piece {
            colour,
            value: 1,
            flips: 0,
        }
    }
}

/// An n x n board, rows and columns indexed from 0 here and printed from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    n: usize,
    cells: Vec<Option<Piece>>,
}

impl Board {
    /// The starting position: O on the main-diagonal centre cells, X on the other two.
    pub fn new(n: usize) -> Self {
        let mut board = Board {
            n,
            cells: vec![None; n * n],
        };
        let h = n / 2;
        board.cells[(h - 1) * n + (h - 1)] = Some(Piece::placed(Colour::White));
        board.cells[h * n + h] = Some(Piece::placed(Colour::White));
        board.cells[(h - 1) * n + h] = Some(Piece::placed(Colour::Black));
        board.cells[h * n + (h - 1)] = Some(Piece::placed(Colour::Black));
        board
    }

    pub fn n(&self) -> usize {
        self.n
    }

    pub fn get(&self, row: usize, col: usize) -> Option<Piece> {
        self.cells[row * self.n + col]
    }

    /// The cell one step from (row, col) in direction (dr, dc), if it is on the board.
    fn step(&self, row: usize, col: usize, (dr, dc): (isize, isize)) -> Option<(usize, usize)> {
        let r = row.checked_add_signed(dr).filter(|&r| r < self.n)?;
        let c = col.checked_add_signed(dc).filter(|&c| c < self.n)?;
        Some((r, c))
    }

    /// The pieces a move of `colour` at (row, col) would flip, in direction order; empty when
    /// the cell is occupied or the move closes no run.
    pub fn flips(&self, row: usize, col: usize, colour: Colour) -> Vec<(usize, usize)> {
        let mut flipped = Vec::new();
        if self.get(row, col).is_some() {
            return flipped;
        }
        for direction in DIRECTIONS {
            let mut run = Vec::new();
            let mut at = self.step(row, col, direction);
            while let Some((r, c)) = at {
                match self.get(r, c) {
                    Some(piece) if piece.colour != colour => run.push((r, c)),
                    Some(_) => {
                        flipped.extend_from_slice(&run);
                        break;
                    }
                    None => break,
                }
                at = self.step(r, c, direction);
            }
        }
        flipped
    }

    /// Every legal move of `colour`, row by row, then column by column.
    pub fn legal_moves(&self, colour: Colour) -> Vec<(usize, usize)> {
        let n = self.n;
        (0..n)
            .flat_map(|r| (0..n).map(move |c| (r, c)))
            .filter(|&(r, c)| !self.flips(r, c, colour).is_empty())
            .collect()
    }

    pub fn has_move(&self, colour: Colour) -> bool {
        let n = self.n;
        (0..n).any(|r| (0..n).any(|c| !self.flips(r, c, colour).is_empty()))
    }

    pub fn is_full(&self) -> bool {
        self.cells.iter().all(Option::is_some)
    }

    /// Plays a move: places a piece worth 1, flips every closed run, and adds the number of
    /// flipped pieces to the value of each flipped piece that was flipped fewer than four
    /// times before. Returns false (and changes nothing) for an illegal move.
    pub fn play(&mut self, row: usize, col: usize, colour: Colour) -> bool {
        let flipped = self.flips(row, col, colour);
        if flipped.is_empty() {
            return false;
        }
        let gain = flipped.len() as u64;
        for (r, c) in flipped {
            if let Some(piece) = self.cells[r * self.n + c].as_mut() {
                piece.colour = colour;
                if piece.flips < FLIPS_THAT_SCORE {
                    piece.value += gain;
                }
                piece.flips += 1;
            }
        }
        self.cells[row * self.n + col] = Some(Piece::placed(colour));
        true
    }

    /// (pieces, points) of `colour`.
    pub fn score(&self, colour: Colour) -> (usize, u64) {
        self.cells
            .iter()
            .flatten()
            .filter(|piece| piece.colour == colour)
            .fold((0, 0), |(pieces, points), piece| {
                (pieces + 1, points + piece.value)
            })
    }

    /// The printout: three-character right-aligned fields, numbered from 1.
    pub fn render(&self) -> String {
        let mut out = String::from("   ");
        for c in 1..=self.n {
            out.push_str(&format!("{c:3}"));
        }
        out.push('\n');
        for r in 0..self.n {
            out.push_str(&format!("{:3}", r + 1));
            for c in 0..self.n {
                let symbol = self.get(r, c).map_or('.', |piece| piece.colour.symbol());
                out.push_str(&format!("{symbol:>3}"));
            }
            out.push('\n');
        }
        out
    }
}

/// A move line as ruled: two decimal integers separated by blanks, blanks allowed around.
/// Returns the 1-based (row, col); `None` for anything else (numbers too long for u64 are
/// off the board anyway).
pub fn parse_move(line: &str) -> Option<(u64, u64)> {
    let mut tokens = line.split([' ', '\t']).filter(|token| !token.is_empty());
    let mut number = || {
        tokens
            .next()
            .filter(|token| token.bytes().all(|b| b.is_ascii_digit()))
            .and_then(|token| token.parse::<u64>().ok())
    };
    let (row, col) = (number()?, number()?);
    match tokens.next() {
        Some(_) => None,
        None => Some((row, col)),
    }
}

/// What the command line asks for: a game of this size, or an error message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Command {
    Play(usize),
    Reject(&'static str),
}

/// Validates argv (without the program name). A valid size above `MAX_SIZE` is outside what
/// the ruling tests, so it is a case error.
pub fn check_args(case: &CaseSpec, args: &[String]) -> Result<Command, Error> {
    let [size] = args else {
        return Ok(Command::Reject(COUNT_ERROR));
    };
    if size.is_empty() || !size.bytes().all(|b| b.is_ascii_digit()) {
        return Ok(Command::Reject(FORMAT_ERROR));
    }
    let odd = size.bytes().last().is_some_and(|b| (b - b'0') % 2 == 1);
    let digits = size.trim_start_matches('0');
    let small = digits.len() <= 2;
    let value = if small {
        digits.parse().unwrap_or(0)
    } else {
        0
    };
    if odd || (small && value < 4) {
        return Ok(Command::Reject(FORMAT_ERROR));
    }
    if !small || value > MAX_SIZE {
        return Err(case.error(format!(
            "size '{size}' is valid but above {MAX_SIZE}, which the ruling leaves untested"
        )));
    }
    Ok(Command::Play(value))
}

/// How the reference chooses each legal move once the literal `moves` run out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Policy {
    /// The first legal move, row by row, then column by column.
    FirstLegal,
    /// A legal move drawn with the case's seed.
    RandomLegal,
    /// The legal move after which the mover has the most points (first such on ties).
    GreedyPoints,
}

/// The kinds of invalid line `invalid_every` sprinkles in, in turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Invalid {
    Letters,
    OneNumber,
    ThreeNumbers,
    OutOfRange,
    Occupied,
    NoFlip,
    Sign,
    Empty,
}

const INVALID_KINDS: [Invalid; 8] = [
    Invalid::Letters,
    Invalid::OneNumber,
    Invalid::ThreeNumbers,
    Invalid::OutOfRange,
    Invalid::Occupied,
    Invalid::NoFlip,
    Invalid::Sign,
    Invalid::Empty,
];

/// splitmix64: a small deterministic generator for the reference's own choices (the C
/// program never draws random numbers).
#[derive(Debug, Clone)]
struct SplitMix64(u64);

impl SplitMix64 {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, bound: usize) -> usize {
        (self.next() % bound as u64) as usize
    }
}

/// One whole run: argv, then the input lines.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct ProgramCase {
    /// Shorthand for `args = ["<size>"]`.
    size: Option<usize>,
    /// The arguments after the program name, verbatim.
    args: Option<Vec<String>>,
    /// Literal input lines, used first (valid or not).
    #[serde(default)]
    moves: Vec<String>,
    /// Chooses the moves after the literal ones; without it input ends there.
    policy: Option<Policy>,
    #[serde(default)]
    seed: u64,
    /// After every k-th policy move, one invalid line before the next policy move.
    invalid_every: Option<usize>,
    /// Input ends once this many moves were accepted (a game cut short).
    stop_after: Option<usize>,
}

/// Produces stdin one line at a time, looking at the position the program is in.
struct InputPlan {
    literal: std::vec::IntoIter<String>,
    policy: Option<Policy>,
    rng: SplitMix64,
    invalid_every: Option<usize>,
    stop_after: Option<usize>,
    accepted: usize,
    policy_moves: usize,
    invalid_due: bool,
    invalid_kind: usize,
}

impl InputPlan {
    fn new(input: &ProgramCase) -> Self {
        InputPlan {
            literal: input.moves.clone().into_iter(),
            policy: input.policy,
            rng: SplitMix64(input.seed),
            invalid_every: input.invalid_every,
            stop_after: input.stop_after,
            accepted: 0,
            policy_moves: 0,
            invalid_due: false,
            invalid_kind: 0,
        }
    }

    /// The next line the program reads, or `None` at end of input.
    fn next_line(&mut self, board: &Board, mover: Colour) -> Option<String> {
        if self.stop_after.is_some_and(|stop| self.accepted >= stop) {
            return None;
        }
        if let Some(line) = self.literal.next() {
            return Some(line);
        }
        let policy = self.policy?;
        if self.invalid_due {
            self.invalid_due = false;
            if let Some(line) = self.invalid_line(board, mover) {
                return Some(line);
            }
        }
        let moves = board.legal_moves(mover);
        let (row, col) = match policy {
            Policy::FirstLegal => *moves.first()?,
            Policy::RandomLegal if !moves.is_empty() => moves[self.rng.below(moves.len())],
            Policy::RandomLegal => return None,
            Policy::GreedyPoints => greedy(board, &moves, mover)?,
        };
        self.policy_moves += 1;
        self.invalid_due = self
            .invalid_every
            .is_some_and(|every| self.policy_moves % every == 0);
        Some(format!("{} {}", row + 1, col + 1))
    }

    /// The next kind of invalid line that exists in this position.
    fn invalid_line(&mut self, board: &Board, mover: Colour) -> Option<String> {
        let n = board.n();
        for _ in 0..INVALID_KINDS.len() {
            let kind = INVALID_KINDS[self.invalid_kind % INVALID_KINDS.len()];
            self.invalid_kind += 1;
            let pick = self.rng.below(n);
            let line = match kind {
                Invalid::Letters => Some(["a b", "row col", "3 c", "x"][pick % 4].to_string()),
                Invalid::OneNumber => Some(format!("{}", pick + 1)),
                Invalid::ThreeNumbers => Some(format!("{} {} 1", pick + 1, n - pick)),
                Invalid::OutOfRange => Some(match pick % 4 {
                    0 => format!("{} {}", n + 1, pick + 1),
                    1 => format!("{} 0", pick + 1),
                    2 => format!("0 {}", pick + 1),
                    _ => format!("{} {}", pick + 1, n + 1),
                }),
                Invalid::Occupied => {
                    let occupied: Vec<_> = (0..n * n)
                        .filter(|&i| board.get(i / n, i % n).is_some())
                        .collect();
                    (!occupied.is_empty()).then(|| {
                        let at = occupied[self.rng.below(occupied.len())];
                        format!("{} {}", at / n + 1, at % n + 1)
                    })
                }
                Invalid::NoFlip => {
                    let dead: Vec<_> = (0..n * n)
                        .filter(|&i| {
                            board.get(i / n, i % n).is_none()
                                && board.flips(i / n, i % n, mover).is_empty()
                        })
                        .collect();
                    (!dead.is_empty()).then(|| {
                        let at = dead[self.rng.below(dead.len())];
                        format!("{} {}", at / n + 1, at % n + 1)
                    })
                }
                Invalid::Sign => Some(format!("+{} -{}", pick + 1, pick + 1)),
                Invalid::Empty => Some(String::new()),
            };
            if line.is_some() {
                return line;
            }
        }
        None
    }
}

/// The legal move after which `mover` has the most points; the first one on ties.
fn greedy(board: &Board, moves: &[(usize, usize)], mover: Colour) -> Option<(usize, usize)> {
    let mut best: Option<((usize, usize), u64)> = None;
    for &(row, col) in moves {
        let mut after = board.clone();
        after.play(row, col, mover);
        let points = after.score(mover).1;
        match best {
            Some((_, most)) if points <= most => {}
            _ => best = Some(((row, col), points)),
        }
    }
    best.map(|(at, _)| at)
}

fn print_scores(out: &mut Transcript, board: &Board) {
    out.println(SCORING, GAME_OVER);
    for colour in [Colour::Black, Colour::White] {
        let (pieces, points) = board.score(colour);
        out.println(
            SCORING,
            &format!("{}: {pieces} pieces, {points} points", colour.name()),
        );
    }
}

/// Plays a whole game as the program must, feeding it the plan's lines.
/// Returns stdin, the tagged transcript and the final position.
fn play(n: usize, plan: &mut InputPlan) -> (String, Transcript, Board) {
    let mut stdin = String::new();
    let mut out = Transcript::new();
    let mut board = Board::new(n);
    out.print(BOARD, &board.render());
    let mut mover = Colour::Black;
    for turn in 1.. {
        out.begin_turn(format!("turn {turn}, {}", mover.name()), board.render());
        let can_move = board.has_move(mover);
        if board.is_full() || (!can_move && !board.has_move(mover.other())) {
            print_scores(&mut out, &board);
            break;
        }
        if !can_move {
            out.println(
                PASSING,
                &format!("{} has no legal move and passes.", mover.name()),
            );
            mover = mover.other();
        }
        out.print(MOVES, &format!("{}'s move: ", mover.name()));
        loop {
            let Some(line) = plan.next_line(&board, mover) else {
                // End of input: `Game over.` follows the open prompt on the same line.
                print_scores(&mut out, &board);
                return (stdin, out, board);
            };
            stdin.push_str(&line);
            stdin.push('\n');
            let accepted = parse_move(&line).is_some_and(|(row, col)| {
                (1..=n as u64).contains(&row)
                    && (1..=n as u64).contains(&col)
                    && board.play(row as usize - 1, col as usize - 1, mover)
            });
            if accepted {
                plan.accepted += 1;
                break;
            }
            out.print(MOVES, INVALID_MOVE);
        }
        out.print(BOARD, &board.render());
        mover = mover.other();
    }
    (stdin, out, board)
}

fn run_program(case: &CaseSpec, input: &ProgramCase) -> Result<Prepared, Error> {
    let args = match (&input.args, input.size) {
        (Some(args), None) => args.clone(),
        (None, Some(size)) => vec![size.to_string()],
        _ => return Err(case.error("give exactly one of `size` and `args`")),
    };
    if input.invalid_every == Some(0) {
        return Err(case.error("invalid_every must be at least 1"));
    }
    if let Some(line) = input.moves.iter().find(|line| line.contains(['\n', '\r'])) {
        return Err(case.error(format!("move line {line:?} holds a line break")));
    }
    let (stdin, out) = match check_args(case, &args)? {
        Command::Reject(message) => {
            if !input.moves.is_empty() || input.policy.is_some() {
                return Err(case.error("a rejected command line reads no moves"));
            }
            let mut out = Transcript::new();
            out.println(ARGUMENTS, message);
            (String::new(), out)
        }
        Command::Play(n) => {
            let (stdin, out, _) = play(n, &mut InputPlan::new(input));
            (stdin, out)
        }
    };
    let mut prepared = Prepared::program(stdin, out);
    prepared.args = args;
    Ok(prepared)
}

pub struct Othello;

impl Game for Othello {
    fn id(&self) -> &'static str {
        "othello"
    }

    fn prepare_program(&self, case: &CaseSpec) -> Result<Prepared, Error> {
        run_program(case, &case.parse()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{CaseKind, Expectation};

    fn case(fields: &str) -> CaseSpec {
        CaseSpec {
            name: "t".into(),
            kind: CaseKind::Program,
            description: None,
            file: "test.toml".into(),
            fields: toml::from_str(fields).expect("test fields are valid TOML"),
        }
    }

    fn run(fields: &str) -> (Prepared, Transcript) {
        run_with(&case(fields))
    }

    fn run_with(case: &CaseSpec) -> (Prepared, Transcript) {
        let prepared = Othello.prepare(case).expect("valid case");
        let transcript = match &prepared.expect {
            Expectation::Transcript(t) => t.clone(),
            Expectation::Trace { .. } => unreachable!("othello has no trace cases"),
        };
        (prepared, transcript)
    }

    fn empty_board(n: usize) -> Board {
        Board {
            n,
            cells: vec![None; n * n],
        }
    }

    fn put(board: &mut Board, row: usize, col: usize, colour: Colour) {
        board.cells[row * board.n + col] = Some(Piece::placed(colour));
    }

    #[test]
    fn the_start_position_matches_the_ruling() {
        let expected =
            "     1  2  3  4\n  1  .  .  .  .\n  2  .  O  X  .\n  3  .  X  O  .\n  4  .  .  .  .\n";
        assert_eq!(Board::new(4).render(), expected);
        let wide = Board::new(12).render();
        assert!(wide.starts_with("     1  2  3  4  5  6  7  8  9 10 11 12\n"));
        assert!(wide.contains("\n 12  .  .  .  .  .  .  .  .  .  .  .  .\n"));
    }

    #[test]
    fn a_move_flips_closed_runs_in_all_eight_directions_and_only_those() {
        let mut board = empty_board(8);
        for (dr, dc) in DIRECTIONS {
            let (r, c) = ((3 + dr) as usize, (3 + dc) as usize);
            put(&mut board, r, c, Colour::White);
            put(
                &mut board,
                (3 + 2 * dr) as usize,
                (3 + 2 * dc) as usize,
                Colour::Black,
            );
        }
        // An open run (no closing black piece) stays white.
        put(&mut board, 3, 6, Colour::White);
        put(&mut board, 3, 7, Colour::White);
        board.cells[3 * 8 + 5] = None;
        put(&mut board, 3, 4, Colour::White);
        assert!(board.play(3, 3, Colour::Black));
        for (dr, dc) in DIRECTIONS.into_iter().filter(|&d| d != (0, 1)) {
            let piece = board
                .get((3 + dr) as usize, (3 + dc) as usize)
                .expect("a piece");
            assert_eq!(piece.colour, Colour::Black, "direction {dr},{dc}");
            assert_eq!((piece.value, piece.flips), (1 + 7, 1));
        }
        assert_eq!(board.get(3, 4).map(|p| p.colour), Some(Colour::White));
    }

    #[test]
    fn occupied_out_of_reach_and_flipless_moves_are_refused() {
        let mut board = Board::new(4);
        assert!(!board.play(1, 1, Colour::Black));
        assert!(!board.play(0, 0, Colour::Black));
        assert_eq!(board, Board::new(4));
        assert_eq!(
            board.legal_moves(Colour::Black),
            vec![(0, 1), (1, 0), (2, 3), (3, 2)]
        );
    }

    #[test]
    fn a_piece_gains_value_for_its_first_four_flips_only() {
        // A white piece at (0,1) between an empty (0,0) and a black (0,2), flipped back and forth.
        let mut board = empty_board(4);
        put(&mut board, 0, 1, Colour::White);
        put(&mut board, 0, 2, Colour::Black);
        let mut mover = Colour::Black;
        for flip in 1..=6u64 {
            board.cells[0] = None;
            let closer = board.get(0, 1).map(|p| p.colour.other());
            assert_eq!(closer, Some(mover));
            board.cells[2] = closer.map(Piece::placed);
            assert!(board.play(0, 0, mover));
            let piece = board.get(0, 1).expect("the flipped piece");
            assert_eq!(piece.flips, flip as u32);
            assert_eq!(piece.value, 1 + flip.min(4));
            mover = mover.other();
        }
    }

    #[test]
    fn each_flipped_piece_gains_the_number_flipped_that_turn() {
        let mut board = Board::new(4);
        assert!(board.play(0, 1, Colour::Black));
        assert_eq!(board.score(Colour::Black), (4, 1 + 1 + 1 + 2));
        assert_eq!(board.score(Colour::White), (1, 1));
    }

    #[test]
    fn move_lines_are_two_decimal_integers_with_blanks_around() {
        assert_eq!(parse_move("3 4"), Some((3, 4)));
        assert_eq!(parse_move("  3 \t 4\t "), Some((3, 4)));
        assert_eq!(parse_move("0 99"), Some((0, 99)));
        for bad in [
            "", "3", "3 4 5", "a b", "3 b", "+3 4", "3 -4", "3,4", "34x 1", "3.0 4",
        ] {
            assert_eq!(parse_move(bad), None, "{bad:?}");
        }
        assert_eq!(parse_move("99999999999999999999999 1"), None);
    }

    #[test]
    fn command_lines_are_checked_as_ruled() {
        let c = case("");
        let check =
            |args: &[&str]| check_args(&c, &args.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(check(&[]), Ok(Command::Reject(COUNT_ERROR)));
        assert_eq!(check(&["4", "6"]), Ok(Command::Reject(COUNT_ERROR)));
        for bad in [
            "",
            "5",
            "2",
            "0",
            "-4",
            "6x",
            "abc",
            "+6",
            " 6",
            "99999999999999999999",
        ] {
            assert_eq!(check(&[bad]), Ok(Command::Reject(FORMAT_ERROR)), "{bad:?}");
        }
        assert_eq!(check(&["4"]), Ok(Command::Play(4)));
        assert_eq!(check(&["26"]), Ok(Command::Play(26)));
        assert!(check(&["28"]).is_err());
        assert!(check(&["100000000000000000000"]).is_err());
    }

    #[test]
    fn a_bad_command_line_prints_one_tagged_line_and_reads_nothing() {
        let (prepared, t) = run(r#"args = ["6x"]"#);
        assert_eq!(prepared.args, vec!["6x"]);
        assert_eq!(prepared.stdin, "");
        assert_eq!(t.text(), format!("{FORMAT_ERROR}\n"));
        assert_eq!(t.items(), vec![ARGUMENTS]);
    }

    #[test]
    fn a_short_game_with_an_invalid_line_and_end_of_input() {
        let (prepared, t) = run(r#"size = 4
moves = ["1 2", "x", "1 1"]"#);
        assert_eq!(prepared.args, vec!["4"]);
        assert_eq!(prepared.stdin, "1 2\nx\n1 1\n");
        let expected = concat!(
            "     1  2  3  4\n  1  .  .  .  .\n  2  .  O  X  .\n  3  .  X  O  .\n  4  .  .  .  .\n",
            "Black's move:      1  2  3  4\n",
            "  1  .  X  .  .\n  2  .  X  X  .\n  3  .  X  O  .\n  4  .  .  .  .\n",
            "White's move: Error : Invalid move. Please make another move :      1  2  3  4\n",
            "  1  O  X  .  .\n  2  .  O  X  .\n  3  .  X  O  .\n  4  .  .  .  .\n",
            // (2,2) was flipped twice, each time with one piece: 1 + 1 + 1.
            "Black's move: Game over.\nBlack: 3 pieces, 3 points\nWhite: 3 pieces, 5 points\n",
        );
        assert_eq!(t.text(), expected);
        let tags: Vec<_> = t.lines().iter().map(|l| l.item).collect();
        assert_eq!(&tags[..5], &[BOARD; 5]);
        assert_eq!(
            tags[5], MOVES,
            "a prompt owns the board header printed after it"
        );
        assert_eq!(&tags[6..10], &[BOARD; 4]);
        assert_eq!(tags[10], MOVES);
        assert_eq!(
            tags[15], MOVES,
            "`Game over.` at end of input shares the prompt's line"
        );
        assert_eq!(&tags[16..], &[SCORING, SCORING]);
    }

    #[test]
    fn policies_play_to_the_end_and_cuts_stop_early() {
        for policy in ["first-legal", "random-legal", "greedy-points"] {
            let (_, t) = run(&format!("size = 6\npolicy = \"{policy}\"\nseed = 3"));
            let text = t.text();
            assert!(text.ends_with(" points\n"), "{policy}");
            let last_lines: Vec<_> = t.lines().iter().rev().take(3).collect();
            assert_eq!(last_lines[2].text, GAME_OVER);
            assert_eq!(last_lines[2].item, SCORING);
        }
        let (prepared, t) = run("size = 8\npolicy = \"first-legal\"\nstop_after = 5");
        assert_eq!(prepared.stdin.lines().count(), 5);
        assert!(t.text().contains("White's move: Game over.\n"));
    }

    #[test]
    fn sprinkled_invalid_lines_are_refused_and_the_game_goes_on() {
        let (prepared, t) = run(
            "size = 8\npolicy = \"random-legal\"\nseed = 11\ninvalid_every = 1\nstop_after = 20",
        );
        let invalid = t.text().matches(INVALID_MOVE).count();
        assert!(invalid >= 16, "{invalid} invalid lines");
        assert_eq!(prepared.stdin.lines().count(), 20 + invalid);
        assert!(
            prepared.stdin.contains("\n\n"),
            "an empty line is among them"
        );
    }

    #[test]
    fn literal_and_policy_inputs_are_checked() {
        for bad in [
            "size = 4\nargs = [\"4\"]",
            "moves = [\"1 2\"]",
            "size = 4\ninvalid_every = 0\npolicy = \"first-legal\"",
            "size = 4\nmoves = [\"1 2\\n3 4\"]",
            "args = [\"5\"]\nmoves = [\"1 2\"]",
            "size = 4\nplicy = \"first-legal\"",
            "size = 28",
        ] {
            assert!(Othello.prepare(&case(bad)).is_err(), "{bad}");
        }
    }

    /// The groups in `cases/othello/` show what their comments promise.
    #[test]
    fn the_case_files_show_what_their_groups_promise() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/othello");
        let cases = crate::assignment::cases::load_dir(&dir).expect("the case files load");
        assert!(cases.len() >= 40, "{} cases", cases.len());
        let mut sizes = Vec::new();
        for case in &cases {
            let input: ProgramCase = case.parse().expect("fields parse");
            let text = run_with(case).1.text();
            let group = case.file.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            let args = input
                .args
                .clone()
                .unwrap_or_else(|| vec![input.size.unwrap_or(0).to_string()]);
            let Ok(Command::Play(n)) = check_args(case, &args) else {
                assert_eq!(group, "arguments", "{}", case.name);
                continue;
            };
            let (_, _, board) = play(n, &mut InputPlan::new(&input));
            sizes.push(board.n());
            let ended_by_input = text.contains(&format!("move: {GAME_OVER}"))
                || text.contains(&format!("{INVALID_MOVE}{GAME_OVER}"));
            let name = &case.name;
            match group {
                "passing" => assert!(text.contains("no legal move and passes."), "{name}"),
                "early-end" => assert!(ended_by_input || !board.is_full(), "{name}"),
                "scoring" => assert!(
                    board
                        .cells
                        .iter()
                        .flatten()
                        .any(|p| p.flips > FLIPS_THAT_SCORE),
                    "{name}: the cap does not change the score"
                ),
                "invalid" => assert!(text.contains(INVALID_MOVE), "{name}"),
                "full-games" => assert!(!ended_by_input || name.contains("cut-short"), "{name}"),
                other => panic!("unexpected case group {other}"),
            }
            if group != "early-end" && !name.contains("cut-short") {
                assert!(!ended_by_input, "{name} should be played to the end");
            }
        }
        for size in [4, 6, 8, 10, 16] {
            assert!(sizes.contains(&size), "no game of size {size}");
        }
    }
}
