//! LUDO-CS geometry (one place for every square number) and the piece state that both the
//! simulation and the trace checker replay. Numbers follow the course's rulings (`specs/ludo/README.md`).

use std::fmt;

/// Squares on the standard (white) path, numbered clockwise from Yellow's X.
pub const SQUARES: u8 = 52;
/// Cells of each colour's home straight (`<colour>homepath0..4`).
pub const HOME_PATH_CELLS: u8 = 5;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Colour {
    Red,
    Green,
    Yellow,
    Blue,
}

impl Colour {
    /// Clockwise seating, which is also the order the dice passes in.
    pub const SEATING: [Colour; 4] = [Colour::Red, Colour::Green, Colour::Yellow, Colour::Blue];

    pub fn index(self) -> usize {
        self as usize
    }

    pub fn name(self) -> &'static str {
        match self {
            Colour::Red => "Red",
            Colour::Green => "Green",
            Colour::Yellow => "Yellow",
            Colour::Blue => "Blue",
        }
    }

    pub fn lower(self) -> &'static str {
        match self {
            Colour::Red => "red",
            Colour::Green => "green",
            Colour::Yellow => "yellow",
            Colour::Blue => "blue",
        }
    }

    pub fn letter(self) -> char {
        match self {
            Colour::Red => 'R',
            Colour::Green => 'G',
            Colour::Yellow => 'Y',
            Colour::Blue => 'B',
        }
    }

    /// The starting square X.
    pub fn start(self) -> u8 {
        match self {
            Colour::Yellow => 0,
            Colour::Blue => 13,
            Colour::Red => 26,
            Colour::Green => 39,
        }
    }

    /// The Approach square: two squares counter-clockwise of X.
    pub fn approach(self) -> u8 {
        (self.start() + SQUARES - 2) % SQUARES
    }

    /// The player to the left, who rolls next.
    pub fn next(self) -> Colour {
        Colour::SEATING[(self.index() + 1) % 4]
    }

    /// A colour word in any case.
    pub fn parse(word: &str) -> Option<Colour> {
        Colour::SEATING
            .into_iter()
            .find(|c| c.lower().eq_ignore_ascii_case(word))
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Dir {
    Clockwise,
    CounterClockwise,
}

impl Dir {
    pub fn word(self) -> &'static str {
        match self {
            Dir::Clockwise => "clockwise",
            Dir::CounterClockwise => "counter-clockwise",
        }
    }

    pub fn reverse(self) -> Dir {
        match self {
            Dir::Clockwise => Dir::CounterClockwise,
            Dir::CounterClockwise => Dir::Clockwise,
        }
    }

    /// Standard squares walked from `from` to `to` going this way round the board.
    pub fn squares_to(self, from: u8, to: u8) -> u8 {
        match self {
            Dir::Clockwise => (to + SQUARES - from) % SQUARES,
            Dir::CounterClockwise => (from + SQUARES - to) % SQUARES,
        }
    }

    /// The standard square one step from `square` in this direction.
    pub fn step(self, square: u8) -> u8 {
        match self {
            Dir::Clockwise => (square + 1) % SQUARES,
            Dir::CounterClockwise => (square + SQUARES - 1) % SQUARES,
        }
    }
}

/// Where a piece is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Loc {
    #[default]
    Base,
    Square(u8),
    HomePath(u8),
    Home,
}

impl Loc {
    /// The handout's spelling: a square number, `<colour>homepath<k>`, `Base` or `Home`.
    pub fn render(self, colour: Colour) -> String {
        match self {
            Loc::Base => "Base".into(),
            Loc::Square(n) => n.to_string(),
            Loc::HomePath(k) => format!("{}homepath{k}", colour.lower()),
            Loc::Home => "Home".into(),
        }
    }

    pub fn square(self) -> Option<u8> {
        match self {
            Loc::Square(n) => Some(n),
            _ => None,
        }
    }
}

/// Where Bhawana, Kotuwa and Pita-Kotuwa are. The ruling's layout counts from Yellow's
/// Approach; many students counted from square 0, which the ruling also accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Layout {
    pub name: &'static str,
    pub bhawana: u8,
    pub kotuwa: u8,
    pub pita_kotuwa: u8,
}

pub const FROM_APPROACH: Layout = Layout {
    name: "counted from Yellow's Approach (squares 7, 25, 44)",
    bhawana: 7,
    kotuwa: 25,
    pita_kotuwa: 44,
};

pub const FROM_ZERO: Layout = Layout {
    name: "counted from square 0 (squares 9, 27, 46)",
    bhawana: 9,
    kotuwa: 27,
    pita_kotuwa: 46,
};

