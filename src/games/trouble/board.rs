//! The Trouble board: sixteen pieces, each at home (-1), on the ring (0..27) or on its own
//! colour's finish line (100 + 10*colour + k). The piece locations are the whole state; the
//! template's `gHome`, `gRing` and `gFinish` are derived from them.

/// `gPlayerNames`, indexed by colour.
pub const COLOUR_NAMES: [&str; 4] = ["Red", "Green", "Yellow", "Blue"];
const LETTERS: [char; 4] = ['R', 'G', 'Y', 'B'];

pub const HOME: i32 = -1;
pub const RING_CELLS: i32 = 28;
pub const PIECES: usize = 16;
/// Distances 0..=27 are ring cells, 28..=31 the four finish cells.
const LAST_DISTANCE: i32 = RING_CELLS + 3;

/// The colour a piece belongs to.
pub fn colour_of(piece: usize) -> usize {
    piece / 4
}

/// The cell where a piece of `colour` enters the ring (R5, G5, Y5, B5). The handout's
/// "B5 (18), Y5 (25)" swaps two labels; the ruling fixes it as `7c+4`, here only.
pub fn start_cell(colour: usize) -> i32 {
    7 * colour as i32 + 4
}

/// Finish cell `k` (0..=3) of `colour`.
pub fn finish_cell(colour: usize, k: i32) -> i32 {
    100 + 10 * colour as i32 + k
}

/// The finish line's colour and index of a location, if it is a finish cell.
fn finish_parts(location: i32) -> Option<(usize, i32)> {
    let colour = (location - 100) / 10;
    let k = (location - 100) % 10;
    ((100..140).contains(&location) && (0..4).contains(&k)).then_some((colour as usize, k))
}

fn is_ring(location: i32) -> bool {
    (0..RING_CELLS).contains(&location)
}

/// The user's name of a location: `H`, `R1`..`B7`, `RF1`..`BF4`.
pub fn location_name(location: i32) -> String {
    if location == HOME {
        "H".to_string()
    } else if is_ring(location) {
        format!("{}{}", LETTERS[(location / 7) as usize], location % 7 + 1)
    } else if let Some((colour, k)) = finish_parts(location) {
        format!("{}F{}", LETTERS[colour], k + 1)
    } else {
        format!("?{location}")
    }
}

/// Parses a location string; anything else (wrong case, out-of-range number) is `None`.
pub fn parse_location(text: &str) -> Option<i32> {
    if text == "H" {
        return Some(HOME);
    }
    let mut chars = text.chars();
    let letter = chars.next()?;
    let colour = LETTERS.iter().position(|&l| l == letter)?;
    let rest: String = chars.collect();
    let (is_finish, digits) = match rest.strip_prefix('F') {
        Some(d) => (true, d),
        None => (false, rest.as_str()),
    };
    let mut digit_chars = digits.chars();
    let number = digit_chars.next()?.to_digit(10)? as i32;
    if digit_chars.next().is_some() {
        return None;
    }
    match is_finish {
        true if (1..=4).contains(&number) => Some(finish_cell(colour, number - 1)),
        false if (1..=7).contains(&number) => Some(7 * colour as i32 + number - 1),
        _ => None,
    }
}

/// Where every piece is. Equal boards print equal status lines and arrays.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Board {
    pieces: [i32; PIECES],
}

impl Default for Board {
    fn default() -> Self {
        Self::new()
    }
}

impl Board {
    /// `initializeBoard`: every piece at home.
    pub fn new() -> Self {
        Board {
            pieces: [HOME; PIECES],
        }
    }

    /// A board from piece locations, checked: ring and finish cells hold one piece each, and
    /// a finish cell only a piece of its own colour.
    pub fn from_locations(pieces: [i32; PIECES]) -> Result<Self, String> {
        for (piece, &location) in pieces.iter().enumerate() {
            let valid = match finish_parts(location) {
                Some((colour, _)) => colour == colour_of(piece),
                None => location == HOME || is_ring(location),
            };
            if !valid {
                return Err(format!(
                    "piece {piece} cannot be at {}",
                    location_name(location)
                ));
            }
            if location != HOME && pieces[..piece].contains(&location) {
                return Err(format!("two pieces are at {}", location_name(location)));
            }
        }
        Ok(Board { pieces })
    }

    pub fn pieces(&self) -> &[i32; PIECES] {
        &self.pieces
    }

    /// `gHome`: pieces at home per colour.
    pub fn home_counts(&self) -> [i32; 4] {
        let mut counts = [0; 4];
        for (piece, &location) in self.pieces.iter().enumerate() {
            if location == HOME {
                counts[colour_of(piece)] += 1;
            }
        }
        counts
    }

