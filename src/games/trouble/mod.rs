//! Trouble (ECE 209 Program 1): the board, the move rules, the six required functions and
//! the template's turn loop. Rules: the course's rulings (`specs/trouble/README.md`).

pub mod board;
pub mod play;
mod reading;

use std::collections::BTreeMap;

use serde::Deserialize;

use super::{Game, Prepared, Transcript};
use crate::error::Error;
use crate::games::CaseSpec;
use board::{location_name, parse_location, Board, HOME, PIECES};
use play::{Choice, Ending, Policy, Scripted};

pub const COMPILES: &str = "compiles";
pub const INITIALIZE_BOARD: &str = "initializeBoard";
pub const PRINT_STATUS: &str = "printStatus";
pub const PRINT_MOVES: &str = "printMoves";
pub const MOVE_PIECE: &str = "movePiece";
pub const CHECK_WIN: &str = "checkWin";
pub const PLAYER_TURN: &str = "playerTurn";

/// A run of the template's `main`. Seed -1 is the `compiles` case; otherwise a game driven
/// by a literal list of answers (`inputs`, ending with `Q` unless the game is won) or by a
/// policy.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProgramCase {
    seed: i32,
    #[serde(default)]
    players: Option<i32>,
    /// Answers to the player prompt that `main` rejects, given before `players`.
    #[serde(default)]
    rejected_players: Vec<i32>,
    #[serde(default)]
    inputs: Option<Vec<String>>,
    #[serde(default)]
    policy: Option<Choice>,
    #[serde(default)]
    policy_seed: u64,
    #[serde(default)]
    invalid_every: u32,
    #[serde(default)]
    bad_tokens: bool,
    #[serde(default)]
    end: Option<Ending>,
    #[serde(default)]
    moves: Option<u32>,
}

fn run_program(case: &CaseSpec, input: &ProgramCase) -> Result<Prepared, Error> {
    if input.seed == -1 {
        let only_seed = input.players.is_none()
            && input.inputs.is_none()
            && input.policy.is_none()
            && input.rejected_players.is_empty();
        if !only_seed {
            return Err(case.error("seed -1 ends the program at once: give no other fields"));
        }
        let run = play::run_main(-1, &[], &mut Scripted::new(Vec::new()), COMPILES)
            .map_err(|e| case.error(e))?;
        let mut prepared = Prepared::program(run.stdin, run.out);
        // The template's start-up asserts would stop a stub initializeBoard (ruling).
        prepared.extra_flags = vec!["-DNDEBUG".into()];
        prepared.exit_code = Some(0);
        return Ok(prepared);
    }
    let players = input
        .players
        .filter(|p| (2..=4).contains(p))
        .ok_or_else(|| case.error("players must be 2, 3 or 4"))?;
    if let Some(bad) = input.rejected_players.iter().find(|p| (2..=4).contains(*p)) {
        return Err(case.error(format!("rejected_players holds {bad}, a valid count")));
    }
    if input.seed == 0 {
        return Err(case.error("seed 0 rolls only ones: nobody leaves home, the game never ends"));
    }
    let mut answers = input.rejected_players.clone();
    answers.push(players);

    let mut source: Box<dyn play::Input> = match (&input.inputs, input.policy) {
        (Some(tokens), None) => {
            let policy_fields = input.end.is_some()
                || input.moves.is_some()
                || input.invalid_every > 0
                || input.bad_tokens
                || input.policy_seed != 0;
            if policy_fields {
                return Err(case.error(
                    "inputs is a literal list: end, moves, invalid_every, bad_tokens \
                     and policy_seed do not apply",
                ));
            }
            Box::new(Scripted::new(tokens.clone()))
        }
        (None, Some(choice)) => {
            let ending = input.end.unwrap_or(Ending::Win);
            let moves = match (ending, input.moves) {
                (Ending::Win, None) => 0,
                (Ending::Win, Some(_)) => {
                    return Err(case.error("a game played to a win takes no moves limit"))
                }
                (_, Some(n)) => n,
                (_, None) => return Err(case.error("end = quit needs moves")),
            };
            Box::new(Policy::new(
                choice,
                input.policy_seed,
                input.invalid_every,
                input.bad_tokens,
                ending,
                moves,
            ))
        }
        _ => return Err(case.error("give exactly one of inputs and policy")),
    };
    let run = play::run_main(input.seed, &answers, source.as_mut(), PLAYER_TURN)
        .map_err(|e| case.error(e))?;
    let mut prepared = Prepared::program(run.stdin, run.out);
    prepared.exit_code = Some(0);
    Ok(prepared)
}

