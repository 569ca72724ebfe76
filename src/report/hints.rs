//! Why a case failed, in words a student can act on: the first line where the output differs
//! from the reference's, the kind of difference (a joined line, trailing spaces, case, a
//! number…), where a run that crashed or hung stopped, and for a game the turn where it first
//! went wrong with the board that turn began with.

use crate::assignment::spec::CompareMode;
use crate::compare::{lines_match, split_lines, visible, OutLine};
use crate::games::Transcript;

/// How a run ended, as far as explaining it goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Ending {
    /// It exited with the status the case wants (or any, when the case wants none).
    Normal,
    /// It exited with `got` where the case wants `want`.
    WrongExit {
        want: i32,
        got: i32,
    },
    /// It was killed by a signal, named as in the report ("Segmentation fault (SIGSEGV)").
    Crash(String),
    Timeout,
    OutputLimit,
    /// The kernel stopped it at the run's memory limit (MiB).
    MemoryLimit(u64),
}

/// What the report says about one failing case.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Explanation {
    /// One line: what differs first, or how the run ended.
    pub reason: String,
    /// Further advice, one line each.
    pub hints: Vec<String>,
    /// For a game: the turn of the first difference.
    pub divergence: Option<Divergence>,
    /// The run crashed without a sanitizer report: rerunning with `--sanitize` finds the line.
    pub suggest_sanitize: bool,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Divergence {
    /// The turn the output first differs in, e.g. "turn 14, Red, dice 5 and 3" (the reason
    /// starts with it).
    pub turn: String,
    /// The reference's board before that turn.
    pub board: String,
}

/// Quoted text is cut to this many characters so that a reason stays on one line.
const MAX_QUOTE: usize = 60;

/// A line quoted for the report: invisible characters shown, long lines cut.
fn quote(text: &str) -> String {
    let shown = visible(text);
    if shown.chars().count() > MAX_QUOTE {
        let cut: String = shown.chars().take(MAX_QUOTE).collect();
        format!("`{cut}…`")
    } else {
        format!("`{shown}`")
    }
}

/// Two differing lines quoted so that the difference shows on one report line: a long
/// shared beginning is cut to its last characters.
fn quote_pair(expected: &str, actual: &str) -> (String, String) {
    const KEEP: usize = 12;
    let shared = expected
        .char_indices()
        .zip(actual.chars())
        .take_while(|((_, e), a)| e == a)
        .count();
    if shared <= KEEP + 8 || expected.chars().count().max(actual.chars().count()) <= 30 {
        return (quote(expected), quote(actual));
    }
    let skip = shared - KEEP;
    let tail = |text: &str| {
        let rest: String = text.chars().skip(skip).collect();
        quote(&rest).replacen('`', "`…", 1)
    };
    (tail(expected), tail(actual))
}

/// The text with every run of digits replaced, to tell "only a number differs".
fn without_numbers(text: &str) -> String {
    let mut out = String::new();
    let mut in_number = false;
    for ch in text.chars() {
        if ch.is_ascii_digit() {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            out.push(ch);
            in_number = false;
        }
    }
    out
}

fn numbers(text: &str) -> Vec<&str> {
    text.split(|c: char| !c.is_ascii_digit())
        .filter(|n| !n.is_empty())
        .collect()
}

/// The last line the program printed that has any text, for "stopped after …".
fn last_printed<'a>(actual: &[OutLine<'a>]) -> Option<&'a str> {
    actual
        .iter()
        .rev()
        .map(|l| l.text)
        .find(|t| !t.trim().is_empty())
}

