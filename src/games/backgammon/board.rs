//! The board and the seven required functions, with the semantics of the ruling
//! (the course's rulings, recorded in `specs/backgammon/README.md`).

/// Points 1..24; index 0 of the arrays is unused, as in the course's `board.c`.
pub const BOARD_SIZE: i32 = 24;
pub const NUM_PIECES: u8 = 15;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Colour {
    White,
    Red,
}

impl Colour {
    pub fn opponent(self) -> Colour {
        match self {
            Colour::White => Colour::Red,
            Colour::Red => Colour::White,
        }
    }

    /// The header's constant name, as the harness prints it.
    pub fn constant(self) -> &'static str {
        match self {
            Colour::White => "WHITE",
            Colour::Red => "RED",
        }
    }

    /// The name in the move prompt.
    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "White",
            Colour::Red => "Red",
        }
    }

    /// Whether `point` is in this colour's home quadrant (white 1..6, red 19..24).
    pub fn is_home(self, point: usize) -> bool {
        match self {
            Colour::White => (1..=6).contains(&point),
            Colour::Red => (19..=24).contains(&point),
        }
    }

    /// Pips from `point` to off the board (white past 1, red past 24).
    fn distance_off(self, point: i32) -> i32 {
        match self {
            Colour::White => point,
            Colour::Red => 25 - point,
        }
    }

    /// Where a checker from the bar lands with `die`.
    fn entry_point(self, die: i32) -> i32 {
        match self {
            Colour::White => 25 - die,
            Colour::Red => die,
        }
    }
}

/// The six globals of `board.c`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pub white: [u8; 25],
    pub red: [u8; 25],
    pub bar_white: u8,
    pub bar_red: u8,
    pub num_white: u8,
    pub num_red: u8,
}

impl Board {
    /// White 24:2, 13:5, 8:3, 6:5; red mirrored; nothing on the bar.
    pub fn start() -> Self {
        let mut board = Self::empty();
        for (point, count) in [(24, 2), (13, 5), (8, 3), (6, 5)] {
            board.white[point] = count;
            board.red[25 - point] = count;
        }
        board.num_white = NUM_PIECES;
        board.num_red = NUM_PIECES;
        board
    }

    pub fn empty() -> Self {
        Self {
            white: [0; 25],
            red: [0; 25],
            bar_white: 0,
            bar_red: 0,
            num_white: 0,
            num_red: 0,
        }
    }

    pub fn points(&self, colour: Colour) -> &[u8; 25] {
        match colour {
            Colour::White => &self.white,
            Colour::Red => &self.red,
        }
    }

    fn points_mut(&mut self, colour: Colour) -> &mut [u8; 25] {
        match colour {
            Colour::White => &mut self.white,
            Colour::Red => &mut self.red,
        }
    }

    pub fn bar(&self, colour: Colour) -> u8 {
        match colour {
            Colour::White => self.bar_white,
            Colour::Red => self.bar_red,
        }
    }

    fn bar_mut(&mut self, colour: Colour) -> &mut u8 {
        match colour {
            Colour::White => &mut self.bar_white,
            Colour::Red => &mut self.bar_red,
        }
    }

    pub fn num(&self, colour: Colour) -> u8 {
        match colour {
            Colour::White => self.num_white,
            Colour::Red => self.num_red,
        }
    }

    fn num_mut(&mut self, colour: Colour) -> &mut u8 {
        match colour {
            Colour::White => &mut self.num_white,
            Colour::Red => &mut self.num_red,
        }
    }

    /// Checkers of `colour` on `point`; 0 off the board.
    pub fn count(&self, colour: Colour, point: i32) -> u8 {
        if check_board_bounds(point) {
            self.points(colour)[point as usize]
        } else {
            0
        }
    }

    /// Every checker of `colour` on the board is in its home quadrant and none is on the bar.
    pub fn all_home(&self, colour: Colour) -> bool {
        self.bar(colour) == 0
            && self
                .points(colour)
                .iter()
                .enumerate()
                .all(|(point, &count)| count == 0 || colour.is_home(point))
    }

    /// Condition 5: the destination holds at most one opposing checker.
    fn open_for(&self, mover: Colour, to: i32) -> bool {
        self.count(mover.opponent(), to) <= 1
    }