/// One call of a required function through `specs/trouble/harness.c`. `pieces` maps piece
/// ids to location strings; pieces not named are at home.
#[derive(Deserialize)]
#[serde(deny_unknown_fields, tag = "function")]
enum UnitCase {
    #[serde(rename = "initializeBoard")]
    InitializeBoard {
        #[serde(default)]
        pieces: BTreeMap<String, String>,
        /// Fill all four arrays with this value instead of a position.
        #[serde(default)]
        junk: Option<i32>,
    },
    #[serde(rename = "printStatus")]
    PrintStatus {
        #[serde(default)]
        pieces: BTreeMap<String, String>,
    },
    #[serde(rename = "printMoves")]
    PrintMoves {
        #[serde(default)]
        pieces: BTreeMap<String, String>,
        player: usize,
        roll: i32,
    },
    #[serde(rename = "movePiece")]
    MovePiece {
        #[serde(default)]
        pieces: BTreeMap<String, String>,
        player: usize,
        from: String,
        spaces: i32,
    },
    #[serde(rename = "checkWin")]
    CheckWin {
        #[serde(default)]
        pieces: BTreeMap<String, String>,
        player: usize,
    },
}

fn board_from(case: &CaseSpec, placed: &BTreeMap<String, String>) -> Result<Board, Error> {
    let mut pieces = [HOME; PIECES];
    for (id, name) in placed {
        let piece: usize = id
            .parse()
            .ok()
            .filter(|&p| p < PIECES)
            .ok_or_else(|| case.error(format!("piece '{id}' is not 0 to 15")))?;
        pieces[piece] = parse_location(name)
            .ok_or_else(|| case.error(format!("'{name}' is not a location string")))?;
    }
    Board::from_locations(pieces).map_err(|e| case.error(e))
}

fn check_player(case: &CaseSpec, player: usize) -> Result<(), Error> {
    if player < 4 {
        Ok(())
    } else {
        Err(case.error(format!("player {player} is not a colour 0 to 3")))
    }
}

/// The roll of a unit call; other values are not graded (ruling).
fn check_roll(case: &CaseSpec, roll: i32) -> Result<(), Error> {
    if (1..=6).contains(&roll) {
        Ok(())
    } else {
        Err(case.error(format!("roll {roll} is not 1 to 6")))
    }
}

