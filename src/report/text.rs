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
    if batch.submissions.len() > 1 {
        for line in super::class::text_lines(batch) {
            let _ = writeln!(out, "{line}");
        }
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

/// One student's report to hand back: their section only (no class lines, no batch summary).
pub fn render_feedback(game: &str, submission: &SubmissionReport) -> String {
    let mut out = String::new();
    render_submission(&mut out, game, submission, &Options::default());
    out
}

/// Why an item's points and its cases passed tell different stories, where they do: a case
/// that does not pass in full can still earn (a trace item's margin, partial credit).
fn why_points_differ(score: f64, max: f64, passed: usize, cases: usize) -> &'static str {
    let full = score >= max - 5e-4;
    if passed < cases && full {
        "  (inside the margin: no points lost)"
    } else if passed < cases && score > max * passed as f64 / cases.max(1) as f64 + 5e-4 {
        "  (partial credit in cases that do not pass in full)"
    } else {
        ""
    }
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
        "{} · {count} submission{} graded · mean {:.2} / {:.2} · {full} with full marks · {failed_builds} failed to build{skipped}{}",
        batch.game,
        if count == 1 { "" } else { "s" },
        mean,
        max,
        if batch.data.is_empty() {
            String::new()
        } else {
            format!(" · cases version {}", batch.data)
        }
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
                    "  {:<width$}  {}  {passed}/{cases}{}",
                    item.id,
                    paint.paint(colour, &cell),
                    why_points_differ(score, item.max_score, passed, cases),
                );
            }
        }
    }
    for line in super::changes::lines(s) {
        let _ = writeln!(out, "{line}");
    }
    let summary = summary::summarize(s);
    if s.build.ok {
        render_summary(out, s, &summary, paint);
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
fn render_summary(
    out: &mut String,
    s: &SubmissionReport,
    summary: &summary::Summary,
    paint: Paint,
) {
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
        // The same reason as the item's row when its points tell another story.
        let why = s
            .items
            .iter()
            .find(|i| i.id == group.item)
            .and_then(|i| i.score.map(|score| (score, i.max_score)))
            .map_or("", |(score, max)| {
                why_points_differ(
                    score,
                    max,
                    group.cases_total - group.failing_total,
                    group.cases_total,
                )
            });
        let heading = format!("{}{why}", summary::group_heading(group));
        let _ = writeln!(out, "{}", paint.paint(BOLD, &heading));
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
        let _ = writeln!(out, "    why: {}", super::safe_name(&explanation.reason));
    }
    for hint in &explanation.hints {
        let _ = writeln!(out, "    hint: {}", super::safe_name(hint));
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
    let notes = summarised(&notes);
    let notes: Vec<&String> = notes.iter().collect();
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

/// Notes of a repeated kind shown before the rest are counted.
const NOTES_PER_KIND: usize = 3;

/// Notes with repeated kinds summarised: the first three of each kind (a trace checker's
/// findings under one rule of one item, or one per-run note whose numbers differ), then
/// "… and N more like these (in R runs)". A class's `--all` report stays readable: a
/// LUDO-CS case notes every finding of each of its 125 runs.
fn summarised(notes: &[&String]) -> Vec<String> {
    let mut kinds: Vec<(String, Vec<&String>)> = Vec::new();
    for &note in notes {
        let kind = note_kind(note);
        match kinds.iter_mut().find(|(k, _)| *k == kind) {
            Some((_, members)) => members.push(note),
            None => kinds.push((kind, vec![note])),
        }
    }
    let mut out = Vec::new();
    for (_, members) in kinds {
        out.extend(members.iter().take(NOTES_PER_KIND).map(|n| n.to_string()));
        let rest = members.len().saturating_sub(NOTES_PER_KIND);
        if rest > 0 {
            let mut runs: Vec<&str> = members.iter().filter_map(|n| run_of(n)).collect();
            runs.dedup();
            let in_runs = if runs.len() > 1 {
                format!(" (in {} runs)", runs.len())
            } else {
                String::new()
            };
            out.push(format!("… and {rest} more like these{in_runs}"));
        }
    }
    out
}

/// "run 12" of a note "run 12, rules: ...".
fn run_of(note: &str) -> Option<&str> {
    note.strip_prefix("run ")
        .and_then(|rest| rest.split_once(", "))
        .map(|(run, _)| run)
}

/// What makes notes alike: the item, and for a finding `line N: "text": RULE: why` its rule;
/// for any other note its words without numbers and quoted text.
fn note_kind(note: &str) -> String {
    let body = match run_of(note) {
        Some(run) => &note[4 + run.len() + 2..],
        None => note,
    };
    let (item, rest) = body.split_once(": ").unwrap_or(("", body));
    if rest.starts_with("line ") {
        if let Some((_, after)) = rest.split_once("\": ") {
            let rule = after.split(": ").next().unwrap_or(after);
            return format!("{item}: finding under {rule}");
        }
    }
    let mut kind = format!("{item}: ");
    let mut quoted = false;
    for c in rest.chars() {
        if c == '"' {
            quoted = !quoted;
        } else if !quoted && !c.is_ascii_digit() {
            kind.push(c);
        }
    }
    kind
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
    fn points_and_cases_passed_agree_or_the_row_says_why() {
        assert_eq!(why_points_differ(20.0, 20.0, 2, 2), "");
        assert_eq!(why_points_differ(10.0, 20.0, 1, 2), "");
        assert_eq!(why_points_differ(0.0, 20.0, 0, 2), "");
        assert!(why_points_differ(20.0, 20.0, 1, 2).contains("inside the margin: no points lost"));
        assert!(why_points_differ(15.0, 20.0, 1, 2).contains("partial credit"));
    }

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

    #[test]
    fn repeated_notes_are_summarised_per_kind_with_the_first_three() {
        let mut notes: Vec<String> = Vec::new();
        for run in 1..=40 {
            notes.push(format!(
                "run {run}, rules: read and checked {} of 900 lines of the game",
                800 + run
            ));
            notes.push(format!("run {run}, rules: line {}: \"Red player rolled 5.\": Rule 4: Red rolls again after a 5 without a capture", run * 3));
            if run % 10 == 0 {
                notes.push(format!("run {run}, rules: line 7: \"Green player moves piece G1 to the starting point.\": Rule 2: G1 leaves base on a roll of 4; leaving base needs a six"));
            }
        }
        notes.push("all runs, rules: missing feature: in 40 games no piece was ever captured; the model captures in 40 of 40".into());
        let refs: Vec<&String> = notes.iter().collect();
        let shown = summarised(&refs);
        assert_eq!(shown.len(), 4 * 3 + 1, "{shown:#?}");
        assert_eq!(shown[0], notes[0]);
        assert_eq!(shown[3], "… and 37 more like these (in 40 runs)");
        assert!(shown[4].contains("Rule 4") && shown[7] == "… and 37 more like these (in 40 runs)");
        assert!(shown[8].contains("Rule 2") && shown[11] == "… and 1 more like these (in 4 runs)");
        assert!(shown[12].starts_with("all runs, rules: missing feature"));
    }
}
