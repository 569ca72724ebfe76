//! Backgammon move checking (ENEE150 project 1): the board, the seven required functions
//! and the two-player game loop. Rules: the course's rulings (`specs/backgammon/README.md`); decisions where it
//! is silent: `specs/backgammon/README.md`.

pub mod board;
pub mod play;

use std::collections::BTreeMap;

use serde::Deserialize;

use self::board::{check_board_bounds, check_die, Board, Colour, NUM_PIECES};
use self::play::{Move, Policy, Scripted, Stats, Style};
use super::{Game, Prepared, Transcript};
use crate::error::Error;
use crate::games::CaseSpec;
use crate::rng::glibc::GlibcRandom;

pub const PRINT_BOARD: &str = "print_board";
pub const CHECK_BOARD_BOUNDS: &str = "check_board_bounds";
pub const CHECK_DIE: &str = "check_die";
pub const CHECK_BASIC_MOVE: &str = "check_basic_move";
pub const CHECK_ENTRY_MOVE: &str = "check_entry_move";
pub const CHECK_BEAR_OFF_MOVE: &str = "check_bear_off_move";
pub const CHECK_MOVE: &str = "check_move";
/// Everything a whole run prints after the first board: dice, prompts, verdicts, boards.
pub const GAME: &str = "game";

/// A whole run of the student's program.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProgramCase {
    /// `srandom` seed applied before `main`; absent means glibc's unseeded state.
    dice_seed: Option<u32>,
    /// The moves typed, in order; the last must be `0 0`.
    moves: Option<Vec<String>>,
    /// Or a policy that chooses the moves: `random`, `runner` or `hitter`.
    policy: Option<String>,
    #[serde(default)]
    policy_seed: u32,
    /// Type an invalid move first at every n-th prompt (0: never).
    #[serde(default)]
    invalid_every: usize,
    /// Type `0 0` at the first prompt after this many turns.
    #[serde(default = "default_turns")]
    turns: usize,
}

const MAX_TURNS: usize = 300;

fn default_turns() -> usize {
    100
}

/// The expanded game: stdin, transcript, and what it reached.
pub struct Expanded {
    /// The `srandom` seed the grader must apply before `main`.
    pub dice_seed: Option<u32>,
    pub stdin: String,
    pub transcript: Transcript,
    pub stats: Stats,
    pub invalid_kinds: Vec<&'static str>,
}

fn parse_move(case: &CaseSpec, text: &str) -> Result<Move, Error> {
    let numbers: Vec<i32> = text
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .map_err(|_| case.error(format!("move '{text}' is not two integers")))?;
    match numbers[..] {
        [from, to] => Ok((from, to)),
        _ => Err(case.error(format!("move '{text}' is not two integers"))),
    }
}

/// Plays a program case with the reference.
pub fn expand_program(case: &CaseSpec) -> Result<Expanded, Error> {
    let input: ProgramCase = case.parse()?;
    let dice = input
        .dice_seed
        .map_or_else(GlibcRandom::unseeded, GlibcRandom::seeded);
    match (&input.moves, &input.policy) {
        (Some(moves), None) => {
            if input.invalid_every != 0 || input.policy_seed != 0 {
                return Err(case.error("invalid_every and policy_seed go with a policy"));
            }
            let moves: Vec<Move> = moves
                .iter()
                .map(|m| parse_move(case, m))
                .collect::<Result<_, _>>()?;
            if moves.iter().position(|&m| m == (0, 0)) != Some(moves.len().wrapping_sub(1)) {
                return Err(case.error("the moves must end with '0 0', and only there"));
            }
            let expected_len = moves.len();
            let mut player = Scripted::new(moves);
            let (stdin, transcript, stats) = play::play(dice, &mut player);
            if stdin.lines().count() != expected_len {
                return Err(case.error("the game ended before every move was typed"));
            }
            Ok(Expanded {
                dice_seed: input.dice_seed,
                stdin,
                transcript,
                stats,
                invalid_kinds: Vec::new(),
            })
        }
        (None, Some(policy)) => {
            // About 1 KiB of output per turn: keep a game well inside the output limit.
            if !(1..=MAX_TURNS).contains(&input.turns) {
                return Err(case.error(format!("turns must be 1..{MAX_TURNS}")));
            }
            let style = match policy.as_str() {
                "random" => Style::Random,
                "runner" => Style::Runner,
                "hitter" => Style::Hitter,
                other => {
                    return Err(case.error(format!(
                        "unknown policy '{other}' (random, runner or hitter)"
                    )))
                }
            };
            let mut player =
                Policy::new(style, input.policy_seed, input.invalid_every, input.turns);
            let (stdin, transcript, stats) = play::play(dice, &mut player);
            Ok(Expanded {
                dice_seed: input.dice_seed,
                stdin,
                transcript,
                stats,
                invalid_kinds: player.invalid_kinds,
            })
        }
        _ => Err(case.error("give either 'moves' or 'policy'")),
    }
}

