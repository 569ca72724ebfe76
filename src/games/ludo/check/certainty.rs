//! Certainty: what the replay does when it cannot read a line (pieces, turn and mystery cell
//! become unknown until a later line pins them down) and when a program numbers the squares
//! from another origin.

use super::super::board::*;
use super::forms::colour_or_letter;
use super::read::*;
use super::state::*;
use super::words::*;
use super::Violation;

/// A square printed `k` squares clockwise of the handout's numbering, put back.
fn unshift(loc: Loc, k: u8) -> Loc {
    match loc {
        Loc::Square(n) => Loc::Square((n + SQUARES - k) % SQUARES),
        other => other,
    }
}

fn unshift_number(n: u32, k: u8) -> u32 {
    match unshift(Loc::Square(n.min(u32::from(SQUARES - 1)) as u8), k) {
        Loc::Square(m) if n < u32::from(SQUARES) => u32::from(m),
        _ => n,
    }
}

/// The message with every square number put back into the handout's numbering.
pub(super) fn shifted(msg: Msg, k: u8) -> Msg {
    match msg {
        Msg::Move {
            colour,
            id,
            from,
            to,
            units,
            dir,
        } => Msg::Move {
            colour,
            id,
            from: unshift(from, k),
            to: unshift(to, k),
            units,
            dir,
        },
        Msg::LooseMove {
            id,
            from,
            to,
            units,
            dir,
        } => Msg::LooseMove {
            id,
            from: from.map(|f| unshift(f, k)),
            to: unshift(to, k),
            units,
            dir,
        },
        Msg::Blocked { id, from, to, by } => Msg::Blocked {
            id,
            from: unshift(from, k),
            to: unshift(to, k),
            by,
        },
        Msg::MovedBefore(c, loc) => Msg::MovedBefore(c, unshift(loc, k)),
        Msg::Capture { id, square, victim } => Msg::Capture {
            id,
            square: unshift(square, k),
            victim,
        },
        Msg::PieceAt(id, loc) => Msg::PieceAt(id, unshift(loc, k)),
        Msg::MysteryAt(n) => Msg::MysteryAt(unshift_number(n, k)),
        Msg::Spawned(n) => Msg::Spawned(unshift_number(n, k)),
        other => other,
    }
}

/// The pieces a message names.
pub(super) fn named_pieces(msg: &Msg) -> Vec<PieceId> {
    match *msg {
        Msg::Enter(_, id)
        | Msg::Move { id, .. }
        | Msg::LooseMove { id, .. }
        | Msg::PieceAt(id, _)
        | Msg::Teleported(id, _)
        | Msg::Aura(id, _)
        | Msg::Briefing(id)
        | Msg::Restricted(id)
        | Msg::Turned(id)
        | Msg::PitaToKotuwa(id)
        | Msg::CaptureOf(id) => vec![id],
        Msg::Blocked { id, by, .. } => vec![id, by],
        Msg::Capture { id, victim, .. } => vec![id, victim],
        _ => Vec::new(),
    }
}

