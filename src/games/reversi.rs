//! Reversi Lab 6 (APS105): board set-up, configuration, available moves, one move.
//! Rules: the course's rulings (`specs/reversi/README.md`).

use serde::Deserialize;

use super::{Game, Prepared, Transcript};
use crate::error::Error;
use crate::games::CaseSpec;

pub const BOARD: &str = "board";
pub const CONFIGURATION: &str = "configuration";
pub const AVAILABLE_MOVES: &str = "available_moves";
pub const MOVE: &str = "move";
pub const HELPERS: &str = "helpers";

const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// An n x n board of `b'U'`, `b'W'`, `b'B'`, indexed `[row][col]` from 0.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    n: usize,
    cells: Vec<Vec<u8>>,
}

impl Board {
    /// The starting position: W on the main-diagonal centre cells, B on the other two.
    pub fn new(n: usize) -> Self {
        let mut cells = vec![vec![b'U'; n]; n];
        let h = n / 2;
        cells[h - 1][h - 1] = b'W';
        cells[h][h] = b'W';
        cells[h - 1][h] = b'B';
        cells[h][h - 1] = b'B';
        Board { n, cells }
    }

    pub fn n(&self) -> usize {
        self.n
    }

    fn cell(&self, row: i32, col: i32) -> Option<u8> {
        if self.in_bounds(row, col) {
            Some(self.cells[row as usize][col as usize])
        } else {
            None
        }
    }

    fn in_bounds(&self, row: i32, col: i32) -> bool {
        (0..self.n as i32).contains(&row) && (0..self.n as i32).contains(&col)
    }

    /// A configuration line `colour row col`, applied without any checking. Cells outside
    /// the board are not graded; the reference ignores them.
    pub fn place(&mut self, colour: u8, row: u8, col: u8) {
        let (r, c) = (
            i32::from(row) - i32::from(b'a'),
            i32::from(col) - i32::from(b'a'),
        );
        if self.in_bounds(r, c) {
            self.cells[r as usize][c as usize] = colour;
        }
    }

    /// `printBoard`: column letters, then each row's letter and cells.
    pub fn render(&self) -> String {
        let mut out = String::from("  ");
        out.extend((0..self.n).map(letter));
        out.push('\n');
        for (r, row) in self.cells.iter().enumerate() {
            out.push(letter(r));
            out.push(' ');
            out.extend(row.iter().map(|&c| c as char));
            out.push('\n');
        }
        out
    }

    /// `checkLegalInDirection`: from (row, col), a run of at least one opposing tile in
    /// direction (dr, dc) closed by a tile of `colour`.
    pub fn legal_in_direction(&self, row: i32, col: i32, colour: u8, dr: i32, dc: i32) -> bool {
        let opponent = opponent(colour);
        let (mut r, mut c) = (row + dr, col + dc);
        let mut run = 0;
        while self.cell(r, c) == Some(opponent) {
            r += dr;
            c += dc;
            run += 1;
        }
        run > 0 && self.cell(r, c) == Some(colour)
    }

    /// A move is legal iff the cell is on the board, empty, and some direction flips.
    pub fn is_legal(&self, row: i32, col: i32, colour: u8) -> bool {
        self.cell(row, col) == Some(b'U')
            && DIRECTIONS
                .iter()
                .any(|&(dr, dc)| self.legal_in_direction(row, col, colour, dr, dc))
    }

    /// Every legal move of `colour`, row by row, then column by column.
    pub fn moves(&self, colour: u8) -> Vec<(usize, usize)> {
        let n = self.n;
        (0..n)
            .flat_map(|r| (0..n).map(move |c| (r, c)))
            .filter(|&(r, c)| self.is_legal(r as i32, c as i32, colour))
            .collect()
    }

