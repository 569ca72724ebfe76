//! The trace checker: reads a printed LUDO-CS game line by line, replays it on the board and
//! reports every line the rules forbid. It never stops at the first problem: an unreadable
//! line is reported and skipped, and after a violation the replay follows what the program
//! printed (a piece said to be at 14 is put at 14), so one bug is reported once.

use std::collections::BTreeSet;

use super::board::{
    Aura, Board, Colour, Dir, EnterPolicy, Layout, Loc, PieceId, Place, Walk, FROM_APPROACH,
    FROM_ZERO, HOME_PATH_CELLS, SQUARES,
};
use super::sim::{captures_at, entry, single_move, SingleMove, Stopped};
use super::{BEHAVIOUR, FINISHES, MESSAGES, RULES, STRUCTURE};
use crate::games::{ItemVerdict, TraceRun};

/// Violations in one run that take the `rules` item to zero (each costs a tenth).
const VIOLATIONS_FOR_ZERO: f64 = 10.0;
/// A colour whose choices agree this often with its stated behaviour gets full marks: the
/// handout leaves tie-breaks open, so a correct program may differ now and then.
const BEHAVIOUR_FULL: f64 = 0.95;
/// Notes listed per item before the rest are summarised.
const MAX_NOTES: usize = 25;

/// One line the rules forbid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    pub line: usize,
    pub text: String,
    /// The rule's name as the handout or ruling gives it ("Rule 2", "CS-7", "count line").
    pub rule: &'static str,
    pub why: String,
}

impl std::fmt::Display for Violation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}: \"{}\": {}: {}",
            self.line, self.text, self.rule, self.why
        )
    }
}

/// Agreement of one colour's choices with its behaviour (section 2.1).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Agreement {
    pub decisions: u32,
    pub agreed: u32,
    /// The roll line of the first choice that disagrees.
    pub first_disagreement: Option<usize>,
}

/// Everything the checker found in one output.
#[derive(Debug, Clone, Default)]
pub struct Report {
    /// Non-blank lines.
    pub lines: usize,
    /// Roll lines of the game proper (after the first-player rolls).
    pub rolls: usize,
    /// (line number, text) of lines no message form matches.
    pub unreadable: Vec<(usize, String)>,
    /// Required messages that never appeared.
    pub missing: Vec<String>,
    pub violations: Vec<Violation>,
    /// Readings detected where the rulings accept several.
    pub readings: BTreeSet<String>,
    /// The first winner announced with all four pieces home.
    pub winner: Option<Colour>,
    pub behaviour: [Agreement; 4],
}

/// A message, parsed.
#[derive(Debug, Clone, PartialEq)]
enum Msg {
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
enum Target {
    Place(Place),
    Base,
    X,
    Approach,
}

/// Lower case, the known spellings of counter-clockwise made one word, punctuation that
/// only separates words dropped.
fn normalise(line: &str) -> String {
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

fn tokens(normalised: &str) -> Vec<&str> {
    normalised
        .split_whitespace()
        .map(|t| t.trim_end_matches(['.', ':']))
        .filter(|t| !t.is_empty())
        .collect()
}

/// Matches `tokens` against a template of words and `{}` slots (`{*}` takes the rest);
/// returns the slots' tokens.
fn fit<'a>(tokens: &[&'a str], template: &str) -> Option<Vec<&'a str>> {
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

fn colour(word: &str) -> Option<Colour> {
    Colour::parse(word)
}

fn number(word: &str) -> Option<u32> {
    word.parse().ok()
}

