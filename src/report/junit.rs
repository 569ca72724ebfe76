//! `--format junit`: JUnit XML for CI systems. One `<testsuite>` per submission, one
//! `<testcase>` per case; a case that does not pass carries a `<failure>` whose `type` is its
//! worst status and whose text is the diff (plus checker notes and stderr).

use std::fmt::Write;

use super::{BatchReport, CaseOutcome, Status, SubmissionReport};

pub fn render(batch: &BatchReport) -> String {
    let tests: usize = batch.submissions.iter().map(|s| s.runs.len()).sum();
    let failures: usize = batch.submissions.iter().map(failure_count).sum();
    let mut out = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        out,
        "<testsuites name=\"{}\" tests=\"{tests}\" failures=\"{failures}\" errors=\"0\">",
        escape(&batch.game)
    );
    for submission in &batch.submissions {
        render_suite(&mut out, &batch.game, submission);
    }
    // An entry not graded is a suite whose one test is skipped, with the reason.
    for skipped in &batch.skipped {
        let _ = writeln!(
            out,
            "  <testsuite name=\"{name}\" tests=\"1\" failures=\"0\" errors=\"0\" skipped=\"1\">\n    <testcase classname=\"{game}.{name}\" name=\"submission\">\n      <skipped message=\"{reason}\"/>\n    </testcase>\n  </testsuite>",
            name = escape(&skipped.path),
            game = escape(&batch.game),
            reason = escape(&skipped.reason)
        );
    }
    out.push_str("</testsuites>\n");
    out
}

fn failure_count(submission: &SubmissionReport) -> usize {
    submission.runs.iter().filter(|r| !r.passed()).count()
}

fn render_suite(out: &mut String, game: &str, submission: &SubmissionReport) {
    let _ = writeln!(
        out,
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\">",
        escape(&super::safe_name(&submission.name)),
        submission.runs.len(),
        failure_count(submission)
    );
    let _ = writeln!(out, "    <properties>");
    let mut properties = vec![
        ("path", super::safe_name(&submission.path)),
        ("student", super::safe_name(&submission.student)),
        ("id", super::safe_name(&submission.id)),
        ("late", submission.late.to_string()),
        ("score", submission.score.to_string()),
        ("max_score", submission.max_score.to_string()),
        ("build_ok", submission.build.ok.to_string()),
        ("notes", super::reading_notes(submission).join("\n")),
    ];
    // After adjustments or a late penalty: the points before them, and what changed.
    if let Some(changes) = &submission.changes {
        properties.push(("raw_score", changes.raw_score.to_string()));
        properties.push(("changes", super::changes::lines(submission).join("\n")));
    }
    for (name, value) in properties {
        let _ = writeln!(
            out,
            "      <property name=\"{name}\" value=\"{}\"/>",
            escape(&value)
        );
    }
    let _ = writeln!(out, "    </properties>");
    let classname = escape(&format!("{game}.{}", super::safe_name(&submission.name)));
    for run in &submission.runs {
        render_case(out, &classname, run);
    }
    if !submission.build.ok {
        let _ = writeln!(
            out,
            "    <system-err>{}</system-err>",
            escape(&super::safe_text(&submission.build.log))
        );
    }
    let _ = writeln!(out, "  </testsuite>");
}

fn render_case(out: &mut String, classname: &str, run: &CaseOutcome) {
    let name = escape(&run.name);
    if run.passed() {
        let _ = writeln!(
            out,
            "    <testcase name=\"{name}\" classname=\"{classname}\"/>"
        );
        return;
    }
    let worst = run
        .items
        .iter()
        .map(|i| i.status)
        .find(|status| *status != Status::Pass && *status != Status::Fail)
        .unwrap_or(Status::Fail);
    let failing: Vec<String> = run
        .items
        .iter()
        .filter(|i| i.status != Status::Pass)
        .map(|i| format!("{} {}", i.item, i.status.as_str()))
        .collect();
    let message = format!("{}; {}", failing.join(", "), run.ended);
    let mut body = run.diff.clone();
    for note in &run.notes {
        let _ = writeln!(body, "note: {note}");
    }
    if !run.stderr.trim().is_empty() {
        let _ = write!(body, "stderr:\n{}", run.stderr);
    }
    let _ = writeln!(
        out,
        "    <testcase name=\"{name}\" classname=\"{classname}\">\n      <failure type=\"{}\" message=\"{}\">{}</failure>\n    </testcase>",
        worst.as_str(),
        escape(&message),
        escape(&body)
    );
}

/// XML text or attribute: markup characters escaped, and characters XML 1.0 cannot hold
/// (most control characters, which student output may contain) replaced by U+FFFD.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            '\t' | '\n' | '\r' => out.push(ch),
            c if (c as u32) < 0x20 || c == '\u{fffe}' || c == '\u{ffff}' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_and_control_characters_are_made_safe() {
        assert_eq!(
            escape("a<b>&\"c'\u{1}\n"),
            "a&lt;b&gt;&amp;&quot;c&apos;\u{fffd}\n"
        );
    }
}
