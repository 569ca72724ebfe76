//! The mystery cell (CS-10 to CS-15): where and when it appears, landings and teleports.

use super::super::board::*;
use super::state::*;
use super::words::*;
use super::Feature;

/// Rounds in a row with pieces on the standard path by which a mystery cell must have
/// appeared: the handout says after two; the rest is room for other readings of when.
const MYSTERY_DEADLINE: u32 = 10;

/// Rounds a mystery cell stays before it moves: four in the handout, give or take the round
/// it spawned in (as for the effect windows); one used up by a landing may move sooner.
const MYSTERY_STAY: std::ops::RangeInclusive<u32> = 3..=6;

impl Checker {
    pub(super) fn lands_mystery(&mut self, c: Colour) {
        self.mystery_seen = true;
        self.landed_since_spawn = true;
        let out = PieceId::all(c)
            .into_iter()
            .any(|id| matches!(self.board.piece(id).loc, Loc::Square(_)));
        let Some(cell) = self.mystery else {
            // The line of the cell's spawning is missing.
            return self.gap();
        };
        self.decide("CS-11");
        let on_it = PieceId::all(c)
            .into_iter()
            .any(|id| self.board.piece(id).loc == Loc::Square(cell));
        if !on_it && out {
            // The move onto the cell is missing.
            self.gap();
            self.lose_colour(c, false);
        } else if !on_it {
            self.violation(
                "CS-11",
                format!(
                    "no {} piece is on the mystery cell (square {cell})",
                    c.name()
                ),
            );
        }
    }

    pub(super) fn place(&mut self, id: PieceId, place: Place) {
        self.tentative.retain(|(p, _)| *p != id);
        let layout = match self.layout {
            Some(l) => l,
            None => {
                self.tentative.push((id, place));
                FROM_APPROACH
            }
        };
        self.board.piece_mut(id).loc = Loc::Square(layout.square(place));
    }

    pub(super) fn teleported(&mut self, id: PieceId, target: Target) {
        self.mystery_seen = true;
        self.landed_since_spawn = true;
        if let Some(cell) = self.mystery {
            self.decide("CS-11");
            let at = self.board.piece(id).loc;
            let moved_there = self
                .roll
                .as_ref()
                .is_some_and(|r| r.moved.iter().any(|m| m.0 == id) || r.entered);
            if at != Loc::Square(cell) && !moved_there && matches!(at, Loc::Square(_)) {
                // The move onto the cell is missing.
                self.gap();
                self.suspect.insert(id);
            } else if at != Loc::Square(cell) && !moved_there {
                self.violation(
                    "CS-11",
                    format!(
                        "{id} is at {}, not on the mystery cell (square {cell})",
                        at.render(id.colour)
                    ),
                );
            }
        }
        self.report.shown.insert(Feature::MysteryCell);
        self.report.shown.insert(match target {
            Target::Place(Place::Bhawana) => Feature::ToBhawana,
            Target::Place(Place::Kotuwa) => Feature::ToKotuwa,
            Target::Place(Place::PitaKotuwa) => Feature::ToPitaKotuwa,
            Target::Base => Feature::ToBase,
            Target::X => Feature::ToX,
            Target::Approach => Feature::ToApproach,
        });
        let c = id.colour;
        match target {
            Target::Place(place) => self.place(id, place),
            Target::Base => {
                self.unknown.remove(&id);
                self.suspect.remove(&id);
                self.board.piece_mut(id).reset();
                self.tentative.retain(|(p, _)| *p != id);
            }
            Target::X => self.board.piece_mut(id).loc = Loc::Square(c.start()),
            Target::Approach => self.board.piece_mut(id).loc = Loc::Square(c.approach()),
        }
        if !matches!(target, Target::Place(_) | Target::Base) {
            self.tentative.retain(|(p, _)| *p != id);
        }
    }

    /// CS-14 by the piece's direction: a clockwise piece teleported to Pita-Kotuwa turns
    /// (`says` clockwise), a counter-clockwise one goes on to Kotuwa. A piece that came with
    /// a block moving its way or not is left out: which direction it "was moving" is open.
    pub(super) fn pita_kotuwa(&mut self, id: PieceId, says: Dir) {
        let with_block = self.roll.as_ref().is_some_and(|r| {
            r.moved.iter().any(|&(p, from)| {
                p == id
                    && from
                        .square()
                        .is_some_and(|n| r.before.count_at(id.colour, n) >= 2)
            })
        });
        let known = self.board.piece(id).dir;
        if let Some(dir) = known.filter(|_| !with_block && !self.unsure.contains(&id)) {
            self.decide("CS-14");
            if dir != says {
                self.violation(
                    "CS-14",
                    format!(
                        "{id} moves {}, so at Pita-Kotuwa it {}",
                        dir.word(),
                        if dir == Dir::Clockwise {
                            "turns counter-clockwise"
                        } else {
                            "goes on to Kotuwa"
                        }
                    ),
                );
            }
        }
        match says {
            Dir::Clockwise => {
                let piece = self.board.piece_mut(id);
                piece.dir = Some(Dir::CounterClockwise);
                piece.turned = true;
            }
            Dir::CounterClockwise => self.place(id, Place::Kotuwa),
        }
    }

