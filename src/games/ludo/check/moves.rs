//! Replay of moves, blocks and captures: each checked against the walks the rules allow.

use super::super::board::*;
use super::super::sim::briefed_in;
use super::certainty::*;
use super::state::*;

impl Checker {
    /// Square counts a move may cover: the roll, doubled or halved while Bhawana's effect may
    /// last, divided among a block's members, or anything up to six on CS-6's split.
    pub(super) fn step_options(&self, id: PieceId, roll: &Roll) -> Vec<u32> {
        let value = roll.value;
        if roll.sixes >= 3 {
            return (1..=6).collect();
        }
        let piece = self.board.piece(id);
        let mut steps = Vec::new();
        let plain = match piece.aura {
            Some((aura, since)) => {
                let elapsed = self.round.saturating_sub(since);
                if elapsed <= EFFECT_LAST_ROUND {
                    match aura {
                        Aura::Energised => steps.push(value * 2),
                        Aura::Sick => steps.extend([value / 2, value.div_ceil(2)]),
                    }
                }
                elapsed >= EFFECT_SURE_ROUNDS
            }
            None => true,
        };
        if plain {
            steps.push(value);
        }
        if let Some(n) = roll.before.piece(id).loc.square() {
            let members = roll.before.count_at(id.colour, n) as u32;
            steps.extend((2..=members).map(|k| value / k));
        }
        steps.retain(|&s| s > 0);
        steps.dedup();
        steps
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn move_line(
        &mut self,
        c: Colour,
        id: PieceId,
        from: Loc,
        to: Loc,
        units: u32,
        dir: Dir,
    ) {
        let Some(_) = self.current_roll(c) else {
            self.board.piece_mut(id).loc = to;
            return;
        };
        let Some(roll) = self.roll.clone() else {
            return;
        };
        if roll.implied == Some((id, from, to)) {
            if let Some(r) = &mut self.roll {
                r.implied = None;
            }
            return;
        }
        if !matches!(from, Loc::Square(_) | Loc::HomePath(_)) {
            self.violation(
                "Rule 2",
                format!(
                    "{id} cannot move from {}; pieces leave base only with a six",
                    from.render(c)
                ),
            );
            self.board.piece_mut(id).loc = to;
            return;
        }
        self.expect_at(id, from, "Rule 1");
        if let Some(since) = self.board.piece(id).briefing {
            self.decide("CS-13");
            if self.round < since + EFFECT_SURE_ROUNDS {
                self.violation(
                    "CS-13",
                    format!(
                        "{id} attends a briefing at Kotuwa since round {since} and cannot move for four rounds (this is round {})",
                        self.round
                    ),
                );
            }
        }
        self.check_single_action(id);
        let in_block = from
            .square()
            .is_some_and(|n| roll.before.count_at(c, n) >= 2);
        let piece = self.board.piece(id).clone();
        if piece.dir.is_some() && !in_block && roll.sixes < 3 {
            self.decide("CS-1");
        }
        // A clockwise piece on Pita-Kotuwa turned there (CS-14): the line saying so is missing.
        let unseen_turn =
            dir == Dir::CounterClockwise && !piece.turned && at_place(from, Place::PitaKotuwa);
        match piece.dir {
            Some(own) if own != dir && !in_block && roll.sixes < 3 && unseen_turn => {
                self.gap();
                let piece = self.board.piece_mut(id);
                piece.dir = Some(dir);
                piece.turned = true;
            }
            Some(own) if own != dir && !in_block && roll.sixes < 3 => self.violation(
                "CS-1",
                format!(
                    "{id} moves {} but its direction is {}",
                    dir.word(),
                    own.word()
                ),
            ),
            None if !in_block => self.board.piece_mut(id).dir = Some(dir),
            None => {
                self.unsure.insert(id);
            }
            _ => {}
        }
        let own_dir = piece.dir.unwrap_or(dir) == dir;
        let group = from
            .square()
            .map_or(1, |n| roll.before.count_at(c, n))
            .max(1);
        let steps = self.step_options(id, &roll);
        let matched = self.reach(id, &roll, dir, to);
        match matched {
            Some((moved, passes)) => {
                self.decide("Rule 1");
                if matches!(to, Loc::HomePath(_) | Loc::Home) && !matches!(from, Loc::HomePath(_)) {
                    self.decide("CS-7");
                    if piece.captures > 0 {
                        self.decide("Rule 9");
                    }
                }
                if to == Loc::Home {
                    self.decide("Rule 10");
                }
                if units != roll.value && units != moved && !steps.contains(&units) {
                    self.violation(
                        "Rule 1",
                        format!(
                            "\"by {units} units\" is neither the roll ({}) nor the squares moved ({moved})",
                            roll.value
                        ),
                    );
                } else if units != roll.value {
                    self.reading("\"by N units\" gives the squares moved");
                }
                if own_dir {
                    self.board.piece_mut(id).passes = passes;
                }
            }
            // A piece leaving Bhawana with no effect known: the line of its effect is missing.
            // A move of a block the replay does not know of: a line that formed it is missing.
            None if piece.aura.is_none() && at_place(from, Place::Bhawana)
                || self.fits_unseen_block(id, &roll, dir, to) =>
            {
                self.gap();
                self.suspect.insert(id);
            }
            None => self.explain_move(
                id,
                from,
                to,
                steps.first().copied().unwrap_or(roll.value),
                dir,
                group,
            ),
        }
        self.board.piece_mut(id).loc = to;
        if self.roll.as_ref().is_some_and(|r| r.value == UNKNOWN_ROLL) {
            // Moved on a roll whose line is missing: how far it went past its Approach is
            // not known.
            self.suspect.insert(id);
        }
        let made_block = self.makes_block(&roll, c, to);
        if let Some(r) = &mut self.roll {
            r.moved.push((id, from));
            r.made_block |= made_block;
            r.block_move |= in_block && r.moved.len() > 1;
        }
        if let Some(n) = to.square() {
            self.note_landing(id, n);
        }
    }

    /// Whether piece `id` can go from where it is to `to` on this roll in direction `dir`
    /// under some accepted reading: (squares moved, Approach count after).
    pub(super) fn reach(&self, id: PieceId, roll: &Roll, dir: Dir, to: Loc) -> Option<(u32, u32)> {
        let c = id.colour;
        let piece = self.board.piece(id);
        let from = piece.loc;
        let own_dir = piece.dir.unwrap_or(dir) == dir;
        let group = from
            .square()
            .map_or(1, |n| roll.before.count_at(c, n))
            .max(1);
        let mut policies = vec![EnterPolicy::Strict, EnterPolicy::WhenCaptured];
        // A block member moving against its own direction never turns into the home
        // straight (CS-4), so only a piece on its own way must enter.
        let must_enter = own_dir
            && piece.dir == Some(Dir::Clockwise)
            && !piece.turned
            && piece.captures > 0
            && from != Loc::Square(c.approach());
        if !must_enter {
            policies.push(EnterPolicy::Never);
        }
        for s in self.step_options(id, roll) {
            for &policy in &policies {
                let hit = match self.walk_board(id).walk(id, dir, s, policy, group, own_dir) {
                    Walk::Reached { dest, passes } => (dest == to).then_some((s, passes)),
                    Walk::Blocked {
                        before,
                        steps_done,
                        passes,
                        ..
                    } => (before == to && steps_done > 0).then_some((steps_done, passes)),
                    Walk::Overshoot => None,
                };
                if hit.is_some() {
                    return hit;
                }
            }
        }
        None
    }

    /// Whether the move is the roll divided among the members of a block of 2 to 4 pieces.
    pub(super) fn fits_unseen_block(&self, id: PieceId, roll: &Roll, dir: Dir, to: Loc) -> bool {
        let board = self.walk_board(id);
        (2..=4u32).any(|k| {
            let steps = roll.value / k;
            steps > 0
                && [
                    EnterPolicy::Strict,
                    EnterPolicy::WhenCaptured,
                    EnterPolicy::Never,
                ]
                .into_iter()
                .any(|policy| {
                    matches!(board.walk(id, dir, steps, policy, k as usize, true),
                            Walk::Reached { dest, .. } if dest == to)
                })
        })
    }

    /// Whether piece `id` cannot make its move on the current roll in any direction it may
    /// take (a block in the way, a sick piece's half of a 1): a line moving it by 0 units then
    /// says the throw is ignored. A piece that could move is charged as a move of 0 units.
    pub(super) fn cannot_move(&self, id: PieceId) -> bool {
        let Some(roll) = self.roll.as_ref().filter(|r| r.colour == id.colour) else {
            return false;
        };
        let piece = self.board.piece(id);
        let sick_one = roll.value == 1
            && piece.aura.is_some_and(|(aura, since)| {
                aura == Aura::Sick && self.round <= since + EFFECT_LAST_ROUND
            });
        let dirs = match piece.dir {
            Some(dir) => vec![dir],
            None => vec![Dir::Clockwise, Dir::CounterClockwise],
        };
        let board = self.walk_board(id);
        sick_one
            || !self.step_options(id, roll).into_iter().any(|steps| {
                dirs.iter().any(|&dir| {
                    matches!(
                        board.walk(id, dir, steps, EnterPolicy::Always, 1, true),
                        Walk::Reached { .. }
                    )
                })
            })
    }

    /// Says why a printed move is not one the rules allow from the replayed board.
    pub(super) fn explain_move(
        &mut self,
        id: PieceId,
        from: Loc,
        to: Loc,
        steps: u32,
        dir: Dir,
        group: usize,
    ) {
        let c = id.colour;
        let piece = self.board.piece(id).clone();
        let board = self.walk_board(id);
        let reaches = |policy| {
            matches!(board.walk(id, dir, steps, policy, group, true),
                Walk::Reached { dest, .. } if dest == to)
        };
        let strict = board.walk(id, dir, steps, EnterPolicy::Strict, group, true);
        let head = format!(
            "{} moves {id} from {} to {} by {steps}",
            c.name(),
            from.render(c),
            to.render(c)
        );
        if matches!(to, Loc::HomePath(_) | Loc::Home)
            && !matches!(from, Loc::HomePath(_))
            && piece.captures == 0
            && reaches(EnterPolicy::Always)
        {
            return self.violation(
                "CS-7",
                format!("{id} enters the home straight without having captured a piece"),
            );
        }
        if reaches(EnterPolicy::Never) {
            let should = match strict {
                Walk::Reached { dest, .. } => dest.render(c),
                _ => "the home straight".into(),
            };
            return self.violation(
                "Rule 9",
                format!(
                    "{head}: {id} has captured and passes its Approach ({}), so it turns into the home straight, to {should}",
                    c.approach()
                ),
            );
        }
        match strict {
            Walk::Reached { dest, .. } => self.violation(
                "Rule 1",
                format!("{head}; {} + {steps} {} is {}", from.render(c), dir.word(), dest.render(c)),
            ),
            Walk::Blocked {
                before, block, by, ..
            } => self.violation(
                "CS-3",
                format!(
                    "{head}; the {} block on square {block} ({by}) cannot be passed: {id} can reach {} at most",
                    by.colour.name(),
                    before.render(c)
                ),
            ),
            Walk::Overshoot => self.violation(
                "Rule 10",
                format!("{head}; from {} a {steps} overshoots Home, which needs the exact roll", from.render(c)),
            ),
        }
    }

    pub(super) fn blocked(&mut self, id: PieceId, from: Loc, to: Loc, by: PieceId) {
        let Some(_) = self.current_roll(id.colour) else {
            return;
        };
        let Some(roll) = self.roll.clone() else {
            return;
        };
        self.expect_at(id, from, "CS-3");
        self.decide("CS-3");
        self.check_single_action(id);
        let block_on = |board: &Board| {
            board
                .piece(by)
                .loc
                .square()
                .filter(|&n| by.colour != id.colour && board.count_at(by.colour, n) >= 2)
        };
        let dirs: Vec<Dir> = match self.board.piece(id).dir {
            Some(d) => vec![d],
            None => vec![Dir::Clockwise, Dir::CounterClockwise],
        };
        let steps = self.step_options(id, &roll);
        // The cell before `block` on the first board where the walk stops there.
        let stopped_before = |boards: &[&Board], block: u8| {
            let policies = [
                EnterPolicy::Strict,
                EnterPolicy::WhenCaptured,
                EnterPolicy::Never,
            ];
            for &s in &steps {
                for &d in &dirs {
                    for policy in policies {
                        for board in boards {
                            if let Walk::Blocked {
                                before,
                                block: n,
                                passes,
                                ..
                            } = board.walk(id, d, s, policy, 1, true)
                            {
                                if n == block {
                                    return Some((before, passes));
                                }
                            }
                        }
                    }
                }
            }
            None
        };
        // Pieces placed before the layout was known may form the block: try with them too.
        let walk_board = self.walk_board(id).into_owned();
        let mut before = block_on(&self.board)
            .and_then(|block| stopped_before(&[&walk_board, &self.board], block));
        if before.is_none() {
            // Pieces placed before the layout was known may form the block on the other
            // layout's squares: then the block settles the layout.
            let mut other = self.board.clone();
            for &(p, place) in &self.tentative {
                other.piece_mut(p).loc = Loc::Square(FROM_ZERO.square(place));
            }
            let settled = block_on(&other).and_then(|block| {
                let found = stopped_before(&[&other], block)?;
                let (p, place) = self.tentative.iter().copied().find(|&(p, place)| {
                    p.colour == by.colour && FROM_ZERO.square(place) == block
                })?;
                Some((found, p, place))
            });
            if let Some((found, p, place)) = settled {
                self.resolve(p, Loc::Square(FROM_ZERO.square(place)));
                before = Some(found);
            }
        }
        if before.is_none() && matches!(self.board.piece(by).loc, Loc::Square(_)) {
            // A move that made the block is missing: where `by` stands is not known.
            self.gap();
            self.unknown.insert(by);
        } else if before.is_none() {
            let at = self.render(by);
            self.violation(
                "CS-3",
                format!(
                    "{by} (at {at}) is not part of an opposing block in {id}'s way for this roll"
                ),
            );
        }
        if before.is_some() {
            self.blocked_target(id, to, &roll);
        }
        if let Some(r) = &mut self.roll {
            r.stopped = Some((id, before));
        }
    }

    /// The blocked message's L2 is where the roll would take the piece with no opponent in
    /// the way (or where it stands, when that walk overshoots Home), under any reading of
    /// the roll's length and the home straight.
    pub(super) fn blocked_target(&mut self, id: PieceId, to: Loc, roll: &Roll) {
        let mut alone = Board::new();
        *alone.piece_mut(id) = self.board.piece(id).clone();
        let dirs: Vec<Dir> = match self.board.piece(id).dir {
            Some(d) => vec![d],
            None => vec![Dir::Clockwise, Dir::CounterClockwise],
        };
        let policies = [
            EnterPolicy::Strict,
            EnterPolicy::WhenCaptured,
            EnterPolicy::Never,
        ];
        let from = self.board.piece(id).loc;
        let fits = self.step_options(id, roll).into_iter().any(|s| {
            dirs.iter().any(|&d| {
                policies
                    .iter()
                    .any(|&policy| match alone.walk(id, d, s, policy, 1, true) {
                        Walk::Reached { dest, .. } => dest == to,
                        Walk::Overshoot => from == to,
                        Walk::Blocked { .. } => false,
                    })
            })
        });
        if !fits {
            self.violation(
                "CS-3",
                format!(
                    "a roll of {} does not take {id} from {} to {} even with no piece in the way",
                    roll.value,
                    from.render(id.colour),
                    to.render(id.colour)
                ),
            );
        }
    }

    pub(super) fn moved_before(&mut self, c: Colour, loc: Loc) {
        if self.current_roll(c).is_none() {
            return;
        }
        let Some((id, before)) = self.roll.as_ref().and_then(|r| r.stopped) else {
            // The line saying which piece is blocked is missing.
            self.gap();
            return self.lose_colour(c, false);
        };
        self.decide("CS-3");
        if let Some((b, passes)) = before {
            if b == loc {
                self.board.piece_mut(id).passes = passes;
            } else {
                self.violation(
                    "CS-3",
                    format!(
                        "the cell before the block for {id} is {}, not {}",
                        b.render(c),
                        loc.render(c)
                    ),
                );
            }
        }
        let from = self.board.piece(id).loc;
        self.board.piece_mut(id).loc = loc;
        if let Some(r) = &mut self.roll {
            r.moved.push((id, from));
        }
        if let Some(n) = loc.square() {
            self.note_landing(id, n);
        }
    }

    pub(super) fn capture(&mut self, id: PieceId, square: Loc, victim: PieceId) {
        self.decide("Rule 6");
        if victim.colour == id.colour {
            self.violation(
                "Rule 6",
                format!("{id} cannot capture {victim}, a piece of its own colour"),
            );
        }
        // Only the victim is known to stand on the square: the capturer may still have to
        // move there (a capture line standing for the move).
        self.resolve(victim, square);
        let at = self.board.piece(id).loc;
        // A piece placed before the layout was known may stand on the square only under the
        // guessed layout; if it has not moved on this roll, the capture is its move from the
        // other layout's square.
        let moved = self.roll.as_ref().is_some_and(|r| {
            r.colour == id.colour && (r.entered || r.moved.iter().any(|m| m.0 == id))
        });
        let guessed = !moved && self.tentative.iter().any(|(p, _)| *p == id);
        if (at != square || guessed) && self.implied_move(id, square) {
            self.reading("a capture line may stand for the capturing move");
        } else if at != square && one_line_apart(id.colour, at, square) {
            // The capturer's move or entry is missing.
            self.gap();
            self.board.piece_mut(id).loc = square;
            self.suspect.insert(id);
        } else if at != square {
            self.violation(
                "Rule 6",
                format!(
                    "{id} is at {} on the replayed board, not on {}",
                    at.render(id.colour),
                    square.render(id.colour)
                ),
            );
        }
        let victim_at = self.board.piece(victim).loc;
        if victim_at != square && one_line_apart(victim.colour, victim_at, square) {
            // The victim's move or entry is missing.
            self.gap();
        } else if victim_at != square {
            self.violation(
                "Rule 6",
                format!(
                    "square {} holds no {} piece {victim} ({victim} is at {})",
                    square.render(id.colour),
                    victim.colour.name(),
                    victim_at.render(victim.colour)
                ),
            );
        }
        self.pending.retain(|p| p.victim != victim);
        self.unknown.remove(&victim);
        self.suspect.remove(&victim);
        self.board.piece_mut(victim).reset();
        self.tentative.retain(|(p, _)| *p != victim);
        let movers: Vec<PieceId> = self
            .roll
            .as_ref()
            .map(|r| r.moved.iter().map(|m| m.0).collect())
            .unwrap_or_default();
        for p in PieceId::all(id.colour) {
            if p == id || (movers.contains(&p) && self.board.piece(p).loc == square) {
                self.board.piece_mut(p).captures += 1;
            }
        }
        if let Some(r) = &mut self.roll {
            if r.colour == id.colour {
                r.captured = true;
            }
        }
    }

    /// A capture line printed instead of (or before) the move: when the capturer can reach
    /// the square on this roll, the move is taken as made, and a move line repeating it later
    /// is accepted once.
    pub(super) fn implied_move(&mut self, id: PieceId, square: Loc) -> bool {
        let Some(roll) = self.roll.clone().filter(|r| r.colour == id.colour) else {
            return false;
        };
        // A piece placed before the layout was known may stand on the other layout's square.
        if let Some(&(_, place)) = self.tentative.iter().find(|(p, _)| *p == id) {
            let other = Loc::Square(FROM_ZERO.square(place));
            let mut trial = self.board.clone();
            trial.piece_mut(id).loc = other;
            let dirs = [Dir::Clockwise, Dir::CounterClockwise];
            let original = std::mem::replace(&mut self.board, trial);
            let fits = dirs
                .iter()
                .any(|&d| self.reach(id, &roll, d, square).is_some());
            self.board = original;
            if fits {
                self.resolve(id, other);
            }
        }
        let from = self.board.piece(id).loc;
        if !matches!(from, Loc::Square(_) | Loc::HomePath(_)) {
            return false;
        }
        let dirs = match self.board.piece(id).dir {
            Some(d) => vec![d],
            None => vec![Dir::Clockwise, Dir::CounterClockwise],
        };
        let reached: Vec<(u32, Dir)> = dirs
            .into_iter()
            .filter_map(|d| self.reach(id, &roll, d, square).map(|(_, p)| (p, d)))
            .collect();
        let Some(&(passes, dir)) = reached.first() else {
            return false;
        };
        self.check_single_action(id);
        let in_block = from
            .square()
            .is_some_and(|n| roll.before.count_at(id.colour, n) >= 2);
        let piece = self.board.piece_mut(id);
        // The capture is then the piece's first move: it shows the direction when only one
        // direction reaches the square.
        if piece.dir.is_none() && reached.len() == 1 && !in_block {
            piece.dir = Some(dir);
        }
        if piece.dir == Some(dir) {
            piece.passes = passes;
        } else {
            self.unsure.insert(id);
        }
        self.board.piece_mut(id).loc = square;
        let made_block = self.makes_block(&roll, id.colour, square);
        if let Some(r) = &mut self.roll {
            r.moved.push((id, from));
            r.implied = Some((id, from, square));
            r.made_block |= made_block;
        }
        true
    }

    /// Whether a piece that has just landed on `at` formed or grew a block of its colour.
    pub(super) fn makes_block(&self, roll: &Roll, c: Colour, at: Loc) -> bool {
        at.square().is_some_and(|n| {
            self.board.count_at(c, n) >= 2 && roll.before.count_at(c, n) < self.board.count_at(c, n)
        })
    }

    /// A move line that leaves out the square it left (the piece's square), the units (the
    /// roll) or the direction (the piece's, or the one that reaches the square).
    pub(super) fn loose_move(
        &mut self,
        id: PieceId,
        from: Option<Loc>,
        to: Loc,
        units: Option<u32>,
        dir: Option<Dir>,
    ) {
        let c = id.colour;
        let roll = self.roll.clone().filter(|r| r.colour == c);
        let from = from.unwrap_or(self.board.piece(id).loc);
        let dir = dir.or(self.board.piece(id).dir).unwrap_or_else(|| {
            let reaches = |d| {
                roll.as_ref()
                    .is_some_and(|r| self.reach(id, r, d, to).is_some())
            };
            if !reaches(Dir::Clockwise) && reaches(Dir::CounterClockwise) {
                Dir::CounterClockwise
            } else {
                Dir::Clockwise
            }
        });
        let units = units.or(roll.map(|r| r.value)).unwrap_or(0);
        self.move_line(c, id, from, to, units, dir);
    }

    /// A capture line naming only the captured piece: the capturer is the opposing piece
    /// that moved onto its square on this roll. Without one (a block or a teleport the
    /// checker did not read) the piece just goes back to base.
    pub(super) fn capture_of(&mut self, victim: PieceId) {
        let square = self.board.piece(victim).loc;
        // The piece of the rolling colour on the square, one that moved on this roll first
        // (a piece entering X onto the victim captures too).
        let capturer = self.roll.as_ref().and_then(|r| {
            let on_square = |p: &PieceId| {
                p.colour != victim.colour
                    && square.square().is_some()
                    && self.board.piece(*p).loc == square
            };
            r.moved
                .iter()
                .rev()
                .map(|m| m.0)
                .find(on_square)
                .or_else(|| PieceId::all(r.colour).into_iter().find(on_square))
        });
        if let Some(id) = capturer {
            return self.capture(id, square, victim);
        }
        self.pending.retain(|p| p.victim != victim);
        self.unknown.remove(&victim);
        self.suspect.remove(&victim);
        self.tentative.retain(|(p, _)| *p != victim);
        self.board.piece_mut(victim).reset();
        if let Some(r) = &mut self.roll {
            if r.colour != victim.colour {
                r.captured = true;
            }
        }
    }
}

impl Checker {
    /// CS-6: on a third six a blockade is broken. How it splits is open, that it does is
    /// not: a finding only when nothing moved though a block stood whose members could each
    /// walk six squares, and their share of six as a block, either way (so every reading of
    /// the split, and of the block's direction, could move them).
    pub(super) fn blockade_kept(&mut self, roll: &Roll) {
        if !roll.judgeable || roll.acted() {
            return;
        }
        let (board, c) = (&roll.before, roll.colour);
        let mut squares: Vec<u8> = PieceId::all(c)
            .into_iter()
            .filter_map(|id| board.piece(id).loc.square())
            .collect();
        squares.sort_unstable();
        squares.dedup();
        let free = squares.into_iter().find_map(|n| {
            let members: Vec<PieceId> = PieceId::all(c)
                .into_iter()
                .filter(|&id| {
                    let p = board.piece(id);
                    p.loc == Loc::Square(n) && !briefed_in(p.briefing, roll.round)
                })
                .collect();
            let k = members.len();
            let walks = |id: PieceId| {
                [Dir::Clockwise, Dir::CounterClockwise]
                    .into_iter()
                    .all(|d| {
                        // Turning in after any capture is a reading too (CS-1).
                        [
                            EnterPolicy::Strict,
                            EnterPolicy::WhenCaptured,
                            EnterPolicy::Never,
                        ]
                        .into_iter()
                        .all(|policy| {
                            [(6, 1), (6 / k.max(1) as u32, k)]
                                .into_iter()
                                .all(|(s, g)| {
                                    matches!(
                                        board.walk(id, d, s, policy, g, true),
                                        Walk::Reached { .. }
                                    )
                                })
                        })
                    })
            };
            (k >= 2 && members.iter().all(|&id| walks(id))).then_some((n, members))
        });
        if let Some((n, members)) = free {
            let names: Vec<String> = members.iter().map(|id| id.to_string()).collect();
            self.violation(
                "CS-6",
                format!(
                    "the third six on line {} leaves the blockade of {} on square {n} unbroken",
                    roll.line,
                    names.join(" and ")
                ),
            );
        }
    }

