//! Replay: messages applied to the board in order, with the turn, count and mystery-cell
//! rules checked as they come.

use super::super::board::*;
use super::certainty::*;
use super::read::*;
use super::state::*;
use super::words::*;
use super::*;

/// Rules a roll's own action breaks when the piece did not move as the rules allow (length,
/// leaving base, turning in, the exact roll home, direction, blocks, CS-7, a briefing).
const ACTION_RULES: [&str; 8] = [
    "Rule 1", "Rule 2", "Rule 9", "Rule 10", "CS-1", "CS-3", "CS-7", "CS-13",
];

/// Reads every line of `output` into a checker, before the end-of-game checks.
pub(super) fn replay(output: &str) -> Checker {
    let mut checker = Checker {
        board: Board::new(),
        report: Report::default(),
        layout: None,
        tentative: Vec::new(),
        order: None,
        first_rolls: Vec::new(),
        intros: BTreeSet::new(),
        round: 0,
        roll: None,
        pending: Vec::new(),
        mystery: None,
        last_mystery: None,
        finished: Vec::new(),
        blue_next: 0,
        blue_last: None,
        unsure: BTreeSet::new(),
        unknown: BTreeSet::new(),
        suspect: BTreeSet::new(),
        line_pieces: Vec::new(),
        offset: None,
        offset_seen: None,
        turn_unknown: false,
        mystery_unknown: false,
        mystery_seen: false,
        rounds_out: 0,
        spawned_round: None,
        landed_since_spawn: false,
        first_announced: false,
        order_announced: false,
        count_seen: false,
        rolled_home: BTreeSet::new(),
        left_standing: Vec::new(),
        summary: None,
        summary_listed: Vec::new(),
        summary_doubted: None,
        line_no: 0,
        text: String::new(),
        cells_from_one: None,
        pieces_from_zero: pieces_from_zero(output),
        places: Vec::new(),
    };
    // While the home straight's numbering is not known, the game is replayed a second time
    // with its cells read from 1, from the first line that names a cell on.
    let mut from_one: Option<Checker> = None;
    for (index, raw) in output.lines().enumerate() {
        if from_one.is_none() && checker.cells_from_one.is_none() && cells_from_one(raw).is_some() {
            let mut rival = checker.clone();
            rival.cells_from_one = Some(true);
            from_one = Some(rival);
        }
        let Some(rival) = &mut from_one else {
            checker.read_line(index, raw);
            continue;
        };
        let before = (checker.trouble(), rival.trouble());
        checker.read_line(index, raw);
        rival.read_line(index, raw);
        // The first line that gives one reading a finding and not the other tells them apart.
        match (checker.trouble() > before.0, rival.trouble() > before.1) {
            (true, false) => {
                rival.reading(
                    "home straight cells numbered 1 to 5 (homepath5 is the last cell, not Home)",
                );
                checker = from_one.take().unwrap_or(checker);
            }
            (false, true) => {
                checker.cells_from_one = Some(false);
                from_one = None;
            }
            _ => {}
        }
    }
    checker
}

impl Checker {
    /// Findings and lost track so far: a reading of the home straight's numbering that adds
    /// to them where the other does not is the wrong one.
    fn trouble(&self) -> usize {
        self.report.violations.len()
            + self.report.withheld
            + self.report.missing_lines.len()
            + self.report.not_understood.len()
    }

