//! Report writers, one per format, all reading the same graded batch.

pub mod audience;
pub mod changes;
pub mod class;
pub mod csv;
pub mod destination;
pub mod feedback;
pub mod gradebook;
pub mod gradescope;
pub mod groups;
pub mod hints;
pub mod html;
pub mod json;
pub mod junit;
pub mod model;
pub mod summary;
pub mod text;

pub use model::{
    BatchReport, CaseOutcome, ItemCase, ItemOutcome, ItemReport, Status, SubmissionReport,
};

/// The lines of a build log worth showing in `max_lines`: all of it when it fits, else the
/// error lines with the line before each (GCC's "In function" context) and the two after
/// (source and caret) first, then the earliest other lines; in log order. The second value
/// counts the lines left out. A long run of warnings never hides the error that stopped the
/// build.
pub fn build_log_excerpt(log: &str, max_lines: usize) -> (Vec<&str>, usize) {
    let lines: Vec<&str> = log.lines().collect();
    if lines.len() <= max_lines {
        return (lines, 0);
    }
    let is_error = |line: &str| {
        line.contains("error")
            || line.contains("undefined reference")
            || line.contains("multiple definition")
            || line.starts_with("referee:")
    };
    let mut keep = vec![false; lines.len()];
    let mut kept = 0;
    let mut take = |index: usize, keep: &mut Vec<bool>| {
        if kept < max_lines && !keep[index] {
            keep[index] = true;
            kept += 1;
        }
    };
    for (index, line) in lines.iter().enumerate() {
        if is_error(line) {
            let context = index.saturating_sub(1)..(index + 3).min(lines.len());
            for near in context {
                take(near, &mut keep);
            }
        }
    }
    for index in 0..lines.len() {
        take(index, &mut keep);
    }
    let shown: Vec<&str> = lines
        .iter()
        .zip(&keep)
        .filter(|(_, kept)| **kept)
        .map(|(line, _)| *line)
        .collect();
    let hidden = lines.len() - shown.len();
    (shown, hidden)
}

/// What the report says about how a submission was read: its notes, then each file left out
/// of grading with the reason.
pub fn reading_notes(submission: &SubmissionReport) -> Vec<String> {
    submission
        .notes
        .iter()
        .cloned()
        .chain(
            submission
                .ignored
                .iter()
                .map(|i| format!("ignored {}: {}", i.file, i.reason)),
        )
        .map(|line| safe_name(&line))
        .collect()
}

/// Who a submission belongs to, for headings: the name, with the LMS id and the late flag
/// when there are any (`Jane Doe (id 123, late)`).
pub fn student_label(submission: &SubmissionReport) -> String {
    let mut extra = Vec::new();
    if !submission.id.is_empty() {
        extra.push(format!("id {}", submission.id));
    }
    if submission.late {
        extra.push("late".to_string());
    }
    let student = safe_name(&submission.student);
    if extra.is_empty() {
        student
    } else {
        format!("{student} ({})", safe_name(&extra.join(", ")))
    }
}

/// The batch entries that were not graded, one line each.
pub fn skipped_lines(batch: &BatchReport) -> Vec<String> {
    batch
        .skipped
        .iter()
        .map(|s| safe_name(&format!("{}: {}", s.path, s.reason)))
        .collect()
}

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
    fn a_long_build_log_keeps_its_errors() {
        let mut log: String = (0..50)
            .map(|i| format!("a.c:{i}:1: warning: unused variable 'v{i}'\n"))
            .collect();
        log.push_str("a.c: In function 'main':\n");
        log.push_str("a.c:60:5: error: 'x' undeclared\n");
        log.push_str("   60 |     x = 1;\n");
        let (shown, hidden) = build_log_excerpt(&log, 30);
        assert_eq!(shown.len(), 30);
        assert_eq!(hidden, 23);
        assert!(shown.contains(&"a.c:60:5: error: 'x' undeclared"));
        assert!(shown.contains(&"a.c: In function 'main':"));
        assert_eq!(shown[0], "a.c:0:1: warning: unused variable 'v0'");
        let (all, none) = build_log_excerpt("one\ntwo\n", 30);
        assert_eq!((all, none), (vec!["one", "two"], 0));
    }

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
