//! `--format gradescope`: Gradescope's autograder `results.json` for ONE submission (their
//! autograder runs once per student). One test per auto-graded rubric item, its output the
//! failing cases with their diffs; manual items are left to Gradescope's manual grading and
//! named in the top-level output only.

use std::fmt::Write;

use serde::Serialize;

use super::{summary, BatchReport, CaseOutcome, ItemReport, Status, SubmissionReport};
use crate::error::Error;

/// Failing cases shown with input and diff per item; the rest are listed by name.
const MAX_SHOWN_CASES: usize = 5;
/// Lines of stdin and of the build log shown.
const MAX_LINES: usize = 40;

#[derive(Serialize)]
struct Results {
    score: f64,
    execution_time: f64,
    output: String,
    output_format: &'static str,
    visibility: &'static str,
    tests: Vec<Test>,
}

#[derive(Serialize)]
struct Test {
    name: String,
    score: f64,
    max_score: f64,
    status: &'static str,
    output: String,
    output_format: &'static str,
    visibility: &'static str,
}

/// The results for the batch's only submission; an error when there is not exactly one.
pub fn render(batch: &BatchReport, execution_seconds: f64) -> Result<String, Error> {
    let [submission] = batch.submissions.as_slice() else {
        return Err(one_submission_error(batch.submissions.len()));
    };
    let results = Results {
        score: submission.score,
        execution_time: (execution_seconds * 10.0).round() / 10.0,
        output: overview(&batch.game, submission, &super::skipped_lines(batch)),
        output_format: "text",
        visibility: "visible",
        tests: submission
            .items
            .iter()
            .filter(|item| !item.manual)
            .map(|item| test(submission, item))
            .collect(),
    };
    let mut text = serde_json::to_string_pretty(&results)
        .map_err(|e| Error::config(format!("cannot serialize the Gradescope results: {e}")))?;
    text.push('\n');
    Ok(text)
}

/// Gradescope grades one submission per run, so a batch is a usage error.
pub fn one_submission_error(found: usize) -> Error {
    Error::config(format!(
        "--format gradescope writes Gradescope's results.json for exactly one submission, but {found} were found; grade each submission on its own (as Gradescope's run_autograder does)"
    ))
}

fn overview(game: &str, s: &SubmissionReport, skipped: &[String]) -> String {
    let mut out = format!(
        "referee {game}: {} / {} auto-graded points.\n",
        s.score, s.max_score
    );
    if s.build.ok {
        out.push_str("Build: ok.\n");
    } else {
        out.push_str("Build: FAILED, so no case could run. Compiler output:\n");
    }
    if !s.build.ok || !s.build.log.trim().is_empty() {
        let log = super::safe_text(&s.build.log);
        let (shown, hidden) = super::build_log_excerpt(&log, MAX_LINES);
        for line in shown {
            let _ = writeln!(out, "  {line}");
        }
        if hidden > 0 {
            let _ = writeln!(out, "  … {hidden} more lines");
        }
    }
    for line in super::reading_notes(s) {
        let _ = writeln!(out, "Note: {line}");
    }
    for line in skipped {
        let _ = writeln!(out, "Not graded: {line}");
    }
    if s.build.ok {
        // What to fix first, case by case; each item's test below has the details.
        for line in summary::plain_lines(&summary::summarize(s), "in the item's test") {
            out.push_str(&line);
            out.push('\n');
        }
    }
    let manual: Vec<String> = s
        .items
        .iter()
        .filter(|i| i.manual)
        .map(|i| format!("{} ({} pts)", i.id, i.max_score))
        .collect();
    if !manual.is_empty() {
        let _ = writeln!(
            out,
            "Graded by hand, not included here: {}.",
            manual.join(", ")
        );
    }
    out
}

fn test(submission: &SubmissionReport, item: &ItemReport) -> Test {
    let score = item.score.unwrap_or(0.0);
    let cases = submission.item_cases(&item.id).count();
    let failing: Vec<_> = submission
        .item_cases(&item.id)
        .filter(|c| c.status() != Status::Pass)
        .collect();
    let mut output = format!("{} of {} cases pass.\n", cases - failing.len(), cases);
    if !submission.build.ok {
        output.push_str("Not run: the build failed (the compiler's output is at the top).\n");
        return test_result(item, score, failing.is_empty(), output);
    }
    for case in failing.iter().take(MAX_SHOWN_CASES) {
        let _ = writeln!(
            output,
            "\n✗ {} ({})",
            case.case.name,
            case.status().as_str()
        );
        describe_run(&mut output, case.case);
        let diff = case.case.diff_in(case.verdict);
        if !diff.is_empty() {
            output.push_str(&diff);
        }
    }
    if failing.len() > MAX_SHOWN_CASES {
        let rest: Vec<&str> = failing[MAX_SHOWN_CASES..]
            .iter()
            .map(|c| c.case.name.as_str())
            .collect();
        let _ = writeln!(
            output,
            "\n… and {} more failing cases: {}",
            rest.len(),
            rest.join(", ")
        );
    }
    test_result(item, score, failing.is_empty(), output)
}

fn test_result(item: &ItemReport, score: f64, passed: bool, output: String) -> Test {
    Test {
        name: item.id.clone(),
        score,
        max_score: item.max_score,
        status: if passed { "passed" } else { "failed" },
        output,
        output_format: "text",
        visibility: "visible",
    }
}

fn describe_run(out: &mut String, run: &CaseOutcome) {
    if let Some(description) = &run.description {
        let _ = writeln!(out, "what it tests: {description}");
    }
    let _ = writeln!(out, "ended: {}", run.ended);
    if !run.args.is_empty() {
        let _ = writeln!(out, "arguments: {:?}", run.args);
    }
    if !run.stdin.is_empty() {
        out.push_str("input:\n");
        push_cut(out, &run.stdin, MAX_LINES);
    }
    if !run.explanation.reason.is_empty() {
        let _ = writeln!(out, "why: {}", run.explanation.reason);
    }
    for hint in &run.explanation.hints {
        let _ = writeln!(out, "hint: {hint}");
    }
    if let Some(divergence) = &run.explanation.divergence {
        let _ = writeln!(out, "the reference's board before {}:", divergence.turn);
        push_cut(out, &divergence.board, MAX_LINES);
    }
    for note in &run.notes {
        let _ = writeln!(out, "note: {note}");
    }
}

fn push_cut(out: &mut String, text: &str, max_lines: usize) {
    let lines: Vec<&str> = text.lines().collect();
    for line in lines.iter().take(max_lines) {
        let _ = writeln!(out, "  {line}");
    }
    if lines.len() > max_lines {
        let _ = writeln!(out, "  … {} more lines", lines.len() - max_lines);
    }
}