impl Checker {
    /// Two pieces that entered X and are next said to stand the same few squares off it show a
    /// program numbering the squares from another origin (many count from Yellow's Approach
    /// or another cell): one finding, then its squares are read in its numbering.
    pub(super) fn learn_offset(&mut self, msg: &Msg) {
        let (id, claimed) = match *msg {
            Msg::Move { id, from, .. } => (id, from),
            Msg::LooseMove {
                id,
                from: Some(from),
                ..
            } => (id, from),
            Msg::PieceAt(id, loc) => (id, loc),
            _ => return,
        };
        let x = id.colour.start();
        let (Loc::Square(m), Loc::Square(at)) = (claimed, self.board.piece(id).loc) else {
            return;
        };
        if at != x || self.unknown.contains(&id) || !self.tentative.is_empty() {
            return;
        }
        self.decide("square numbering");
        if m == x {
            return;
        }
        let k = (m + SQUARES - x) % SQUARES;
        // Two pieces must agree: one piece off its X may be a slip of its own.
        let first_line = match self.offset_seen {
            Some((first, seen, line)) if seen == k && first != id => line,
            _ => {
                self.offset_seen = Some((id, k, self.line_no));
                return;
            }
        };
        // The first piece's square was reported as a drift before the numbering was known:
        // the numbering finding replaces it.
        self.report.violations.retain(|v| v.line != first_line);
        self.violation(
            "square numbering",
            format!(
                "{id} entered X ({} {x} in the handout's numbering from Yellow's X) but is said to be at {m}: the program numbers squares {k} further on; its squares are read in its numbering from here",
                id.colour.name()
            ),
        );
        self.offset = Some(k);
        // Squares taken from the program's lines before now are in its numbering: those
        // pieces are found again from its next lines; the mystery cell is moved back.
        for id in Colour::SEATING.into_iter().flat_map(PieceId::all) {
            if matches!(self.board.piece(id).loc, Loc::Square(n) if n != id.colour.start()) {
                self.unknown.insert(id);
            }
        }
        self.mystery = self.mystery.map(|n| (n + SQUARES - k) % SQUARES);
        self.last_mystery = self.last_mystery.map(|n| (n + SQUARES - k) % SQUARES);
    }

    /// After a line that may change the board was not read, the pieces it may concern are
    /// unknown: the pieces it names, else those of the colours it names that are out on the
    /// board, else every piece out on the board.
    pub(super) fn lose_track(&mut self, text: &str) -> bool {
        let lowered = loosen(text);
        // A location summary only reports where pieces are: one the checker cannot read
        // changes nothing, it just pins nothing down.
        if lowered.contains("->")
            || lowered.contains("location of")
            || lowered.contains("locations of")
            || lowered.contains("current position")
        {
            return false;
        }
        // Any run of letters and digits may name a piece or a colour, whatever joins them.
        let words: Vec<&str> = lowered
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let named: Vec<PieceId> = words.iter().filter_map(|w| piece(w, None)).collect();
        // A colour's letter names it first on the line or after "player" (`B Player moves
        // piece 1 ...`, `Player G rolled a 5`).
        let colours: Vec<Colour> = words
            .iter()
            .enumerate()
            .filter_map(
                |(k, w)| match k.checked_sub(1).map(|before| words[before]) {
                    None | Some("player") => colour_or_letter(w),
                    Some(_) => colour(w),
                },
            )
            .collect();
        let out =
            |id: &PieceId, board: &Board| !matches!(board.piece(*id).loc, Loc::Base | Loc::Home);
        let lost: Vec<PieceId> = if !named.is_empty() {
            named
        } else {
            Colour::SEATING
                .into_iter()
                .filter(|c| colours.is_empty() || colours.contains(c))
                .flat_map(PieceId::all)
                .filter(|id| out(id, &self.board))
                .collect()
        };
        self.unknown.extend(lost);
        if lowered.contains("roll") {
            self.turn_unknown = true;
        }
        if lowered.contains("mystery") {
            self.mystery_unknown = true;
        }
        // A location summary may have changed colour on that line.
        self.summary = None;
        if let Some(r) = &mut self.roll {
            r.uncertain = true;
        }
        true
    }

    /// A line of the game seems missing before this one: what the program prints next disagrees
    /// with the replay in a way one line it did not print (or printed where the checker lost
    /// it) explains. That costs coverage like a line not understood, never a finding, and the
    /// rest of the roll is not judged.
    pub(super) fn gap(&mut self) {
        if self.certain() {
            self.report.relevant += 1;
            self.report.missing_lines.push(self.line_no);
        }
        if let Some(r) = &mut self.roll {
            r.uncertain = true;
        }
    }

    /// An action of `c` whose roll line is missing: a roll of unknown value starts, so nothing
    /// that depends on the value is judged in it.
    pub(super) fn missing_roll(&mut self, c: Colour) {
        self.gap();
        let prev = self.roll.take();
        if let Some(p) = &prev {
            self.judge(p);
        }
        let in_turn = match &prev {
            Some(p) if p.colour == c => p.in_turn + 1,
            _ => 1,
        };
        match &prev {
            Some(p) if p.colour != c && self.position(c) <= self.position(p.colour) => {
                self.round += 1
            }
            None => self.round = self.round.max(1),
            _ => {}
        }
        self.roll = Some(Roll {
            uncertain: true,
            ..Roll::start(
                c,
                UNKNOWN_ROLL,
                0,
                self.round,
                self.board.clone(),
                self.line_no,
                in_turn,
            )
        });
    }