    /// `check_basic_move`: conditions 1-5 of section 3.2 (the bar is `check_move`'s concern).
    pub fn check_basic_move(&self, mover: Colour, from: i32, to: i32, die: i32) -> bool {
        check_board_bounds(from)
            && check_board_bounds(to)
            && check_die(mover, from, to, die)
            && self.count(mover, from) >= 1
            && self.open_for(mover, to)
    }

    /// `check_entry_move`: `0 to` with a checker on the bar, landing `die` pips in.
    pub fn check_entry_move(&self, mover: Colour, from: i32, to: i32, die: i32) -> bool {
        from == 0
            && self.bar(mover) >= 1
            && check_board_bounds(to)
            && to == mover.entry_point(die)
            && self.open_for(mover, to)
    }

    /// `check_bear_off_move`: `from 0`, everything home, at most `die` pips from off.
    pub fn check_bear_off_move(&self, mover: Colour, from: i32, to: i32, die: i32) -> bool {
        to == 0
            && check_board_bounds(from)
            && self.count(mover, from) >= 1
            && self.all_home(mover)
            && mover.distance_off(from) <= die
    }

    /// `check_move`: with a checker on the bar only an entry is valid; otherwise a basic or
    /// bearing-off move.
    pub fn check_move(&self, mover: Colour, from: i32, to: i32, die: i32) -> bool {
        if self.bar(mover) > 0 {
            self.check_entry_move(mover, from, to, die)
        } else {
            self.check_basic_move(mover, from, to, die)
                || self.check_bear_off_move(mover, from, to, die)
        }
    }

    /// Applies a move `check_move` accepted: entry, bearing off or basic, hitting a lone
    /// opposing checker onto its bar.
    pub fn apply(&mut self, mover: Colour, from: i32, to: i32) {
        if from == 0 {
            *self.bar_mut(mover) -= 1;
        } else {
            self.points_mut(mover)[from as usize] -= 1;
        }
        if to == 0 {
            *self.num_mut(mover) -= 1;
            return;
        }
        let opponent = mover.opponent();
        if self.points(opponent)[to as usize] == 1 {
            self.points_mut(opponent)[to as usize] = 0;
            *self.bar_mut(opponent) += 1;
        }
        self.points_mut(mover)[to as usize] += 1;
    }

    /// The glyph drawn for `point` at stack height `level` (0 = nearest the edge).
    fn glyph(&self, point: usize, level: u8) -> char {
        if self.white[point] > level {
            'W'
        } else if self.red[point] > level {
            'R'
        } else {
            '|'
        }
    }

    /// One checker row: six cells, a three-space gap, six cells.
    fn row(&self, points: impl Iterator<Item = usize>, level: u8) -> String {
        let mut line = String::new();
        for (column, point) in points.enumerate() {
            if column == 6 {
                line.push_str("   ");
            }
            line.push(self.glyph(point, level));
            line.push_str("  ");
        }
        line.push('\n');
        line
    }

    fn number_line(points: impl Iterator<Item = usize>) -> String {
        let mut line = String::new();
        for (column, point) in points.enumerate() {
            if column == 6 {
                line.push_str("   ");
            }
            if point >= 10 {
                line.push_str(&format!("{point} "));
            } else {
                line.push_str(&format!("{point}  "));
            }
        }
        line.push('\n');
        line
    }

    /// `print_board`'s exact text, trailing spaces as the course printed them.
    pub fn render(&self) -> String {
        let mut out = Self::number_line(13..=24);
        for level in 0..5 {
            out.push_str(&self.row(13..=24, level));
        }
        out.push('\n');
        for level in (0..5).rev() {
            out.push_str(&self.row((1..=12).rev(), level));
        }
        out.push_str(&Self::number_line((1..=12).rev()));
        out.push_str(&format!(
            "  Bar:  White-{}  Red-{}\n",
            self.bar_white, self.bar_red
        ));
        out
    }
}

/// `check_board_bounds`: condition 1, a point 1..24.
pub fn check_board_bounds(index: i32) -> bool {
    (1..=BOARD_SIZE).contains(&index)
}