/// One call of a required function through `specs/backgammon/harness.c`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct UnitCase {
    function: String,
    mover: Option<String>,
    from: Option<i32>,
    to: Option<i32>,
    die: Option<i32>,
    index: Option<i32>,
    /// Checkers per point (`{ 24 = 2, 6 = 5 }`); absent means that colour's start position.
    white: Option<BTreeMap<String, u8>>,
    red: Option<BTreeMap<String, u8>>,
    #[serde(default)]
    bar_white: u8,
    #[serde(default)]
    bar_red: u8,
}

/// The four move arguments every check function but the bounds check takes.
struct Call {
    mover: Colour,
    from: i32,
    to: i32,
    die: i32,
}

fn points_from(
    case: &CaseSpec,
    colour: &str,
    given: &Option<BTreeMap<String, u8>>,
    start: &[u8; 25],
) -> Result<[u8; 25], Error> {
    let Some(given) = given else {
        return Ok(*start);
    };
    let mut points = [0u8; 25];
    for (key, &count) in given {
        let point = key
            .parse::<usize>()
            .ok()
            .filter(|&p| (1..=24).contains(&p))
            .ok_or_else(|| case.error(format!("{colour}: '{key}' is not a point 1..24")))?;
        points[point] = count;
    }
    Ok(points)
}

/// The case's board; `num_white`/`num_red` count the checkers on the points and the bar, so
/// a function may rely on them.
fn board_from(case: &CaseSpec, unit: &UnitCase) -> Result<Board, Error> {
    let start = Board::start();
    let mut board = Board::empty();
    board.white = points_from(case, "white", &unit.white, &start.white)?;
    board.red = points_from(case, "red", &unit.red, &start.red)?;
    board.bar_white = unit.bar_white;
    board.bar_red = unit.bar_red;
    if let Some(point) = (1..=24).find(|&p| board.white[p] > 0 && board.red[p] > 0) {
        return Err(case.error(format!("point {point} holds both colours")));
    }
    let total = |points: &[u8; 25], bar: u8| {
        points.iter().map(|&c| u32::from(c)).sum::<u32>() + u32::from(bar)
    };
    let (white, red) = (
        total(&board.white, board.bar_white),
        total(&board.red, board.bar_red),
    );
    if white > u32::from(NUM_PIECES) || red > u32::from(NUM_PIECES) {
        return Err(case.error("a colour has more than 15 checkers"));
    }
    board.num_white = white as u8;
    board.num_red = red as u8;
    Ok(board)
}

fn call_from(case: &CaseSpec, unit: &UnitCase) -> Result<Call, Error> {
    let (Some(mover), Some(from), Some(to), Some(die)) =
        (&unit.mover, unit.from, unit.to, unit.die)
    else {
        return Err(case.error(format!("{} needs mover, from, to and die", unit.function)));
    };
    let mover = match mover.as_str() {
        "white" => Colour::White,
        "red" => Colour::Red,
        other => return Err(case.error(format!("mover '{other}' is not white or red"))),
    };
    if !(1..=6).contains(&die) {
        return Err(case.error(format!("die {die} is not 1..6")));
    }
    if unit.index.is_some() {
        return Err(case.error("index goes with check_board_bounds only"));
    }
    Ok(Call {
        mover,
        from,
        to,
        die,
    })
}

fn verdict(valid: bool) -> &'static str {
    if valid {
        "VALID_MOVE"
    } else {
        "INVALID_MOVE"
    }
}