    /// Reads and replays line `index` (from 0) of the output.
    fn read_line(&mut self, index: usize, raw: &str) {
        let text = raw.trim();
        if text.is_empty() {
            return;
        }
        self.report.lines += 1;
        self.line_no = index + 1;
        self.text = text.to_string();
        let started = self.order.is_some() || self.report.rolls > 0;
        let shifted = self
            .pieces_from_zero
            .then(|| pieces_from_one(text))
            .flatten();
        let text_read = shifted.as_deref().unwrap_or(text);
        let renumbered = match self.cells_from_one {
            Some(true) => cells_from_one(text_read),
            _ => None,
        };
        let msg = match read(renumbered.as_deref().unwrap_or(text_read), self.summary) {
            Reading::Exact(msg) => Some(msg),
            Reading::Tolerated(msg, form) => {
                self.report.unreadable.push((index + 1, text.to_string()));
                self.report
                    .tolerated
                    .push((index + 1, form, text.to_string()));
                Some(msg)
            }
            Reading::Decoration => {
                if !is_separator(text) {
                    self.report.unreadable.push((index + 1, text.to_string()));
                }
                None
            }
            Reading::NotUnderstood => {
                self.report.unreadable.push((index + 1, text.to_string()));
                if started {
                    self.report
                        .not_understood
                        .push((index + 1, text.to_string()));
                    // Only a line that may have changed the board or the turn is a line
                    // of the game the checker failed to check.
                    if self.lose_track(text) {
                        self.report.relevant += 1;
                    }
                }
                None
            }
        };
        let Some(msg) = msg else { return };
        if let Msg::PieceAt(id, _) = &msg {
            if self.summary_doubted == Some(id.colour) {
                return;
            }
        }
        if let (Msg::PieceAt(id, _), Some(c)) = (&msg, self.summary) {
            if id.colour == c {
                if self.summary_listed.contains(&id.index) {
                    // A piece listed twice under one header: the next colour's header is
                    // missing (so whose pieces a bare number names is not known), or the
                    // program prints one piece's name on every line. A summary line changes
                    // nothing, so the rest of this one is passed over.
                    self.summary = None;
                    self.summary_doubted = Some(c);
                    return;
                }
                self.summary_listed.push(id.index);
            }
        }
        if started && !matches!(msg, Msg::Note | Msg::Separator | Msg::LocationHeader(_)) {
            self.report.relevant += 1;
            if self.certain() {
                self.report.checked += 1;
            }
        }
        self.apply(msg);
    }
}

/// A line of `=` only, as the handout's location summary prints.
fn is_separator(text: &str) -> bool {
    matches!(parse(text), Some(Msg::Separator))
}

impl Checker {
    /// Whether the replay knows every piece and the turn: only then are findings reported.
    pub(super) fn certain(&self) -> bool {
        self.unknown.is_empty()
            && !self.turn_unknown
            && !self.mystery_unknown
            && !self.line_pieces.iter().any(|p| self.suspect.contains(p))
            && !self.roll.as_ref().is_some_and(|r| r.uncertain)
    }

    /// A decision under `rule` that the replay checked (only while it knows everything).
    pub(super) fn decide(&mut self, rule: &'static str) {
        if self.certain() {
            *self.report.decisions.entry(rule).or_default() += 1;
        }
    }

    pub(super) fn violation(&mut self, rule: &'static str, why: String) {
        if !self.certain() {
            self.report.withheld += 1;
            return;
        }
        self.decide(rule);
        if ACTION_RULES.contains(&rule) {
            if let Some(roll) = &mut self.roll {
                roll.broke_rule = true;
            }
        }
        self.report.violations.push(Violation {
            line: self.line_no,
            text: self.text.clone(),
            rule,
            why,
        });
    }

    pub(super) fn reading(&mut self, text: &str) {
        self.report.readings.insert(text.to_string());
    }

    pub(super) fn render(&self, id: PieceId) -> String {
        self.board.piece(id).loc.render(id.colour)
    }

    pub(super) fn position(&self, colour: Colour) -> usize {
        self.order
            .as_ref()
            .and_then(|o| o.iter().position(|&c| c == colour))
            .unwrap_or(colour.index())
    }

    pub(super) fn next_player(&self, colour: Colour) -> Colour {
        let order = self.order.clone().unwrap_or(Colour::SEATING.to_vec());
        let at = self.position(colour);
        (1..=4)
            .map(|k| order[(at + k) % order.len()])
            .find(|&c| !self.finished.contains(&c) && !self.board.all_home(c))
            .unwrap_or(colour)
    }