/// `check_die`: conditions 2 and 3, the move goes `die` pips in the mover's direction.
pub fn check_die(mover: Colour, from: i32, to: i32, die: i32) -> bool {
    let forward = match mover {
        Colour::White => i64::from(from) - i64::from(to),
        Colour::Red => i64::from(to) - i64::from(from),
    };
    forward > 0 && forward == i64::from(die)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ruling's start-position board, trailing spaces included.
    #[test]
    fn start_board_matches_the_ruling() {
        let expected = "\
13 14 15 16 17 18    19 20 21 22 23 24 \n\
W  |  |  |  R  |     R  |  |  |  |  W  \n\
W  |  |  |  R  |     R  |  |  |  |  W  \n\
W  |  |  |  R  |     R  |  |  |  |  |  \n\
W  |  |  |  |  |     R  |  |  |  |  |  \n\
W  |  |  |  |  |     R  |  |  |  |  |  \n\
\n\
R  |  |  |  |  |     W  |  |  |  |  |  \n\
R  |  |  |  |  |     W  |  |  |  |  |  \n\
R  |  |  |  W  |     W  |  |  |  |  |  \n\
R  |  |  |  W  |     W  |  |  |  |  R  \n\
R  |  |  |  W  |     W  |  |  |  |  R  \n\
12 11 10 9  8  7     6  5  4  3  2  1  \n\
\x20 Bar:  White-0  Red-0\n";
        assert_eq!(Board::start().render(), expected);
    }

    #[test]
    fn at_most_five_checkers_are_drawn_and_the_bar_is_counted() {
        let mut board = Board::empty();
        board.white[1] = 9;
        board.red[24] = 7;
        board.bar_white = 3;
        board.bar_red = 12;
        let text = board.render();
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 14);
        assert!(lines[1..6].iter().all(|l| l.ends_with("R  ")));
        assert!(lines[7..12].iter().all(|l| l.ends_with("W  ")));
        assert_eq!(lines[13], "  Bar:  White-3  Red-12");
    }

    #[test]
    fn the_handout_moves_from_the_start() {
        // Dice 4 1: 24 22 and 24 25 refused, 24 23 with the 1, 13 9 with the 4.
        let board = Board::start();
        let w = Colour::White;
        assert!(![4, 1].iter().any(|&d| board.check_move(w, 24, 22, d)));
        assert!(![4, 1].iter().any(|&d| board.check_move(w, 24, 25, d)));
        assert!(board.check_move(w, 24, 23, 1));
        assert!(board.check_move(w, 13, 9, 4));
    }

    #[test]
    fn a_blot_is_hit_onto_the_bar_and_must_enter_first() {
        let mut board = Board::start();
        board.red[1] = 1;
        board.red[2] = 1;
        board.apply(Colour::White, 6, 2);
        assert_eq!((board.red[2], board.bar_red, board.white[2]), (0, 1, 1));
        assert_eq!(board.num_red, 15);
        // Red must enter before any basic move: 12 15 is refused, 0 3 accepted.
        assert!(!board.check_move(Colour::Red, 12, 15, 3));
        assert!(board.check_move(Colour::Red, 0, 3, 3));
        // Entry onto a point with two white checkers is blocked.
        board.white[4] = 2;
        assert!(!board.check_move(Colour::Red, 0, 4, 4));
        // White enters at 25 - die.
        board.bar_white = 1;
        assert!(board.check_entry_move(Colour::White, 0, 21, 4));
        assert!(!board.check_entry_move(Colour::White, 0, 20, 4));
        // Red holds 19 with five checkers: no entry there with a 6.
        assert!(!board.check_entry_move(Colour::White, 0, 19, 6));
    }

    #[test]
    fn bearing_off_follows_the_handout_examples() {
        // `4 0` refused while a white checker is still on 7.
        let mut board = Board::empty();
        board.white[4] = 2;
        board.white[7] = 1;
        assert!(!board.check_move(Colour::White, 4, 0, 6));
        board.white[7] = 0;
        assert!(board.check_move(Colour::White, 4, 0, 4));
        assert!(board.check_move(Colour::White, 4, 0, 6));
        assert!(!board.check_move(Colour::White, 4, 0, 3));
        // Red: `23 0` then `22 0` with dice 2 3.
        board.red[23] = 1;
        board.red[22] = 1;
        assert!(board.check_move(Colour::Red, 23, 0, 2));
        assert!(board.check_move(Colour::Red, 22, 0, 3));
        assert!(!board.check_move(Colour::Red, 22, 0, 2));
    }
}