    /// Plays a legal move: places the tile and flips every closed run. Returns false (and
    /// changes nothing) for an illegal one.
    pub fn play(&mut self, row: i32, col: i32, colour: u8) -> bool {
        if !self.is_legal(row, col, colour) {
            return false;
        }
        for (dr, dc) in DIRECTIONS {
            if self.legal_in_direction(row, col, colour, dr, dc) {
                let (mut r, mut c) = (row + dr, col + dc);
                while self.cell(r, c) != Some(colour) {
                    self.cells[r as usize][c as usize] = colour;
                    r += dr;
                    c += dc;
                }
            }
        }
        self.cells[row as usize][col as usize] = colour;
        true
    }
}

fn opponent(colour: u8) -> u8 {
    if colour == b'W' {
        b'B'
    } else {
        b'W'
    }
}

fn letter(index: usize) -> char {
    (b'a' + index as u8) as char
}

/// A three-character line `colour row col`, as in the configuration and the move.
#[derive(Debug, Clone, Copy)]
struct Placement {
    colour: u8,
    row: u8,
    col: u8,
}

impl Placement {
    fn parse(case: &CaseSpec, text: &str) -> Result<Self, Error> {
        match text.as_bytes() {
            &[colour, row, col] if text.is_ascii() => Ok(Placement { colour, row, col }),
            _ => Err(case.error(format!("'{text}' is not a three-character line like 'Wca'"))),
        }
    }

    fn index(self) -> (i32, i32) {
        (
            i32::from(self.row) - i32::from(b'a'),
            i32::from(self.col) - i32::from(b'a'),
        )
    }
}

/// A whole run of Lab6: dimension, configuration lines, one move.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProgramCase {
    n: usize,
    #[serde(default)]
    config: Vec<String>,
    #[serde(rename = "move")]
    mv: String,
}

/// The reference transcript of one run, tagged per the ruling.
fn run_program(case: &CaseSpec, input: &ProgramCase) -> Result<Prepared, Error> {
    check_dimension(case, input.n)?;
    let mut stdin = format!("{}\n", input.n);
    let mut out = Transcript::new();
    let mut board = Board::new(input.n);
    out.print(BOARD, "Enter the board dimension: ");
    out.print(BOARD, &board.render());

    out.println(CONFIGURATION, "Enter board configuration:");
    for line in &input.config {
        let p = Placement::parse(case, line)?;
        board.place(p.colour, p.row, p.col);
        stdin.push_str(line);
        stdin.push('\n');
    }
    stdin.push_str("!!!\n");
    out.print(CONFIGURATION, &board.render());

    for colour in [b'W', b'B'] {
        out.println(
            AVAILABLE_MOVES,
            &format!("Available moves for {}:", colour as char),
        );
        for (r, c) in board.moves(colour) {
            out.println(AVAILABLE_MOVES, &format!("{}{}", letter(r), letter(c)));
        }
    }

    out.println(MOVE, "Enter a move:");
    let mv = Placement::parse(case, &input.mv)?;
    stdin.push_str(&input.mv);
    stdin.push('\n');
    let (r, c) = mv.index();
    let valid = board.play(r, c, mv.colour);
    out.println(
        MOVE,
        if valid {
            "Valid move."
        } else {
            "Invalid move."
        },
    );
    out.print(MOVE, &board.render());
    Ok(Prepared::program(stdin, out))
}

fn check_dimension(case: &CaseSpec, n: usize) -> Result<(), Error> {
    if n % 2 == 1 || !(4..=26).contains(&n) {
        return Err(case.error(format!("n = {n}: the dimension must be even, 4 to 26")));
    }
    Ok(())
}

/// One call of a required helper through `specs/reversi/harness.c`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, tag = "function")]
enum UnitCase {
    #[serde(rename = "printBoard")]
    PrintBoard {
        n: usize,
        #[serde(default)]
        config: Vec<String>,
    },
    #[serde(rename = "positionInBounds")]
    PositionInBounds { n: usize, row: char, col: char },
    #[serde(rename = "checkLegalInDirection")]
    CheckLegalInDirection {
        n: usize,
        #[serde(default)]
        config: Vec<String>,
        row: char,
        col: char,
        colour: char,
        delta_row: i32,
        delta_col: i32,
    },
}

