//! Report writers, one per format, all reading the same graded batch.

pub mod csv;
pub mod gradescope;
pub mod groups;
pub mod html;
pub mod json;
pub mod junit;
pub mod model;
pub mod text;

pub use model::{BatchReport, CaseResult, CaseRun, ItemReport, Status, SubmissionReport};

/// Whether a character can change what a terminal or a text viewer shows beyond itself:
/// C0 and C1 controls, DEL, and the bidirectional overrides and isolates.
fn is_hazard(ch: char) -> bool {
    ch.is_control()
        || matches!(
            ch,
            '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}'
        )
}

fn push_escaped(out: &mut String, ch: char) {
    use std::fmt::Write;
    let code = ch as u32;
    let _ = if code < 0x80 {
        write!(out, "\\x{code:02x}")
    } else {
        write!(out, "\\u{{{code:04x}}}")
    };
}

/// A file or submission name (from a student's file name) as inert text: every control
/// character, C1 control and bidirectional override is written as `\xNN` or `\u{NNNN}`.
pub fn safe_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for ch in name.chars() {
        if is_hazard(ch) {
            push_escaped(&mut out, ch);
        } else {
            out.push(ch);
        }
    }
    out
}

/// Multi-line text that quotes names (a build log): as `safe_name`, but lines and tabs kept.
pub fn safe_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        if is_hazard(ch) && ch != '\n' && ch != '\t' {
            push_escaped(&mut out, ch);
        } else {
            out.push(ch);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn controls_c1_and_bidi_overrides_in_names_are_escaped() {
        assert_eq!(safe_name("a\u{1b}[2Jb"), "a\\x1b[2Jb");
        assert_eq!(safe_name("\u{1b}]0;title\u{7}"), "\\x1b]0;title\\x07");
        assert_eq!(safe_name("evil\u{202e}c.exe"), "evil\\u{202e}c.exe");
        assert_eq!(safe_name("x\u{9b}2J\u{7f}"), "x\\u{009b}2J\\x7f");
        assert_eq!(safe_name("a\nb\tc"), "a\\x0ab\\x09c");
        assert_eq!(safe_name("Lab6 – Émile.c"), "Lab6 – Émile.c");
        assert_eq!(
            safe_text("x.c:1: \u{1b}[31m\n\tok"),
            "x.c:1: \\x1b[31m\n\tok"
        );
    }
}
