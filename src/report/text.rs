//! The readable report: per-item table, facts, then each failing case with its input and a
//! unified diff.

use std::fmt::Write;

use serde_json::Value;

use super::{BatchReport, CaseRun, Status, SubmissionReport};

/// Failing cases shown in full per submission; the rest are listed by name.
const MAX_SHOWN_FAILURES: usize = 8;
/// Lines of stdin shown for a failing case.
const MAX_STDIN_LINES: usize = 12;
/// Lines of a program's stderr shown, and of a sanitizer report.
const MAX_STDERR_LINES: usize = 6;
const MAX_SANITIZER_LINES: usize = 24;
/// Lines of compiler output shown.
const MAX_LOG_LINES: usize = 30;

/// ANSI colours for a terminal, or none (files, pipes, `NO_COLOR`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
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

pub fn render(batch: &BatchReport) -> String {
    render_with(batch, Paint { colour: false })
}

pub fn render_with(batch: &BatchReport, paint: Paint) -> String {
    let mut out = String::new();
    for submission in &batch.submissions {
        render_submission(&mut out, submission, paint);
        out.push('\n');
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
    format!(
        "{} · {count} submission{} graded · mean {:.2} / {:.2} · {full} with full marks · {failed_builds} failed to build",
        batch.game,
        if count == 1 { "" } else { "s" },
        mean,
        max
    )
}

fn render_submission(out: &mut String, s: &SubmissionReport, paint: Paint) {
    let total = format!("{} / {}", points(s.score), points(s.max_score));
    let _ = writeln!(
        out,
        "{}  ({})  {} auto-graded points",
        paint.paint(BOLD, &format!("== {}", super::safe_name(&s.name))),
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
        push_cut(out, &super::safe_text(&s.build.log), MAX_LOG_LINES, "    ");
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
                let passed = item
                    .cases
                    .iter()
                    .filter(|c| c.status == Status::Pass)
                    .count();
                let cell = format!(
                    "{:>13}",
                    format!("{} / {}", points(score), points(item.max_score))
                );
                let colour = if passed == item.cases.len() {
                    GREEN
                } else if score > 0.0 {
                    YELLOW
                } else {
                    RED
                };
                let _ = writeln!(
                    out,
                    "  {:<width$}  {}  {passed}/{}",
                    item.id,
                    paint.paint(colour, &cell),
                    item.cases.len()
                );
            }
        }
    }
    if !s.facts.is_empty() {
        let _ = writeln!(out, "facts: {}", facts_line(s));
    }

    let failing: Vec<&CaseRun> = s.runs.iter().filter(|r| !r.passed()).collect();
    if failing.is_empty() {
        return;
    }
    if !s.build.ok {
        let _ = writeln!(
            out,
            "no case could run: fix the build errors above first ({} cases)",
            failing.len()
        );
        return;
    }
    let _ = writeln!(out, "failing cases: {} of {}", failing.len(), s.runs.len());
    for run in failing.iter().take(MAX_SHOWN_FAILURES) {
        render_failure(out, run, paint);
    }
    if failing.len() > MAX_SHOWN_FAILURES {
        let rest: Vec<&str> = failing[MAX_SHOWN_FAILURES..]
            .iter()
            .map(|r| r.name.as_str())
            .collect();
        let _ = writeln!(
            out,
            "  … {} more failing cases (see them with `referee expect GAME CASE`): {}",
            rest.len(),
            rest.join(", ")
        );
    }
}

fn render_failure(out: &mut String, run: &CaseRun, paint: Paint) {
    let items: Vec<String> = run
        .items
        .iter()
        .map(|(item, status)| format!("{item} {}", paint.status(*status, status.as_str())))
        .collect();
    let _ = writeln!(
        out,
        "\n  {}  [{}]",
        paint.paint(RED, &format!("✗ {}", run.name)),
        items.join(", ")
    );
    if let Some(description) = &run.description {
        let _ = writeln!(out, "    what it tests: {description}");
    }
    let _ = writeln!(out, "    ended: {}", run.ended);
    if !run.args.is_empty() {
        let args: Vec<String> = run.args.iter().map(|a| format!("{a:?}")).collect();
        let _ = writeln!(out, "    arguments: {}", args.join(" "));
    }
    if !run.stdin.is_empty() {
        let _ = writeln!(out, "    input:");
        push_cut(out, &run.stdin, MAX_STDIN_LINES, "      ");
    }
    if run.mismatch != super::super::grade::compare::Mismatch::None && !run.diff.is_empty() {
        let _ = writeln!(out, "    difference: {}", run.mismatch.describe());
    }
    for note in &run.notes {
        let _ = writeln!(out, "    note: {note}");
    }
    if !run.diff.is_empty() {
        for line in run.diff.lines() {
            let _ = writeln!(out, "    {}", paint.diff_line(line));
        }
    }
    if !run.stderr.trim().is_empty() {
        let _ = writeln!(out, "    your program's stderr:");
        // A sanitizer report needs its stack trace to be useful.
        let lines = if run.stderr.contains("Sanitizer") {
            MAX_SANITIZER_LINES
        } else {
            MAX_STDERR_LINES
        };
        push_cut(out, &run.stderr, lines, "      ");
    }
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
        let _ = writeln!(
            out,
            "{indent}{}",
            super::super::grade::compare::visible(line)
        );
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