fn board_from(case: &CaseSpec, n: usize, config: &[String]) -> Result<Board, Error> {
    check_dimension(case, n)?;
    let mut board = Board::new(n);
    for line in config {
        let p = Placement::parse(case, line)?;
        board.place(p.colour, p.row, p.col);
    }
    Ok(board)
}

/// The board as the harness reads it: one line of cells per row.
fn board_script(board: &Board) -> String {
    board
        .cells
        .iter()
        .map(|row| format!("{}\n", String::from_utf8_lossy(row)))
        .collect()
}

fn ascii(case: &CaseSpec, ch: char, what: &str) -> Result<u8, Error> {
    u8::try_from(ch)
        .ok()
        .filter(|b| b.is_ascii_graphic())
        .ok_or_else(|| case.error(format!("{what} '{ch}' must be a printable ASCII character")))
}

fn run_unit(case: &CaseSpec, unit: &UnitCase) -> Result<Prepared, Error> {
    let mut out = Transcript::new();
    let script = match unit {
        UnitCase::PrintBoard { n, config } => {
            let board = board_from(case, *n, config)?;
            out.print(HELPERS, &board.render());
            format!("printBoard {n}\n{}", board_script(&board))
        }
        UnitCase::PositionInBounds { n, row, col } => {
            let (r, c) = (ascii(case, *row, "row")?, ascii(case, *col, "col")?);
            let inside =
                (b'a'..b'a' + *n as u8).contains(&r) && (b'a'..b'a' + *n as u8).contains(&c);
            out.println(
                HELPERS,
                &format!("positionInBounds({n}, '{row}', '{col}') = {inside}"),
            );
            format!("positionInBounds {n} {r} {c}\n")
        }
        UnitCase::CheckLegalInDirection {
            n,
            config,
            row,
            col,
            colour,
            delta_row,
            delta_col,
        } => {
            let board = board_from(case, *n, config)?;
            let (r, c) = (ascii(case, *row, "row")?, ascii(case, *col, "col")?);
            let colour_byte = ascii(case, *colour, "colour")?;
            let (ri, ci) = (
                i32::from(r) - i32::from(b'a'),
                i32::from(c) - i32::from(b'a'),
            );
            if board.cell(ri, ci) != Some(b'U') {
                return Err(case.error("checkLegalInDirection is only tested on empty cells"));
            }
            let legal = board.legal_in_direction(ri, ci, colour_byte, *delta_row, *delta_col);
            out.println(
                HELPERS,
                &format!(
                    "checkLegalInDirection('{row}', '{col}', '{colour}', {delta_row}, {delta_col}) = {legal}"
                ),
            );
            format!(
                "checkLegalInDirection {n} {r} {c} {colour_byte} {delta_row} {delta_col}\n{}",
                board_script(&board)
            )
        }
    };
    Ok(Prepared::unit(script, out))
}

pub struct Reversi;