/// Explains how `actual` (what the program printed) differs from `expected` and how the run
/// ended. The first line that differs is numbered from 1 in the expected output.
pub fn explain(
    expected: &Transcript,
    actual: &str,
    mode: CompareMode,
    ending: &Ending,
) -> Explanation {
    let expected_lines: Vec<OutLine> = expected
        .lines()
        .iter()
        .map(|l| OutLine {
            text: &l.text,
            newline: l.newline,
        })
        .collect();
    let actual_lines = split_lines(actual);
    let first = (0..)
        .find(|&i| match (expected_lines.get(i), actual_lines.get(i)) {
            (Some(e), Some(a)) => !lines_match(mode, *e, *a),
            (None, None) => true,
            _ => true,
        })
        .unwrap_or(0);
    let differs = first < expected_lines.len() || first < actual_lines.len();
    let stopped_early = first >= actual_lines.len() && first < expected_lines.len();
    let last = last_printed(&actual_lines);
    let after = last.map_or("before printing anything".to_string(), |l| {
        format!("after {}", quote(l))
    });

    let mut explanation = Explanation::default();
    let text_reason = differs.then(|| line_reason(&expected_lines, &actual_lines, first));
    let ending_reason = match ending {
        Ending::Normal => None,
        Ending::WrongExit { want, got } => Some(format!(
            "exit status {got}: the program must exit with status {want}"
        )),
        Ending::Crash(signal) => {
            explanation.suggest_sanitize = true;
            Some(format!("crashed ({signal}) {after}"))
        }
        Ending::Timeout => Some(match last {
            Some(l) => format!(
                "your program was still waiting for input (or looping) after {}",
                quote(l)
            ),
            None => "your program printed nothing and was still running at the time limit \
                     (waiting for input, or looping)"
                .to_string(),
        }),
        Ending::OutputLimit => Some(format!(
            "your program printed too much and was stopped; it was printing {}",
            last.map_or("blank lines".to_string(), quote)
        )),
        Ending::MemoryLimit(mb) => Some(format!(
            "your program used more than its {mb} MiB of memory and was stopped {after}"
        )),
    };
    // A run cut short is best explained by how it ended; otherwise the first difference
    // comes first and the ending is a hint.
    let cut_short = matches!(
        ending,
        Ending::Crash(_) | Ending::Timeout | Ending::OutputLimit | Ending::MemoryLimit(_)
    );
    match (text_reason, ending_reason) {
        (_, Some(ending)) if stopped_early && cut_short => explanation.reason = ending,
        (Some((text, hints)), ending) => {
            explanation.reason = text;
            explanation.hints = hints;
            explanation
                .hints
                .extend(ending.map(|ending| format!("then: {ending}")));
        }
        (None, Some(ending)) => explanation.reason = ending,
        (None, None) => explanation.reason = "the output differs".to_string(),
    }
    if differs {
        if let Some(turn) = expected.turn_at(first) {
            explanation.reason = format!("{}: {}", turn.label, explanation.reason);
            explanation.divergence = Some(Divergence {
                turn: turn.label.clone(),
                board: turn.board.clone(),
            });
        }
    }
    explanation
}

