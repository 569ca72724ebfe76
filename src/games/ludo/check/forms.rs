//! The table of wordings real programs use for the handout's messages, read after the
//! handout's own forms fail.

use super::super::board::*;
use super::words::*;

/// A location in the wordings real programs use: `L41`, `41`, `homepath2`, `HS2`, `H-2`,
/// `redhomepath2`, `Base`, `Home`.
pub(super) fn loose_location(word: &str, colour: Colour) -> Option<Loc> {
    if let Some(loc) = location(word, colour) {
        return Some(loc);
    }
    let word = word.strip_prefix(colour.lower()).unwrap_or(word);
    if let Some(n) = word.strip_prefix('l').and_then(number) {
        return (n < u32::from(SQUARES)).then_some(Loc::Square(n as u8));
    }
    let k = ["homepath", "hs", "h-", "h"]
        .iter()
        .find_map(|p| word.strip_prefix(p).and_then(number))?;
    match k {
        k if k < u32::from(HOME_PATH_CELLS) => Some(Loc::HomePath(k as u8)),
        k if k == u32::from(HOME_PATH_CELLS) => Some(Loc::Home),
        _ => None,
    }
}

/// Matches tokens against a pattern of literal words (`a|an` for either), `[word]` for an
/// optional word, `{}` for a slot, `{*}` for one or more words (its first is the slot) and
/// a final `[*]` for any words to the end.
pub(super) fn fits<'a>(t: &[&'a str], pattern: &[&str], slots: &mut Vec<&'a str>) -> bool {
    let Some((&head, rest)) = pattern.split_first() else {
        return t.is_empty();
    };
    if head == "[*]" {
        // Any words to the end of the line.
        return rest.is_empty();
    }
    let mark = slots.len();
    let ok = if let Some(word) = head.strip_prefix('[').and_then(|w| w.strip_suffix(']')) {
        (t.first().is_some_and(|f| word.split('|').any(|w| w == *f)) && fits(&t[1..], rest, slots))
            || {
                slots.truncate(mark);
                fits(t, rest, slots)
            }
    } else if head == "{*}" {
        !t.is_empty() && {
            slots.push(t[0]);
            (1..=t.len()).any(|n| {
                slots.truncate(mark + 1);
                fits(&t[n..], rest, slots)
            })
        }
    } else if head == "{}" {
        !t.is_empty() && {
            slots.push(t[0]);
            fits(&t[1..], rest, slots)
        }
    } else {
        t.first().is_some_and(|f| head.split('|').any(|w| w == *f)) && fits(&t[1..], rest, slots)
    };
    if !ok {
        slots.truncate(mark);
    }
    ok
}

/// One accepted wording of a message other than the handout's.
pub(super) struct Form {
    pub(super) name: &'static str,
    pub(super) template: &'static str,
    /// A line as a real program prints it, read by this form (the tests read each).
    #[cfg_attr(not(test), allow(dead_code))]
    pub(super) example: &'static str,
    pub(super) build: fn(&[&str], Option<Colour>) -> Option<Msg>,
}

fn loose_piece(word: &str, colour: Colour) -> Option<PieceId> {
    piece(word, Some(colour))
}

/// A piece named by its colour and number, `yellow-3`: only in location lines, since the
/// moves of the program seen printing it give steps from its start, not squares.
fn named_piece(word: &str) -> Option<PieceId> {
    let (name, n) = word.split_once('-')?;
    piece(n, Some(colour(name)?))
}

fn share(word: &str) -> Option<u32> {
    number(word.strip_suffix("/4").unwrap_or(word)).filter(|&n| n <= 4)
}

/// A colour, or its letter as some programs print it in first-round rolls (`R rolls 5`).
pub(super) fn colour_or_letter(word: &str) -> Option<Colour> {
    colour(word).or_else(|| {
        Colour::SEATING
            .into_iter()
            .find(|c| word.len() == 1 && word.eq_ignore_ascii_case(&c.letter().to_string()))
    })
}

