//! `--format gradescope`: Gradescope's autograder `results.json` for ONE submission (their
//! autograder runs once per student). One test per auto-graded rubric item and visibility of
//! its cases (the item's visible cases, then its hidden ones, … each with Gradescope's
//! `visibility`), its output the failing cases with their diffs; manual items are left to
//! Gradescope's manual grading and named in the top-level output only.

use std::fmt::Write;

use serde::Serialize;

use super::{summary, BatchReport, CaseOutcome, ItemCase, ItemReport, Status, SubmissionReport};
use crate::assignment::cases::Visibility;
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
        output: overview(batch, submission, &super::skipped_lines(batch)),
        output_format: "text",
        visibility: "visible",
        tests: submission
            .items
            .iter()
            .filter(|item| !item.manual)
            .flat_map(|item| tests(submission, item))
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

fn overview(batch: &BatchReport, s: &SubmissionReport, skipped: &[String]) -> String {
    let mut out = format!(
        "referee {}: {} / {} auto-graded points (cases version {}).\n",
        batch.game, s.score, s.max_score, batch.data
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
    for line in super::changes::lines(s) {
        let _ = writeln!(out, "{}{}", line[..1].to_uppercase(), &line[1..]);
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

/// The visibilities in the order their tests are listed.
const VISIBILITIES: [Visibility; 4] = [
    Visibility::Visible,
    Visibility::AfterDueDate,
    Visibility::AfterPublished,
    Visibility::Hidden,
];

/// An item's tests: one per visibility of its cases. Each scores the item's points times its
/// cases' share of what they earned, so the tests add up to the item's score; the first test
/// takes what rounding and any adjustment by hand leave over.
fn tests(submission: &SubmissionReport, item: &ItemReport) -> Vec<Test> {
    let cases: Vec<ItemCase> = submission.item_cases(&item.id).collect();
    let parts: Vec<(Visibility, Vec<ItemCase>)> = VISIBILITIES
        .iter()
        .map(|v| {
            (
                *v,
                cases
                    .iter()
                    .copied()
                    .filter(|c| c.case.visibility == *v)
                    .collect::<Vec<_>>(),
            )
        })
        .filter(|(_, cases)| !cases.is_empty())
        .collect();
    if parts.len() < 2 {
        let visibility = parts.first().map_or(Visibility::Visible, |(v, _)| *v);
        let score = item.score.unwrap_or(0.0);
        return vec![test(
            submission,
            item,
            visibility,
            &cases,
            score,
            item.max_score,
        )];
    }
    let share = |part: &[ItemCase], of: fn(&ItemCase) -> f64| {
        round(item.max_score * part.iter().map(of).sum::<f64>() / cases.len() as f64)
    };
    let scores: Vec<(f64, f64)> = parts
        .iter()
        .map(|(_, part)| (share(part, |c| c.verdict.fraction), share(part, |_| 1.0)))
        .collect();
    let (rest_score, rest_max) = scores[1..]
        .iter()
        .fold((0.0, 0.0), |(s, m), (score, max)| (s + score, m + max));
    parts
        .iter()
        .zip(scores)
        .enumerate()
        .map(|(index, ((visibility, part), (score, max)))| {
            let (score, max) = if index == 0 {
                (
                    round(item.score.unwrap_or(0.0) - rest_score),
                    round(item.max_score - rest_max),
                )
            } else {
                (score, max)
            };
            test(submission, item, *visibility, part, score, max)
        })
        .collect()
}

fn round(points: f64) -> f64 {
    (points * 1000.0).round() / 1000.0
}

fn test(
    submission: &SubmissionReport,
    item: &ItemReport,
    visibility: Visibility,
    cases: &[ItemCase],
    score: f64,
    max_score: f64,
) -> Test {
    let failing: Vec<&ItemCase> = cases
        .iter()
        .filter(|c| c.status() != Status::Pass)
        .collect();
    let mut output = format!(
        "{} of {} cases pass.\n",
        cases.len() - failing.len(),
        cases.len()
    );
    let adjusted = submission
        .changes
        .iter()
        .flat_map(|c| &c.adjustments)
        .filter(|a| a.item == item.id);
    // An adjustment is scored in the item's first test, and said there.
    if visibility == VISIBILITIES[0] || !cases.iter().any(|c| c.case.visibility == VISIBILITIES[0])
    {
        for adjustment in adjusted {
            let _ = writeln!(
                output,
                "Adjusted by hand: {}{}.",
                super::changes::signed(adjustment.delta),
                if adjustment.comment.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", super::safe_name(&adjustment.comment))
                }
            );
        }
    }
    let name = match visibility {
        Visibility::Visible => item.id.clone(),
        Visibility::Hidden => format!("{} (hidden cases)", item.id),
        Visibility::AfterDueDate => format!("{} (cases shown after the due date)", item.id),
        Visibility::AfterPublished => format!("{} (cases shown once published)", item.id),
    };
    let passed = failing.is_empty();
    let result = |output: String| Test {
        name: name.clone(),
        score,
        max_score,
        status: if passed { "passed" } else { "failed" },
        output,
        output_format: "text",
        visibility: visibility.as_str(),
    };
    if !submission.build.ok {
        output.push_str("Not run: the build failed (the compiler's output is at the top).\n");
        return result(output);
    }
    for case in failing.iter().take(MAX_SHOWN_CASES) {
        if case.case.concealed {
            let _ = writeln!(output, "\n✗ {}", case.case.explanation.reason);
            continue;
        }
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
    result(output)
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
