//! The readable report: per-item table, a one-line-per-case summary (handout samples first,
//! then the failing cases by item, each with its reason), facts, then one failing case per
//! item in full with its input, hints and a unified diff (`--case`, `--all`: others).

use std::fmt::Write;

use serde_json::Value;

use crate::compare::Mismatch;

use super::{summary, BatchReport, CaseOutcome, Status, SubmissionReport};

/// Diff lines of the one example per item shown by default (`--case`, `--all`: the whole
/// diff).
const MAX_EXAMPLE_DIFF_LINES: usize = 14;
/// Checker notes of such an example.
const MAX_EXAMPLE_NOTES: usize = 12;
/// Lines of stdin of such an example.
const MAX_EXAMPLE_STDIN_LINES: usize = 8;
/// Lines of stdin shown for a failing case.
const MAX_STDIN_LINES: usize = 12;
/// Lines of a program's stderr shown, and of a sanitizer report.
const MAX_STDERR_LINES: usize = 6;
const MAX_SANITIZER_LINES: usize = 24;
/// Lines of a game board shown before the turn that first differs.
const MAX_BOARD_LINES: usize = 30;
/// Lines of compiler output shown.
const MAX_LOG_LINES: usize = 30;

/// ANSI colours for a terminal, or none (files, pipes, `NO_COLOR`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Paint {
    pub colour: bool,
}

const RED: &str = "31";
const GREEN: &str = "32";
const YELLOW: &str = "33";
const CYAN: &str = "36";
const BOLD: &str = "1";