fn join(values: &[i32]) -> String {
    values
        .iter()
        .map(i32::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

/// The four arrays, one labelled line each: the harness reads this form and, for
/// initializeBoard and movePiece, prints it back after the call.
fn arrays_text(pieces: &[i32], home: &[i32], ring: &[i32], finish: &[i32]) -> String {
    format!(
        "gPieces: {}\ngHome: {}\ngRing: {}\ngFinish: {}\n",
        join(pieces),
        join(home),
        join(ring),
        join(finish)
    )
}

fn board_arrays(board: &Board) -> String {
    let finish: Vec<i32> = board.finish().concat();
    arrays_text(board.pieces(), &board.home_counts(), &board.ring(), &finish)
}

/// One harness call: what the script sets up and what the harness must print back.
struct UnitCall {
    item: &'static str,
    /// The script's first line, echoed by the harness as `call <line>`.
    call: String,
    /// The four arrays before the call, in the script's form.
    before: String,
    /// What the function prints.
    printed: String,
    /// The return value; `None` for a void function.
    result: Option<i32>,
    after: Board,
}

impl UnitCall {
    /// A call on a position that the function must leave as it is.
    fn on(
        item: &'static str,
        call: String,
        board: Board,
        printed: String,
        result: Option<i32>,
    ) -> Self {
        UnitCall {
            item,
            call,
            before: board_arrays(&board),
            printed,
            result,
            after: board,
        }
    }
}

fn unit_call(case: &CaseSpec, unit: &UnitCase) -> Result<UnitCall, Error> {
    Ok(match unit {
        UnitCase::InitializeBoard { pieces, junk } => {
            let before = match (junk, pieces.is_empty()) {
                (Some(v), true) => arrays_text(&[*v; 16], &[*v; 4], &[*v; 28], &[*v; 16]),
                (Some(_), false) => return Err(case.error("give pieces or junk, not both")),
                (None, _) => board_arrays(&board_from(case, pieces)?),
            };
            UnitCall {
                item: INITIALIZE_BOARD,
                call: "initializeBoard".into(),
                before,
                printed: String::new(),
                result: None,
                after: Board::new(),
            }
        }
        UnitCase::PrintStatus { pieces } => {
            let board = board_from(case, pieces)?;
            let status = board.status();
            UnitCall::on(PRINT_STATUS, "printStatus".into(), board, status, None)
        }
        UnitCase::PrintMoves {
            pieces,
            player,
            roll,
        } => {
            check_player(case, *player)?;
            check_roll(case, *roll)?;
            let board = board_from(case, pieces)?;
            let moves = board.legal_moves(*player, *roll);
            let printed = moves
                .iter()
                .map(|&(from, to)| format!("{} to {}\n", location_name(from), location_name(to)))
                .collect();
            let count = moves.len() as i32;
            let call = format!("printMoves {player} {roll}");
            UnitCall::on(PRINT_MOVES, call, board, printed, Some(count))
        }
        UnitCase::MovePiece {
            pieces,
            player,
            from,
            spaces,
        } => {
            check_player(case, *player)?;
            check_roll(case, *spaces)?;
            let board = board_from(case, pieces)?;
            let from_location = parse_location(from)
                .ok_or_else(|| case.error(format!("from '{from}' is not a location string")))?;
            let mut after = board.clone();
            let moved = after.play(*player, from_location, *spaces);
            UnitCall {
                after,
                result: Some(i32::from(moved)),
                ..UnitCall::on(
                    MOVE_PIECE,
                    format!("movePiece {player} {from_location} {spaces}"),
                    board,
                    String::new(),
                    None,
                )
            }
        }
        UnitCase::CheckWin { pieces, player } => {
            check_player(case, *player)?;
            let board = board_from(case, pieces)?;
            let won = i32::from(board.has_won(*player));
            UnitCall::on(
                CHECK_WIN,
                format!("checkWin {player}"),
                board,
                String::new(),
                Some(won),
            )
        }
    })
}

fn run_unit(case: &CaseSpec, unit: &UnitCase) -> Result<Prepared, Error> {
    let call = unit_call(case, unit)?;
    let mut out = Transcript::new();
    out.println(call.item, &format!("call {}", call.call));
    out.print(call.item, &call.printed);
    match call.result {
        Some(value) => out.println(call.item, &format!("return {value}")),
        None => out.println(call.item, "return"),
    }
    // Only the two functions whose job is to change the arrays are graded on them; the
    // harness reports a change by the others as a fact.
    if matches!(call.item, INITIALIZE_BOARD | MOVE_PIECE) {
        out.print(call.item, &board_arrays(&call.after));
    }
    Ok(Prepared::unit(
        format!("{}\n{}", call.call, call.before),
        out,
    ))
}

pub struct Trouble;

impl Game for Trouble {
    fn id(&self) -> &'static str {
        "trouble"
    }

    fn as_reference(&self, expected: &Transcript, actual: &str) -> Option<String> {
        reading::as_reference(expected, actual)
    }

    fn prepare_program(&self, case: &CaseSpec) -> Result<Prepared, Error> {
        run_program(case, &case.parse()?)
    }

    fn prepare_unit(&self, case: &CaseSpec) -> Result<Prepared, Error> {
        run_unit(case, &case.parse()?)
    }
}

#[cfg(test)]
mod tests;
