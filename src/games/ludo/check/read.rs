//! Reading: each printed line to a message, by the table of accepted forms.

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

pub(super) fn direction(word: &str) -> Option<Dir> {
    match word {
        "clockwise" => Some(Dir::Clockwise),
        "counterclockwise" => Some(Dir::CounterClockwise),
        _ => None,
    }
}

/// One message form: the line's tokens in, the message out if the form fits.
pub(super) type Parser = dyn Fn(&[&str]) -> Option<Msg>;

pub(super) fn parse(line: &str) -> Option<Msg> {
    let normalised = normalise(line);
    let t = tokens(&normalised);
    if t.is_empty() {
        return None;
    }
    if t.len() == 1 && t[0].len() >= 3 && t[0].chars().all(|c| c == '=') {
        return Some(Msg::Separator);
    }
    let tries: [&Parser; 26] = [
        // The commonest forms first: a game is mostly round summaries, rolls and moves.
        &|t| {
            let s = fit(t, "piece {} -> {}")?;
            let id = piece(s[0], None)?;
            Some(Msg::PieceAt(id, location(s[1], id.colour)?))
        },
        &|t| {
            let s = fit(t, "location of pieces {}")?;
            Some(Msg::LocationHeader(colour(s[0])?))
        },
        &|t| {
            let s = fit(
                t,
                "{} player now has {} on pieces on the board and {} pieces on the base",
            )
            .or_else(|| {
                fit(
                    t,
                    "{} player now has {} pieces on the board and {} pieces on the base",
                )
            })?;
            let share = |w: &str| number(w.strip_suffix("/4")?);
            Some(Msg::Count(colour(s[0])?, share(s[1])?, share(s[2])?))
        },
        &|t| {
            let s = fit(t, "{} player rolled {}")?;
            Some(Msg::Rolled(colour(s[0])?, number(s[1])?))
        },
        &|t| {
            let s = fit(
                t,
                "{} moves piece {} from location {} to {} by {} units in {} direction",
            )?;
            move_message(&s)
        },
        &|t| {
            let s = fit(
                t,
                "the {} player has four (04) pieces named {} {} {} and {}",
            )?;
            let c = colour(s[0])?;
            (1..5)
                .all(|k| piece(s[k], Some(c)).is_some())
                .then_some(Msg::Intro(c))
        },
        &|t| {
            let s = fit(t, "{} rolls {}")?;
            Some(Msg::FirstRoll(colour(s[0])?, number(s[1])?))
        },
        &|t| {
            let s = fit(t, "{} player has the highest roll and will begin the game")?;
            Some(Msg::Highest(colour(s[0])?))
        },
        &|t| {
            let s = fit(t, "the order of a single round is {} {} {} and {}")?;
            Some(Msg::Order(
                s.iter().map(|w| colour(w)).collect::<Option<Vec<_>>>()?,
            ))
        },
        &|t| {
            let s = fit(t, "{} player moves piece {} to the starting point")?;
            let c = colour(s[0])?;
            Some(Msg::Enter(c, piece(s[1], Some(c))?))
        },
        &|t| {
            let s = fit(
                t,
                "{} piece {} is blocked from moving from {} to {} by {} piece {}",
            )?;
            let c = colour(s[0])?;
            let by = colour(s[4])?;
            location(s[3], c)?;
            Some(Msg::Blocked {
                id: piece(s[1], Some(c))?,
                from: location(s[2], c)?,
                by: piece(s[5], Some(by))?,
            })
        },
        &|t| {
            let s = fit(t, "{} does not have other pieces on the board to move instead of the blocked piece ignoring the throw and moving on to the next player")?;
            Some(Msg::Ignoring(colour(s[0])?))
        },
        &|t| {
            let s = fit(t, "{} does not have other pieces on the board to move instead of the blocked piece moved the piece to square {} which is the cell before the block")?;
            let c = colour(s[0])?;
            Some(Msg::MovedBefore(c, location(s[1], c)?))
        },
        &|t| {
            let s = fit(
                t,
                "{} piece {} lands on square {} captures {} piece {} and returns it to the base",
            )?;
            let c = colour(s[0])?;
            let v = colour(s[3])?;
            Some(Msg::Capture {
                id: piece(s[1], Some(c))?,
                square: location(s[2], c)?,
                victim: piece(s[4], Some(v))?,
            })
        },
        &|t| {
            let s = fit(
                t,
                "the mystery cell is at {} and will be at that location for the next {} {}",
            )?;
            number(s[1])?;
            Some(Msg::MysteryAt(number(s[0])?))
        },
        &|t| {
            let s = fit(
                t,
                "{} player lands on a mystery cell and is teleported to {*}",
            )?;
            Some(Msg::LandsMystery(colour(s[0])?))
        },
        &|t| {
            let s = fit(t, "{} piece {} teleported to {}")?;
            let c = colour(s[0])?;
            let target = match s[2] {
                "bhawana" => Target::Place(Place::Bhawana),
                "kotuwa" => Target::Place(Place::Kotuwa),
                "pita-kotuwa" => Target::Place(Place::PitaKotuwa),
                "base" => Target::Base,
                "x" => Target::X,
                "approach" => Target::Approach,
                _ => return None,
            };
            Some(Msg::Teleported(piece(s[1], Some(c))?, target))
        },
        &|t| {
            let s = fit(t, "{} piece {} feels energized and movement speed doubles")?;
            let c = colour(s[0])?;
            Some(Msg::Aura(piece(s[1], Some(c))?, Aura::Energised))
        },
        &|t| {
            let s = fit(t, "{} piece {} feels sick and movement speed halves")?;
            let c = colour(s[0])?;
            Some(Msg::Aura(piece(s[1], Some(c))?, Aura::Sick))
        },
        &|t| {
            let s = fit(
                t,
                "{} piece {} attends briefing and cannot move for four rounds",
            )?;
            let c = colour(s[0])?;
            Some(Msg::Briefing(piece(s[1], Some(c))?))
        },
        &|t| {
            let s = fit(t, "{} piece {} is movement-restricted and has rolled three consecutively teleporting piece {} to base")?;
            let c = colour(s[0])?;
            let id = piece(s[1], Some(c))?;
            (piece(s[2], Some(c))? == id).then_some(Msg::Restricted(id))
        },
        &|t| {
            let s = fit(
                t,
                "the {} piece {} which was moving clockwise has changed to moving counterclockwise",
            )?;
            let c = colour(s[0])?;
            Some(Msg::Turned(piece(s[1], Some(c))?))
        },
        &|t| {
            let s = fit(t, "the {} piece {} is moving in a counterclockwise direction teleporting to kotuwa from pita-kotuwa")?;
            let c = colour(s[0])?;
            Some(Msg::PitaToKotuwa(piece(s[1], Some(c))?))
        },
        &|t| {
            let s = fit(t, "a mystery cell has spawned in location {} and will be at this location for the next four rounds")?;
            Some(Msg::Spawned(number(s[0])?))
        },
        &|t| {
            let s = fit(t, "{} player wins")?;
            Some(Msg::Wins(colour(s[0])?))
        },
        &|t| {
            // The intro line with the colour capitalised differently is still the intro.
            let s = fit(t, "{} player has four (04) pieces named {} {} {} and {}")?;
            Some(Msg::Intro(colour(s[0])?))
        },
    ];
    tries.iter().find_map(|f| f(&t))
}

