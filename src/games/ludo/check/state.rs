//! What the checker knows while it replays a game: the board, the roll being made, captures
//! not yet answered, and what it has lost track of. The replay (`replay`) and its handling of
//! lines it cannot read (`certainty`) both work on it.

use std::collections::BTreeSet;

use super::super::board::*;
use super::*;

/// An aura or a briefing that began in round `s` still lasts before round
/// `s + EFFECT_SURE_ROUNDS` and is over after round `s + EFFECT_LAST_ROUND` under every reading
/// of "the next four rounds" (counted from the round it began or the next); in between the
/// readings differ.
pub(super) const EFFECT_SURE_ROUNDS: u32 = 3;
pub(super) const EFFECT_LAST_ROUND: u32 = 5;

/// What one roll did, for the turn rules and the behaviour checks.
#[derive(Debug, Clone)]
pub(super) struct Roll {
    pub(super) colour: Colour,
    pub(super) value: u32,
    pub(super) sixes: u32,
    pub(super) round: u32,
    /// The board when the roll was made.
    pub(super) before: Board,
    pub(super) entered: bool,
    pub(super) captured: bool,
    /// Pieces moved, with the square they left.
    pub(super) moved: Vec<(PieceId, Loc)>,
    pub(super) made_block: bool,
    pub(super) block_move: bool,
    /// A piece reported blocked, and the cell before the block with its Approach count.
    pub(super) stopped: Option<(PieceId, Option<(Loc, u32)>)>,
    /// A move a capture line stood for: (piece, from, to).
    pub(super) implied: Option<(PieceId, Loc, Loc)>,
    /// Whether behaviour can be judged (no ambiguous state at the roll).
    pub(super) judgeable: bool,
    /// Whether the replay knew every piece and the turn at the roll; a choice wrong under
    /// every reading is judged on that alone (see `judge::against_every_reading`).
    pub(super) known: bool,
    /// The roll line.
    pub(super) line: usize,
    /// A line the checker could not read came during this roll: what the roll did is not
    /// fully known, so neither its one-action rule nor its behaviour is judged.
    pub(super) uncertain: bool,
    /// Rolls in this turn so far, this one included.
    pub(super) in_turn: u32,
    /// What the roll did broke a rule of `ACTION_RULES`: the finding charges the bug, and the
    /// program chose among moves the rules do not give, so the choice is not judged again
    /// as behaviour (a program ignoring CS-7 chooses a piece that it thinks turns in).
    pub(super) broke_rule: bool,
    /// A six that also captured earlier in this turn earned a second extra roll (Rule 4 and
    /// CS-2 each grant one) that no roll of the turn has used yet.
    pub(super) spare_bonus: bool,
    /// The mystery cell when the roll was made, where the replay knows it (Blue's preference).
    pub(super) mystery: Option<u8>,
}

impl Roll {
    /// A roll that has done nothing yet, not judgeable and not uncertain.
    pub(super) fn start(
        colour: Colour,
        value: u32,
        sixes: u32,
        round: u32,
        before: Board,
        line: usize,
        in_turn: u32,
    ) -> Self {
        Roll {
            colour,
            value,
            sixes,
            round,
            before,
            entered: false,
            captured: false,
            moved: Vec::new(),
            made_block: false,
            block_move: false,
            stopped: None,
            implied: None,
            judgeable: false,
            known: false,
            line,
            uncertain: false,
            in_turn,
            broke_rule: false,
            spare_bonus: false,
            mystery: None,
        }
    }

    pub(super) fn acted(&self) -> bool {
        self.entered || !self.moved.is_empty() || self.stopped.is_some()
    }
}

/// A landing on opposing pieces that has not been answered by a capture message yet.
#[derive(Debug, Clone)]
pub(super) struct Pending {
    pub(super) victim: PieceId,
    pub(super) square: u8,
    pub(super) mover: PieceId,
    pub(super) line: usize,
    pub(super) text: String,
}