    /// The pieces of `c` that are neither in base nor home become unknown (with `base`, those
    /// in base too): a line about one of them is missing.
    pub(super) fn lose_colour(&mut self, c: Colour, base: bool) {
        for id in PieceId::all(c) {
            match self.board.piece(id).loc {
                Loc::Home => {}
                Loc::Base if !base => {}
                _ => {
                    self.unknown.insert(id);
                }
            }
        }
    }

    /// Landings on opposing pieces that no capture line followed: the capture line may be
    /// missing, or the victim may have moved away on a line that is missing. The victim is
    /// unknown until a later line places it; placed still on that square, it was not captured,
    /// and that is the Rule 6 finding.
    pub(super) fn uncaptured(&mut self, landings: Vec<Pending>) {
        self.gap();
        for p in landings {
            self.unknown.insert(p.victim);
            self.suspect.insert(p.mover);
            self.left_standing.push(p);
        }
    }

    /// A piece the replay lost track of is placed again: if a landing on it was never answered
    /// by a capture and it still stands on that square, the capture did not happen.
    pub(super) fn placed_again(&mut self, id: PieceId, claimed: Loc) {
        let Some(at) = self.left_standing.iter().position(|p| p.victim == id) else {
            return;
        };
        let p = self.left_standing.remove(at);
        if claimed == Loc::Square(p.square) {
            *self.report.decisions.entry("Rule 6").or_default() += 1;
            self.report.violations.push(Violation {
                line: p.line,
                text: p.text,
                rule: "Rule 6",
                why: format!(
                    "{} lands on square {} where {} {} stands, but no capture follows ({} is still there later)",
                    p.mover,
                    p.square,
                    p.victim.colour.name(),
                    p.victim,
                    p.victim
                ),
            });
        }
    }
}

/// Whether `loc` is `place`'s square under either layout.
pub(super) fn at_place(loc: Loc, place: Place) -> bool {
    [FROM_ZERO, FROM_APPROACH]
        .iter()
        .any(|layout| loc == Loc::Square(layout.square(place)))
}

/// A roll whose line is missing: its value is not known.
pub(super) const UNKNOWN_ROLL: u32 = 0;

/// Whether one line the program did not print can take a piece of colour `c` from where the
/// replay has it to where the program says it is: a move or teleport from a square (anywhere,
/// into the home straight or Home), a capture or teleport to base, an entry from base onto X,
/// a move on along the home straight. A piece never leaves Home, nor comes out of base
/// anywhere but X, nor goes back from the home straight to the track.
pub(super) fn one_line_apart(c: Colour, actual: Loc, claimed: Loc) -> bool {
    match (actual, claimed) {
        (Loc::Square(_), _) => true,
        (Loc::Base, Loc::Square(n)) => n == c.start(),
        (Loc::HomePath(k), Loc::HomePath(j)) => j > k,
        (Loc::HomePath(_), Loc::Home) => true,
        _ => false,
    }
}

/// Whether one missing line explains a count line: an entry (one more on the board, one less
/// in base), a capture or teleport to base (one less on the board, one more in base), or a
/// move into the home straight or Home (one less on the board). `on_board` may count the home
/// straight or not.
pub(super) fn count_one_line_apart(
    said: (u32, u32),
    standard: u32,
    with_straight: u32,
    base: u32,
) -> bool {
    let (on_board, in_base) = (i64::from(said.0), i64::from(said.1));
    [(1, -1), (-1, 1), (-1, 0)].iter().any(|&(on, off)| {
        (on_board == i64::from(standard) + on || on_board == i64::from(with_straight) + on)
            && in_base == i64::from(base) + off
    })
}
