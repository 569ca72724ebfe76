//! The readings of the handout a program may print besides the reference's
//! (specs/trouble/README.md, "Decisions beyond the handout"): line breaks before a turn header
//! (the handout's console capture shows an empty line before each `---- X's turn`), and the
//! legal moves of `printMoves` in any order. `as_reference` rewrites a program's output to the
//! reference's reading where it is one of these, and leaves everything else as printed, so a
//! program that prints anything else still fails.

use crate::games::Transcript;

/// The program's output in the reference's reading, or `None` when it has nothing to rewrite.
pub fn as_reference(expected: &Transcript, actual: &str) -> Option<String> {
    let unbroken = breaks_before_headers(actual);
    let text = unbroken.as_deref().unwrap_or(actual);
    let ordered = moves_in_reference_order(expected, text);
    ordered.or(unbroken)
}

/// Whether `line` is a turn header, `---- Red's turn`.
fn is_header(line: &str) -> bool {
    line.strip_prefix("---- ")
        .and_then(|rest| rest.strip_suffix("'s turn"))
        .is_some_and(|name| !name.is_empty() && name.chars().all(|c| c.is_ascii_alphabetic()))
}

/// Empty lines and line breaks right before a turn header removed: after a finished line one
/// newline stays (`You have no legal moves.`), after an open prompt (a line ending in `: `,
/// as the reference leaves it) none. A header with no line break before it is left as it is,
/// so a missing newline is still a difference.
fn breaks_before_headers(actual: &str) -> Option<String> {
    let mut out = String::with_capacity(actual.len());
    let mut changed = false;
    let mut rest = actual;
    while !rest.is_empty() {
        let end = rest.find('\n').map_or(rest.len(), |at| at + 1);
        let (line, after) = rest.split_at(end);
        rest = after;
        if line == "\n" || !line.ends_with('\n') {
            out.push_str(line);
            continue;
        }
        // A finished line: look past the empty lines after it for a header.
        let blanks = rest.len() - rest.trim_start_matches('\n').len();
        let next = &rest[blanks..];
        let next_line = next.split('\n').next().unwrap_or_default();
        let before_header = is_header(next_line);
        let prompt = line.ends_with(": \n");
        if before_header && (blanks > 0 || prompt || line == "\n") {
            out.push_str(if prompt {
                &line[..line.len() - 1]
            } else {
                line
            });
            rest = next;
            changed = true;
        } else {
            out.push_str(line);
        }
    }
    // Empty lines at the very start, before the first header of a program with no prompt.
    let leading = out.len() - out.trim_start_matches('\n').len();
    if leading > 0 && is_header(out[leading..].split('\n').next().unwrap_or_default()) {
        out.drain(..leading);
        changed = true;
    }
    changed.then_some(out)
}

/// Whether `line` is one legal move as `printMoves` prints it: `X to Y`, two location names.
fn is_move(line: &str) -> bool {
    let mut parts = line.split(" to ");
    let location = |s: Option<&str>| {
        s.is_some_and(|s| !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric()))
    };
    location(parts.next()) && location(parts.next()) && parts.next().is_none()
}

/// The runs of consecutive move lines, as (first line, line count), in order.
fn move_runs(lines: &[&str]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut index = 0;
    while index < lines.len() {
        let start = index;
        while index < lines.len() && is_move(lines[index]) {
            index += 1;
        }
        if index > start {
            runs.push((start, index - start));
        } else {
            index += 1;
        }
    }
    runs
}

