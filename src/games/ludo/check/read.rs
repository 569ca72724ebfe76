//! Reading: each printed line to a message, by the table of accepted forms.

use super::super::board::{Aura, Colour};
use super::forms::*;
use super::words::*;

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
            Some(Msg::Blocked {
                id: piece(s[1], Some(c))?,
                from: location(s[2], c)?,
                to: location(s[3], c)?,
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
            let target = teleport_target(s[2])?;
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

/// How a line was read.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Reading {
    /// In the handout's wording (section 3), up to case, spacing and punctuation.
    Exact(Msg),
    /// In a wording real programs use for the same message: followed by the replay, and
    /// charged to `messages` once per form.
    Tolerated(Msg, &'static str),
    /// Nothing that could change the board or the turn (`====`, `Round 4`, a banner).
    Decoration,
    NotUnderstood,
}

/// Reads one line. `summary` is the colour of the location summary being printed, for
/// summary lines that name pieces by number only (`Piece 2 -> L16`).
pub(super) fn read(line: &str, summary: Option<Colour>) -> Reading {
    if let Some(msg) = parse(line) {
        return Reading::Exact(msg);
    }
    let normalised = loosen(line);
    // The handout's forms around escape codes, curly apostrophes and the like are still
    // another wording than the handout's for `messages`.
    if let Some(msg) = parse(&normalised) {
        return Reading::Tolerated(msg, "a handout form with extra characters");
    }
    // Rules of stars, equals signs and the like around a message (`**** Green player wins
    // ****`) decorate it; they are not words of it.
    let t: Vec<&str> = tokens(&normalised)
        .into_iter()
        .filter(|w| !w.chars().all(|c| "*=#~_-+".contains(c)))
        .collect();
    if !t
        .iter()
        .any(|w| w.chars().any(|c| c.is_ascii_alphanumeric()))
    {
        return Reading::Decoration;
    }
    for form in FORMS {
        let mut slots = Vec::new();
        let pattern: Vec<&str> = form.template.split_whitespace().collect();
        if fits(&t, &pattern, &mut slots) {
            if let Some(msg) = (form.build)(&slots, summary) {
                return Reading::Tolerated(msg, form.name);
            }
        }
    }
    if t.len() <= 4 && t.contains(&"round") {
        return Reading::Decoration;
    }
    if NOTES.iter().any(|phrase| normalised.contains(phrase)) {
        Reading::Tolerated(Msg::Note, "a note that moves nothing")
    } else {
        Reading::NotUnderstood
    }
}

/// The line with each home-straight cell one lower, for a program that numbers the cells 1 to
/// 5 where the handout numbers them 0 to 4 ("Cell number starts with zero (0)"): `HS5`,
/// `homepath5` and `Home Straight Cell 5` become the last cell, not Home. A cell 0 becomes
/// unreadable. `None` when the line names no cell.
pub(super) fn cells_from_one(line: &str) -> Option<String> {
    let lower = line
        .to_lowercase()
        .replace("home straight cell ", "homepath")
        .replace("homepath ", "homepath")
        .replace("homepath[", "homepath");
    let mut out = String::with_capacity(lower.len());
    let mut rest = lower.as_str();
    let mut changed = false;
    while let Some(at) = rest.find(|c: char| c.is_ascii_digit()) {
        let digits = rest[at..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(rest.len(), |n| at + n);
        out.push_str(&rest[..at]);
        if names_a_cell(&out) {
            changed = true;
            match rest[at..digits].parse::<u32>() {
                Ok(k) if k > 0 => out.push_str(&(k - 1).to_string()),
                _ => out.push('x'),
            }
        } else {
            out.push_str(&rest[at..digits]);
        }
        rest = &rest[digits..];
    }
    out.push_str(rest);
    changed.then_some(out)
}

/// The bare piece numbers of a line (`piece 2`, not `piece R2`): the byte offset of each
/// digit and the digit.
fn bare_pieces(line: &str) -> Vec<(usize, u32)> {
    let lower = line.to_ascii_lowercase();
    lower
        .match_indices("piece")
        .filter(|(at, _)| !lower[..*at].ends_with(|c: char| c.is_ascii_alphanumeric()))
        .filter_map(|(at, word)| {
            let after = &lower[at + word.len()..];
            let rest = after.trim_start_matches(' ');
            let gap = after.len() - rest.len();
            let mut chars = rest.chars();
            let digit = chars.next()?.to_digit(10)?;
            let ends = chars.next().is_none_or(|c| !c.is_ascii_alphanumeric());
            (gap > 0 && ends).then_some((at + word.len() + gap, digit))
        })
        .collect()
}

/// Whether a game numbers its bare pieces 0 to 3: some line names a `piece 0` and none a
/// `piece 4`. A game that names both keeps the handout's 1 to 4 (its `piece 0` reads as no
/// piece); one that names neither is read as numbered 1 to 4, as before.
pub(super) fn pieces_from_zero(output: &str) -> bool {
    let numbers: Vec<u32> = output
        .lines()
        .flat_map(|line| bare_pieces(line).into_iter().map(|(_, n)| n))
        .collect();
    numbers.contains(&0) && !numbers.contains(&4)
}

/// The line with each bare piece number one higher, for a program that numbers pieces 0 to
/// 3 (`R moves piece 1 to the starting point.` is R2). A number above 3 becomes no piece.
/// `None` when the line names no bare piece.
pub(super) fn pieces_from_one(line: &str) -> Option<String> {
    let found = bare_pieces(line);
    if found.is_empty() {
        return None;
    }
    let mut out = String::with_capacity(line.len());
    let mut last = 0;
    for (at, n) in found {
        out.push_str(&line[last..at]);
        match n {
            0..=3 => out.push_str(&(n + 1).to_string()),
            _ => out.push('x'),
        }
        last = at + 1;
    }
    out.push_str(&line[last..]);
    Some(out)
}

/// Whether the text before a number makes it a home-straight cell: `homepath`, or `hs`, `h-`
/// or `h` starting a word (or after a colour's name, `redhs2`).
fn names_a_cell(before: &str) -> bool {
    if before.ends_with("homepath") {
        return true;
    }
    ["hs", "h-", "h"].iter().any(|marker| {
        before.strip_suffix(marker).is_some_and(|head| {
            let head = Colour::SEATING
                .iter()
                .find_map(|c| head.strip_suffix(c.lower()))
                .unwrap_or(head);
            !head.ends_with(|c: char| c.is_alphanumeric())
        })
    })
}

/// The cell number of a home-straight cell written `hs3` or `h-3`.
fn cell_word(word: &str) -> Option<&str> {
    ["hs", "h-"]
        .iter()
        .find_map(|p| word.strip_prefix(p))
        .filter(|rest| rest.starts_with(|c: char| c.is_ascii_digit()))
}

/// Phrases of lines that report no change (a pass, a coin toss already shown by the move).
const NOTES: [&str; 24] = [
    "passing to the next player",
    "rolling again",
    "no pieces can be moved",
    "no moves can be made",
    "no valid moves",
    "no valid pieces",
    "no piece can move",
    "coin toss",
    "tossed a head",
    "tossed a tail",
    "will go clockwise",
    "will go counterclockwise",
    "will move clockwise",
    "will move counterclockwise",
    "another roll",
    "is over",
    "cannot move in homestraight",
    "rankings",
    "standings",
    "no active pieces",
    "no active players",
    "player stats",
    "completed the game",
    "is the starting point of",
];

/// The handout's normalisation plus what real programs add around the same words: colour
/// escape codes, curly apostrophes and dashes, `[Color Red]`, `Red's piece`, `clock-wise`,
/// parentheses, and the home-straight and base wordings of locations.
pub(super) fn loosen(line: &str) -> String {
    let mut plain = String::with_capacity(line.len());
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // An ANSI escape sequence: ESC [ parameters, ended by a letter.
            for e in chars.by_ref() {
                if e.is_ascii_alphabetic() {
                    break;
                }
            }
            continue;
        }
        plain.push(match c {
            '\u{2018}' | '\u{2019}' | '`' => '\'',
            '\u{2010}'..='\u{2015}' | '\u{2212}' => '-',
            '(' | ')' | '[' | ']' | '"' | '?' | '|' => ' ',
            c => c,
        });
    }
    let mut s = normalise(&plain.to_lowercase());
    for (from, to) in [
        ("color ", ""),
        ("colour ", ""),
        ("'s ", " "),
        ("clock-wise", "clockwise"),
        ("counter clockwise", "counterclockwise"),
        ("counter-clockwise", "counterclockwise"),
        ("anti clockwise", "counterclockwise"),
        ("pitakotuwa", "pita-kotuwa"),
        ("pita kotuwa", "pita-kotuwa"),
        ("=>", "->"),
        ("in base", "base"),
        ("in home straight", ""),
        ("home straight cell ", "homepath"),
        ("in home", "home"),
        (" homepath ", " homepath"),
        ("red homepath", "redhomepath"),
        ("green homepath", "greenhomepath"),
        ("yellow homepath", "yellowhomepath"),
        ("blue homepath", "bluehomepath"),
        // `RedHomePath[3]`, its brackets made spaces above.
        ("homepath ", "homepath"),
        (" - ", " "),
    ] {
        if s.contains(from) {
            s = s.replace(from, to);
        }
    }
    // Squares written `L41` (the handout's own wording says "location L1") are numbers; a
    // home-straight cell without its colour takes the colour the line starts with.
    let owner = s.split_whitespace().find_map(colour);
    s.split(' ')
        .map(
            |word| match (word.strip_prefix('l'), owner, cell_word(word)) {
                (Some(rest), ..) if rest.starts_with(|c: char| c.is_ascii_digit()) => {
                    rest.to_string()
                }
                (_, Some(c), _) if word.starts_with("homepath") => format!("{}{word}", c.lower()),
                // `HS3` and `H-3` are `homepath3` in every line, blocked lines included.
                (_, Some(c), Some(k)) => format!("{}homepath{k}", c.lower()),
                _ => word.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::super::super::board::{Dir, Loc, PieceId};
    use super::*;

    fn id(colour: Colour, n: usize) -> PieceId {
        PieceId {
            colour,
            index: n - 1,
        }
    }

    #[test]
    fn each_form_reads_its_example() {
        for form in FORMS {
            match read(form.example, Some(Colour::Red)) {
                Reading::Tolerated(_, name) => assert_eq!(name, form.name, "{}", form.example),
                other => panic!("{:?} read {:?}", form.example, other),
            }
        }
    }

    #[test]
    fn lines_seen_in_real_programs_are_read() {
        let cases: Vec<(&str, Msg)> = vec![
            ("Blue player rolls 6.", Msg::AnyRoll(Colour::Blue, 6)),
            ("Red rolled 4 for the 3 time", Msg::AnyRoll(Colour::Red, 4)),
            (
                "Location of Blue player Pieces",
                Msg::LocationHeader(Colour::Blue),
            ),
            (
                "Piece Y2 -> Yellow homepath 3",
                Msg::PieceAt(id(Colour::Yellow, 2), Loc::HomePath(3)),
            ),
            (
                "Yellow moves piece Y2 from L10 to Yellow homepath 1 by 3 units Clockwise direction.",
                Msg::LooseMove {
                    id: id(Colour::Yellow, 2),
                    from: Some(Loc::Square(10)),
                    to: Loc::HomePath(1),
                    units: Some(3),
                    dir: Some(Dir::Clockwise),
                },
            ),
            (
                "Red player now has 1/4 pieces on the board and 2/4 pieces in the base and 1/4 pieces in the home.",
                Msg::Count(Colour::Red, 1, 2),
            ),
            (
                "Green player moves Piece 3 to the starting position.",
                Msg::Enter(Colour::Green, id(Colour::Green, 3)),
            ),
            (
                "\u{1b}[34mBlue\u{1b}[0m player has the heighest roll and will begin the game.",
                Msg::Highest(Colour::Blue),
            ),
            (
                "The order of a single round is: Y B R G ",
                Msg::Order(vec![Colour::Yellow, Colour::Blue, Colour::Red, Colour::Green]),
            ),
            (
                "The order of a single round is \u{1b}[32mGreen\u{1b}[0m --> Yellow --> Blue --> Red",
                Msg::Order(vec![Colour::Green, Colour::Yellow, Colour::Blue, Colour::Red]),
            ),
            ("Blue Player rolls 6", Msg::AnyRoll(Colour::Blue, 6)),
            ("Blue has rolled 6", Msg::AnyRoll(Colour::Blue, 6)),
            ("R rolls 5", Msg::AnyRoll(Colour::Red, 5)),
            ("Yellow player rolls a 6 ", Msg::AnyRoll(Colour::Yellow, 6)),
            ("\u{1b}[0;34mBlue player rolled 4.", Msg::Rolled(Colour::Blue, 4)),
            (
                "Yellow's piece Y1 moves from L23 to L26 by 3 units in clockwise direction",
                Msg::LooseMove {
                    id: id(Colour::Yellow, 1),
                    from: Some(Loc::Square(23)),
                    to: Loc::Square(26),
                    units: Some(3),
                    dir: Some(Dir::Clockwise),
                },
            ),
            (
                "Green moves piece G1 from location L39 to L42 by 3 units in counter clock-wise direction",
                Msg::Move {
                    colour: Colour::Green,
                    id: id(Colour::Green, 1),
                    from: Loc::Square(39),
                    to: Loc::Square(42),
                    units: 3,
                    dir: Dir::CounterClockwise,
                },
            ),
            (
                "Red piece R2 was captured and sent back to the base.",
                Msg::CaptureOf(id(Colour::Red, 2)),
            ),
            (
                "Blue piece B4 is captured by block of Green and is returned to the base",
                Msg::CaptureOf(id(Colour::Blue, 4)),
            ),
            (
                "Red player moves piece R1 to the starting point L28.",
                Msg::Enter(Colour::Red, id(Colour::Red, 1)),
            ),
            (
                "Green piece G1 lands on square L41, captures Red piece R3, and returns it to the base.",
                Msg::Capture {
                    id: id(Colour::Green, 1),
                    square: Loc::Square(41),
                    victim: id(Colour::Red, 3),
                },
            ),
            (
                "[Color Yellow] player now has 1/4 pieces on the board and 3/4 pieces on the base.",
                Msg::Count(Colour::Yellow, 1, 3),
            ),
            ("Piece 3 -> In Base", Msg::PieceAt(id(Colour::Red, 3), Loc::Base)),
            (
                "Green piece G1 is blocked from moving from 40 to Home Straight Cell 1 by Yellow piece Y3.",
                Msg::Blocked {
                    id: id(Colour::Green, 1),
                    from: Loc::Square(40),
                    to: Loc::HomePath(1),
                    by: id(Colour::Yellow, 3),
                },
            ),
            (
                "Y1 -> In home straight: H-2",
                Msg::PieceAt(id(Colour::Yellow, 1), Loc::HomePath(2)),
            ),
            ("Player Red rolled a 6", Msg::AnyRoll(Colour::Red, 6)),
            (
                "G player now has 1/4 of pieces on the board and 3/4 pieces on the base.",
                Msg::Count(Colour::Green, 1, 3),
            ),
            (
                "The order of a single round is: G Y B R",
                Msg::Order(vec![
                    Colour::Green,
                    Colour::Yellow,
                    Colour::Blue,
                    Colour::Red,
                ]),
            ),
            (
                "Color B piece 2 lands on square 30, captures Color R piece 1, and returns it to the base",
                Msg::Capture {
                    id: id(Colour::Blue, 2),
                    square: Loc::Square(30),
                    victim: id(Colour::Red, 1),
                },
            ),
            ("Mystery cell is :37", Msg::Spawned(37)),
            (
                "Blue player has the heighest roll and will begin the game.",
                Msg::Highest(Colour::Blue),
            ),
            (
                "The order of a single round is Blue --> Red --> Green --> Yellow",
                Msg::Order(vec![
                    Colour::Blue,
                    Colour::Red,
                    Colour::Green,
                    Colour::Yellow,
                ]),
            ),
            (
                "Green Player moves peice Green-3 to the starting point.",
                Msg::Enter(Colour::Green, id(Colour::Green, 3)),
            ),
            ("For Player Red", Msg::LocationHeader(Colour::Red)),
            (
                "Location of Green-2 is L-7",
                Msg::PieceAt(id(Colour::Green, 2), Loc::Square(7)),
            ),
            ("Player Yellow Won", Msg::Wins(Colour::Yellow)),
            ("Player Red Won the Third Place.....", Msg::Place(Colour::Red, 3)),
            (" Blue Player : Place 4", Msg::Place(Colour::Blue, 4)),
            (
                "R2 ----> RedHomePath[4]",
                Msg::PieceAt(id(Colour::Red, 2), Loc::HomePath(4)),
            ),
            (
                "G4 ----> cell L19",
                Msg::PieceAt(id(Colour::Green, 4), Loc::Square(19)),
            ),
            (
                "Location of Blue-1 is L-44",
                Msg::PieceAt(id(Colour::Blue, 1), Loc::Square(44)),
            ),
            (
                "Yellow moves piece Y2 from Base to L2.",
                Msg::Enter(Colour::Yellow, id(Colour::Yellow, 2)),
            ),
        ];
        for (line, expected) in cases {
            let got = match read(line, Some(Colour::Red)) {
                Reading::Exact(m) | Reading::Tolerated(m, _) => m,
                other => panic!("{line:?} read {other:?}"),
            };
            assert_eq!(got, expected, "{line:?}");
        }
    }

    #[test]
    fn bare_pieces_from_zero_are_renumbered_line_by_line() {
        assert!(pieces_from_zero(
            "Player R:\n  Piece 0 - Current Position: -1, in Base"
        ));
        // A `piece 4` makes the numbers the handout's; no bare piece leaves them so too.
        assert!(!pieces_from_zero("piece 0 lost a turn\nPiece 4 -> Base"));
        assert!(!pieces_from_zero(
            "Red moves piece R1 to the starting point."
        ));
        assert_eq!(
            pieces_from_one("G Player moves piece 2 from location 47 to 48").as_deref(),
            Some("G Player moves piece 3 from location 47 to 48")
        );
        assert_eq!(
            pieces_from_one("Color R piece 0 lands on square 14, captures Color Y piece 3,")
                .as_deref(),
            Some("Color R piece 1 lands on square 14, captures Color Y piece 4,")
        );
        // No piece 4 when pieces are numbered from 0.
        assert_eq!(
            pieces_from_one("Piece 4 - Current Position: 3,").as_deref(),
            Some("Piece x - Current Position: 3,")
        );
        for line in ["Red moves piece R1", "pieces 2", "apiece 3", "piece 12"] {
            assert_eq!(pieces_from_one(line), None, "{line}");
        }
    }

    #[test]
    fn tolerance_does_not_make_other_wordings_exact() {
        for line in [
            "Blue has rolled 6",
            "Red moves piece R1 from location L14 to L18 by 4 units in clockwise direction.",
            "Piece 2 -> L16",
        ] {
            assert!(
                matches!(read(line, Some(Colour::Red)), Reading::Tolerated(..)),
                "{line}"
            );
        }
        assert!(matches!(
            read("Red player rolled 4.", None),
            Reading::Exact(Msg::Rolled(Colour::Red, 4))
        ));
    }

    /// Coin tosses and passes printed as their own lines move nothing: the direction shows in
    /// the piece's first move (issue 29: a program printing its tosses lost track of every
    /// piece after the first, and no behaviour of it was ever judged).
    #[test]
    fn coin_tosses_and_passes_in_other_words_are_notes() {
        for line in [
            "The R1 tossed a Head",
            "B2 tossed a tail.",
            "R1 will go Clockwise",
            "G3 will move counter-clockwise",
            "Yellow has no valid pieces to move.",
            "There are no active pieces in the board for Red player. So the trow will be terminated.....",
            "Player Stats",
            "Green's 2th peice completed the game......",
        ] {
            assert!(
                matches!(
                    read(line, Some(Colour::Red)),
                    Reading::Tolerated(Msg::Note, _)
                ),
                "{line}: {:?}",
                read(line, Some(Colour::Red))
            );
        }
    }

    #[test]
    fn banners_are_decoration_and_prose_is_not_understood() {
        for line in ["--- Round 1 ---", ">>> Game round - 3", "~~~~"] {
            assert_eq!(read(line, None), Reading::Decoration, "{line}");
        }
        assert_eq!(
            read("Red player does a little dance.", None),
            Reading::NotUnderstood
        );
        // `L-1` is a program's -1, not square 1, outside `Location of Red-1 is L-32`.
        assert_eq!(
            read(
                "Red piece R2 lands on square L-1, captures Green piece G1, and returns it to the base.",
                None
            ),
            Reading::NotUnderstood
        );
    }
}