    /// `gRing`: the piece on each ring cell, or -1.
    pub fn ring(&self) -> [i32; RING_CELLS as usize] {
        let mut ring = [-1; RING_CELLS as usize];
        for (piece, &location) in self.pieces.iter().enumerate() {
            if is_ring(location) {
                ring[location as usize] = piece as i32;
            }
        }
        ring
    }

    /// `gFinish`: the piece on each finish cell `[colour][k]`, or -1.
    pub fn finish(&self) -> [[i32; 4]; 4] {
        let mut finish = [[-1; 4]; 4];
        for (piece, &location) in self.pieces.iter().enumerate() {
            if let Some((colour, k)) = finish_parts(location) {
                finish[colour][k as usize] = piece as i32;
            }
        }
        finish
    }

    /// The piece on a ring or finish cell.
    fn occupant(&self, location: i32) -> Option<usize> {
        if location == HOME {
            return None;
        }
        self.pieces.iter().position(|&l| l == location)
    }

    /// How far a piece of `colour` at `location` has come from its start cell, if it is on
    /// the ring or on its own finish line.
    fn distance(colour: usize, location: i32) -> Option<i32> {
        if is_ring(location) {
            Some((location - start_cell(colour)).rem_euclid(RING_CELLS))
        } else {
            match finish_parts(location) {
                Some((c, k)) if c == colour => Some(RING_CELLS + k),
                _ => None,
            }
        }
    }

    fn location_at(colour: usize, distance: i32) -> i32 {
        if distance < RING_CELLS {
            (start_cell(colour) + distance) % RING_CELLS
        } else {
            finish_cell(colour, distance - RING_CELLS)
        }
    }

    fn holds_own_piece(&self, colour: usize, location: i32) -> bool {
        self.occupant(location)
            .is_some_and(|piece| colour_of(piece) == colour)
    }

    /// Where the piece of `colour` at `from` lands with `roll`, or `None` when the move is
    /// illegal (no such piece, home without a 6, overshooting the finish, own piece there).
    pub fn destination(&self, colour: usize, from: i32, roll: i32) -> Option<i32> {
        let to = if from == HOME {
            let someone_home = self.home_counts()[colour] > 0;
            (roll == 6 && someone_home).then_some(start_cell(colour))?
        } else {
            let piece = self.occupant(from)?;
            if colour_of(piece) != colour {
                return None;
            }
            let distance = Self::distance(colour, from)? + roll;
            (distance <= LAST_DISTANCE).then(|| Self::location_at(colour, distance))?
        };
        (!self.holds_own_piece(colour, to)).then_some(to)
    }

    /// `printMoves`' list: the move out of home first, then each piece of `colour` not at
    /// home, in piece order.
    pub fn legal_moves(&self, colour: usize, roll: i32) -> Vec<(i32, i32)> {
        let mut moves = Vec::new();
        if let Some(to) = self.destination(colour, HOME, roll) {
            moves.push((HOME, to));
        }
        for piece in 4 * colour..4 * colour + 4 {
            let from = self.pieces[piece];
            if from == HOME {
                continue;
            }
            if let Some(to) = self.destination(colour, from, roll) {
                moves.push((from, to));
            }
        }
        moves
    }

    /// `movePiece`: plays a legal move (the lowest-numbered piece leaves home; a piece of
    /// another colour on the destination goes home). Returns false and changes nothing for
    /// an illegal one.
    pub fn play(&mut self, colour: usize, from: i32, roll: i32) -> bool {
        let Some(to) = self.destination(colour, from, roll) else {
            return false;
        };
        let mover = if from == HOME {
            (4 * colour..4 * colour + 4).find(|&p| self.pieces[p] == HOME)
        } else {
            self.occupant(from)
        };
        let Some(mover) = mover else {
            return false;
        };
        if let Some(victim) = self.occupant(to) {
            self.pieces[victim] = HOME;
        }
        self.pieces[mover] = to;
        true
    }

    /// `checkWin`: all four pieces of `colour` on its finish line.
    pub fn has_won(&self, colour: usize) -> bool {
        self.pieces[4 * colour..4 * colour + 4]
            .iter()
            .all(|&l| finish_parts(l).is_some())
    }