/// Each run of move lines put in the reference's order when it holds exactly the moves (each
/// once) of the reference's run at the same place in the output (the n-th run of each). A
/// run with a move missing, added or repeated stays as printed.
fn moves_in_reference_order(expected: &Transcript, actual: &str) -> Option<String> {
    let expected_lines: Vec<&str> = expected.lines().iter().map(|l| l.text.as_str()).collect();
    let ends_open = !actual.is_empty() && !actual.ends_with('\n');
    let mut lines: Vec<&str> = actual.lines().collect();
    let wanted = move_runs(&expected_lines);
    let mut changed = false;
    for ((start, count), (want_start, want_count)) in move_runs(&lines).into_iter().zip(wanted) {
        let want = &expected_lines[want_start..want_start + want_count];
        let got = &lines[start..start + count];
        if got == want || count != want_count {
            continue;
        }
        let mut sorted_got = got.to_vec();
        let mut sorted_want = want.to_vec();
        sorted_got.sort_unstable();
        sorted_want.sort_unstable();
        let distinct = sorted_want.windows(2).all(|pair| pair[0] != pair[1]);
        if sorted_got == sorted_want && distinct {
            lines[start..start + count].copy_from_slice(want);
            changed = true;
        }
    }
    if !changed {
        return None;
    }
    let mut out = lines.join("\n");
    if !ends_open {
        out.push('\n');
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transcript(text: &str) -> Transcript {
        let mut t = Transcript::new();
        t.print("playerTurn", text);
        t
    }

    const PROMPT: &str = "Enter position of piece to move: ";

    #[test]
    fn empty_lines_before_each_header_are_read_as_none() {
        let reference = format!(
            "Enter the number of players (2, 3, 4): ---- Red's turn\nYou have no legal moves.\n---- Yellow's turn\nH to Y5\n{PROMPT}---- Red's turn\nYou rolled 3.\n"
        );
        let sample = format!(
            "Enter the number of players (2, 3, 4): \n---- Red's turn\nYou have no legal moves.\n\n---- Yellow's turn\nH to Y5\n{PROMPT}\n---- Red's turn\nYou rolled 3.\n"
        );
        let read = as_reference(&transcript(&reference), &sample);
        assert_eq!(read.as_deref(), Some(reference.as_str()));
        assert_eq!(as_reference(&transcript(&reference), &reference), None);
    }

    #[test]
    fn other_differences_near_a_header_are_left_as_printed() {
        let reference = "You have no legal moves.\n---- Yellow's turn\nYou rolled 3.\n";
        // A missing newline, an empty line elsewhere, and a header in another spelling.
        for printed in [
            "You have no legal moves.---- Yellow's turn\nYou rolled 3.\n",
            "You have no legal moves.\n---- Yellow's turn\n\nYou rolled 3.\n",
            "You have no legal moves.\n\n---- Yellow turn\nYou rolled 3.\n",
        ] {
            let read = as_reference(&transcript(reference), printed);
            assert_eq!(read.as_deref().unwrap_or(printed), printed);
        }
    }

    #[test]
    fn moves_in_another_order_are_read_in_the_reference_order() {
        let reference = format!("You rolled 6.\nH to R5\nG7 to Y6\n{PROMPT}");
        let swapped = format!("You rolled 6.\nG7 to Y6\nH to R5\n{PROMPT}");
        let read = as_reference(&transcript(&reference), &swapped);
        assert_eq!(read.as_deref(), Some(reference.as_str()));
        let unit = "call printMoves 0 1\nRF1 to RF2\nG7 to Y1\nR5 to R6\nreturn 3\n";
        let shuffled = "call printMoves 0 1\nR5 to R6\nRF1 to RF2\nG7 to Y1\nreturn 3\n";
        assert_eq!(
            as_reference(&transcript(unit), shuffled).as_deref(),
            Some(unit)
        );
    }

    #[test]
    fn a_move_missing_added_or_repeated_is_left_as_printed() {
        let reference = "call printMoves 0 1\nRF1 to RF2\nG7 to Y1\nreturn 2\n";
        for printed in [
            "call printMoves 0 1\nG7 to Y1\nreturn 2\n",
            "call printMoves 0 1\nG7 to Y1\nRF1 to RF2\nR5 to R6\nreturn 2\n",
            "call printMoves 0 1\nG7 to Y1\nG7 to Y1\nreturn 2\n",
            "call printMoves 0 1\nG7 to Y1\nRF1 to RF3\nreturn 2\n",
        ] {
            assert_eq!(
                as_reference(&transcript(reference), printed),
                None,
                "{printed}"
            );
        }
    }
}
