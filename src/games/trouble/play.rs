//! A whole run of the template's `main`: seed prompt, player prompt, then `playerTurn` for
//! each player in turn, with the user's answers supplied by an [`Input`] source.

use super::board::{location_name, parse_location, Board, COLOUR_NAMES, HOME};
use crate::games::Transcript;
use crate::rng::xorshift::Xorshift;

pub const SEED_PROMPT: &str = "Enter a random seed: ";
pub const PLAYERS_PROMPT: &str = "Enter the number of players (2, 3, 4): ";
pub const MOVE_PROMPT: &str = "Enter position of piece to move: ";

/// Turns after which a game is treated as runaway (a case error, not a student problem).
const MAX_TURNS: usize = 3000;

/// What the program sees when it asks for a move: the board, the mover, the roll, and the
/// moves `printMoves` listed.
pub struct Prompt<'a> {
    pub board: &'a Board,
    pub colour: usize,
    pub roll: i32,
    pub moves: &'a [(i32, i32)],
}

/// Supplies the answers to the move prompt; `None` is end of input, which no case may reach:
/// the handout's only ways to end a game are `Q` and a win.
pub trait Input {
    fn answer(&mut self, prompt: &Prompt) -> Option<String>;
}

/// The stdin a run reads and the transcript it must print.
pub struct Run {
    pub stdin: String,
    pub out: Transcript,
}

/// Plays `main` with seed `seed`, the player-count answers `player_answers` (the last one
/// must be 2, 3 or 4) and moves from `input`. Every line is tagged `item`.
pub fn run_main(
    seed: i32,
    player_answers: &[i32],
    input: &mut dyn Input,
    item: &'static str,
) -> Result<Run, String> {
    let mut run = Run {
        stdin: String::new(),
        out: Transcript::new(),
    };
    run.out.print(item, SEED_PROMPT);
    run.stdin.push_str(&format!("{seed}\n"));
    if seed == -1 {
        return Ok(run);
    }
    let mut rng = Xorshift::new();
    rng.seed(seed);

    let mut players = None;
    for &answer in player_answers {
        if players.is_some() {
            return Err("answers follow a valid player count".into());
        }
        run.out.print(item, PLAYERS_PROMPT);
        run.stdin.push_str(&format!("{answer}\n"));
        if (2..=4).contains(&answer) {
            players = Some(answer as usize);
        }
    }
    let players = players.ok_or("the player answers never give 2, 3 or 4")?;

    let mut board = Board::new();
    let mut colour = 0;
    for turn in 1..=MAX_TURNS {
        let seat = Seat { colour, turn };
        if player_turn(&mut board, &mut rng, seat, input, &mut run, item)? {
            return Ok(run);
        }
        colour = if players == 2 {
            (colour + 2) % 4
        } else {
            (colour + 1) % players
        };
    }
    Err(format!("the game does not end within {MAX_TURNS} turns"))
}

/// Whose turn it is, and which turn of the game (from 1).
#[derive(Clone, Copy)]
struct Seat {
    colour: usize,
    turn: usize,
}

/// `playerTurn`: true when the game ends on this turn (a win or `Q`). Input that ends at a
/// move prompt is a case error: how a program reacts to it is not graded.
fn player_turn(
    board: &mut Board,
    rng: &mut Xorshift,
    seat: Seat,
    input: &mut dyn Input,
    run: &mut Run,
    item: &'static str,
) -> Result<bool, String> {
    let colour = seat.colour;
    let name = COLOUR_NAMES[colour];
    let turn = format!("turn {}, {name}", seat.turn);
    run.out.begin_turn(turn.clone(), board.status());
    run.out.println(item, &format!("---- {name}'s turn"));
    loop {
        // Rolled before the status is printed only to name the roll in the turn's label.
        let roll = i32::from(rng.roll());
        run.out
            .begin_turn(format!("{turn}, rolled {roll}"), board.status());
        run.out.print(item, &board.status());
        run.out.println(item, &format!("You rolled {roll}."));
        let moves = board.legal_moves(colour, roll);
        for &(from, to) in &moves {
            run.out.println(
                item,
                &format!("{} to {}", location_name(from), location_name(to)),
            );
        }
        if moves.is_empty() {
            run.out.println(item, "You have no legal moves.");
        } else {
            loop {
                run.out.print(item, MOVE_PROMPT);
                let prompt = Prompt {
                    board,
                    colour,
                    roll,
                    moves: &moves,
                };
                let Some(token) = input.answer(&prompt) else {
                    return Err("the input ends at a move prompt: end it with Q (end of input is not graded)".into());
                };
                run.stdin.push_str(&token);
                run.stdin.push('\n');
                if token == "Q" {
                    return Ok(true);
                }
                let played =
                    parse_location(&token).is_some_and(|from| board.play(colour, from, roll));
                if played {
                    break;
                }
                run.out.println(item, "Illegal move, try again.");
            }
            if board.has_won(colour) {
                return Ok(true);
            }
        }
        if roll != 6 {
            return Ok(false);
        }
        run.out
            .println(item, "You rolled 6, so you get to roll again.");
    }
}