    /// Fixes the layout when a tentatively placed piece is said to be on the other layout's
    /// square for its place.
    pub(super) fn resolve(&mut self, id: PieceId, claimed: Loc) {
        let Some(&(_, place)) = self.tentative.iter().find(|(p, _)| *p == id) else {
            return;
        };
        let layout = if claimed == Loc::Square(FROM_ZERO.square(place)) {
            FROM_ZERO
        } else if claimed == Loc::Square(FROM_APPROACH.square(place)) {
            FROM_APPROACH
        } else {
            return;
        };
        self.layout = Some(layout);
        self.reading(&format!("Bhawana, Kotuwa and Pita-Kotuwa {}", layout.name));
        for (p, place) in std::mem::take(&mut self.tentative) {
            let guess = Loc::Square(FROM_APPROACH.square(place));
            let known = Loc::Square(layout.square(place));
            // The board before this roll was snapshotted with the guess too.
            let boards =
                std::iter::once(&mut self.board).chain(self.roll.as_mut().map(|r| &mut r.before));
            for board in boards {
                if board.piece(p).loc == guess {
                    board.piece_mut(p).loc = known;
                }
            }
        }
    }

    /// The board walks are checked on: pieces placed before the layout was known are left
    /// out, since the square they block is not known.
    pub(super) fn walk_board(&self, mover: PieceId) -> std::borrow::Cow<'_, Board> {
        if self.tentative.is_empty() {
            return std::borrow::Cow::Borrowed(&self.board);
        }
        let mut board = self.board.clone();
        for &(id, _) in self.tentative.iter().filter(|(id, _)| *id != mover) {
            board.piece_mut(id).loc = Loc::Home;
        }
        std::borrow::Cow::Owned(board)
    }

    /// Compares where the program says a piece is with the replay; follows the program.
    pub(super) fn expect_at(&mut self, id: PieceId, claimed: Loc, rule: &'static str) {
        self.resolve(id, claimed);
        let actual = self.board.piece(id).loc;
        if self.unknown.contains(&id) {
            self.placed_again(id, claimed);
            self.unknown.remove(&id);
            // The program tells where a piece the replay lost track of stands; the board
            // taken at this roll did not know it.
            self.suspect.insert(id);
            if let Some(r) = &mut self.roll {
                r.uncertain = true;
            }
            self.board.piece_mut(id).loc = claimed;
            self.tentative.retain(|(p, _)| *p != id);
            return;
        }
        self.decide(rule);
        if actual == claimed {
            return;
        }
        if one_line_apart(id.colour, actual, claimed)
            && !self.tentative.iter().any(|(p, _)| *p == id)
        {
            // A move, capture or teleport of this piece is missing: found again, as after a
            // line not understood.
            self.gap();
            self.suspect.insert(id);
        } else {
            self.violation(
                rule,
                format!(
                    "the replayed board has {id} at {}, not {}",
                    actual.render(id.colour),
                    claimed.render(id.colour)
                ),
            );
        }
        self.board.piece_mut(id).loc = claimed;
        self.tentative.retain(|(p, _)| *p != id);
    }

    /// The roll the colour is acting on, reporting an action without one.
    pub(super) fn current_roll(&mut self, colour: Colour) -> Option<u32> {
        match &self.roll {
            Some(r) if r.colour == colour => {
                let value = r.value;
                self.decide("turn order");
                Some(value)
            }
            Some(r) => {
                let who = r.colour;
                if colour == self.next_player(who) {
                    // The next player acts: its roll line is missing.
                    self.missing_roll(colour);
                    return Some(UNKNOWN_ROLL);
                }
                self.violation(
                    "turn order",
                    format!("it is {}'s roll, not {}'s", who.name(), colour.name()),
                );
                None
            }
            None if self.order.as_ref().is_none_or(|o| o[0] == colour) => {
                // The first player acts: its roll line is missing.
                self.missing_roll(colour);
                Some(UNKNOWN_ROLL)
            }
            None => {
                self.violation(
                    "turn order",
                    format!("{} acts before any roll", colour.name()),
                );
                None
            }
        }
    }

    pub(super) fn apply(&mut self, msg: Msg) {
        self.line_pieces = named_pieces(&msg);
        let unknown = &self.unknown;
        self.left_standing.retain(|p| unknown.contains(&p.victim));
        if self.offset.is_none() {
            self.learn_offset(&msg);
        }
        let msg = match self.offset {
            Some(k) => shifted(msg, k),
            None => msg,
        };
        if !matches!(
            msg,
            Msg::Capture { .. }
                | Msg::Count(..)
                | Msg::LandsMystery(_)
                | Msg::Teleported(..)
                | Msg::Move { .. }
                | Msg::LooseMove { .. }
                | Msg::CaptureOf(_)
                | Msg::Note
        ) {
            self.flush_pending();
        }
        match msg {
            Msg::Intro(c) => {
                self.intros.insert(c);
            }
            // The handout's first-round wording after the first player is known is a turn.
            Msg::FirstRoll(c, v) | Msg::AnyRoll(c, v) if self.order.is_some() => self.rolled(c, v),
            Msg::FirstRoll(c, v) | Msg::AnyRoll(c, v) => {
                self.decide("Rule 1");
                if !(1..=6).contains(&v) {
                    self.violation("Rule 1", format!("a die shows 1 to 6, not {v}"));
                }
                if self.first_rolls.iter().any(|(k, _)| *k == c) {
                    self.reading("ties in the first roll are rolled again");
                }
                self.first_rolls.push((c, v));
            }
            // First-round rolls printed in the turn wording ("Red player rolled 4." before
            // the first player is announced): one per colour while every piece is in base,
            // and more after a tie for the highest (the tied, or every player, roll again).
            Msg::Rolled(c, v)
                if self.order.is_none()
                    && self.report.rolls == 0
                    && (!self.first_rolls.iter().any(|(k, _)| *k == c) || self.first_tied())
                    && Colour::SEATING
                        .into_iter()
                        .flat_map(PieceId::all)
                        .all(|id| self.board.piece(id).loc == Loc::Base) =>
            {
                self.decide("Rule 1");
                if !(1..=6).contains(&v) {
                    self.violation("Rule 1", format!("a die shows 1 to 6, not {v}"));
                }
                self.reading("first-round rolls are printed in the turn wording");
                self.first_rolls.push((c, v));
            }
            Msg::Highest(c) => self.highest(c),
            Msg::Order(colours) => self.announce_order(colours),
            Msg::Rolled(c, v) => self.rolled(c, v),
            Msg::Enter(c, id) => self.enter(c, id),
            Msg::Count(c, on_board, in_base) => self.count(c, on_board, in_base),
            // A move of 0 units that leaves a piece that cannot move where it is (right
            // before a block, a sick piece's half of a 1) is the throw ignored, printed as a
            // move; a piece that could move is checked as moved by 0.
            Msg::Move {
                colour,
                id,
                from,
                to,
                units: 0,
                ..
            } if from == to && self.cannot_move(id) => {
                self.current_roll(colour);
            }
            Msg::LooseMove {
                id,
                from: Some(from),
                to,
                units: Some(0),
                ..
            } if from == to && self.cannot_move(id) => {
                self.current_roll(id.colour);
            }
            Msg::Move {
                colour,
                id,
                from,
                to,
                units,
                dir,
            } => self.move_line(colour, id, from, to, units, dir),
            Msg::Blocked { id, from, to, by } => self.blocked(id, from, to, by),
            // Programs also say this when no piece can move for other reasons: only the
            // turn is checked.
            Msg::Ignoring(c) => {
                self.current_roll(c);
            }
            Msg::MovedBefore(c, loc) => self.moved_before(c, loc),
            Msg::Capture { id, square, victim } => self.capture(id, square, victim),
            Msg::Separator => {}
            Msg::LocationHeader(c) => {
                self.summary = Some(c);
                self.summary_listed.clear();
                self.summary_doubted = None;
            }
            Msg::PieceAt(id, loc) => {
                self.expect_at(id, loc, "location summary");
            }
            Msg::MysteryAt(n) => self.mystery_at(n),
            Msg::LandsMystery(c) => self.lands_mystery(c),
            Msg::Teleported(id, target) => self.teleported(id, target),
            Msg::Aura(id, aura) => self.board.piece_mut(id).aura = Some((aura, self.round)),
            Msg::Briefing(id) => self.board.piece_mut(id).briefing = Some(self.round),
            Msg::Restricted(id) => {
                self.decide("CS-13");
                let since = self.board.piece(id).briefing;
                if since.is_none_or(|s| self.round > s + EFFECT_LAST_ROUND) {
                    self.violation(
                        "CS-13",
                        format!("{id} is not attending a briefing, so it cannot be sent to base for rolling threes"),
                    );
                }
                self.board.piece_mut(id).reset();
                self.unknown.remove(&id);
                self.suspect.remove(&id);
                self.tentative.retain(|(p, _)| *p != id);
            }
            Msg::Turned(id) => self.pita_kotuwa(id, Dir::Clockwise),
            Msg::PitaToKotuwa(id) => self.pita_kotuwa(id, Dir::CounterClockwise),
            Msg::Spawned(n) => self.spawned(n),
            Msg::Wins(c) => self.wins(c),
            Msg::Place(c, n) => self.ranked(c, n),
            Msg::LooseMove {
                id,
                from,
                to,
                units,
                dir,
            } => self.loose_move(id, from, to, units, dir),
            Msg::CaptureOf(victim) => self.capture_of(victim),
            Msg::Note => {}
        }
    }

    pub(super) fn rolled(&mut self, c: Colour, v: u32) {
        self.report.rolls += 1;
        self.rolls_when_home(c);
        self.decide("Rule 1");
        let prev = self.roll.take();
        if let Some(p) = &prev {
            self.judge(p);
        }
        // After the last roll is judged: this finding is about the new roll.
        if !(1..=6).contains(&v) {
            self.violation("Rule 1", format!("a die shows 1 to 6, not {v}"));
        }
        let mut sixes = u32::from(v == 6);
        let mut in_turn = 1;
        let mut spare_bonus = false;
        match &prev {
            None => {
                let first = self.order.as_ref().map(|o| o[0]);
                if first.is_some() {
                    self.decide("turn order");
                }
                if first.is_some_and(|f| f != c && self.next_player(f) == c) {
                    // The first player's roll line is missing.
                    self.gap();
                } else if first.is_some_and(|f| f != c) {
                    self.violation(
                        "turn order",
                        format!(
                            "{} was announced to begin, but {} rolls first",
                            first.map_or("", Colour::name),
                            c.name()
                        ),
                    );
                }
                self.round = 1;
            }
            Some(p) if p.colour == c => {
                self.decide("Rule 4");
                let again = p.value == 6 && p.sixes < 3;
                let earned = again || p.captured;
                // A six that also captured earns two extra rolls (Rule 4 and CS-2 each grant
                // one; nothing says they merge): the second may follow a roll that earned none.
                let spare = p.spare_bonus && !earned && p.sixes < 3;
                spare_bonus = if earned {
                    p.spare_bonus || (again && p.captured)
                } else {
                    false
                };
                if spare {
                    self.reading("a six that also captures earns two extra rolls");
                } else if p.uncertain && (p.sixes >= 3 || !earned) {
                    // What the last roll did (a capture, a bonus) is not fully known.
                    self.report.withheld += 1;
                } else if p.sixes >= 3 {
                    self.violation(
                        "Rule 4",
                        format!("{} rolls again after three sixes in a row", c.name()),
                    );
                } else if !(again || p.captured) {
                    self.violation(
                        "Rule 4",
                        format!(
                            "{} rolls again after a {} without a capture (only a six or a capture gives another roll)",
                            c.name(),
                            p.value
                        ),
                    );
                } else if !again {
                    self.reading("a capture earns a bonus roll (CS-2)");
                }
                if p.captured && p.value != 6 {
                    self.report.shown.insert(Feature::CaptureBonus);
                }
                // After a third six the count starts again, so one extra roll is one finding.
                if v == 6 && p.value == 6 && p.sixes < 3 {
                    sixes = p.sixes + 1;
                }
                in_turn = p.in_turn + 1;
            }
            Some(p) => {
                let next = self.next_player(p.colour);
                let bonus_rule = if p.value == 6 { "Rule 4" } else { "CS-2" };
                self.decide(if p.value == 6 || p.captured {
                    bonus_rule
                } else {
                    "turn order"
                });
                // The three-roll limit may count every roll of the turn, a capture's bonus
                // included (the ruling accepts both readings).
                let limit_reached = p.in_turn >= 3;
                if p.value == 6 && p.sixes < 3 && limit_reached {
                    self.reading("the three-roll limit counts every roll of a turn, a capture's bonus included");
                }
                // A six or a capture (CS-2) earns another roll.
                let bonus_kept = (p.value == 6 || p.captured)
                    && p.sixes < 3
                    && !limit_reached
                    && !self.finished.contains(&p.colour)
                    && !self.board.all_home(p.colour);
                // One roll line missing between them: the six's bonus roll, or the next
                // player's roll.
                let one_missing = if bonus_kept {
                    c == next
                } else {
                    c == self.next_player(next)
                };
                if (bonus_kept || next != c) && p.uncertain {
                    self.report.withheld += 1;
                } else if (bonus_kept || next != c) && one_missing {
                    self.gap();
                } else if bonus_kept {
                    self.violation(
                        bonus_rule,
                        format!(
                            "{} {} and gets another roll, but {} rolls",
                            p.colour.name(),
                            if p.value == 6 {
                                "rolled a six"
                            } else {
                                "captured"
                            },
                            c.name()
                        ),
                    );
                } else if next != c && !self.board.all_home(c) {
                    // A colour with every piece home rolling is Rule 11's finding, not this.
                    self.violation(
                        "turn order",
                        format!(
                            "after {} comes {} in the announced order, not {}",
                            p.colour.name(),
                            next.name(),
                            c.name()
                        ),
                    );
                }
                if self.position(c) <= self.position(p.colour) {
                    self.round += 1;
                    self.round_ended();
                }
            }
        }
        // This roll line pins the turn down again.
        self.turn_unknown = false;
        let known = self.certain();
        let judgeable = self.judgeable(c, self.round) && known;
        let mystery = self.mystery.filter(|_| !self.mystery_unknown);
        self.roll = Some(Roll {
            judgeable,
            known,
            spare_bonus,
            mystery,
            ..Roll::start(
                c,
                v,
                sixes,
                self.round,
                self.board.clone(),
                self.line_no,
                in_turn,
            )
        });
    }

    /// Behaviour is judged only where the replay knows everything the choice depended on.
    pub(super) fn judgeable(&self, c: Colour, round: u32) -> bool {
        self.tentative.is_empty()
            && PieceId::all(c)
                .into_iter()
                .all(|id| !self.unsure.contains(&id) || self.board.piece(id).loc == Loc::Base)
            && PieceId::all(c)
                .into_iter()
                .all(|id| !self.suspect.contains(&id))
            && PieceId::all(c).into_iter().all(|id| {
                let p = self.board.piece(id);
                let unsure = |since: Option<u32>| {
                    since.is_some_and(|s| {
                        (s + EFFECT_SURE_ROUNDS..=s + EFFECT_LAST_ROUND).contains(&round)
                    })
                };
                !unsure(p.aura.map(|a| a.1)) && !unsure(p.briefing)
            })
    }

    /// A second action in one roll is only a block moving together or CS-6's split.
    pub(super) fn check_single_action(&mut self, id: PieceId) {
        let Some(roll) = &self.roll else { return };
        if !roll.acted() || roll.sixes >= 3 {
            return;
        }
        let origin = roll.before.piece(id).loc;
        let same_block = roll.stopped.is_none()
            && !roll.entered
            && !roll.moved.iter().any(|(p, _)| *p == id)
            && roll.moved.iter().all(|(_, from)| *from == origin)
            && origin
                .square()
                .is_some_and(|n| roll.before.count_at(id.colour, n) >= 2);
        let bonus = roll.value == 6 && roll.sixes < 3 || roll.captured;
        // The blocked piece's move to the cell before the block, its own line missing.
        let blocked_move = roll.moved.is_empty() && roll.stopped.is_some_and(|(s, _)| s == id);
        if same_block || blocked_move {
            self.decide("Rule 1");
        } else if bonus {
            // The roll earned another roll: that roll's line is missing.
            self.missing_roll(id.colour);
        } else {
            let first = roll
                .moved
                .first()
                .map_or("a piece".to_string(), |(p, _)| p.to_string());
            self.violation(
                "Rule 1",
                format!(
                    "one roll moves one piece or one block, and {first} already moved on this roll"
                ),
            );
        }
    }

    pub(super) fn enter(&mut self, c: Colour, id: PieceId) {
        if self.current_roll(c).is_none() {
            return self.put_on_x(id);
        }
        self.check_single_action(id);
        let value = self.roll.as_ref().map_or(UNKNOWN_ROLL, |r| r.value);
        self.decide("Rule 2");
        if value != 6 {
            self.violation(
                "Rule 2",
                format!("{id} leaves base on a roll of {value}; leaving base needs a six"),
            );
        }
        match self.board.piece(id).loc {
            Loc::Base => {}
            // Its capture or teleport to base is missing.
            Loc::Square(_) => self.gap(),
            at => {
                let at = at.render(c);
                self.violation("Rule 2", format!("{id} is not in base (it is at {at})"));
            }
        }
        self.put_on_x(id);
        if let Some(roll) = &mut self.roll {
            roll.entered = true;
        }
    }

    pub(super) fn put_on_x(&mut self, id: PieceId) {
        let x = id.colour.start();
        self.tentative.retain(|(p, _)| *p != id);
        self.unsure.remove(&id);
        self.unknown.remove(&id);
        self.suspect.remove(&id);
        let piece = self.board.piece_mut(id);
        piece.reset();
        // Entering X onto an opponent may capture it or share the square (X as a safe
        // square): the handout does not say, so no capture is required.
        piece.loc = Loc::Square(x);
    }

    /// Opposing pieces where a piece landed must be captured by the next lines.
    pub(super) fn note_landing(&mut self, mover: PieceId, square: u8) {
        if !self.certain() {
            return;
        }
        // A piece that did not leave a block of its own cannot land on an opposing block at
        // all: that is the CS-3 finding, and its victims owe no capture line (Rule 6), so
        // one landing is charged once.
        let alone = self.roll.as_ref().is_none_or(|r| {
            r.before
                .piece(mover)
                .loc
                .square()
                .is_none_or(|n| r.before.count_at(mover.colour, n) < 2)
        });
        for victim in self.board.opponents_at(mover.colour, square) {
            if alone && self.board.count_at(victim.colour, square) >= 2 {
                continue;
            }
            // Where a piece placed before the layout was known really stands is not known.
            if self.tentative.iter().any(|(p, _)| *p == victim) {
                continue;
            }
            self.decide("Rule 6");
            self.pending.push(Pending {
                victim,
                square,
                mover,
                line: self.line_no,
                text: self.text.clone(),
            });
        }
    }

    pub(super) fn flush_pending(&mut self) {
        if !self.certain() {
            // The capture may have been on a line the checker could not read.
            self.report.withheld += self.pending.len();
            self.pending.clear();
            return;
        }
        let standing: Vec<Pending> = std::mem::take(&mut self.pending)
            .into_iter()
            .filter(|p| self.board.piece(p.victim).loc == Loc::Square(p.square))
            .collect();
        if !standing.is_empty() {
            self.uncaptured(standing);
        }
    }

    pub(super) fn count(&mut self, c: Colour, on_board: u32, in_base: u32) {
        self.count_seen = true;
        let lost: Vec<PieceId> = PieceId::all(c)
            .into_iter()
            .filter(|id| self.unknown.contains(id))
            .collect();
        if !lost.is_empty() {
            // Pieces the replay lost track of are pinned down when the count leaves them
            // only one place: all in base, or none.
            let known_base = PieceId::all(c)
                .into_iter()
                .filter(|id| !lost.contains(id) && self.board.piece(*id).loc == Loc::Base)
                .count() as u32;
            if in_base == known_base + lost.len() as u32 {
                for id in lost {
                    self.unknown.remove(&id);
                    self.suspect.remove(&id);
                    self.board.piece_mut(id).reset();
                }
            }
            return;
        }
        self.decide("count line");
        let counts = self.board.counts(c);
        let standard = counts.standard as u32;
        let with_straight = standard + counts.home_path as u32;
        let board_ok = on_board == standard || on_board == with_straight;
        let base = counts.base as u32;
        if !(board_ok && in_base == base)
            && count_one_line_apart((on_board, in_base), standard, with_straight, base)
        {
            // An entry, capture, teleport or move home of this colour is missing.
            self.gap();
            self.lose_colour(c, true);
        } else if !board_ok || in_base != base {
            let straight = if counts.home_path > 0 {
                format!(" ({with_straight} counting the home straight)")
            } else {
                String::new()
            };
            self.violation(
                "count line",
                format!(
                    "the replayed board has {} with {standard}/4 on the board{straight} and {}/4 in base",
                    c.name(),
                    counts.base
                ),
            );
        } else if standard != with_straight {
            self.reading(if on_board == with_straight {
                "count lines include the home straight as on the board"
            } else {
                "count lines leave the home straight off the board"
            });
        }
    }
}
