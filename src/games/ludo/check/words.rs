//! The words of a printed line: the messages lines are read as, and the pieces, places,
//! numbers and directions they name. Shared by the handout's forms (`read`) and the wordings
//! of real programs (`forms`).

use super::super::board::{Aura, Colour, Dir, Loc, PieceId, Place, HOME_PATH_CELLS, SQUARES};

/// A message, parsed.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Msg {
    Intro(Colour),
    FirstRoll(Colour, u32),
    Highest(Colour),
    Order(Vec<Colour>),
    Rolled(Colour, u32),
    Enter(Colour, PieceId),
    Count(Colour, u32, u32),
    Move {
        colour: Colour,
        id: PieceId,
        from: Loc,
        to: Loc,
        units: u32,
        dir: Dir,
    },
    Blocked {
        id: PieceId,
        from: Loc,
        /// Where the roll would have taken the piece.
        to: Loc,
        by: PieceId,
    },
    Ignoring(Colour),
    MovedBefore(Colour, Loc),
    Capture {
        id: PieceId,
        square: Loc,
        victim: PieceId,
    },
    Separator,
    LocationHeader(Colour),
    PieceAt(PieceId, Loc),
    MysteryAt(u32),
    LandsMystery(Colour),
    Teleported(PieceId, Target),
    Aura(PieceId, Aura),
    Briefing(PieceId),
    Restricted(PieceId),
    Turned(PieceId),
    PitaToKotuwa(PieceId),
    Spawned(u32),
    Wins(Colour),
    /// A colour's place in a table of places at the end (`1st place: Yellow`, `2. Red`): the
    /// first place is the winner.
    Place(Colour, u32),
    /// A roll whose wording does not say which phase it belongs to (`Blue rolls 6`, `Blue has
    /// rolled 6`): a first-round roll until the first player is known, a turn after.
    AnyRoll(Colour, u32),
    /// A move in a wording that leaves out the square it left, the units or the direction.
    LooseMove {
        id: PieceId,
        from: Option<Loc>,
        to: Loc,
        units: Option<u32>,
        dir: Option<Dir>,
    },
    /// A capture line naming only the captured piece (`G2 was captured and sent back to the
    /// base`): the capturer is the piece that moved onto its square.
    CaptureOf(PieceId),
    /// A line that changes nothing on the board (`No pieces can be moved`, `Round 3`).
    Note,
}

/// Where a teleport sends a piece.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(super) enum Target {
    Place(Place),
    Base,
    X,
    Approach,
}

/// Lower case, the known spellings of counter-clockwise made one word, punctuation that
/// only separates words dropped.
pub(super) fn normalise(line: &str) -> String {
    let mut s = line.to_lowercase();
    for (from, to) in [
        ("counter-clockwise", "counterclockwise"),
        ("counter clockwise", "counterclockwise"),
        ("coun-terclockwise", "counterclockwise"),
        ("anti-clockwise", "counterclockwise"),
        ("anticlockwise", "counterclockwise"),
        ("pita kotuwa", "pita-kotuwa"),
        ("energised", "energized"),
        ("->", " -> "),
        (",", " "),
        ("!", " "),
        (";", " "),
    ] {
        if s.contains(from) {
            s = s.replace(from, to);
        }
    }
    s
}

pub(super) fn tokens(normalised: &str) -> Vec<&str> {
    normalised
        .split_whitespace()
        .map(|t| t.trim_end_matches(['.', ':']))
        .filter(|t| !t.is_empty())
        .collect()
}

/// Matches `tokens` against a template of words and `{}` slots (`{*}` takes the rest);
/// returns the slots' tokens.
pub(super) fn fit<'a>(tokens: &[&'a str], template: &str) -> Option<Vec<&'a str>> {
    let mut slots = Vec::new();
    let mut words = template.split_whitespace().peekable();
    let mut at = 0;
    while let Some(word) = words.next() {
        if word == "{*}" {
            if words.peek().is_some() || at >= tokens.len() {
                return None;
            }
            slots.push(tokens[at]);
            return Some(slots);
        }
        let token = *tokens.get(at)?;
        if word == "{}" {
            slots.push(token);
        } else if word != token {
            return None;
        }
        at += 1;
    }
    (at == tokens.len()).then_some(slots)
}

pub(super) fn colour(word: &str) -> Option<Colour> {
    Colour::parse(word)
}

pub(super) fn number(word: &str) -> Option<u32> {
    word.parse().ok()
}

/// `R2` (or `2` when the colour is known from the line).
pub(super) fn piece(word: &str, colour: Option<Colour>) -> Option<PieceId> {
    let mut chars = word.chars();
    let (c, digit) = match (chars.next()?, chars.next(), chars.next()) {
        (d, None, None) => (colour?, d),
        (letter, Some(d), None) => (
            Colour::SEATING
                .into_iter()
                .find(|c| c.letter().eq_ignore_ascii_case(&letter))?,
            d,
        ),
        _ => return None,
    };
    let index = digit.to_digit(10).filter(|d| (1..=4).contains(d))? as usize - 1;
    if colour.is_some_and(|expected| expected != c) {
        return None;
    }
    Some(PieceId { colour: c, index })
}

/// A location as printed for a piece of `colour`.
pub(super) fn location(word: &str, colour: Colour) -> Option<Loc> {
    match word {
        "base" => return Some(Loc::Base),
        "home" => return Some(Loc::Home),
        _ => {}
    }
    if let Some(n) = number(word) {
        return (n < u32::from(SQUARES)).then_some(Loc::Square(n as u8));
    }
    let rest = word
        .strip_prefix(colour.lower())?
        .strip_prefix("homepath")?;
    let k = number(rest)?;
    match k {
        k if k < u32::from(HOME_PATH_CELLS) => Some(Loc::HomePath(k as u8)),
        k if k == u32::from(HOME_PATH_CELLS) => Some(Loc::Home),
        _ => None,
    }
}

/// Where a mystery cell's teleport sends a piece, by the word a line names it with.
pub(super) fn teleport_target(word: &str) -> Option<Target> {
    match word {
        "bhawana" => Some(Target::Place(Place::Bhawana)),
        "kotuwa" => Some(Target::Place(Place::Kotuwa)),
        "pita-kotuwa" => Some(Target::Place(Place::PitaKotuwa)),
        "base" => Some(Target::Base),
        "x" => Some(Target::X),
        "approach" => Some(Target::Approach),
        _ => None,
    }
}

pub(super) fn direction(word: &str) -> Option<Dir> {
    match word {
        "clockwise" => Some(Dir::Clockwise),
        "counterclockwise" => Some(Dir::CounterClockwise),
        _ => None,
    }
}
