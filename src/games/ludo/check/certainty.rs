//! Certainty: what the replay does when it cannot read a line (pieces, turn and mystery cell
//! become unknown until a later line pins them down) and when a program numbers the squares
//! from another origin.

use super::super::board::*;
use super::read::*;
use super::replay::*;

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
        Msg::Blocked { id, from, by } => Msg::Blocked {
            id,
            from: unshift(from, k),
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
        {
            return false;
        }
        // Any run of letters and digits may name a piece or a colour, whatever joins them.
        let words: Vec<&str> = lowered
            .split(|c: char| !c.is_ascii_alphanumeric())
            .filter(|w| !w.is_empty())
            .collect();
        let named: Vec<PieceId> = words.iter().filter_map(|w| piece(w, None)).collect();
        let colours: Vec<Colour> = words.iter().filter_map(|w| colour(w)).collect();
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
}