/// The named teleport places of CS-11.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Place {
    Bhawana,
    Kotuwa,
    PitaKotuwa,
}

impl Layout {
    pub fn square(&self, place: Place) -> u8 {
        match place {
            Place::Bhawana => self.bhawana,
            Place::Kotuwa => self.kotuwa,
            Place::PitaKotuwa => self.pita_kotuwa,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aura {
    Energised,
    Sick,
}

/// One piece and everything the rules remember about it (CS-9: all reset on capture).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Piece {
    pub loc: Loc,
    /// Set by the coin toss on entering X; the checker learns it from the first move.
    pub dir: Option<Dir>,
    /// Whether the direction was changed at Pita-Kotuwa (CS-14).
    pub turned: bool,
    pub captures: u32,
    /// Arrivals at the own Approach by walking (teleports never count).
    pub passes: u32,
    /// Bhawana's effect and the round it started.
    pub aura: Option<(Aura, u32)>,
    /// The round a Kotuwa briefing started.
    pub briefing: Option<u32>,
}

impl Piece {
    pub fn reset(&mut self) {
        *self = Piece::default();
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PieceId {
    pub colour: Colour,
    /// 0..4 for pieces named 1..4.
    pub index: usize,
}

impl PieceId {
    pub fn all(colour: Colour) -> [PieceId; 4] {
        [0, 1, 2, 3].map(|index| PieceId { colour, index })
    }
}

impl fmt::Display for PieceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.colour.letter(), self.index + 1)
    }
}

/// When a walk may turn from the Approach into the home straight.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EnterPolicy {
    /// Never (a block member moving against its own direction; a lenient reading).
    Never,
    /// The rules as the simulation plays them: a capture, and for a counter-clockwise piece
    /// the second arrival at the Approach (CS-1, CS-7).
    Strict,
    /// Whenever the piece has a capture (the checker's lenient reading of CS-1).
    WhenCaptured,
    /// Always, capture or not: only used to explain a CS-7 violation.
    Always,
}

/// The outcome of walking a piece a number of steps.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Walk {
    Reached {
        dest: Loc,
        passes: u32,
    },
    /// An opposing block on `block` stops the piece; `before` is the last cell it can reach
    /// (its own cell when `steps_done` is 0).
    Blocked {
        before: Loc,
        block: u8,
        by: PieceId,
        steps_done: u32,
        passes: u32,
    },
    /// Past Home: Rule 10 needs the exact roll.
    Overshoot,
}

/// How many of a colour's pieces are where, for the count lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Counts {
    pub standard: usize,
    pub home_path: usize,
    pub base: usize,
    pub home: usize,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Board {
    pieces: [[Piece; 4]; 4],
}

impl Board {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn piece(&self, id: PieceId) -> &Piece {
        &self.pieces[id.colour.index()][id.index]
    }

    pub fn piece_mut(&mut self, id: PieceId) -> &mut Piece {
        &mut self.pieces[id.colour.index()][id.index]
    }

    /// Every piece on standard square `square`.
    pub fn on_square(&self, square: u8) -> Vec<PieceId> {
        Colour::SEATING
            .into_iter()
            .flat_map(PieceId::all)
            .filter(|&id| self.piece(id).loc == Loc::Square(square))
            .collect()
    }

    pub fn count_at(&self, colour: Colour, square: u8) -> usize {
        PieceId::all(colour)
            .into_iter()
            .filter(|&id| self.piece(id).loc == Loc::Square(square))
            .count()
    }

    /// How many pieces of each colour (seating order) stand on `square`.
    fn colour_counts_at(&self, square: u8) -> [usize; 4] {
        let mut counts = [0; 4];
        for (c, pieces) in self.pieces.iter().enumerate() {
            counts[c] = pieces
                .iter()
                .filter(|p| p.loc == Loc::Square(square))
                .count();
        }
        counts
    }

    /// A piece of an opposing block (two or more pieces of one other colour) on `square`.
    pub fn opposing_block_at(&self, colour: Colour, square: u8) -> Option<PieceId> {
        let counts = self.colour_counts_at(square);
        let c = Colour::SEATING
            .into_iter()
            .find(|&c| c != colour && counts[c.index()] >= 2)?;
        PieceId::all(c)
            .into_iter()
            .find(|&id| self.piece(id).loc == Loc::Square(square))
    }