/// `R2` (or `2` when the colour is known from the line).
fn piece(word: &str, colour: Option<Colour>) -> Option<PieceId> {
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
fn location(word: &str, colour: Colour) -> Option<Loc> {
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

fn direction(word: &str) -> Option<Dir> {
    match word {
        "clockwise" => Some(Dir::Clockwise),
        "counterclockwise" => Some(Dir::CounterClockwise),
        _ => None,
    }
}

/// One message form: the line's tokens in, the message out if the form fits.
type Parser = dyn Fn(&[&str]) -> Option<Msg>;

fn parse(line: &str) -> Option<Msg> {
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
fn move_message(s: &[&str]) -> Option<Msg> {
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
fn parse_near(line: &str) -> Option<Msg> {
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

/// What one roll did, for the turn rules and the behaviour checks.
#[derive(Debug, Clone)]
struct Roll {
    colour: Colour,
    value: u32,
    sixes: u32,
    round: u32,
    /// The board when the roll was made.
    before: Board,
    entered: bool,
    captured: bool,
    /// Pieces moved, with the square they left.
    moved: Vec<(PieceId, Loc)>,
    made_block: bool,
    block_move: bool,
    /// A piece reported blocked, and the cell before the block with its Approach count.
    stopped: Option<(PieceId, Option<(Loc, u32)>)>,
    /// A move a capture line stood for: (piece, from, to).
    implied: Option<(PieceId, Loc, Loc)>,
    /// Whether behaviour can be judged (no ambiguous state at the roll).
    judgeable: bool,
    /// The roll line.
    line: usize,
}

impl Roll {
    fn acted(&self) -> bool {
        self.entered || !self.moved.is_empty() || self.stopped.is_some()
    }
}

/// A landing on opposing pieces that has not been answered by a capture message yet.
#[derive(Debug, Clone)]
struct Pending {
    victim: PieceId,
    square: u8,
    mover: PieceId,
    line: usize,
    text: String,
}

struct Checker {
    board: Board,
    report: Report,
    layout: Option<Layout>,
    /// Pieces teleported to a named place before the layout was known.
    tentative: Vec<(PieceId, Place)>,
    order: Option<Vec<Colour>>,
    first_rolls: Vec<(Colour, u32)>,
    intros: BTreeSet<Colour>,
    round: u32,
    roll: Option<Roll>,
    pending: Vec<Pending>,
    mystery: Option<u8>,
    last_mystery: Option<u8>,
    finished: Vec<Colour>,
    blue_next: usize,
    /// Pieces that moved with a block before their own direction was known: their Approach
    /// count is uncertain, so their colour's behaviour is not judged until they reset.
    unsure: BTreeSet<PieceId>,
    line_no: usize,
    text: String,
}

/// Checks one printed game.
pub fn check(output: &str) -> Report {
    let mut checker = replay(output);
    checker.finish();
    checker.report
}

/// Reads every line of `output` into a checker, before the end-of-game checks.
fn replay(output: &str) -> Checker {
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
        unsure: BTreeSet::new(),
        line_no: 0,
        text: String::new(),
    };
    for (index, raw) in output.lines().enumerate() {
        let text = raw.trim();
        if text.is_empty() {
            continue;
        }
        checker.report.lines += 1;
        checker.line_no = index + 1;
        checker.text = text.to_string();
        match parse(text) {
            Some(msg) => checker.apply(msg),
            None => {
                checker
                    .report
                    .unreadable
                    .push((index + 1, text.to_string()));
                if let Some(msg) = parse_near(text) {
                    checker.apply(msg);
                }
            }
        }
    }
    checker
}

impl Checker {
    fn violation(&mut self, rule: &'static str, why: String) {
        self.report.violations.push(Violation {
            line: self.line_no,
            text: self.text.clone(),
            rule,
            why,
        });
    }

    fn reading(&mut self, text: &str) {
        self.report.readings.insert(text.to_string());
    }

    fn render(&self, id: PieceId) -> String {
        self.board.piece(id).loc.render(id.colour)
    }

    fn position(&self, colour: Colour) -> usize {
        self.order
            .as_ref()
            .and_then(|o| o.iter().position(|&c| c == colour))
            .unwrap_or(colour.index())
    }

    fn next_player(&self, colour: Colour) -> Colour {
        let order = self.order.clone().unwrap_or(Colour::SEATING.to_vec());
        let at = self.position(colour);
        (1..=4)
            .map(|k| order[(at + k) % order.len()])
            .find(|c| !self.finished.contains(c))
            .unwrap_or(colour)
    }

    /// Fixes the layout when a tentatively placed piece is said to be on the other layout's
    /// square for its place.
    fn resolve(&mut self, id: PieceId, claimed: Loc) {
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
    fn walk_board(&self, mover: PieceId) -> std::borrow::Cow<'_, Board> {
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
    fn expect_at(&mut self, id: PieceId, claimed: Loc, rule: &'static str) -> bool {
        self.resolve(id, claimed);
        let actual = self.board.piece(id).loc;
        if actual == claimed {
            return true;
        }
        self.violation(
            rule,
            format!(
                "the replayed board has {id} at {}, not {}",
                actual.render(id.colour),
                claimed.render(id.colour)
            ),
        );
        self.board.piece_mut(id).loc = claimed;
        self.tentative.retain(|(p, _)| *p != id);
        false
    }

    /// The roll the colour is acting on, reporting an action without one.
    fn current_roll(&mut self, colour: Colour) -> Option<u32> {
        match &self.roll {
            Some(r) if r.colour == colour => Some(r.value),
            Some(r) => {
                let who = r.colour;
                self.violation(
                    "turn order",
                    format!("it is {}'s roll, not {}'s", who.name(), colour.name()),
                );
                None
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

    fn apply(&mut self, msg: Msg) {
        if !matches!(
            msg,
            Msg::Capture { .. }
                | Msg::Count(..)
                | Msg::LandsMystery(_)
                | Msg::Teleported(..)
                | Msg::Move { .. }
        ) {
            self.flush_pending();
        }
        match msg {
            Msg::Intro(c) => {
                self.intros.insert(c);
            }
            Msg::FirstRoll(c, v) => {
                if !(1..=6).contains(&v) {
                    self.violation("Rule 1", format!("a die shows 1 to 6, not {v}"));
                }
                if self.first_rolls.iter().any(|(k, _)| *k == c) {
                    self.reading("ties in the first roll are rolled again");
                }
                self.first_rolls.push((c, v));
            }
            Msg::Highest(c) => self.highest(c),
            Msg::Order(colours) => self.announce_order(colours),
            Msg::Rolled(c, v) => self.rolled(c, v),
            Msg::Enter(c, id) => self.enter(c, id),
            Msg::Count(c, on_board, in_base) => self.count(c, on_board, in_base),
            Msg::Move {
                colour,
                id,
                from,
                to,
                units,
                dir,
            } => self.move_line(colour, id, from, to, units, dir),
            Msg::Blocked { id, from, by } => self.blocked(id, from, by),
            // Programs also say this when no piece can move for other reasons: only the
            // turn is checked.
            Msg::Ignoring(c) => {
                self.current_roll(c);
            }
            Msg::MovedBefore(c, loc) => self.moved_before(c, loc),
            Msg::Capture { id, square, victim } => self.capture(id, square, victim),
            Msg::Separator | Msg::LocationHeader(_) => {}
            Msg::PieceAt(id, loc) => {
                self.expect_at(id, loc, "location summary");
            }
            Msg::MysteryAt(n) => {
                if self.mystery.map(u32::from) != Some(n) {
                    let was = self
                        .mystery
                        .map_or("no mystery cell has spawned".to_string(), |m| {
                            format!("the mystery cell spawned at {m}")
                        });
                    self.violation("CS-10", was);
                }
            }
            Msg::LandsMystery(c) => self.lands_mystery(c),
            Msg::Teleported(id, target) => self.teleported(id, target),
            Msg::Aura(id, aura) => self.board.piece_mut(id).aura = Some((aura, self.round)),
            Msg::Briefing(id) => self.board.piece_mut(id).briefing = Some(self.round),
            Msg::Restricted(id) => {
                let since = self.board.piece(id).briefing;
                if since.is_none_or(|s| self.round > s + 5) {
                    self.violation(
                        "CS-13",
                        format!("{id} is not attending a briefing, so it cannot be sent to base for rolling threes"),
                    );
                }
                self.board.piece_mut(id).reset();
                self.tentative.retain(|(p, _)| *p != id);
            }
            Msg::Turned(id) => {
                let piece = self.board.piece_mut(id);
                piece.dir = Some(Dir::CounterClockwise);
                piece.turned = true;
            }
            Msg::PitaToKotuwa(id) => self.place(id, Place::Kotuwa),
            Msg::Spawned(n) => self.spawned(n),
            Msg::Wins(c) => self.wins(c),
        }
    }

    fn highest(&mut self, c: Colour) {
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
        if !(first.is_empty() || top_first && top_latest) {
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

    fn announce_order(&mut self, colours: Vec<Colour>) {
        let expected = self.order.clone();
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

    fn rolled(&mut self, c: Colour, v: u32) {
        self.report.rolls += 1;
        if !(1..=6).contains(&v) {
            self.violation("Rule 1", format!("a die shows 1 to 6, not {v}"));
        }
        let prev = self.roll.take();
        if let Some(p) = &prev {
            self.judge(p);
        }
        let mut sixes = u32::from(v == 6);
        match &prev {
            None => {
                let first = self.order.as_ref().map(|o| o[0]);
                if first.is_some_and(|f| f != c) {
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
                let again = p.value == 6 && p.sixes < 3;
                if p.sixes >= 3 {
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
                if v == 6 && p.value == 6 {
                    sixes = p.sixes + 1;
                }
            }
            Some(p) => {
                let next = self.next_player(p.colour);
                if p.value == 6 && p.sixes < 3 && !self.finished.contains(&p.colour) {
                    self.violation(
                        "Rule 4",
                        format!(
                            "{} rolled a six and gets another roll, but {} rolls",
                            p.colour.name(),
                            c.name()
                        ),
                    );
                } else if next != c {
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
                }
            }
        }
        let judgeable = self.judgeable(c, self.round);
        self.roll = Some(Roll {
            colour: c,
            value: v,
            sixes,
            round: self.round,
            before: self.board.clone(),
            entered: false,
            captured: false,
            moved: Vec::new(),
            made_block: false,
            block_move: false,
            stopped: None,
            implied: None,
            judgeable,
            line: self.line_no,
        });
    }

    /// Behaviour is judged only where the replay knows everything the choice depended on.
    fn judgeable(&self, c: Colour, round: u32) -> bool {
        self.tentative.is_empty()
            && PieceId::all(c)
                .into_iter()
                .all(|id| !self.unsure.contains(&id) || self.board.piece(id).loc == Loc::Base)
            && PieceId::all(c).into_iter().all(|id| {
                let p = self.board.piece(id);
                let unsure =
                    |since: Option<u32>| since.is_some_and(|s| (s + 3..=s + 5).contains(&round));
                !unsure(p.aura.map(|a| a.1)) && !unsure(p.briefing)
            })
    }

    /// A second action in one roll is only a block moving together or CS-6's split.
    fn check_single_action(&mut self, id: PieceId) {
        let Some(roll) = &self.roll else { return };
        if !roll.acted() || roll.sixes >= 3 {
            return;
        }
        let origin = roll.before.piece(id).loc;
        let same_block = roll.stopped.is_none()
            && !roll.entered
            && roll.moved.iter().all(|(_, from)| *from == origin)
            && origin
                .square()
                .is_some_and(|n| roll.before.count_at(id.colour, n) >= 2);
        if !same_block {
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

    fn enter(&mut self, c: Colour, id: PieceId) {
        let Some(value) = self.current_roll(c) else {
            return self.put_on_x(id);
        };
        if value != 6 {
            self.violation(
                "Rule 2",
                format!("{id} leaves base on a roll of {value}; leaving base needs a six"),
            );
        }
        if self.board.piece(id).loc != Loc::Base {
            let at = self.render(id);
            self.violation("Rule 2", format!("{id} is not in base (it is at {at})"));
        }
        self.check_single_action(id);
        self.put_on_x(id);
        if let Some(roll) = &mut self.roll {
            roll.entered = true;
        }
    }

    fn put_on_x(&mut self, id: PieceId) {
        let x = id.colour.start();
        self.tentative.retain(|(p, _)| *p != id);
        self.unsure.remove(&id);
        let piece = self.board.piece_mut(id);
        piece.reset();
        // Entering X onto an opponent may capture it or share the square (X as a safe
        // square): the handout does not say, so no capture is required.
        piece.loc = Loc::Square(x);
    }

    /// Opposing pieces where a piece landed must be captured by the next lines.
    fn note_landing(&mut self, mover: PieceId, square: u8) {
        for victim in self.board.opponents_at(mover.colour, square) {
            // Where a piece placed before the layout was known really stands is not known.
            if self.tentative.iter().any(|(p, _)| *p == victim) {
                continue;
            }
            self.pending.push(Pending {
                victim,
                square,
                mover,
                line: self.line_no,
                text: self.text.clone(),
            });
        }
    }

    fn flush_pending(&mut self) {
        for p in std::mem::take(&mut self.pending) {
            if self.board.piece(p.victim).loc == Loc::Square(p.square) {
                self.report.violations.push(Violation {
                    line: p.line,
                    text: p.text,
                    rule: "Rule 6",
                    why: format!(
                        "{} lands on square {} where {} {} stands, but no capture follows",
                        p.mover,
                        p.square,
                        p.victim.colour.name(),
                        p.victim
                    ),
                });
            }
        }
    }

    fn count(&mut self, c: Colour, on_board: u32, in_base: u32) {
        let counts = self.board.counts(c);
        let standard = counts.standard as u32;
        let with_straight = standard + counts.home_path as u32;
        let board_ok = on_board == standard || on_board == with_straight;
        if !board_ok || in_base != counts.base as u32 {
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

    /// Square counts a move may cover: the roll, doubled or halved while Bhawana's effect may
    /// last, divided among a block's members, or anything up to six on CS-6's split.
    fn step_options(&self, id: PieceId, roll: &Roll) -> Vec<u32> {
        let value = roll.value;
        if roll.sixes >= 3 {
            return (1..=6).collect();
        }
        let piece = self.board.piece(id);
        let mut steps = Vec::new();
        let plain = match piece.aura {
            Some((aura, since)) => {
                let elapsed = self.round.saturating_sub(since);
                if elapsed <= 5 {
                    match aura {
                        Aura::Energised => steps.push(value * 2),
                        Aura::Sick => steps.extend([value / 2, value.div_ceil(2)]),
                    }
                }
                elapsed >= 3
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
    fn move_line(&mut self, c: Colour, id: PieceId, from: Loc, to: Loc, units: u32, dir: Dir) {
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
            if self.round < since + 3 {
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
        match piece.dir {
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
    fn reach(&self, id: PieceId, roll: &Roll, dir: Dir, to: Loc) -> Option<(u32, u32)> {
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

    /// Says why a printed move is not one the rules allow from the replayed board.
    fn explain_move(
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

    fn blocked(&mut self, id: PieceId, from: Loc, by: PieceId) {
        let Some(_) = self.current_roll(id.colour) else {
            return;
        };
        let Some(roll) = self.roll.clone() else {
            return;
        };
        self.expect_at(id, from, "CS-3");
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
        if before.is_none() {
            let at = self.render(by);
            self.violation(
                "CS-3",
                format!(
                    "{by} (at {at}) is not part of an opposing block in {id}'s way for this roll"
                ),
            );
        }
        if let Some(r) = &mut self.roll {
            r.stopped = Some((id, before));
        }
    }

    fn moved_before(&mut self, c: Colour, loc: Loc) {
        if self.current_roll(c).is_none() {
            return;
        }
        let Some((id, before)) = self.roll.as_ref().and_then(|r| r.stopped) else {
            return self.violation("CS-3", "no blocked piece was reported for this roll".into());
        };
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

    fn capture(&mut self, id: PieceId, square: Loc, victim: PieceId) {
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
        if victim_at != square {
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
    fn implied_move(&mut self, id: PieceId, square: Loc) -> bool {
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
    fn makes_block(&self, roll: &Roll, c: Colour, at: Loc) -> bool {
        at.square().is_some_and(|n| {
            self.board.count_at(c, n) >= 2 && roll.before.count_at(c, n) < self.board.count_at(c, n)
        })
    }

    fn lands_mystery(&mut self, c: Colour) {
        let Some(cell) = self.mystery else {
            return self.violation("CS-11", "no mystery cell has spawned".into());
        };
        let on_it = PieceId::all(c)
            .into_iter()
            .any(|id| self.board.piece(id).loc == Loc::Square(cell));
        if !on_it {
            self.violation(
                "CS-11",
                format!(
                    "no {} piece is on the mystery cell (square {cell})",
                    c.name()
                ),
            );
        }
    }

    fn place(&mut self, id: PieceId, place: Place) {
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

    fn teleported(&mut self, id: PieceId, target: Target) {
        if let Some(cell) = self.mystery {
            let at = self.board.piece(id).loc;
            let moved_there = self
                .roll
                .as_ref()
                .is_some_and(|r| r.moved.iter().any(|m| m.0 == id) || r.entered);
            if at != Loc::Square(cell) && !moved_there {
                self.violation(
                    "CS-11",
                    format!(
                        "{id} is at {}, not on the mystery cell (square {cell})",
                        at.render(id.colour)
                    ),
                );
            }
        }
        let c = id.colour;
        match target {
            Target::Place(place) => self.place(id, place),
            Target::Base => {
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

    fn spawned(&mut self, n: u32) {
        if n >= u32::from(SQUARES) {
            return self.violation(
                "CS-10",
                format!("square {n} is not on the standard path (0 to 51)"),
            );
        }
        let square = n as u8;
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
        self.mystery = Some(square);
        self.last_mystery = Some(square);
    }

    fn wins(&mut self, c: Colour) {
        let out: Vec<String> = PieceId::all(c)
            .into_iter()
            .filter(|&id| self.board.piece(id).loc != Loc::Home)
            .map(|id| format!("{id} at {}", self.render(id)))
            .collect();
        if out.is_empty() {
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

    fn finish(&mut self) {
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
        }
        if let Some(layout) = self.layout {
            self.reading(&format!("Bhawana, Kotuwa and Pita-Kotuwa {}", layout.name));
        }
    }

    /// Judges one roll's choice against the colour's behaviour, where it decides.
    fn judge(&mut self, roll: &Roll) {
        if roll.sixes >= 3 || !(1..=6).contains(&roll.value) {
            return;
        }
        let agreed = match roll.colour {
            Colour::Red => judge_red(roll),
            Colour::Green => judge_green(roll),
            Colour::Yellow => judge_yellow(roll),
            // Blue's cycle is followed on every roll, judged or not.
            Colour::Blue => self.judge_blue(roll),
        };
        if let Some(agreed) = agreed.filter(|_| roll.judgeable) {
            let tally = &mut self.report.behaviour[roll.colour.index()];
            tally.decisions += 1;
            tally.agreed += u32::from(agreed);
            if !agreed && tally.first_disagreement.is_none() {
                tally.first_disagreement = Some(roll.line);
            }
        }
    }

    fn judge_blue(&mut self, roll: &Roll) -> Option<bool> {
        let moved = if roll.entered {
            PieceId::all(Colour::Blue).into_iter().find(|&id| {
                roll.before.piece(id).loc == Loc::Base && self.board.piece(id).loc != Loc::Base
            })
        } else if roll.moved.len() == 1 && roll.stopped.is_none() {
            Some(roll.moved[0].0)
        } else {
            None
        };
        let expected = (0..4).map(|k| PieceId {
            colour: Colour::Blue,
            index: (self.blue_next + k) % 4,
        });
        let mut verdict = None;
        for id in expected {
            let can = if roll.before.piece(id).loc == Loc::Base {
                Tri::from(entry(&roll.before, Colour::Blue, roll.value).is_some())
            } else {
                outcomes(roll, id, |r| r.is_some_and(|m| m.is_ok()))
            };
            match can {
                Tri::No => continue,
                Tri::Maybe => break,
                Tri::Yes => {
                    let base = roll.before.piece(id).loc == Loc::Base;
                    verdict = moved.map(|m| {
                        m == id || (base && roll.entered && roll.before.piece(m).loc == Loc::Base)
                    });
                    break;
                }
            }
        }
        if let Some(m) = moved {
            self.blue_next = (m.index + 1) % 4;
        }
        verdict
    }
}

fn names(colours: &[Colour]) -> String {
    colours
        .iter()
        .map(|c| c.name())
        .collect::<Vec<_>>()
        .join(", ")
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tri {
    Yes,
    No,
    Maybe,
}

impl From<bool> for Tri {
    fn from(b: bool) -> Self {
        if b {
            Tri::Yes
        } else {
            Tri::No
        }
    }
}

/// Evaluates `test` on a piece's single move in every direction it may have (a piece that
/// has not moved yet has an unknown direction).
fn outcomes(
    roll: &Roll,
    id: PieceId,
    test: impl Fn(Option<Result<SingleMove, Stopped>>) -> bool,
) -> Tri {
    let dirs: Vec<Option<Dir>> = match roll.before.piece(id).dir {
        Some(d) => vec![Some(d)],
        None => vec![Some(Dir::Clockwise), Some(Dir::CounterClockwise)],
    };
    let results: Vec<bool> = dirs
        .into_iter()
        .map(|d| {
            let mut board = roll.before.clone();
            board.piece_mut(id).dir = d;
            test(single_move(&board, id, roll.value, roll.round))
        })
        .collect();
    if results.iter().all(|&r| r) {
        Tri::Yes
    } else if results.iter().all(|&r| !r) {
        Tri::No
    } else {
        Tri::Maybe
    }
}

/// Whether any piece passing `filter` can make a capturing single move.
fn capture_available(roll: &Roll, filter: impl Fn(PieceId) -> bool) -> Tri {
    let c = roll.colour;
    let mut any_maybe = false;
    for id in PieceId::all(c).into_iter().filter(|&id| filter(id)) {
        let board = &roll.before;
        match outcomes(roll, id, |r| {
            r.is_some_and(|m| m.is_ok_and(|m| captures_at(board, c, m.dest)))
        }) {
            Tri::Yes => return Tri::Yes,
            Tri::Maybe => any_maybe = true,
            Tri::No => {}
        }
    }
    if any_maybe {
        Tri::Maybe
    } else {
        Tri::No
    }
}

fn judge_red(roll: &Roll) -> Option<bool> {
    let c = Colour::Red;
    let enter = entry(&roll.before, c, roll.value);
    let x = c.start();
    // Whether entering onto an opponent captures is a reading, so such rolls are not judged.
    let entry_capture = enter.is_some() && !roll.before.opponents_at(c, x).is_empty();
    match capture_available(roll, |_| true) {
        Tri::Yes => Some(roll.captured),
        Tri::No if entry_capture => None,
        Tri::No if enter.is_some() && roll.before.count_at(c, x) == 0 => Some(roll.entered),
        _ => None,
    }
}

fn judge_green(roll: &Roll) -> Option<bool> {
    let c = Colour::Green;
    entry(&roll.before, c, roll.value)?;
    let board = &roll.before;
    let mut block = Tri::No;
    for id in PieceId::all(c) {
        let t = outcomes(roll, id, |r| {
            r.is_some_and(|m| {
                m.is_ok_and(|m| m.dest.square().is_some_and(|n| board.count_at(c, n) > 0))
            })
        });
        if t == Tri::Yes {
            block = Tri::Yes;
            break;
        }
        if t == Tri::Maybe {
            block = Tri::Maybe;
        }
    }
    match block {
        Tri::Yes => Some(roll.made_block),
        Tri::No => Some(roll.entered),
        Tri::Maybe => None,
    }
}

fn judge_yellow(roll: &Roll) -> Option<bool> {
    let c = Colour::Yellow;
    if entry(&roll.before, c, roll.value).is_some() {
        return Some(roll.entered);
    }
    let board = &roll.before;
    match capture_available(roll, |id| board.piece(id).captures == 0) {
        Tri::Yes => return Some(roll.captured),
        Tri::Maybe => return None,
        Tri::No => {}
    }
    let mut best: Option<u32> = None;
    for id in PieceId::all(c) {
        match outcomes(roll, id, |r| r.is_some_and(|m| m.is_ok())) {
            Tri::Maybe => return None,
            Tri::No => {}
            Tri::Yes => {
                board.piece(id).dir?;
                let d = board.distance_home(id);
                best = Some(best.map_or(d, |b| b.min(d)));
            }
        }
    }
    let best = best?;
    match roll.moved.as_slice() {
        [(id, _)] if roll.stopped.is_none() && !roll.block_move => {
            Some(board.distance_home(*id) == best)
        }
        _ => Some(false),
    }
}

/// Whether C source text has a function named `main` (the word, followed by `(`).
fn defines_main(text: &str) -> bool {
    text.match_indices("main").any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + 4..].trim_start().chars().next();
        !before.is_some_and(|c| c.is_alphanumeric() || c == '_') && after == Some('(')
    })
}

/// `structure`: three or more files (a types header, logic, main) and use of `struct`.
fn structure(sources: &[(String, String)]) -> ItemVerdict {
    let c_files: Vec<&(String, String)> =
        sources.iter().filter(|(n, _)| n.ends_with(".c")).collect();
    let headers: Vec<&(String, String)> =
        sources.iter().filter(|(n, _)| n.ends_with(".h")).collect();
    let has_main = defines_main;
    let checks = [
        (
            sources.len() >= 3,
            format!("{} source files (three or more expected)", sources.len()),
        ),
        (
            headers
                .iter()
                .any(|(_, t)| t.contains("struct") || t.contains("typedef")),
            "a header file holding the types".to_string(),
        ),
        (
            c_files.iter().any(|(_, t)| has_main(t)) && c_files.iter().any(|(_, t)| !has_main(t)),
            "main in its own file, apart from the game logic".to_string(),
        ),
        (
            sources.iter().any(|(_, t)| t.contains("struct")),
            "use of struct".to_string(),
        ),
    ];
    let met = checks.iter().filter(|(ok, _)| *ok).count();
    ItemVerdict {
        item: STRUCTURE,
        fraction: met as f64 / checks.len() as f64,
        notes: checks
            .iter()
            .map(|(ok, what)| format!("{}: {what}", if *ok { "found" } else { "missing" }))
            .collect(),
    }
}

fn capped(mut notes: Vec<String>) -> Vec<String> {
    if notes.len() > MAX_NOTES {
        let rest = notes.len() - MAX_NOTES;
        notes.truncate(MAX_NOTES);
        notes.push(format!("... and {rest} more"));
    }
    notes
}

/// The per-item judgement of one run (see `specs/ludo/README.md` for the scoring).
pub fn verdicts(run: &TraceRun) -> Vec<ItemVerdict> {
    let report = check(run.output);
    let expected = report.lines + report.missing.len();
    let readable = report.lines - report.unreadable.len();
    let messages = if expected == 0 {
        0.0
    } else {
        readable as f64 / expected as f64
    };
    let mut message_notes: Vec<String> = report
        .unreadable
        .iter()
        .map(|(n, text)| format!("line {n}: not a section-3 message form: \"{text}\""))
        .collect();
    message_notes.extend(report.missing.iter().map(|m| format!("missing: {m}")));

    // A run that never got to play earns nothing for rules it never had to follow.
    let rules = if report.rolls == 0 {
        0.0
    } else {
        (1.0 - report.violations.len() as f64 / VIOLATIONS_FOR_ZERO).max(0.0)
    };
    let mut rule_notes: Vec<String> = report.violations.iter().map(|v| v.to_string()).collect();
    rule_notes = capped(rule_notes);
    if report.rolls == 0 {
        rule_notes.push("no roll was printed, so the game was never played".into());
    }
    rule_notes.extend(report.readings.iter().map(|r| format!("reading: {r}")));

    let finishes = report.winner.is_some() && !run.timed_out;
    let finish_note = match (report.winner, run.timed_out) {
        (_, true) => "the run was stopped at the time limit".to_string(),
        (Some(c), false) => format!("{} wins with all four pieces home", c.name()),
        (None, false) => "no winner with all four pieces home was announced".to_string(),
    };

    let mut rates = Vec::new();
    let mut behaviour_notes = Vec::new();
    for c in Colour::SEATING {
        let a = report.behaviour[c.index()];
        if a.decisions == 0 {
            behaviour_notes.push(format!("{}: no decision its behaviour settles", c.name()));
            continue;
        }
        let rate = f64::from(a.agreed) / f64::from(a.decisions);
        rates.push(if rate >= BEHAVIOUR_FULL { 1.0 } else { rate });
        let first = a
            .first_disagreement
            .map(|line| format!(" (the first that does not: the roll on line {line})"))
            .unwrap_or_default();
        behaviour_notes.push(format!(
            "{}: {}/{} decisions agree with its behaviour{first}",
            c.name(),
            a.agreed,
            a.decisions
        ));
    }
    let behaviour = if rates.is_empty() {
        0.0
    } else {
        rates.iter().sum::<f64>() / rates.len() as f64
    };

    vec![
        ItemVerdict {
            item: MESSAGES,
            fraction: messages,
            notes: capped(message_notes),
        },
        ItemVerdict {
            item: RULES,
            fraction: rules,
            notes: rule_notes,
        },
        ItemVerdict {
            item: FINISHES,
            fraction: if finishes { 1.0 } else { 0.0 },
            notes: vec![finish_note],
        },
        ItemVerdict {
            item: BEHAVIOUR,
            fraction: behaviour,
            notes: behaviour_notes,
        },
    ]
    .into_iter()
    .chain(run.sources.map(structure))
    .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::ludo::sim::simulate;

    /// Problems the checker finds in the reference's own game for `seed`.
    fn problems(seed: u64) -> Vec<String> {
        let report = check(&simulate(seed).text());
        let mut found: Vec<String> = report.violations.iter().map(|v| v.to_string()).collect();
        found.extend(
            report
                .unreadable
                .iter()
                .map(|(n, t)| format!("line {n}: unreadable: {t}")),
        );
        found.extend(report.missing.iter().cloned());
        if report.winner.is_none() {
            found.push("no winner".into());
        }
        for c in Colour::SEATING {
            let a = report.behaviour[c.index()];
            if a.agreed != a.decisions {
                found.push(format!(
                    "{}: behaviour {}/{}",
                    c.name(),
                    a.agreed,
                    a.decisions
                ));
            }
        }
        found
    }

    fn game(seed: u64) -> Vec<String> {
        simulate(seed).text().lines().map(String::from).collect()
    }

    /// The replayed board after the first `n` lines.
    fn board_before(lines: &[String], n: usize) -> Board {
        replay(&lines[..n].join("\n")).board
    }

    /// The single violation an edited game must yield.
    fn only_violation(lines: &[String]) -> Violation {
        let report = check(&lines.join("\n"));
        assert!(report.unreadable.is_empty(), "{:?}", report.unreadable);
        assert_eq!(
            report.violations.len(),
            1,
            "expected exactly one violation, got:\n{}",
            report
                .violations
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join("\n")
        );
        report.violations[0].clone()
    }

    /// The first (game, line index, data) over seeds where `pick` finds its pattern.
    fn find<T>(pick: impl Fn(&[String], usize) -> Option<T>) -> (Vec<String>, usize, T) {
        for seed in 0..300 {
            let lines = game(seed);
            for i in 1..lines.len().saturating_sub(4) {
                if let Some(found) = pick(&lines, i) {
                    return (lines, i, found);
                }
            }
        }
        panic!("no reference game shows the pattern");
    }

    fn msg(line: &str) -> Option<Msg> {
        parse(line)
    }

    #[test]
    fn a_move_of_the_wrong_length_is_rule_1() {
        let (mut lines, i, (colour, roll, dest)) = find(|lines, i| {
            let Some(Msg::Rolled(c, r)) = msg(&lines[i]) else {
                return None;
            };
            let Some(Msg::Move {
                colour,
                id,
                from: Loc::Square(f),
                to: Loc::Square(t),
                units,
                dir,
            }) = msg(&lines[i + 1])
            else {
                return None;
            };
            let Some(Msg::Rolled(next, _)) = msg(&lines[i + 2]) else {
                return None;
            };
            if colour != c || next == c || r > 4 || units != r {
                return None;
            }
            let board = board_before(lines, i);
            if board.piece(id).aura.is_some() || board.count_at(c, f) != 1 {
                return None;
            }
            match board.walk(id, dir, r + 1, EnterPolicy::Strict, 1, true) {
                Walk::Reached {
                    dest: Loc::Square(d),
                    ..
                } if d != t => Some((c, r, d)),
                _ => None,
            }
        });
        lines[i] = format!("{} player rolled {}.", colour.name(), roll + 1);
        let v = only_violation(&lines);
        assert_eq!((v.line, v.rule), (i + 2, "Rule 1"));
        assert!(v.why.ends_with(&format!(" is {dest}")), "{v}");
    }

    #[test]
    fn a_capture_of_an_empty_square_is_rule_6() {
        let (mut lines, i, inserted) = find(|lines, i| {
            let Some(Msg::Move {
                id,
                to: Loc::Square(t),
                ..
            }) = msg(&lines[i])
            else {
                return None;
            };
            let Some(Msg::Rolled(next, _)) = msg(&lines[i + 1]) else {
                return None;
            };
            let board = board_before(lines, i + 1);
            if next == id.colour
                || board.piece(id).captures == 0
                || board.piece(id).loc != Loc::Square(t)
            {
                return None;
            }
            let victim = Colour::SEATING
                .into_iter()
                .filter(|&c| c != id.colour)
                .flat_map(PieceId::all)
                .find(|&v| board.piece(v).loc == Loc::Base)?;
            Some(format!(
                "{} piece {id} lands on square {t}, captures {} piece {victim}, and returns it to the base.",
                id.colour.name(),
                victim.colour.name()
            ))
        });
        lines.insert(i + 1, inserted);
        let v = only_violation(&lines);
        assert_eq!((v.line, v.rule), (i + 2, "Rule 6"));
        assert!(v.why.contains("holds no"), "{v}");
    }

    #[test]
    fn a_wrong_count_line_is_reported() {
        let (mut lines, i, (c, on_board, in_base)) = find(|lines, i| match msg(&lines[i]) {
            Some(Msg::Count(c, a, b)) => Some((c, a, b)),
            _ => None,
        });
        let wrong = if in_base < 4 {
            in_base + 1
        } else {
            in_base - 1
        };
        lines[i] = format!(
            "{} player now has {on_board}/4 on pieces on the board and {wrong}/4 pieces on the base.",
            c.name()
        );
        let v = only_violation(&lines);
        assert_eq!((v.line, v.rule), (i + 1, "count line"));
    }

    #[test]
    fn leaving_base_without_a_six_is_rule_2() {
        // An entry that captures on X earns a bonus roll, so only the exit itself is wrong.
        let (mut lines, i, colour) = find(|lines, i| {
            let Some(Msg::Rolled(c, 6)) = msg(&lines[i]) else {
                return None;
            };
            let Some(Msg::Enter(e, id)) = msg(&lines[i + 1]) else {
                return None;
            };
            let Some(Msg::Count(..)) = msg(&lines[i + 2]) else {
                return None;
            };
            let Some(Msg::Capture { id: capturer, .. }) = msg(&lines[i + 3]) else {
                return None;
            };
            (e == c && capturer == id).then_some(c)
        });
        lines[i] = format!("{} player rolled 5.", colour.name());
        let v = only_violation(&lines);
        assert_eq!((v.line, v.rule), (i + 2, "Rule 2"));
    }

    #[test]
    fn a_turn_out_of_order_is_reported() {
        let (mut lines, i, ()) = find(|lines, i| {
            let Some(Msg::Rolled(c, r)) = msg(&lines[i]) else {
                return None;
            };
            let Some(Msg::Rolled(next, _)) = msg(&lines[i + 1]) else {
                return None;
            };
            let previous = matches!(msg(&lines[i - 1]), Some(Msg::Rolled(p, _)) if p != c);
            (previous && r != 6 && next != c).then_some(())
        });
        lines.remove(i);
        let v = only_violation(&lines);
        assert_eq!((v.line, v.rule), (i + 1, "turn order"));
    }

    #[test]
    fn a_winner_with_a_piece_still_out_is_rule_11() {
        let mut lines = game(3);
        let Some(Msg::Wins(winner)) = lines.last().and_then(|l| msg(l)) else {
            panic!("the reference game ends with a winner");
        };
        let last_home = lines
            .iter()
            .rposition(|l| matches!(msg(l), Some(Msg::Move { colour, to: Loc::Home, .. }) if colour == winner))
            .expect("the winner's last piece moves home");
        lines.truncate(last_home);
        lines.push(format!("{} player wins!!!", winner.name()));
        let v = only_violation(&lines);
        assert_eq!((v.line, v.rule), (lines.len(), "Rule 11"));
    }

    /// A short hand-written game: Red's R1 reaches its Approach by a teleport, then moves 3.
    fn approach_game(last_move: &str) -> Vec<String> {
        let text = "The red player has four (04) pieces named R1, R2, R3, and R4.
The green player has four (04) pieces named G1, G2, G3, and G4.
The yellow player has four (04) pieces named Y1, Y2, Y3, and Y4.
The blue player has four (04) pieces named B1, B2, B3, and B4.
Red rolls 6
Green rolls 2
Yellow rolls 3
Blue rolls 1
Red player has the highest roll and will begin the game.
The order of a single round is Red, Green, Yellow, and Blue.
Red player rolled 6.
Red player moves piece R1 to the starting point.
Red player now has 1/4 on pieces on the board and 3/4 pieces on the base.
Red player rolled 2.
Red moves piece R1 from location 26 to 28 by 2 units in clockwise direction.
Green player rolled 1.
Yellow player rolled 1.
Blue player rolled 1.
A mystery cell has spawned in location 30 and will be at this location for the next four rounds.
Red player rolled 2.
Red moves piece R1 from location 28 to 30 by 2 units in clockwise direction.
Red player lands on a mystery cell and is teleported to Approach.
Red piece R1 teleported to Approach.
Green player rolled 1.
Yellow player rolled 1.
Blue player rolled 1.
Red player rolled 3.";
        let mut lines: Vec<String> = text.lines().map(String::from).collect();
        lines.push(last_move.to_string());
        lines
    }

    #[test]
    fn a_home_straight_entry_without_a_capture_is_cs7() {
        let control = approach_game(
            "Red moves piece R1 from location 24 to 27 by 3 units in clockwise direction.",
        );
        assert_eq!(check(&control.join("\n")).violations, vec![]);
        let lines = approach_game("Red moves piece R1 from location 24 to redhomepath2 by 3 units in clockwise direction.");
        let v = only_violation(&lines);
        assert_eq!((v.line, v.rule), (lines.len(), "CS-7"));
    }

    #[test]
    fn spacing_case_and_spellings_are_tolerated() {
        let text = simulate(11)
            .text()
            .replace("counter-clockwise", "coun-terclockwise")
            .replace(" by ", "  by ")
            .to_uppercase();
        let report = check(&text);
        assert!(
            report.unreadable.is_empty(),
            "{:?}",
            &report.unreadable[..report.unreadable.len().min(3)]
        );
        assert_eq!(report.violations, vec![]);
        assert!(report.winner.is_some());
    }

    /// Many programs print the capture message instead of the move, or before it.
    #[test]
    fn a_capture_line_may_stand_for_its_move() {
        for seed in 0..20 {
            let lines = game(seed);
            let mut without_move = Vec::new();
            let mut move_after = Vec::new();
            let mut held: Option<String> = None;
            for (i, line) in lines.iter().enumerate() {
                let capture = matches!(msg(line), Some(Msg::Capture { .. }));
                let capturing_move = match (msg(line), lines.get(i + 1).and_then(|l| msg(l))) {
                    (Some(Msg::Move { id, .. }), Some(Msg::Capture { id: capturer, .. })) => {
                        id == capturer
                    }
                    _ => false,
                };
                if capturing_move {
                    held = Some(line.clone());
                    continue;
                }
                without_move.push(line.clone());
                let count = matches!(msg(line), Some(Msg::Count(..)));
                let next_is_capture_block = lines
                    .get(i + 1)
                    .and_then(|l| msg(l))
                    .is_some_and(|m| matches!(m, Msg::Capture { .. } | Msg::Count(..)));
                move_after.push(line.clone());
                if (capture || count) && !next_is_capture_block {
                    move_after.extend(held.take());
                }
            }
            assert_ne!(without_move, lines, "seed {seed} has a capture");
            for variant in [without_move, move_after] {
                let report = check(&variant.join("\n"));
                assert!(report.unreadable.is_empty());
                assert_eq!(report.violations, vec![], "seed {seed}");
                assert!(report
                    .readings
                    .contains("a capture line may stand for the capturing move"));
            }
        }
    }

    #[test]
    fn structure_wants_three_files_a_types_header_a_separate_main_and_structs() {
        let three = [
            (
                "types.h".to_string(),
                "struct piece { int at; };".to_string(),
            ),
            (
                "logic.c".to_string(),
                "int domain(void) { return 0; }".to_string(),
            ),
            (
                "main.c".to_string(),
                "int main (void) { return 0; }".to_string(),
            ),
        ];
        assert_eq!(structure(&three).fraction, 1.0);
        let one = [(
            "main.c".to_string(),
            "struct p { int a; };\nint main(void) {}".to_string(),
        )];
        assert_eq!(structure(&one).fraction, 0.25);
    }

    #[test]
    fn an_empty_run_earns_nothing_but_structure() {
        let sources = [(
            "main.c".to_string(),
            "int main(void) { return 0; }".to_string(),
        )];
        let run = TraceRun {
            output: "",
            timed_out: false,
            sources: Some(&sources),
        };
        for verdict in verdicts(&run) {
            if verdict.item != STRUCTURE {
                assert_eq!(verdict.fraction, 0.0, "{}", verdict.item);
            }
        }
    }

    #[test]
    fn a_timed_out_run_loses_finishes_only() {
        let text = simulate(4).text();
        let run = TraceRun {
            output: &text,
            timed_out: true,
            sources: Some(&[]),
        };
        let shares: Vec<(&str, f64)> = verdicts(&run)
            .iter()
            .map(|v| (v.item, v.fraction))
            .collect();
        assert_eq!(
            shares,
            vec![
                (MESSAGES, 1.0),
                (RULES, 1.0),
                (FINISHES, 0.0),
                (BEHAVIOUR, 1.0),
                (STRUCTURE, 0.0)
            ]
        );
    }

    #[test]
    fn a_misspelled_roll_or_move_costs_messages_but_is_still_replayed() {
        let text = simulate(8)
            .text()
            .replace(" player rolled ", " rolled ")
            .replace(" from location ", " from ");
        let report = check(&text);
        assert!(report.unreadable.len() > 100);
        assert_eq!(report.violations, vec![]);
        assert!(report.winner.is_some());
    }

    #[test]
    fn an_unreadable_line_is_reported_and_skipped() {
        let mut lines = game(5);
        lines.insert(20, "Red player does a little dance.".into());
        let report = check(&lines.join("\n"));
        assert_eq!(
            report.unreadable,
            vec![(21, "Red player does a little dance.".to_string())]
        );
        assert_eq!(report.violations, vec![]);
        assert!(report.winner.is_some());
    }

    #[test]
    fn the_checker_accepts_1000_reference_games() {
        use rayon::prelude::*;
        let failures: Vec<String> = (0..1000u64)
            .into_par_iter()
            .filter_map(|seed| {
                let found = problems(seed);
                (!found.is_empty())
                    .then(|| format!("seed {seed}: {}", found[..found.len().min(3)].join(" | ")))
            })
            .collect();
        assert!(
            failures.is_empty(),
            "{} failing seeds:\n{}",
            failures.len(),
            failures[..failures.len().min(15)].join("\n")
        );
    }
}