impl Paint {
    /// Colour when standard output is a terminal, unless `NO_COLOR` is set and non-empty.
    /// `REFEREE_COLOR=always` or `never` replaces the terminal check (for pagers that show
    /// colour, and for tests); `NO_COLOR` still wins over it.
    pub fn for_stdout() -> Self {
        use std::io::IsTerminal;
        let no_colour = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let wanted = match std::env::var("REFEREE_COLOR").as_deref() {
            Ok("always") => true,
            Ok("never") => false,
            _ => std::io::stdout().is_terminal(),
        };
        Paint {
            colour: wanted && !no_colour,
        }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    /// A unified diff line: removed red, added green, hunk headers cyan.
    fn diff_line(self, line: &str) -> String {
        match line.chars().next() {
            // The two header lines written by `compare::unified_diff`.
            _ if line == "--- expected" || line == "+++ your output" => self.paint(BOLD, line),
            Some('-') => self.paint(RED, line),
            Some('+') => self.paint(GREEN, line),
            Some('@') => self.paint(CYAN, line),
            _ => line.to_string(),
        }
    }

    fn status(self, status: Status, text: &str) -> String {
        self.paint(if status == Status::Pass { GREEN } else { RED }, text)
    }
}

/// What the report shows beyond the summary.
#[derive(Debug, Clone, Default)]
pub struct Options {
    pub paint: Paint,
    /// `--case` patterns (`*`, `?`): the cases shown in full instead of one per item.
    pub cases: Vec<String>,
    /// `--all`: every failing case in full.
    pub all: bool,
}

pub fn render(batch: &BatchReport) -> String {
    render_with(batch, &Options::default())
}

pub fn render_with(batch: &BatchReport, options: &Options) -> String {
    let paint = options.paint;
    let mut out = String::new();
    for submission in &batch.submissions {
        render_submission(&mut out, &batch.game, submission, options);
        out.push('\n');
    }
    let skipped = super::skipped_lines(batch);
    if !skipped.is_empty() {
        let _ = writeln!(out, "not graded ({} entries):", skipped.len());
        for line in skipped {
            let _ = writeln!(out, "  {line}");
        }
    }
    out.push_str(&paint.paint(BOLD, &summary(batch)));
    out.push('\n');
    if batch.sandbox.starts_with("basic") {
        out.push_str(&format!(
            "warning: runs are not fully isolated: sandbox {}\n",
            batch.sandbox
        ));
    }
    out
}

/// One line for the whole batch.
pub fn summary(batch: &BatchReport) -> String {
    let count = batch.submissions.len();
    let full = batch.submissions.iter().filter(|s| s.full_marks()).count();
    let failed_builds = batch.submissions.iter().filter(|s| !s.build.ok).count();
    let max = batch.submissions.first().map_or(0.0, |s| s.max_score);
    let mean = if count == 0 {
        0.0
    } else {
        batch.submissions.iter().map(|s| s.score).sum::<f64>() / count as f64
    };
    let skipped = match batch.skipped.len() {
        0 => String::new(),
        1 => " · 1 entry not graded".into(),
        n => format!(" · {n} entries not graded"),
    };
    format!(
        "{} · {count} submission{} graded · mean {:.2} / {:.2} · {full} with full marks · {failed_builds} failed to build{skipped}",
        batch.game,
        if count == 1 { "" } else { "s" },
        mean,
        max
    )
}

fn render_submission(out: &mut String, game: &str, s: &SubmissionReport, options: &Options) {
    let paint = options.paint;
    let total = format!("{} / {}", points(s.score), points(s.max_score));
    let _ = writeln!(
        out,
        "{}  ({})  {} auto-graded points",
        paint.paint(BOLD, &format!("== {}", super::student_label(s))),
        super::safe_name(&s.path),
        paint.paint(if s.full_marks() { GREEN } else { YELLOW }, &total)
    );
    let warnings = s
        .facts
        .get("compiler_warnings")
        .and_then(Value::as_u64)
        .unwrap_or(0);
    if s.build.ok {
        let _ = writeln!(
            out,
            "build: {}{}",
            paint.paint(GREEN, "ok"),
            match warnings {
                0 => String::new(),
                1 => ", 1 compiler warning:".into(),
                n => format!(", {n} compiler warnings:"),
            }
        );
    } else {
        let _ = writeln!(out, "build: {}", paint.paint(RED, "FAILED"));
    }
    if !s.build.ok || warnings > 0 || !s.build.log.trim().is_empty() {
        let log = super::safe_text(&s.build.log);
        let (shown, hidden) = super::build_log_excerpt(&log, MAX_LOG_LINES);
        for line in shown {
            let _ = writeln!(out, "    {}", crate::compare::visible(line));
        }
        if hidden > 0 {
            let _ = writeln!(out, "    … {hidden} more lines");
        }
    }
    for line in super::reading_notes(s) {
        let _ = writeln!(out, "note: {line}");
    }

    let width = s.items.iter().map(|i| i.id.len()).max().unwrap_or(4).max(4);
    let _ = writeln!(out, "  {:<width$}  {:>13}  cases passed", "item", "points");
    for item in &s.items {
        match item.score {
            None => {
                let _ = writeln!(
                    out,
                    "  {:<width$}  {:>13}  graded by hand",
                    item.id,
                    format!("– / {}", points(item.max_score))
                );
            }
            Some(score) => {
                let cases = s.item_cases(&item.id).count();
                let passed = s
                    .item_cases(&item.id)
                    .filter(|c| c.status() == Status::Pass)
                    .count();
                let cell = format!(
                    "{:>13}",
                    format!("{} / {}", points(score), points(item.max_score))
                );
                let colour = if passed == cases {
                    GREEN
                } else if score > 0.0 {
                    YELLOW
                } else {
                    RED
                };
                let _ = writeln!(
                    out,
                    "  {:<width$}  {}  {passed}/{cases}",
                    item.id,
                    paint.paint(colour, &cell),
                );
            }
        }
    }
    let summary = summary::summarize(s);
    if s.build.ok {
        render_summary(out, &summary, paint);
    }
    if !s.facts.is_empty() {
        let _ = writeln!(out, "facts: {}", facts_line(s));
    }

    let failing = s.runs.iter().filter(|r| !r.passed()).count();
    if failing == 0 && options.cases.is_empty() {
        return;
    }
    if !s.build.ok {
        let _ = writeln!(
            out,
            "no case could run: fix the build errors above first ({failing} cases)"
        );
        return;
    }
    let full = Full {
        game,
        path: &s.path,
        diff_lines: usize::MAX,
        stdin_lines: MAX_STDIN_LINES,
    };
    if !options.cases.is_empty() {
        let chosen = s.runs.iter().filter(|r| {
            options
                .cases
                .iter()
                .any(|p| summary::matches_pattern(p, &r.name))
        });
        for run in chosen {
            out.push('\n');
            render_case(out, run, &full, paint);
        }
        return;
    }
    if options.all {
        for run in s.runs.iter().filter(|r| !r.passed()) {
            out.push('\n');
            render_case(out, run, &full, paint);
        }
        return;
    }
    let example = Full {
        diff_lines: MAX_EXAMPLE_DIFF_LINES,
        stdin_lines: MAX_EXAMPLE_STDIN_LINES,
        ..full
    };
    let mut shown = Vec::new();
    for group in &summary.groups {
        let Some(run) = summary::example(group) else {
            continue;
        };
        if shown.contains(&run.name) {
            continue;
        }
        shown.push(run.name.clone());
        let _ = writeln!(
            out,
            "\n{} (one of {} failing {} cases):",
            paint.paint(BOLD, &format!("-- example for {}", group.item)),
            group.failing_total,
            group.item
        );
        render_case(out, run, &example, paint);
    }
    let _ = writeln!(
        out,
        "\nsee any case in full: referee grade {game} {} --case NAME (patterns like 'edge-*' work; --all shows every failing case)",
        s.path
    );
}

/// Handout samples, then each failing item's cases, one line each.
fn render_summary(out: &mut String, summary: &summary::Summary, paint: Paint) {
    let tick = |line: String| -> String {
        if let Some(rest) = line.strip_prefix("  ✓") {
            format!("  {}{rest}", paint.paint(GREEN, "✓"))
        } else if let Some(rest) = line.strip_prefix("  ✗") {
            format!("  {}{rest}", paint.paint(RED, "✗"))
        } else {
            line
        }
    };
    if !summary.samples.is_empty() {
        let _ = writeln!(out, "handout samples:");
        for line in &summary.samples {
            let _ = writeln!(out, "{}", tick(summary::case_line(line, None)));
        }
    }
    for group in &summary.groups {
        let _ = writeln!(out, "{}", paint.paint(BOLD, &summary::group_heading(group)));
        for line in summary::group_lines(group, "--all") {
            let _ = writeln!(out, "{}", tick(line));
        }
    }
}

/// How much of a case to show in full, and what the sanitizer command needs.
#[derive(Clone, Copy)]
struct Full<'a> {
    game: &'a str,
    path: &'a str,
    diff_lines: usize,
    stdin_lines: usize,
}