impl Game for Reversi {
    fn id(&self) -> &'static str {
        "reversi"
    }

    fn prepare_program(&self, case: &CaseSpec) -> Result<Prepared, Error> {
        run_program(case, &case.parse()?)
    }

    fn prepare_unit(&self, case: &CaseSpec) -> Result<Prepared, Error> {
        run_unit(case, &case.parse()?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{CaseKind, Expectation};

    fn program(n: usize, config: &[&str], mv: &str) -> (String, Transcript) {
        let mut fields = toml::Table::new();
        fields.insert("n".into(), (n as i64).into());
        fields.insert(
            "config".into(),
            toml::Value::Array(config.iter().map(|s| (*s).into()).collect()),
        );
        fields.insert("move".into(), mv.into());
        let case = CaseSpec {
            name: "t".into(),
            kind: CaseKind::Program,
            description: None,
            file: "test.toml".into(),
            fields,
        };
        let prepared = Reversi.prepare(&case).expect("valid case");
        match prepared.expect {
            Expectation::Transcript(t) => (prepared.stdin, t),
            Expectation::Trace { .. } => unreachable!("reversi has no trace cases"),
        }
    }

    /// The handout's first sample run, restored in the ruling.
    #[test]
    fn golden_sample_run_4x4() {
        let (stdin, t) = program(4, &["Bba", "Wca", "Bac"], "Wdb");
        assert_eq!(stdin, "4\nBba\nWca\nBac\n!!!\nWdb\n");
        let expected = "Enter the board dimension:   abcd\na UUUU\nb UWBU\nc UBWU\nd UUUU\n\
Enter board configuration:\n  abcd\na UUBU\nb BWBU\nc WBWU\nd UUUU\n\
Available moves for W:\naa\nbd\ndb\nAvailable moves for B:\nab\ncd\nda\ndc\n\
Enter a move:\nValid move.\n  abcd\na UUBU\nb BWBU\nc WWWU\nd UWUU\n";
        assert_eq!(t.text(), expected);
    }

    /// The handout's second sample run (6x6, invalid move), restored in the ruling.
    #[test]
    fn golden_sample_run_6x6_invalid() {
        let (stdin, t) = program(6, &["Bbd", "Bad", "Wde", "Wcb"], "Bbe");
        assert_eq!(stdin, "6\nBbd\nBad\nWde\nWcb\n!!!\nBbe\n");
        let expected = "Enter the board dimension:   abcdef\na UUUUUU\nb UUUUUU\nc UUWBUU\n\
d UUBWUU\ne UUUUUU\nf UUUUUU\nEnter board configuration:\n  abcdef\na UUUBUU\nb UUUBUU\n\
c UWWBUU\nd UUBWWU\ne UUUUUU\nf UUUUUU\nAvailable moves for W:\nae\nbc\nce\ndb\nec\ned\n\
Available moves for B:\nba\nbc\nca\ndb\ndf\ned\nef\nEnter a move:\nInvalid move.\n  abcdef\n\
a UUUBUU\nb UUUBUU\nc UWWBUU\nd UUBWWU\ne UUUUUU\nf UUUUUU\n";
        assert_eq!(t.text(), expected);
    }

    #[test]
    fn lines_are_tagged_with_the_step_that_printed_them() {
        let (_, t) = program(4, &[], "Wdb");
        let tags: Vec<_> = t.lines().iter().map(|l| l.item).collect();
        assert_eq!(&tags[..5], &[BOARD; 5]);
        assert_eq!(&tags[5..11], &[CONFIGURATION; 6]);
        assert_eq!(tags[11], AVAILABLE_MOVES);
        assert_eq!(*tags.last().unwrap(), MOVE);
        assert_eq!(t.items(), vec![BOARD, CONFIGURATION, AVAILABLE_MOVES, MOVE]);
    }

    #[test]
    fn a_move_flips_every_closed_run_in_all_directions() {
        // W at d4 (index 3,3) surrounded by B runs closed by W in all eight directions.
        let mut board = Board::new(8);
        for r in 0..8 {
            for c in 0..8 {
                board.cells[r][c] = b'U';
            }
        }
        for (dr, dc) in DIRECTIONS {
            board.cells[(3 + dr) as usize][(3 + dc) as usize] = b'B';
            board.cells[(3 + 2 * dr) as usize][(3 + 2 * dc) as usize] = b'W';
        }
        assert!(board.play(3, 3, b'W'));
        for (dr, dc) in DIRECTIONS {
            assert_eq!(board.cells[(3 + dr) as usize][(3 + dc) as usize], b'W');
        }
    }

    #[test]
    fn occupied_and_out_of_range_moves_are_illegal() {
        let mut board = Board::new(4);
        assert!(!board.play(1, 1, b'B'));
        assert!(!board.play(-1, 0, b'B'));
        assert!(!board.play(0, 4, b'B'));
        assert_eq!(board, Board::new(4));
    }
}
