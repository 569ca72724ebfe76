//! The first round: the announced first player and the order of a round.

use super::super::board::Colour;
use super::judge::names;
use super::state::Checker;

/// First-round rolls read at most before the first player is announced: six rounds of ties.
const MAX_FIRST_ROLLS: usize = 24;

impl Checker {
    pub(super) fn highest(&mut self, c: Colour) {
        self.first_announced = true;
        let first: Vec<(Colour, u32)> = self.first_rolls.iter().take(4).copied().collect();
        let best = first.iter().map(|r| r.1).max();
        let latest = self
            .first_rolls
            .iter()
            .rev()
            .find(|r| r.0 == c)
            .map(|r| r.1);
        let top_first = first.iter().any(|r| r.0 == c && Some(r.1) == best);
        // With re-rolled ties the winner's latest roll must top the latest rolls of the tied.
        let top_latest = latest.is_some_and(|v| {
            Colour::SEATING.into_iter().all(|k| {
                let last = self
                    .first_rolls
                    .iter()
                    .rev()
                    .find(|r| r.0 == k)
                    .map(|r| r.1);
                let tied = first.iter().any(|r| r.0 == k && Some(r.1) == best);
                !tied || last.is_none_or(|l| l <= v)
            })
        });
        // A full re-roll: when the highest roll is shared every player rolls again ("no unique
        // max value, rolling again"), so the last four rolls, one per colour, decide.
        let rolls = &self.first_rolls;
        let last_four = &rolls[rolls.len().saturating_sub(4)..];
        let full_reroll = rolls.len() > 4
            && rolls.len() % 4 == 0
            && Colour::SEATING
                .iter()
                .all(|k| last_four.iter().any(|r| r.0 == *k))
            && last_four
                .iter()
                .all(|r| r.0 == c || last_four.iter().any(|w| w.0 == c && w.1 > r.1));
        if full_reroll && !(top_first && top_latest) {
            self.reading("a tie in the first roll is rolled again by every player");
        }
        let top_first = top_first || full_reroll;
        let top_latest = top_latest || full_reroll;
        if !first.is_empty() {
            self.decide("first player");
        }
        if latest.is_none() && !first.is_empty() {
            // Its first-round roll line is missing.
            self.gap();
        } else if !(first.is_empty() || top_first && top_latest) {
            self.violation(
                "first player",
                format!(
                    "{} is not one of the highest first-round rollers (highest roll {})",
                    c.name(),
                    best.unwrap_or(0)
                ),
            );
        }
        if first.iter().filter(|r| Some(r.1) == best).count() > 1
            && self.first_rolls.len() == first.len()
        {
            self.reading("ties in the first roll broken without a re-roll");
        }
        self.order = Some(
            (0..4)
                .map(|k| Colour::SEATING[(c.index() + k) % 4])
                .collect(),
        );
    }

    /// Whether more first-round rolls may follow before the first player is announced: the
    /// last four rolled share the highest value (a tie, rolled again), or a roll again is
    /// under way. At most `MAX_FIRST_ROLLS` in all: a game whose first player is never
    /// announced must not have its turns taken for first-round rolls for long.
    pub(super) fn first_tied(&self) -> bool {
        let rolls = &self.first_rolls;
        let n = rolls.len();
        if !(4..MAX_FIRST_ROLLS).contains(&n) {
            return false;
        }
        if n % 4 != 0 {
            return true;
        }
        let last = &rolls[n - 4..];
        let best = last.iter().map(|r| r.1).max();
        last.iter().filter(|r| Some(r.1) == best).count() > 1
    }

    pub(super) fn announce_order(&mut self, colours: Vec<Colour>) {
        self.order_announced = true;
        let expected = self.order.clone();
        self.decide("turn order");
        let first = colours.first().copied().unwrap_or(Colour::Red);
        let clockwise: Vec<Colour> = (0..4)
            .map(|k| Colour::SEATING[(first.index() + k) % 4])
            .collect();
        if colours != clockwise {
            self.violation(
                "turn order",
                format!(
                    "the dice passes to the left: starting with {} the order is {}",
                    first.name(),
                    names(&clockwise)
                ),
            );
        } else if expected.as_ref().is_some_and(|e| *e != colours) {
            self.violation(
                "turn order",
                "the order does not start with the player announced first".into(),
            );
        }
        self.order = Some(colours);
    }
}