fn render_case(out: &mut String, run: &CaseOutcome, full: &Full, paint: Paint) {
    let items: Vec<String> = run
        .items
        .iter()
        .map(|i| format!("{} {}", i.item, paint.status(i.status, i.status.as_str())))
        .collect();
    let mark = if run.passed() {
        paint.paint(GREEN, &format!("✓ {}", run.name))
    } else {
        paint.paint(RED, &format!("✗ {}", run.name))
    };
    let _ = writeln!(out, "  {mark}  [{}]", items.join(", "));
    if let Some(description) = &run.description {
        let _ = writeln!(out, "    what it tests: {description}");
    }
    if run.ended != "exit status 0" {
        let _ = writeln!(out, "    ended: {}", run.ended);
    }
    if !run.args.is_empty() {
        let args: Vec<String> = run.args.iter().map(|a| format!("{a:?}")).collect();
        let _ = writeln!(out, "    arguments: {}", args.join(" "));
    }
    if !run.stdin.is_empty() {
        let _ = writeln!(out, "    input:");
        push_cut(out, &run.stdin, full.stdin_lines, "      ");
    }
    let explanation = &run.explanation;
    if !run.passed() && !explanation.reason.is_empty() {
        let _ = writeln!(out, "    why: {}", explanation.reason);
    }
    for hint in &explanation.hints {
        let _ = writeln!(out, "    hint: {hint}");
    }
    if explanation.suggest_sanitize && !sanitizer_report(&run.stderr) {
        let _ = writeln!(
            out,
            "    hint: find the line that crashed: {}",
            summary::sanitize_command(full.game, full.path, &run.name)
        );
    }
    if let Some(divergence) = &explanation.divergence {
        let _ = writeln!(
            out,
            "    the reference's board before {} (where your output first differs):",
            divergence.turn
        );
        push_cut(out, &divergence.board, MAX_BOARD_LINES, "      ");
    }
    // "The text differs" says nothing the reason above does not.
    let named_kind = !matches!(run.mismatch, Mismatch::None | Mismatch::Content);
    if named_kind && !run.diff.is_empty() {
        let _ = writeln!(out, "    difference: {}", run.mismatch.describe());
    }
    // An example shows the findings about the items that lost points, and not all of them.
    let failing: Vec<String> = run
        .items
        .iter()
        .filter(|verdict| verdict.status != Status::Pass)
        .map(|verdict| format!(", {}: ", verdict.item))
        .collect();
    let notes: Vec<&String> = run
        .notes
        .iter()
        .filter(|n| full.diff_lines == usize::MAX || failing.iter().any(|f| n.contains(f.as_str())))
        .collect();
    let shown_notes = if full.diff_lines == usize::MAX {
        notes.len()
    } else {
        MAX_EXAMPLE_NOTES
    };
    for note in notes.iter().take(shown_notes) {
        let _ = writeln!(out, "    note: {note}");
    }
    if notes.len() > shown_notes {
        let _ = writeln!(
            out,
            "    … {} more notes (see them all with --case {})",
            notes.len() - shown_notes,
            run.name
        );
    }
    let diff: Vec<&str> = run.diff.lines().collect();
    for line in diff.iter().take(full.diff_lines) {
        let _ = writeln!(out, "    {}", paint.diff_line(line));
    }
    if diff.len() > full.diff_lines {
        let _ = writeln!(
            out,
            "    … {} more diff lines (see them with --case {})",
            diff.len() - full.diff_lines,
            run.name
        );
    }
    if !run.stderr.trim().is_empty() {
        let _ = writeln!(out, "    your program's stderr:");
        // A sanitizer report needs its stack trace to be useful.
        let lines = if sanitizer_report(&run.stderr) {
            MAX_SANITIZER_LINES
        } else {
            MAX_STDERR_LINES
        };
        push_cut(out, &run.stderr, lines, "      ");
    }
}