/// A move line's six fields (colour, piece, from, to, units, direction), read.
pub(super) fn move_message(s: &[&str]) -> Option<Msg> {
    let c = colour(s[0])?;
    Some(Msg::Move {
        colour: c,
        id: piece(s[1], Some(c))?,
        from: location(s[2], c)?,
        to: location(s[3], c)?,
        units: number(s[4])?,
        dir: direction(s[5])?,
    })
}

/// Close variants of the roll and move lines. They cost `messages` like any other
/// deviation, but the replay still follows them, so one misspelled form does not also turn
/// every later move into a rule violation.
pub(super) fn parse_near(line: &str) -> Option<Msg> {
    let normalised = normalise(line);
    let t = tokens(&normalised);
    for form in [
        "{} rolled {}",
        "{} player rolls {}",
        "{} player rolled a {}",
        "{} rolled a {}",
    ] {
        if let Some(s) = fit(&t, form) {
            return Some(Msg::Rolled(colour(s[0])?, number(s[1])?));
        }
    }
    for form in [
        "{} moves piece {} from {} to {} by {} units in {} direction",
        "{} moves {} from location {} to {} by {} units in {} direction",
        "{} moves {} from {} to {} by {} units in {} direction",
        "{} moves piece {} from location {} to location {} by {} units in {} direction",
        "{} player moves piece {} from location {} to {} by {} units in {} direction",
    ] {
        if let Some(s) = fit(&t, form) {
            return move_message(&s);
        }
    }
    None
}