/// The board as the harness reads it: white's 25 counts, red's, then the four scalars.
fn board_script(board: &Board) -> String {
    let join = |points: &[u8; 25]| {
        points
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    format!(
        "{}\n{}\n{} {} {} {}\n",
        join(&board.white),
        join(&board.red),
        board.bar_white,
        board.bar_red,
        board.num_white,
        board.num_red
    )
}

fn run_unit(case: &CaseSpec) -> Result<Prepared, Error> {
    let unit: UnitCase = case.parse()?;
    let board = board_from(case, &unit)?;
    let mut out = Transcript::new();
    let call_line = match unit.function.as_str() {
        PRINT_BOARD => {
            if unit.mover.is_some()
                || unit.from.is_some()
                || unit.to.is_some()
                || unit.die.is_some()
                || unit.index.is_some()
            {
                return Err(case.error("print_board takes no arguments"));
            }
            out.println(PRINT_BOARD, "print_board()");
            out.print(PRINT_BOARD, &board.render());
            "print_board".to_string()
        }
        CHECK_BOARD_BOUNDS => {
            let Some(index) = unit.index else {
                return Err(case.error("check_board_bounds needs index"));
            };
            if unit.mover.is_some()
                || unit.from.is_some()
                || unit.to.is_some()
                || unit.die.is_some()
            {
                return Err(case.error("check_board_bounds takes only index"));
            }
            out.println(
                CHECK_BOARD_BOUNDS,
                &format!(
                    "check_board_bounds({index}) = {}",
                    verdict(check_board_bounds(index))
                ),
            );
            format!("check_board_bounds {index}")
        }
        name => {
            let call = call_from(case, &unit)?;
            let Call {
                mover,
                from,
                to,
                die,
            } = call;
            let (item, valid) = match name {
                CHECK_DIE => {
                    if !check_board_bounds(from) || !check_board_bounds(to) {
                        return Err(case.error("check_die is only tested on points 1..24"));
                    }
                    (CHECK_DIE, check_die(mover, from, to, die))
                }
                CHECK_BASIC_MOVE => {
                    if board.bar(mover) > 0 {
                        return Err(
                            case.error("check_basic_move is tested with the mover's bar empty")
                        );
                    }
                    (
                        CHECK_BASIC_MOVE,
                        board.check_basic_move(mover, from, to, die),
                    )
                }
                CHECK_ENTRY_MOVE => (
                    CHECK_ENTRY_MOVE,
                    board.check_entry_move(mover, from, to, die),
                ),
                CHECK_BEAR_OFF_MOVE => {
                    let valid = board.check_bear_off_move(mover, from, to, die);
                    let mut without_bar = board.clone();
                    match mover {
                        Colour::White => without_bar.bar_white = 0,
                        Colour::Red => without_bar.bar_red = 0,
                    }
                    if without_bar.check_bear_off_move(mover, from, to, die) != valid {
                        return Err(case.error(
                            "check_bear_off_move is tested with the mover's bar empty unless the move is invalid either way",
                        ));
                    }
                    (CHECK_BEAR_OFF_MOVE, valid)
                }
                CHECK_MOVE => (CHECK_MOVE, board.check_move(mover, from, to, die)),
                other => {
                    return Err(
                        case.error(format!("'{other}' is not one of the required functions"))
                    )
                }
            };
            out.println(
                item,
                &format!(
                    "{name}({}, {from}, {to}, {die}) = {}",
                    mover.constant(),
                    verdict(valid)
                ),
            );
            format!("{name} {} {from} {to} {die}", mover.constant())
        }
    };
    // Only the return value (or print_board's text) is graded: the harness reports a change
    // to the globals on stderr as a fact, since the handout does not forbid one.
    let script = format!("{call_line}\n{}", board_script(&board));
    Ok(Prepared::unit(script, out))
}

pub struct Backgammon;

impl Game for Backgammon {
    fn id(&self) -> &'static str {
        "backgammon"
    }

    fn prepare_program(&self, case: &CaseSpec) -> Result<Prepared, Error> {
        let game = expand_program(case)?;
        let mut prepared = Prepared::program(game.stdin, game.transcript);
        prepared.srandom_seed = game.dice_seed;
        Ok(prepared)
    }

    fn prepare_unit(&self, case: &CaseSpec) -> Result<Prepared, Error> {
        run_unit(case)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignment::cases::load_dir;
    use crate::games::{CaseKind, Expectation};
    use std::collections::BTreeSet;

    fn cases() -> Vec<CaseSpec> {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("cases/backgammon");
        load_dir(&dir).expect("the backgammon cases load")
    }

    fn transcript(prepared: Prepared) -> Transcript {
        match prepared.expect {
            Expectation::Transcript(t) => t,
            Expectation::Trace { .. } => panic!("backgammon has no trace cases"),
        }
    }

    fn program_case(fields: &str) -> CaseSpec {
        CaseSpec {
            name: "t".into(),
            kind: CaseKind::Program,
            description: None,
            file: "test.toml".into(),
            fields: toml::from_str(fields).expect("test fields parse"),
        }
    }

    #[test]
    fn every_case_prepares_and_the_counts_meet_the_issue() {
        let all = cases();
        let mut units = 0;
        let mut programs = 0;
        for case in &all {
            let prepared = Backgammon.prepare(case).unwrap_or_else(|e| panic!("{e}"));
            match case.kind {
                CaseKind::Unit => units += 1,
                CaseKind::Program => {
                    programs += 1;
                    assert!(
                        prepared.stdin.ends_with("0 0\n"),
                        "{} must end with 0 0",
                        case.name
                    );
                }
                CaseKind::Trace => unreachable!(),
            }
        }
        assert!(units >= 150, "{units} unit cases");
        assert!(programs >= 15, "{programs} games");
    }

    /// Each check function is tested with both answers, and each item has cases.
    #[test]
    fn unit_cases_expect_both_verdicts_for_every_check() {
        let mut seen: BTreeSet<(&'static str, bool)> = BTreeSet::new();
        for case in cases().iter().filter(|c| c.kind == CaseKind::Unit) {
            let t = transcript(Backgammon.prepare(case).expect("case prepares"));
            let first = &t.lines()[0];
            if first.item != PRINT_BOARD {
                seen.insert((first.item, first.text.ends_with("= VALID_MOVE")));
            }
            assert!(t.lines().iter().all(|l| l.item == first.item));
        }
        for item in [
            CHECK_BOARD_BOUNDS,
            CHECK_DIE,
            CHECK_BASIC_MOVE,
            CHECK_ENTRY_MOVE,
            CHECK_BEAR_OFF_MOVE,
            CHECK_MOVE,
        ] {
            assert!(seen.contains(&(item, true)), "{item} never VALID");
            assert!(seen.contains(&(item, false)), "{item} never INVALID");
        }
    }

    /// Together the games hit, enter, bear off, use D2 first, and type every kind of
    /// invalid move the policy knows.
    #[test]
    fn the_games_reach_every_rule() {
        let mut total = Stats::default();
        let mut kinds = BTreeSet::new();
        for case in cases().iter().filter(|c| c.kind == CaseKind::Program) {
            let game = expand_program(case).expect("game expands");
            total.hits += game.stats.hits;
            total.entries += game.stats.entries;
            total.bear_offs += game.stats.bear_offs;
            total.second_die_first += game.stats.second_die_first;
            total.invalid_moves += game.stats.invalid_moves;
            kinds.extend(game.invalid_kinds);
        }
        assert!(
            total.hits >= 20 && total.entries >= 20 && total.bear_offs >= 20,
            "{total:?}"
        );
        assert!(
            total.second_die_first >= 20 && total.invalid_moves >= 100,
            "{total:?}"
        );
        let expected: BTreeSet<&str> = [
            "basic-move-while-on-bar",
            "bear-off-not-all-home",
            "bear-off-too-far",
            "blocked-point",
            "die-already-used",
            "entry-from-25",
            "entry-with-empty-bar",
            "entry-wrong-point",
            "no-own-checker",
            "past-the-edge",
            "wrong-direction",
            "wrong-distance",
        ]
        .into_iter()
        .collect();
        assert_eq!(kinds, expected);
    }

    #[test]
    fn a_scripted_game_hits_enters_and_tags_its_lines() {
        let case =
            program_case(r#"moves = ["6 4", "8 3", "1 3", "1 5", "13 7", "0 23", "13 7", "0 0"]"#);
        let game = expand_program(&case).expect("game expands");
        assert_eq!(game.stdin, "6 4\n8 3\n1 3\n1 5\n13 7\n0 23\n13 7\n0 0\n");
        let t = game.transcript;
        let lines = t.lines();
        assert!(lines[..14].iter().all(|l| l.item == PRINT_BOARD));
        assert!(lines[14..].iter().all(|l| l.item == GAME));
        assert_eq!(lines[14].text, "Rolling dice:  2 5");
        assert!(lines[15].text.starts_with("White's move:  13 14 15"));
        let text = t.text();
        // Red's 2 hits the blot on 3; white then enters with the 2 of its 6 2.
        assert!(text.contains("Rolling dice:  4 2\n"));
        assert!(text.contains("  Bar:  White-1  Red-0\n"));
        assert!(
            text.contains("Rolling dice:  6 2\nWhite's move:  Invalid move\nWhite's move:  13 14")
        );
        assert!(text.ends_with("Rolling dice:  5 1\nRed's move:  "));
        assert!(!lines.last().expect("lines").newline);
        assert_eq!(game.stats.hits, 1);
        assert_eq!(game.stats.entries, 1);
    }

    #[test]
    fn end_of_input_ends_the_game_like_0_0() {
        let case = program_case(
            r#"policy = "runner"
turns = 1"#,
        );
        let game = expand_program(&case).expect("game expands");
        // Turn 1 is played, then 0 0 at the first prompt of turn 2.
        assert_eq!(game.stdin.lines().count(), 3);
        let mut player = Scripted::new(vec![(24, 22)]);
        let (stdin, t, _) = play::play(GlibcRandom::unseeded(), &mut player);
        assert_eq!(stdin, "24 22\n");
        assert!(t.text().ends_with("White's move:  "));
    }

    #[test]
    fn a_seed_reaches_the_grader_and_the_dice() {
        let case = program_case("dice_seed = 42\nmoves = [\"0 0\"]");
        let prepared = Backgammon.prepare(&case).expect("case prepares");
        assert_eq!(prepared.srandom_seed, Some(42));
        let mut dice = GlibcRandom::seeded(42);
        let (d1, d2) = (dice.roll_die(), dice.roll_die());
        let t = transcript(prepared);
        assert_eq!(t.lines()[14].text, format!("Rolling dice:  {d1} {d2}"));
    }

    #[test]
    fn bad_cases_are_refused_with_the_case_named() {
        let unit = |fields: &str| CaseSpec {
            name: "bad".into(),
            kind: CaseKind::Unit,
            description: None,
            file: "test.toml".into(),
            fields: toml::from_str(fields).expect("test fields parse"),
        };
        for fields in [
            r#"function = "check_basic_move"
mover = "white"
from = 13
to = 8
die = 5
bar_white = 1"#,
            r#"function = "check_move"
mover = "blue"
from = 13
to = 8
die = 5"#,
            r#"function = "check_move"
mover = "white"
from = 13
to = 8
die = 7"#,
            r#"function = "print_board"
white = { 5 = 1 }
red = { 5 = 1 }"#,
            r#"function = "print_board"
white = { 25 = 1 }"#,
            r#"function = "check_board_bounds""#,
            r#"function = "check_bear_off_move"
mover = "white"
from = 3
to = 0
die = 3
white = { 3 = 2 }
bar_white = 1"#,
        ] {
            let err = Backgammon.prepare(&unit(fields)).expect_err(fields);
            assert!(err.to_string().contains("case 'bad'"), "{err}");
        }
        for fields in [
            r#"moves = ["24 22"]"#,
            r#"moves = ["0 0", "24 22"]"#,
            r#"policy = "lazy""#,
            "policy = \"random\"\nturns = 0",
        ] {
            assert!(
                Backgammon.prepare(&program_case(fields)).is_err(),
                "{fields}"
            );
        }
    }

    #[test]
    fn the_harness_script_lists_the_call_and_the_six_globals() {
        let case = CaseSpec {
            name: "s".into(),
            kind: CaseKind::Unit,
            description: None,
            file: "test.toml".into(),
            fields: toml::from_str(
                "function = \"check_entry_move\"\nmover = \"red\"\nfrom = 0\nto = 3\ndie = 3\nwhite = { 6 = 1 }\nred = { 19 = 2 }\nbar_red = 1",
            )
            .expect("fields parse"),
        };
        let prepared = Backgammon.prepare(&case).expect("case prepares");
        let lines: Vec<&str> = prepared.stdin.lines().collect();
        assert_eq!(lines[0], "check_entry_move RED 0 3 3");
        assert_eq!(lines[1].split(' ').nth(6), Some("1"));
        assert_eq!(lines[2].split(' ').nth(19), Some("2"));
        assert_eq!(lines[3], "0 1 1 3");
        let t = transcript(prepared);
        assert_eq!(t.text(), "check_entry_move(RED, 0, 3, 3) = VALID_MOVE\n");
    }
}