/// Answers from a fixed list (which must end the game with `Q` or a win).
pub struct Scripted {
    tokens: std::vec::IntoIter<String>,
}

impl Scripted {
    pub fn new(tokens: Vec<String>) -> Self {
        Self {
            tokens: tokens.into_iter(),
        }
    }
}

impl Input for Scripted {
    fn answer(&mut self, _prompt: &Prompt) -> Option<String> {
        self.tokens.next()
    }
}

/// Which listed move a player picks.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Choice {
    First,
    Last,
    Random,
}

/// How a policy-driven game ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ending {
    /// Play until someone wins.
    Win,
    /// Answer `Q` after the given number of moves.
    Quit,
}

/// Tokens that are not location strings (kept short: students read into small buffers).
const BAD_TOKENS: [&str; 6] = ["R0", "B8", "RF5", "X3", "h", "GF"];

/// Picks moves by a rule, with illegal answers sprinkled in, ending as asked.
pub struct Policy {
    pub choice: Choice,
    /// Every `invalid_every`-th prompt first gets a refused answer (0: never).
    pub invalid_every: u32,
    pub bad_tokens: bool,
    pub ending: Ending,
    /// Moves played before a `Quit` ending.
    pub moves: u32,
    rng: SplitMix,
    played: u32,
    prompts: u32,
    owes_legal: bool,
}

impl Policy {
    pub fn new(
        choice: Choice,
        seed: u64,
        invalid_every: u32,
        bad_tokens: bool,
        ending: Ending,
        moves: u32,
    ) -> Self {
        Self {
            choice,
            invalid_every,
            bad_tokens,
            ending,
            moves,
            rng: SplitMix(seed),
            played: 0,
            prompts: 0,
            owes_legal: false,
        }
    }

    /// An answer the program must refuse: a location whose move is illegal, or (when asked
    /// for) a token that is no location at all.
    fn refused(&mut self, prompt: &Prompt) -> String {
        if self.bad_tokens && self.rng.below(3) == 0 {
            return BAD_TOKENS[self.rng.below(BAD_TOKENS.len())].to_string();
        }
        let mut candidates: Vec<i32> = vec![HOME];
        candidates.extend(0..28);
        candidates.extend((0..4).flat_map(|c| (0..4).map(move |k| 100 + 10 * c + k)));
        candidates.retain(|&from| {
            prompt
                .board
                .destination(prompt.colour, from, prompt.roll)
                .is_none()
        });
        // Prefer near misses: the mover's own pieces and occupied cells.
        let near: Vec<i32> = candidates
            .iter()
            .copied()
            .filter(|&l| l == HOME || prompt.board.pieces().contains(&l))
            .collect();
        let pool = if !near.is_empty() && self.rng.below(3) != 0 {
            near
        } else {
            candidates
        };
        location_name(pool[self.rng.below(pool.len())])
    }
}

impl Input for Policy {
    fn answer(&mut self, prompt: &Prompt) -> Option<String> {
        if self.ending != Ending::Win && self.played >= self.moves {
            return Some("Q".to_string());
        }
        if !self.owes_legal {
            self.prompts += 1;
            if self.invalid_every > 0 && self.prompts % self.invalid_every == 0 {
                self.owes_legal = true;
                return Some(self.refused(prompt));
            }
        }
        self.owes_legal = false;
        self.played += 1;
        let index = match self.choice {
            Choice::First => 0,
            Choice::Last => prompt.moves.len() - 1,
            Choice::Random => self.rng.below(prompt.moves.len()),
        };
        Some(location_name(prompt.moves[index].0))
    }
}

/// The policy's own generator (not the game's dice): splitmix64.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, limit: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        (z % limit as u64) as usize
    }
}