    /// Rule 11: the first colour to bring all four pieces home has won, so it rolls no more
    /// (whether or not the game goes on for the other places).
    pub(super) fn rolls_when_home(&mut self, c: Colour) {
        let home = PieceId::all(c)
            .into_iter()
            .all(|id| self.board.piece(id).loc == Loc::Home);
        if !home || self.finished.contains(&c) || self.rolled_home.contains(&c) {
            return;
        }
        self.decide("Rule 11");
        self.violation(
            "Rule 11",
            format!(
                "{} has all four pieces home: it has won and takes no more rolls",
                c.name()
            ),
        );
        self.rolled_home.insert(c);
    }

    pub(super) fn wins(&mut self, c: Colour) {
        let out: Vec<String> = PieceId::all(c)
            .into_iter()
            .filter(|&id| self.board.piece(id).loc != Loc::Home)
            .map(|id| format!("{id} at {}", self.render(id)))
            .collect();
        self.decide("Rule 11");
        let unplayed = self
            .roll
            .as_ref()
            .is_some_and(|r| r.colour == c && !r.acted());
        if out.len() == 1 && unplayed {
            // The move of the last piece home, on the roll just made, is missing.
            self.gap();
            self.report.winner.get_or_insert(c);
        } else if out.is_empty() || !self.pieces_known(c) {
            // A winner announced while the replay has lost track of its pieces (a line not
            // read, a line missing) is taken as announced: the checker does not know that a
            // piece is still out, so it does not take the win away.
            if !out.is_empty() {
                self.reading("a winner announced while the checker had lost track of its pieces is taken as announced");
            }
            if self.report.winner.is_none() {
                self.report.winner = Some(c);
            } else {
                self.reading("the game goes on for second to fourth place");
            }
        } else {
            self.violation(
                "Rule 11",
                format!(
                    "{} is announced winner with {} still out",
                    c.name(),
                    out.join(", ")
                ),
            );
        }
        if !self.finished.contains(&c) {
            self.finished.push(c);
        }
    }