#[derive(Clone)]
pub(super) struct Checker {
    pub(super) board: Board,
    pub(super) report: Report,
    pub(super) layout: Option<Layout>,
    /// Pieces teleported to a named place before the layout was known.
    pub(super) tentative: Vec<(PieceId, Place)>,
    pub(super) order: Option<Vec<Colour>>,
    pub(super) first_rolls: Vec<(Colour, u32)>,
    pub(super) intros: BTreeSet<Colour>,
    pub(super) round: u32,
    pub(super) roll: Option<Roll>,
    pub(super) pending: Vec<Pending>,
    pub(super) mystery: Option<u8>,
    pub(super) last_mystery: Option<u8>,
    pub(super) finished: Vec<Colour>,
    pub(super) blue_next: usize,
    /// The round and the piece of Blue's last move: its cycle may be counted per round.
    pub(super) blue_last: Option<(u32, PieceId)>,
    /// Pieces that moved with a block before their own direction was known: their Approach
    /// count is uncertain, so their colour's behaviour is not judged until they reset.
    pub(super) unsure: BTreeSet<PieceId>,
    /// Pieces a line the checker could not read may have moved: where they stand is not known
    /// until a later line pins them down (a move's from-square, a location summary, a count
    /// line, a return to base).
    pub(super) unknown: BTreeSet<PieceId>,
    /// Pieces the replay lost track of and found again: where they stand is known, but not
    /// their direction, captures or Bhawana effect, so their moves are not judged until they
    /// go back to base.
    pub(super) suspect: BTreeSet<PieceId>,
    /// Squares printed this many squares clockwise of the handout's numbering (a program
    /// that numbers from another origin): learned once, charged once, then taken back off.
    pub(super) offset: Option<u8>,
    /// A first piece seen off its X by that many squares (and the line), waiting for a
    /// second to agree.
    pub(super) offset_seen: Option<(PieceId, u8, usize)>,
    /// The pieces the line being replayed names.
    pub(super) line_pieces: Vec<PieceId>,
    /// A line that may have been a roll was not read: the turn order is not known until the
    /// next roll line.
    pub(super) turn_unknown: bool,
    /// A line about the mystery cell was not read: where it is is not known until the next
    /// line that says.
    pub(super) mystery_unknown: bool,
    /// Whether a line has shown a mystery cell (spawned, in a summary, landed on).
    pub(super) mystery_seen: bool,
    /// Rounds in a row that ended with a piece on the standard path.
    pub(super) rounds_out: u32,
    /// The round the mystery cell last spawned in, and whether a piece has landed on it since.
    pub(super) spawned_round: Option<u32>,
    pub(super) landed_since_spawn: bool,
    /// Whether the first player was announced (the handout's "... has the highest roll").
    pub(super) first_announced: bool,
    /// Whether the order of a round was announced ("The order of a single round is ...").
    pub(super) order_announced: bool,
    /// Whether any count line ("... now has a/4 on pieces on the board ...") was printed.
    pub(super) count_seen: bool,
    /// Colours found rolling with all four pieces home (reported once).
    pub(super) rolled_home: BTreeSet<Colour>,
    /// Landings no capture line answered, whose victims are unknown until placed again.
    pub(super) left_standing: Vec<Pending>,
    /// The colour of the location summary being printed.
    pub(super) summary: Option<Colour>,
    /// The pieces of that colour the summary has listed so far (their indices).
    pub(super) summary_listed: Vec<usize>,
    /// A colour whose location summary listed a piece twice: the rest of that summary says
    /// nothing the checker can trust about its pieces, until the next header.
    pub(super) summary_doubted: Option<Colour>,
    pub(super) line_no: usize,
    pub(super) text: String,
    /// Whether the program numbers its home-straight cells 1 to 5 (`HS5` the last cell, not
    /// Home), once a line has told; the handout: "Cell number starts with zero (0)".
    pub(super) cells_from_one: Option<bool>,
    /// Whether the program numbers bare pieces 0 to 3 (`piece 0`): a game that prints a
    /// `piece 0` and never a `piece 4`.
    pub(super) pieces_from_zero: bool,
    /// The colours a table of places at the end has listed so far, in order.
    pub(super) places: Vec<Colour>,
}