    /// `printStatus`: one line per colour, `%6s: ` then the pieces' locations.
    pub fn status(&self) -> String {
        let mut out = String::new();
        for (colour, name) in COLOUR_NAMES.iter().enumerate() {
            let places: Vec<String> = self.pieces[4 * colour..4 * colour + 4]
                .iter()
                .map(|&l| location_name(l))
                .collect();
            out.push_str(&format!("{name:>6}: {}\n", places.join(",")));
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn board(placed: &[(usize, &str)]) -> Board {
        let mut pieces = [HOME; PIECES];
        for &(piece, name) in placed {
            pieces[piece] = parse_location(name).expect("a location");
        }
        Board::from_locations(pieces).expect("a valid board")
    }

    #[test]
    fn location_names_round_trip() {
        let mut all = vec![HOME];
        all.extend(0..RING_CELLS);
        all.extend((0..4).flat_map(|c| (0..4).map(move |k| finish_cell(c, k))));
        for location in all {
            assert_eq!(parse_location(&location_name(location)), Some(location));
        }
        assert_eq!(location_name(0), "R1");
        assert_eq!(location_name(27), "B7");
        assert_eq!(location_name(18), "Y5");
        assert_eq!(location_name(113), "GF4");
    }

    #[test]
    fn malformed_location_strings_are_rejected() {
        for text in [
            "", "R0", "R8", "RF0", "RF5", "r1", "X1", "R11", "HH", "Q", "F1", "RF",
        ] {
            assert_eq!(parse_location(text), None, "{text}");
        }
    }

    #[test]
    fn start_cells_follow_the_sample_run() {
        assert_eq!(
            (0..4)
                .map(start_cell)
                .map(location_name)
                .collect::<Vec<_>>(),
            ["R5", "G5", "Y5", "B5"]
        );
    }

    #[test]
    fn red_enters_its_finish_from_r1_with_a_four() {
        let b = board(&[(0, "R1")]);
        assert_eq!(b.destination(0, 0, 4), Some(100));
        assert_eq!(b.destination(0, 0, 3), Some(3));
        let b = board(&[(0, "R4")]);
        assert_eq!(b.destination(0, 3, 4), Some(103));
        assert_eq!(b.destination(0, 3, 5), None);
    }

    #[test]
    fn blue_wraps_from_b7_to_r1() {
        let b = board(&[(12, "B7")]);
        assert_eq!(b.destination(3, 27, 1), Some(0));
    }

    #[test]
    fn leaving_home_takes_the_lowest_home_piece_and_captures_on_start() {
        let mut b = board(&[(4, "G1"), (6, "G3"), (0, "Y5")]);
        assert!(b.play(2, HOME, 6));
        assert_eq!(b.pieces()[8], 18);
        let mut b2 = board(&[(8, "Y1"), (9, "R5")]);
        assert!(b2.play(0, HOME, 6));
        assert_eq!(b2.pieces()[0], 4);
        assert_eq!(b2.pieces()[9], HOME);
        assert!(!b2.play(0, HOME, 6), "own piece on the start cell");
        assert!(!b2.play(2, HOME, 5), "home needs a six");
    }

    #[test]
    fn moves_list_home_first_then_piece_order() {
        let b = board(&[(0, "RF1"), (1, "G7"), (2, "R5")]);
        assert_eq!(b.legal_moves(0, 1), vec![(100, 101), (13, 14), (4, 5)]);
        let b = board(&[(0, "Y1")]);
        assert_eq!(b.legal_moves(0, 6), vec![(HOME, 4), (14, 20)]);
    }

    #[test]
    fn derived_arrays_match_the_pieces() {
        let b = board(&[(0, "R5"), (13, "BF2"), (9, "R1")]);
        assert_eq!(b.home_counts(), [3, 4, 3, 3]);
        assert_eq!(b.ring()[4], 0);
        assert_eq!(b.ring()[0], 9);
        assert_eq!(b.finish()[3][1], 13);
        assert!(Board::from_locations({
            let mut p = [HOME; PIECES];
            p[0] = 110;
            p
        })
        .is_err());
    }

    #[test]
    fn status_uses_width_six_names() {
        assert_eq!(
            Board::new().status(),
            "   Red: H,H,H,H\n Green: H,H,H,H\nYellow: H,H,H,H\n  Blue: H,H,H,H\n"
        );
    }

    #[test]
    fn win_needs_all_four_in_the_finish() {
        let b = board(&[(4, "GF1"), (5, "GF2"), (6, "GF3"), (7, "GF4")]);
        assert!(b.has_won(1));
        let b = board(&[(4, "GF1"), (5, "GF2"), (6, "GF3"), (7, "G4")]);
        assert!(!b.has_won(1));
    }
}