    /// A line of a table of places at the end: the first place announces the winner (unless
    /// it was announced already); a later place must not rank the winner, nor put a colour
    /// with all four pieces home below one without.
    pub(super) fn ranked(&mut self, c: Colour, n: u32) {
        self.reading("the places are listed at the end");
        match self.report.winner {
            None if n == 1 => self.wins(c),
            Some(w) if (w == c) == (n == 1) => {}
            Some(w) => {
                self.violation(
                    "Rule 11",
                    format!("{} won, so {} is not in place {n}", w.name(), c.name()),
                );
            }
            None => {}
        }
        if n > 1 && self.board.all_home(c) {
            self.decide("Rule 11");
            if let Some(&above) = self.places.iter().find(|&&p| !self.board.all_home(p)) {
                self.violation(
                    "Rule 11",
                    format!(
                        "{} has all four pieces home, so it ranks above {}, which has not",
                        c.name(),
                        above.name()
                    ),
                );
            }
        }
        self.places.push(c);
    }

    /// Whether the replay knows where every piece of `c` is: none unknown after a lost line.
    /// A piece found again (suspect) has a known square, so a winner with it still out is
    /// a Rule 11 finding: the program's own summary may have just shown it out.
    fn pieces_known(&self, c: Colour) -> bool {
        PieceId::all(c)
            .into_iter()
            .all(|id| !self.unknown.contains(&id))
    }