/// A place in a table of places: `1`, `1st`, `2nd`, `3rd`, `4th`, `second`.
fn place(word: &str) -> Option<u32> {
    if let Some(k) = ["first", "second", "third", "fourth"]
        .iter()
        .position(|w| *w == word)
    {
        return Some(k as u32 + 1);
    }
    let digits = ["st", "nd", "rd", "th"]
        .iter()
        .find_map(|s| word.strip_suffix(s))
        .unwrap_or(word);
    number(digits).filter(|n| (1..=4).contains(n))
}

fn ranked(s: &[&str], _: Option<Colour>) -> Option<Msg> {
    Some(Msg::Place(colour(s[1])?, place(s[0])?))
}

fn roll(s: &[&str], _: Option<Colour>) -> Option<Msg> {
    Some(Msg::AnyRoll(colour_or_letter(s[0])?, number(s[1])?))
}

fn full_move(s: &[&str], _: Option<Colour>) -> Option<Msg> {
    let c = colour_or_letter(s[0])?;
    Some(Msg::LooseMove {
        id: loose_piece(s[1], c)?,
        from: Some(loose_location(s[2], c)?),
        to: loose_location(s[3], c)?,
        units: Some(number(s[4])?),
        dir: s.get(5).map(|d| direction(d)).unwrap_or(None),
    })
}