/// The one-line reason for the first difference (at `index`), and any hints.
fn line_reason(expected: &[OutLine], actual: &[OutLine], index: usize) -> (String, Vec<String>) {
    let number = index + 1;
    let (e, a) = match (expected.get(index), actual.get(index)) {
        (Some(e), Some(a)) => (*e, *a),
        (Some(e), None) => {
            let more = expected.len() - index - 1;
            let reason = format!(
                "your output stops before line {number}: expected {}{}",
                quote(e.text),
                match more {
                    0 => String::new(),
                    1 => " and 1 more line".to_string(),
                    n => format!(" and {n} more lines"),
                }
            );
            return (reason, Vec::new());
        }
        (None, Some(a)) => {
            let more = actual.len() - index - 1;
            let reason = format!(
                "the expected output ends after line {index}, but your program printed {}{}",
                quote(a.text),
                match more {
                    0 => String::new(),
                    1 => " and 1 more line".to_string(),
                    n => format!(" and {n} more lines"),
                }
            );
            return (reason, Vec::new());
        }
        (None, None) => return ("the output differs".to_string(), Vec::new()),
    };
    let next = expected.get(index + 1);
    if e.text == a.text {
        let reason = if e.newline {
            format!("line {number}: {} must end with a newline", quote(e.text))
        } else {
            format!(
                "line {number}: {} must not end with a newline (the reference leaves it open)",
                quote(e.text)
            )
        };
        let hints = if e.newline && index + 1 == expected.len() {
            vec!["the last line of output needs its `\\n` too".to_string()]
        } else {
            Vec::new()
        };
        return (reason, hints);
    }
    if e.newline {
        if let (Some(rest), Some(next)) = (a.text.strip_prefix(e.text), next) {
            let joined = !rest.is_empty()
                && (rest.starts_with(next.text) || (next.text.starts_with(rest) && !a.newline));
            if joined {
                let prompt = e.text.trim_end();
                return (
                    format!(
                        "line {}: {} should start a new line: a newline is missing after {}",
                        number + 1,
                        quote(next.text),
                        quote(prompt)
                    ),
                    vec![format!(
                        "print `\\n` after {} (for example `printf(\"{}\\n\")`)",
                        quote(prompt),
                        prompt.replace('"', "\\\"")
                    )],
                );
            }
        }
    }
    if e.text.trim_end() == a.text.trim_end() {
        let extra = a.text.len() as isize - e.text.len() as isize;
        let reason = if extra > 0 {
            format!(
                "line {number}: {extra} extra space{} at the end of {}",
                if extra == 1 { "" } else { "s" },
                quote(a.text)
            )
        } else {
            format!(
                "line {number}: {} should end with {} more space{} (`·` in the diff)",
                quote(a.text.trim_end()),
                -extra,
                if extra == -1 { "" } else { "s" }
            )
        };
        return (reason, Vec::new());
    }
    if e.text.split_whitespace().eq(a.text.split_whitespace()) {
        return (
            format!(
                "line {number}: only the spacing inside the line differs: expected {}, your program printed {}",
                quote(e.text),
                quote(a.text)
            ),
            Vec::new(),
        );
    }
    let (want, got) = quote_pair(e.text, a.text);
    if e.text.to_lowercase() == a.text.to_lowercase() {
        return (
            format!("line {number}: capitalisation: expected {want}, your program printed {got}"),
            Vec::new(),
        );
    }
    if without_numbers(e.text) == without_numbers(a.text) {
        let wrong = numbers(e.text)
            .into_iter()
            .zip(numbers(a.text))
            .find(|(want, got)| want != got);
        if let Some((want, got)) = wrong {
            return (
                format!(
                    "line {number}: the text matches but a number differs: expected {want} where your program printed {got} ({})",
                    quote(e.text)
                ),
                Vec::new(),
            );
        }
    }
    if next.is_some_and(|n| n.text == a.text) {
        return (
            format!(
                "line {number}: {} is missing (your program went on with {})",
                quote(e.text),
                quote(a.text)
            ),
            Vec::new(),
        );
    }
    if actual.get(index + 1).is_some_and(|n| n.text == e.text) {
        return (
            format!(
                "line {number}: an extra line {} before {}",
                quote(a.text),
                quote(e.text)
            ),
            Vec::new(),
        );
    }
    (
        format!("line {number}: expected {want}, your program printed {got}"),
        Vec::new(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transcript(text: &str) -> Transcript {
        let mut t = Transcript::new();
        t.print("item", text);
        t
    }

    fn reason(expected: &str, actual: &str) -> String {
        explain(
            &transcript(expected),
            actual,
            CompareMode::Exact,
            &Ending::Normal,
        )
        .reason
    }

    #[test]
    fn a_joined_line_names_the_prompt_missing_its_newline() {
        let why = reason(
            "board\nEnter a move:\nValid move.\n",
            "board\nEnter a move:Valid move.\n",
        );
        assert_eq!(
            why,
            "line 3: `Valid move.` should start a new line: a newline is missing after `Enter a move:`"
        );
    }

    #[test]
    fn trailing_spaces_are_counted() {
        assert_eq!(
            reason("a\nb c\n", "a\nb c  \n"),
            "line 2: 2 extra spaces at the end of `b c··`"
        );
        assert!(reason("a \n", "a\n").contains("1 more space"));
    }

    #[test]
    fn a_missing_final_newline_and_a_missing_last_line() {
        let explanation = explain(
            &transcript("one\ntwo\n"),
            "one\ntwo",
            CompareMode::Exact,
            &Ending::Normal,
        );
        assert_eq!(explanation.reason, "line 2: `two` must end with a newline");
        assert!(explanation.hints[0].contains("last line"));
        assert_eq!(
            reason("one\ntwo\nthree\n", "one\n"),
            "your output stops before line 2: expected `two` and 1 more line"
        );
    }

    #[test]
    fn capitalisation_spacing_and_numbers() {
        assert_eq!(
            reason("Valid move.\n", "valid move.\n"),
            "line 1: capitalisation: expected `Valid move.`, your program printed `valid move.`"
        );
        assert!(reason("a  b\n", "a b\n").contains("only the spacing inside the line differs"));
        assert_eq!(
            reason("Black: 12 White: 3\n", "Black: 12 White: 4\n"),
            "line 1: the text matches but a number differs: expected 3 where your program printed 4 (`Black: 12 White: 3`)"
        );
    }

    #[test]
    fn missing_extra_and_different_lines() {
        assert!(reason("a\nb\nc\n", "a\nc\n").starts_with("line 2: `b` is missing"));
        assert!(reason("a\nc\n", "a\ndebug\nc\n").starts_with("line 2: an extra line `debug`"));
        assert_eq!(
            reason("a\n", "a\nb\n"),
            "the expected output ends after line 1, but your program printed `b`"
        );
        assert_eq!(
            reason("a\nyes\n", "a\nno\n"),
            "line 2: expected `yes`, your program printed `no`"
        );
    }

    #[test]
    fn long_lines_are_quoted_from_near_their_difference() {
        assert_eq!(
            reason(
                "checkLegalInDirection('c', 'c', 'W', -1, -1) = true\n",
                "checkLegalInDirection('c', 'c', 'W', -1, -1) = false\n"
            ),
            "line 1: expected `…, -1, -1) = true`, your program printed `…, -1, -1) = false`"
        );
    }

    #[test]
    fn a_timeout_names_the_last_prompt() {
        let explanation = explain(
            &transcript("Enter a move:\nValid move.\n"),
            "Enter a move:\n",
            CompareMode::Exact,
            &Ending::Timeout,
        );
        assert_eq!(
            explanation.reason,
            "your program was still waiting for input (or looping) after `Enter a move:`"
        );
        assert!(!explanation.suggest_sanitize);
    }

    #[test]
    fn a_crash_says_where_and_asks_for_the_sanitizers() {
        let explanation = explain(
            &transcript("Enter a move:\nValid move.\n"),
            "Enter a move:\n",
            CompareMode::Exact,
            &Ending::Crash("Segmentation fault (SIGSEGV)".into()),
        );
        assert_eq!(
            explanation.reason,
            "crashed (Segmentation fault (SIGSEGV)) after `Enter a move:`"
        );
        assert!(explanation.suggest_sanitize);
    }

    #[test]
    fn a_wrong_line_before_a_crash_comes_first() {
        let explanation = explain(
            &transcript("a\nb\nc\n"),
            "a\nB!\n",
            CompareMode::Exact,
            &Ending::Crash("Aborted (SIGABRT)".into()),
        );
        assert_eq!(
            explanation.reason,
            "line 2: expected `b`, your program printed `B!`"
        );
        assert!(explanation.hints.iter().any(|h| h.contains("crashed")));
    }

    #[test]
    fn lenient_modes_look_past_what_they_ignore() {
        let explanation = explain(
            &transcript("a \nb\n"),
            "a\nc\n",
            CompareMode::TrailingSpace,
            &Ending::Normal,
        );
        assert_eq!(
            explanation.reason,
            "line 2: expected `b`, your program printed `c`"
        );
    }

    #[test]
    fn a_game_names_the_turn_of_the_first_difference_and_its_board() {
        let mut t = Transcript::new();
        t.println("game", "start");
        t.begin_turn("turn 1, White, dice 3 and 1".into(), "board one\n".into());
        t.println("game", "White's move: ok");
        t.begin_turn("turn 2, Red, dice 5 and 3".into(), "board two\n".into());
        t.println("game", "Rolling dice:  5 3");
        t.println("game", "Invalid move");
        let explanation = explain(
            &t,
            "start\nWhite's move: ok\nRolling dice:  5 3\nRed's move: 8 3\n",
            CompareMode::Exact,
            &Ending::Normal,
        );
        assert_eq!(
            explanation.reason,
            "turn 2, Red, dice 5 and 3: line 4: expected `Invalid move`, your program printed `Red's move: 8 3`"
        );
        let divergence = explanation.divergence.expect("a turn is named");
        assert_eq!(divergence.turn, "turn 2, Red, dice 5 and 3");
        assert_eq!(divergence.board, "board two\n");
        assert_eq!(
            explain(
                &transcript("a\nb\n"),
                "a\nc\n",
                CompareMode::Exact,
                &Ending::Normal
            )
            .divergence,
            None,
            "no turns, no divergence"
        );
    }
}