    /// Opposing pieces on `square` (what landing there captures).
    pub fn opponents_at(&self, colour: Colour, square: u8) -> Vec<PieceId> {
        self.on_square(square)
            .into_iter()
            .filter(|id| id.colour != colour)
            .collect()
    }

    pub fn counts(&self, colour: Colour) -> Counts {
        let mut counts = Counts::default();
        for id in PieceId::all(colour) {
            match self.piece(id).loc {
                Loc::Base => counts.base += 1,
                Loc::Square(_) => counts.standard += 1,
                Loc::HomePath(_) => counts.home_path += 1,
                Loc::Home => counts.home += 1,
            }
        }
        counts
    }

    pub fn all_home(&self, colour: Colour) -> bool {
        self.counts(colour).home == 4
    }

    /// Walks piece `id` from where it is. `group` is how many pieces move together (a block
    /// may land on a same-size block, CS-8); `count_passes` is false for a block member moving
    /// against its own direction.
    pub fn walk(
        &self,
        id: PieceId,
        dir: Dir,
        steps: u32,
        policy: EnterPolicy,
        group: usize,
        count_passes: bool,
    ) -> Walk {
        let piece = self.piece(id);
        let colour = id.colour;
        let approach = colour.approach();
        let mut cur = piece.loc;
        let mut passes = piece.passes;
        for done in 0..steps {
            let next = match cur {
                Loc::Square(s) => {
                    let enter = s == approach
                        && match policy {
                            EnterPolicy::Never => false,
                            EnterPolicy::Strict => {
                                piece.captures >= 1
                                    && match dir {
                                        Dir::Clockwise => passes >= 1,
                                        Dir::CounterClockwise => passes >= 2,
                                    }
                            }
                            EnterPolicy::WhenCaptured => piece.captures >= 1,
                            EnterPolicy::Always => true,
                        };
                    if enter {
                        Loc::HomePath(0)
                    } else {
                        Loc::Square(dir.step(s))
                    }
                }
                Loc::HomePath(k) if k + 1 < HOME_PATH_CELLS => Loc::HomePath(k + 1),
                Loc::HomePath(_) => Loc::Home,
                Loc::Home | Loc::Base => return Walk::Overshoot,
            };
            if let Loc::Square(n) = next {
                if let Some(by) = self.opposing_block_at(colour, n) {
                    let last = done + 1 == steps;
                    // A block lands on a block no larger than itself (CS-8; larger-on-smaller
                    // is allowed too so that facing blocks cannot lock the game).
                    let counts = self.colour_counts_at(n);
                    let capturable = Colour::SEATING.into_iter().all(|c| {
                        let k = counts[c.index()];
                        c == colour || k <= 1 || k <= group
                    });
                    if !(last && group >= 2 && capturable) {
                        return Walk::Blocked {
                            before: cur,
                            block: n,
                            by,
                            steps_done: done,
                            passes,
                        };
                    }
                }
                if n == approach && count_passes {
                    passes += 1;
                }
            }
            cur = next;
        }
        Walk::Reached { dest: cur, passes }
    }

    /// Steps left to Home along the piece's own direction, as if the home straight were open
    /// (the behaviours' "closest to home"); pieces in base are farthest.
    pub fn distance_home(&self, id: PieceId) -> u32 {
        self.distance_home_under(id, EnterPolicy::Strict)
    }