/// The accepted wordings, tried in order after the handout's.
pub(super) const FORMS: &[Form] = &[
    Form {
        name: "roll",
        template: "{} [player] [has] rolled|rolls|rolled|got [a] {}",
        example: "\u{1b}[0;34mBlue has rolled 6",
        build: roll,
    },
    Form {
        name: "roll",
        template: "player {} [has] rolled|rolls|got [a] {}",
        example: "Player G rolled a 5",
        build: roll,
    },
    Form {
        name: "move",
        template: "{} [player] moves [piece] {} from [location] {} to [location] {} by {} units [in] {} [direction]",
        example: "Yellow's piece Y1 moves from L23 to L26 by 3 units in counter clock-wise direction",
        build: full_move,
    },
    Form {
        name: "move",
        template: "{} [player] moves [piece] {} from [location] {} to [location] {} by {} units in {}",
        example: "Blue moves B1 from location L15 to L16 by 1 units in clockwise",
        build: full_move,
    },
    Form {
        name: "move",
        template: "{} [piece] {} moves from [location] {} to [location] {} by {} units [in] {} [direction]",
        example: "Yellow\u{2019}s piece Y1 moves from L23 to L26 by 3 units in clockwise direction.",
        build: full_move,
    },
    Form {
        name: "move",
        template: "{} piece {} has moved [from] {} to {} by {} units in {} [direction]",
        example: "Green piece G2 has moved L30 to L34 by 4 units in clockwise direction",
        build: full_move,
    },
    Form {
        name: "move without a direction",
        template: "{} [player] moves [piece] {} from [location] {} to [location] {} by {} units",
        example: "Red moves R2 from location Home Straight Cell 1 to Home Straight Cell 3 by 2 units.",
        build: full_move,
    },
    Form {
        name: "move without units",
        template: "{} [player] moves [piece] {} from [location] {} to [location] {}",
        example: "Green moves piece G3 from L12 to L17.",
        build: |s, _| {
            let c = colour_or_letter(s[0])?;
            let id = loose_piece(s[1], c)?;
            match loose_location(s[2], c)? {
                // Out of base onto the board is the entry to X.
                Loc::Base => Some(Msg::Enter(c, id)),
                from => Some(Msg::LooseMove {
                    id,
                    from: Some(from),
                    to: loose_location(s[3], c)?,
                    units: None,
                    dir: None,
                }),
            }
        },
    },
    Form {
        name: "move home",
        template: "{} [player] moves [piece] {} to home",
        example: "Blue moves B3 to Home",
        build: |s, _| {
            let c = colour(s[0])?;
            Some(Msg::LooseMove {
                id: loose_piece(s[1], c)?,
                from: None,
                to: Loc::Home,
                units: None,
                dir: None,
            })
        },
    },
    Form {
        name: "location summary",
        template: "[piece] {} -> [cell] {}",
        example: "Piece 2 -> L16",
        build: |s, summary| {
            let id = piece(s[0], None).or_else(|| piece(s[0], Some(summary?)))?;
            Some(Msg::PieceAt(id, loose_location(s[1], id.colour)?))
        },
    },
    Form {
        name: "location summary",
        template: "[piece] {} -> on path at {}",
        example: "Piece 3 -> On Path at L12",
        build: |s, summary| {
            let id = piece(s[0], None).or_else(|| piece(s[0], Some(summary?)))?;
            Some(Msg::PieceAt(id, loose_location(s[1], id.colour)?))
        },
    },
    Form {
        name: "location summary",
        template: "location of {} [player] pieces",
        example: "Location of Green player Pieces",
        build: |s, _| Some(Msg::LocationHeader(colour(s[0])?)),
    },
    Form {
        name: "roll",
        template: "{} [player] rolled|rolls {} for the {} time",
        example: "Green rolled 6 for the 2 time",
        build: roll,
    },
    Form {
        name: "location summary",
        template: "location of pieces [of] {}",
        example: "Location of pieces of Yellow",
        build: |s, _| Some(Msg::LocationHeader(colour(s[0])?)),
    },
    Form {
        name: "location summary",
        template: "for player {}",
        example: "For Player Green",
        build: |s, _| Some(Msg::LocationHeader(colour(s[0])?)),
    },
    Form {
        name: "location summary",
        template: "{} pieces locations",
        example: "Blue Pieces locations",
        build: |s, _| Some(Msg::LocationHeader(colour(s[0])?)),
    },
    Form {
        name: "location summary",
        template: "player {}",
        example: "Player G:",
        build: |s, _| Some(Msg::LocationHeader(colour_or_letter(s[0])?)),
    },
    Form {
        name: "location summary",
        template: "piece {} current position {} {}",
        example: "Piece 2 - Current Position: -3, in Base",
        build: |s, summary| {
            let id = piece(s[0], Some(summary?))?;
            let at = loose_location(s[2], id.colour)?;
            matches!(at, Loc::Base | Loc::Home).then_some(Msg::PieceAt(id, at))
        },
    },
    Form {
        name: "location summary",
        template: "piece {} current position {}",
        example: "Piece 3 - Current Position: 17,",
        build: |s, summary| {
            let id = piece(s[0], Some(summary?))?;
            match loose_location(s[1], id.colour)? {
                Loc::Square(n) => Some(Msg::PieceAt(id, Loc::Square(n))),
                _ => None,
            }
        },
    },
    Form {
        name: "location summary",
        template: "location of {} is {}",
        example: "Location of Yellow-3 is H-5",
        build: |s, _| {
            let id = named_piece(s[0])?;
            // `L-32` is square 32 here; elsewhere (`lands on square L-1`) a program's `-1`.
            let at = s[1].strip_prefix("l-").unwrap_or(s[1]);
            Some(Msg::PieceAt(id, loose_location(at, id.colour)?))
        },
    },
    Form {
        name: "location summary",
        template: "piece {} is [in] [the] {}",
        example: "Piece Green-2 is in the Base",
        build: |s, _| {
            let id = named_piece(s[0])?;
            let at = loose_location(s[1], id.colour)?;
            matches!(at, Loc::Base | Loc::Home).then_some(Msg::PieceAt(id, at))
        },
    },
    Form {
        name: "count line",
        template: "{} [player] [now] has {} [on] [of] [pieces] on the board and {} [pieces] on|in the base",
        example: "Yellow player now has 0/4 on the board and 4/4 pieces on the base",
        build: |s, _| {
            Some(Msg::Count(
                colour_or_letter(s[0])?,
                share(s[1])?,
                share(s[2])?,
            ))
        },
    },
    Form {
        name: "count line",
        template: "{} [player] [now] has {} [on] [of] [pieces] on the board and {} [pieces] on|in the base and {} [pieces] in|at [the] home",
        example: "Green player now has 2/4 pieces on the board and 1/4 pieces in the base and 1/4 pieces in the home.",
        build: |s, _| Some(Msg::Count(colour(s[0])?, share(s[1])?, share(s[2])?)),
    },
    Form {
        name: "entry to X",
        template: "{} [player] moves [piece|peice] {} to the|a starting point|position [*]",
        example: "Blue player moves piece B1 to the starting point(15).",
        build: |s, _| {
            let c = colour_or_letter(s[0])?;
            let id = loose_piece(s[1], c).or_else(|| named_piece(s[1]))?;
            (id.colour == c).then_some(Msg::Enter(c, id))
        },
    },
    Form {
        name: "capture",
        template: "{} [piece] {} lands on [square] {} [and] captures {} [piece] {} and returns|returned it to [the] base",
        example: "Green piece G1 lands on square L41, captures Red piece R3 and returns it to base.",
        build: |s, _| {
            let (c, v) = (colour_or_letter(s[0])?, colour_or_letter(s[3])?);
            Some(Msg::Capture {
                id: loose_piece(s[1], c)?,
                square: loose_location(s[2], c)?,
                victim: loose_piece(s[4], v)?,
            })
        },
    },
    Form {
        name: "capture naming the captured piece",
        template: "{} captures {} [piece] {}",
        example: "Green captures Blue's piece B2!",
        build: |s, _| Some(Msg::CaptureOf(loose_piece(s[2], colour(s[1])?)?)),
    },
    Form {
        name: "capture naming the captured piece",
        template: "{} [piece] {} was|is|has captured|been [captured] [and] [is] [was] sent|returned|moved [back] to [the] base",
        example: "Red piece R2 was captured and sent back to the base.",
        build: |s, _| Some(Msg::CaptureOf(loose_piece(s[1], colour_or_letter(s[0])?)?)),
    },
    Form {
        name: "capture naming the captured piece",
        template: "{} [piece] {} is|was captured by [a] [the] block of {} and [is] [was] returned|sent [back] to [the] base",
        example: "Blue piece B4 is captured by block of Green and is returned to the base",
        build: |s, _| Some(Msg::CaptureOf(loose_piece(s[1], colour_or_letter(s[0])?)?)),
    },
    Form {
        name: "first player",
        template: "{} [player] has the highest|heighest roll|number and will begin the game",
        example: "Yellow has the highest roll and will begin the game.",
        build: |s, _| Some(Msg::Highest(colour(s[0])?)),
    },
    Form {
        name: "first player",
        template: "player with [the] highest roll is {} {*}",
        example: "Player with highest roll is Yellow with a roll of 2",
        build: |s, _| Some(Msg::Highest(colour(s[0])?)),
    },
    Form {
        name: "first player",
        template: "{} [player] has the highest roll|number [*]",
        example: "R Player has the highest roll",
        build: |s, _| Some(Msg::Highest(colour_or_letter(s[0])?)),
    },
    Form {
        name: "round order",
        template: "the order of [a] [single] [round] [is] {} [->] {} [->] {} [->] [and] {}",
        example: "The order of single round is Yellow, Blue, Red, and Green",
        build: |s, _| {
            Some(Msg::Order(
                s.iter()
                    .map(|w| colour_or_letter(w))
                    .collect::<Option<Vec<_>>>()?,
            ))
        },
    },
    Form {
        name: "introduction",
        template: "the {} player has four|4 [04] pieces [named] {*}",
        example: "The Blue player has 4 pieces B1, B2, B3, and B4",
        build: |s, _| Some(Msg::Intro(colour(s[0])?)),
    },
    Form {
        name: "introduction",
        template: "[the] {} [player] has 04|4 pieces [named] {} {} {} {}",
        example: "The red player has 04 pieces named R1, R2, R3, R4",
        build: |s, _| {
            let c = colour(s[0])?;
            (1..5)
                .all(|k| piece(s[k], Some(c)).is_some())
                .then_some(Msg::Intro(c))
        },
    },
    Form {
        name: "mystery cell",
        template: "[a] mystery cell has spawned in|at [location] {} [and] [will] [be] [at] [this|that] [location] [for] [the] [next] [*]",
        example: "Mystery Cell has spawned in location L33 and will be at that location for the next 4 rounds",
        build: |s, _| match loose_location(s[0], Colour::Yellow)? {
            Loc::Square(n) => Some(Msg::Spawned(u32::from(n))),
            _ => None,
        },
    },
    Form {
        name: "mystery cell",
        template: "mystery cell is {}",
        example: "Mystery cell is :21",
        // Printed once as each cell spawns (every fourth round in the program seen).
        build: |s, _| Some(Msg::Spawned(number(s[0].trim_start_matches(':'))?)),
    },
    Form {
        name: "mystery cell",
        template: "the mystery cell is at {} {*}",
        example: "The mystery cell is at L33 for 3 more rounds",
        build: |s, _| match loose_location(s[0], Colour::Yellow)? {
            Loc::Square(n) => Some(Msg::MysteryAt(u32::from(n))),
            _ => None,
        },
    },
    Form {
        name: "teleport",
        template: "{} piece {} [is] [was] teleported to {}",
        example: "Red piece R1 is teleported to pitakotuwa",
        build: |s, _| {
            let c = colour_or_letter(s[0])?;
            let target = teleport_target(s[2])?;
            Some(Msg::Teleported(loose_piece(s[1], c)?, target))
        },
    },
    Form {
        name: "lands on the mystery cell",
        template: "{} player lands on a|the mystery cell and [is] teleported to {*}",
        example: "Green player lands on a mystery cell and teleported to Kotuwa",
        build: |s, _| Some(Msg::LandsMystery(colour(s[0])?)),
    },
    Form {
        name: "winner",
        template: "{} [player] wins|won|has [won] [the] [game]",
        example: "Green player has won!!!",
        build: |s, _| Some(Msg::Wins(colour_or_letter(s[0])?)),
    },
    Form {
        name: "winner",
        template: "player {} wins|won [the] [game]",
        example: "Player Blue Won the game!!!!!!",
        build: |s, _| Some(Msg::Wins(colour_or_letter(s[0])?)),
    },
    Form {
        name: "places",
        template: "player {} won|got [the] {} place",
        example: "Player Green Won the Second Place........",
        build: |s, _| Some(Msg::Place(colour_or_letter(s[0])?, place(s[1])?)),
    },
    Form {
        name: "places",
        template: "{} [player] finished the game and got the {} place",
        example: "Blue player finished the game and got the 1 place.",
        build: |s, _| Some(Msg::Place(colour_or_letter(s[0])?, place(s[1])?)),
    },
    Form {
        name: "places",
        template: "{} [player] place {}",
        example: " Green Player : Place 1",
        build: |s, _| Some(Msg::Place(colour(s[0])?, place(s[1])?)),
    },
    Form {
        name: "winner named after",
        template: "[the] winner [is] {} [player]",
        example: "Winner: Green",
        build: |s, _| Some(Msg::Wins(colour(s[0])?)),
    },
    Form {
        name: "winner named before",
        template: "{} [player] is the winner",
        example: "Green player is the winner!",
        build: |s, _| Some(Msg::Wins(colour(s[0])?)),
    },
    Form {
        name: "places",
        template: "{} place [is] {} [player]",
        example: "1st place: Yellow",
        build: ranked,
    },
    Form {
        name: "places",
        template: "{} {} [player]",
        example: "2. Red",
        build: ranked,
    },
];