/// Whether stderr holds a report of AddressSanitizer or UndefinedBehaviorSanitizer.
fn sanitizer_report(stderr: &str) -> bool {
    stderr.contains("Sanitizer") || stderr.contains(": runtime error: ")
}

fn facts_line(s: &SubmissionReport) -> String {
    s.facts
        .iter()
        .map(|(key, value)| format!("{key} {}", fact_value(value)))
        .collect::<Vec<_>>()
        .join(" · ")
}

fn fact_value(value: &Value) -> String {
    match value {
        Value::Object(map) => map
            .iter()
            .map(|(k, v)| match (v.get("defined"), v.get("called")) {
                (Some(defined), Some(called)) => format!(
                    "{k}: {}, {}",
                    if defined.as_bool() == Some(true) {
                        "defined"
                    } else {
                        "NOT defined"
                    },
                    if called.as_bool() == Some(true) {
                        "called"
                    } else {
                        "NOT called"
                    }
                ),
                _ => format!("{k}: {}", fact_value(v)),
            })
            .collect::<Vec<_>>()
            .join("; "),
        Value::Array(list) if list.is_empty() => "none".into(),
        Value::Array(list) => list.iter().map(fact_value).collect::<Vec<_>>().join(", "),
        Value::String(text) => text.clone(),
        other => other.to_string(),
    }
}

fn points(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

fn push_cut(out: &mut String, text: &str, max_lines: usize, indent: &str) {
    let lines: Vec<&str> = text.lines().collect();
    for line in lines.iter().take(max_lines) {
        let _ = writeln!(out, "{indent}{}", crate::compare::visible(line));
    }
    if lines.len() > max_lines {
        let _ = writeln!(out, "{indent}… {} more lines", lines.len() - max_lines);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn colour_only_when_asked() {
        let on = Paint { colour: true };
        let off = Paint { colour: false };
        assert_eq!(on.diff_line("-old"), "\x1b[31m-old\x1b[0m");
        assert_eq!(on.diff_line("+new"), "\x1b[32m+new\x1b[0m");
        assert_eq!(on.diff_line(" same"), " same");
        assert_eq!(off.diff_line("-old"), "-old");
        assert_eq!(off.status(Status::Fail, "fail"), "fail");
    }
}