    /// `distance_home` when pieces turn in by `policy`: under `WhenCaptured` a piece that has
    /// captured owes no lap, whatever its direction and Approach count.
    pub fn distance_home_under(&self, id: PieceId, policy: EnterPolicy) -> u32 {
        let piece = self.piece(id);
        match piece.loc {
            Loc::Base => 1000,
            Loc::Home => 0,
            Loc::HomePath(k) => u32::from(HOME_PATH_CELLS - k),
            Loc::Square(s) => {
                let approach = id.colour.approach();
                let dir = piece.dir.unwrap_or(Dir::Clockwise);
                let to_approach = dir.squares_to(s, approach);
                // A lap more when the next arrival does not open the home straight yet (a
                // counter-clockwise piece's first pass, a piece teleported onto its Approach).
                let needed = match dir {
                    Dir::Clockwise => 1,
                    Dir::CounterClockwise => 2,
                };
                let arrivals = if s == approach {
                    piece.passes
                } else {
                    piece.passes + 1
                };
                let open = match policy {
                    EnterPolicy::WhenCaptured => piece.captures >= 1 || arrivals >= needed,
                    _ => arrivals >= needed,
                };
                let lap = if open { 0 } else { SQUARES };
                u32::from(to_approach) + u32::from(lap) + u32::from(HOME_PATH_CELLS) + 1
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn geometry_matches_the_ruling() {
        let starts: Vec<u8> = Colour::SEATING.iter().map(|c| c.start()).collect();
        assert_eq!(starts, vec![26, 39, 0, 13]);
        let approaches: Vec<u8> = Colour::SEATING.iter().map(|c| c.approach()).collect();
        assert_eq!(approaches, vec![24, 37, 50, 11]);
        // 9, 27 and 46 squares clockwise of Yellow's Approach.
        let from = Colour::Yellow.approach();
        assert_eq!(FROM_APPROACH.bhawana, (from + 9) % SQUARES);
        assert_eq!(FROM_APPROACH.kotuwa, (from + 27) % SQUARES);
        assert_eq!(FROM_APPROACH.pita_kotuwa, (from + 46) % SQUARES);
        assert_eq!(Colour::Blue.next(), Colour::Red);
    }

    fn placed(id: PieceId, loc: Loc, dir: Dir, captures: u32, passes: u32) -> Board {
        let mut board = Board::new();
        *board.piece_mut(id) = Piece {
            loc,
            dir: Some(dir),
            captures,
            passes,
            ..Piece::default()
        };
        board
    }

    #[test]
    fn clockwise_piece_enters_the_home_straight_only_after_a_capture() {
        let r1 = PieceId {
            colour: Colour::Red,
            index: 0,
        };
        let board = placed(r1, Loc::Square(22), Dir::Clockwise, 1, 0);
        let walk = board.walk(r1, Dir::Clockwise, 4, EnterPolicy::Strict, 1, true);
        assert_eq!(
            walk,
            Walk::Reached {
                dest: Loc::HomePath(1),
                passes: 1
            }
        );
        let board = placed(r1, Loc::Square(22), Dir::Clockwise, 0, 0);
        let walk = board.walk(r1, Dir::Clockwise, 4, EnterPolicy::Strict, 1, true);
        assert_eq!(
            walk,
            Walk::Reached {
                dest: Loc::Square(26),
                passes: 1
            }
        );
    }

    #[test]
    fn counter_clockwise_piece_needs_the_second_arrival() {
        let y1 = PieceId {
            colour: Colour::Yellow,
            index: 0,
        };
        let board = placed(y1, Loc::Square(0), Dir::CounterClockwise, 1, 0);
        let walk = board.walk(y1, Dir::CounterClockwise, 4, EnterPolicy::Strict, 1, true);
        assert_eq!(
            walk,
            Walk::Reached {
                dest: Loc::Square(48),
                passes: 1
            }
        );
        let board = placed(y1, Loc::Square(1), Dir::CounterClockwise, 1, 1);
        let walk = board.walk(y1, Dir::CounterClockwise, 5, EnterPolicy::Strict, 1, true);
        assert_eq!(
            walk,
            Walk::Reached {
                dest: Loc::HomePath(1),
                passes: 2
            }
        );
    }

    #[test]
    fn opposing_block_stops_a_single_piece_but_not_a_same_size_block() {
        let g1 = PieceId {
            colour: Colour::Green,
            index: 0,
        };
        let mut board = placed(g1, Loc::Square(0), Dir::Clockwise, 0, 0);
        for index in 0..2 {
            let id = PieceId {
                colour: Colour::Red,
                index,
            };
            board.piece_mut(id).loc = Loc::Square(4);
        }
        match board.walk(g1, Dir::Clockwise, 6, EnterPolicy::Strict, 1, true) {
            Walk::Blocked {
                before, steps_done, ..
            } => {
                assert_eq!(before, Loc::Square(3));
                assert_eq!(steps_done, 3);
            }
            other => panic!("expected a block, got {other:?}"),
        }
        assert!(matches!(
            board.walk(g1, Dir::Clockwise, 4, EnterPolicy::Strict, 2, true),
            Walk::Reached {
                dest: Loc::Square(4),
                ..
            }
        ));
    }

    #[test]
    fn home_needs_the_exact_roll() {
        let b1 = PieceId {
            colour: Colour::Blue,
            index: 0,
        };
        let board = placed(b1, Loc::HomePath(3), Dir::Clockwise, 1, 1);
        assert!(matches!(
            board.walk(b1, Dir::Clockwise, 2, EnterPolicy::Strict, 1, true),
            Walk::Reached {
                dest: Loc::Home,
                ..
            }
        ));
        assert_eq!(
            board.walk(b1, Dir::Clockwise, 3, EnterPolicy::Strict, 1, true),
            Walk::Overshoot
        );
    }
}