    pub(super) fn finish(&mut self) {
        self.line_no = 0;
        self.flush_pending();
        if let Some(r) = self.roll.take() {
            self.judge(&r);
        }
        for c in Colour::SEATING {
            if !self.intros.contains(&c) {
                self.report.missing.push(format!(
                    "the introduction of the {} player's pieces",
                    c.lower()
                ));
            }
        }
        if self.order.is_none() {
            self.report
                .missing
                .push("the first player and the order of a round".into());
        } else {
            if !self.first_announced {
                self.report
                    .missing
                    .push("the first player (\"... has the highest roll\")".into());
            }
            if !self.order_announced {
                self.report
                    .missing
                    .push("the order of a round (\"The order of a single round is ...\")".into());
            }
        }
        // Section 3: "After each round, the status of each player has to be shown". Single
        // count lines may be missed (coverage); a game that never shows one lacks the message.
        if !self.count_seen && self.report.rolls > 0 {
            self.report.missing.push(
                "the status after each round (\"... player now has a/4 on pieces on the board and b/4 pieces on the base.\"): no count line in the game"
                    .into(),
            );
        }
        // Section 3 wants every player's roll for the first player.
        for c in Colour::SEATING {
            if !self.first_rolls.iter().any(|&(k, _)| k == c) {
                self.report.missing.push(format!(
                    "the {} player's roll for the first player",
                    c.lower()
                ));
            }
        }
        if let Some(layout) = self.layout {
            self.reading(&format!("Bhawana, Kotuwa and Pita-Kotuwa {}", layout.name));
        }
    }
}