    /// CS-10: when the first mystery cell appears is open, that it appears is not. After
    /// `MYSTERY_DEADLINE` rounds in a row that ended with a piece on the standard path and no
    /// line showing a mystery cell, that is one finding (only in a game read in full: a line
    /// not understood may have been its spawning).
    pub(super) fn round_ended(&mut self) {
        // Past one stay the next spawning line may be missing; past two, no one line is.
        let overstayed = self
            .spawned_round
            .filter(|s| self.round > s + 2 * MYSTERY_STAY.end() && !self.mystery_unknown);
        if let Some(since) = overstayed {
            // Reported once per cell.
            self.spawned_round = None;
            self.violation(
                "CS-10",
                format!(
                    "the mystery cell spawned in round {since} is still there in round {}; it moves after four rounds",
                    self.round
                ),
            );
        }
        if self.mystery_seen || self.mystery.is_some() || self.mystery_unknown {
            return;
        }
        let out = Colour::SEATING.into_iter().any(|c| {
            PieceId::all(c)
                .into_iter()
                .any(|id| matches!(self.board.piece(id).loc, Loc::Square(_)))
        });
        self.rounds_out = if out { self.rounds_out + 1 } else { 0 };
        if self.rounds_out >= MYSTERY_DEADLINE
            && self.certain()
            && self.report.not_understood.is_empty()
        {
            self.mystery_seen = true;
            self.violation(
                "CS-10",
                format!(
                    "no mystery cell has appeared, though pieces have stood on the standard path for {MYSTERY_DEADLINE} rounds"
                ),
            );
        }
    }

    /// A summary's "The mystery cell is at N".
    pub(super) fn mystery_at(&mut self, n: u32) {
        let said = u8::try_from(n).ok().filter(|&m| m < SQUARES);
        if self.mystery_unknown {
            // The program tells where the cell is after a line the checker could not read.
            self.mystery_unknown = false;
        } else if self.mystery.map(u32::from) != Some(n) {
            // The line of its spawning is missing.
            self.gap();
        } else {
            return;
        }
        self.mystery = said;
        self.last_mystery = said;
        // When this cell spawned is not known.
        self.spawned_round = None;
    }

    pub(super) fn spawned(&mut self, n: u32) {
        self.mystery_seen = true;
        self.report.shown.insert(Feature::MysteryCell);
        self.mystery_unknown = false;
        if n >= u32::from(SQUARES) {
            return self.violation(
                "CS-10",
                format!("square {n} is not on the standard path (0 to 51)"),
            );
        }
        let square = n as u8;
        self.decide("CS-10");
        let occupants: Vec<String> = self
            .board
            .on_square(square)
            .into_iter()
            .filter(|id| !self.tentative.iter().any(|(p, _)| p == id))
            .map(|id| id.to_string())
            .collect();
        if !occupants.is_empty() {
            self.violation(
                "CS-10",
                format!(
                    "the mystery cell spawns on square {n}, where {} stands",
                    occupants.join(" and ")
                ),
            );
        }
        if self.last_mystery == Some(square) {
            self.violation(
                "CS-10",
                format!("the mystery cell spawns on square {n} again, where the last one was"),
            );
        }
        let stayed = self.spawned_round.map(|s| self.round - s);
        if stayed.is_some_and(|r| r > *MYSTERY_STAY.end()) {
            // A spawning line between is missing.
            self.gap();
        } else if stayed.is_some_and(|r| r < *MYSTERY_STAY.start()) && !self.landed_since_spawn {
            self.violation(
                "CS-10",
                format!(
                    "the mystery cell moves after {} round(s) though no piece landed on it; it stays four rounds",
                    stayed.unwrap_or(0)
                ),
            );
        }
        self.spawned_round = Some(self.round);
        self.landed_since_spawn = false;
        self.mystery = Some(square);
        self.last_mystery = Some(square);
    }
}
