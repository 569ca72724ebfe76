//! `--format csv`: one row per submission for a gradebook import. Columns: `name`, one per
//! rubric item in spec order (manual items left empty for the TA), `total` and `max`
//! (auto-graded points), `status`, then who the submission belongs to: `student`, `id` (the
//! LMS's, empty outside an LMS export) and `late`. After adjustments or a late policy
//! (`--adjust`, `--late-penalty`), three more: `raw_total` (before them), `adjusted` (the
//! points adjusted by hand) and `late_penalty` (the points taken).

use super::{BatchReport, Status, SubmissionReport};

pub fn render(batch: &BatchReport) -> String {
    let item_ids: Vec<&str> = batch
        .submissions
        .first()
        .map(|s| s.items.iter().map(|i| i.id.as_str()).collect())
        .unwrap_or_default();
    let mut out = String::new();
    let mut header = vec!["name"];
    header.extend(&item_ids);
    header.extend(["total", "max", "status", "student", "id", "late"]);
    let changed = batch.submissions.iter().any(|s| s.changes.is_some());
    if changed {
        header.extend(["raw_total", "adjusted", "late_penalty"]);
    }
    push_row(&mut out, header.iter().map(|h| h.to_string()));
    for submission in &batch.submissions {
        let mut row = vec![inert(&super::safe_name(&submission.name))];
        for id in &item_ids {
            let score = submission
                .items
                .iter()
                .find(|i| i.id == *id)
                .and_then(|i| i.score);
            row.push(score.map(number).unwrap_or_default());
        }
        row.push(number(submission.score));
        row.push(number(submission.max_score));
        let mut status = status(submission);
        if !submission.ignored.is_empty() {
            let files: Vec<&str> = submission.ignored.iter().map(|i| i.file.as_str()).collect();
            status.push_str(&format!(
                "; ignored {}",
                super::safe_name(&files.join(", "))
            ));
        }
        row.push(status);
        row.push(inert(&super::safe_name(&submission.student)));
        row.push(inert(&super::safe_name(&submission.id)));
        row.push(if submission.late { "late" } else { "" }.to_string());
        if let Some(changes) = &submission.changes {
            let adjusted: f64 = changes.adjustments.iter().map(|a| a.delta).sum();
            row.push(number(changes.raw_score));
            row.push(number(adjusted));
            row.push(number(
                changes.late_penalty.as_ref().map_or(0.0, |p| p.points),
            ));
        }
        push_row(&mut out, row.into_iter());
    }
    // Entries not graded get a row with no points, so none vanishes from the gradebook.
    for skipped in &batch.skipped {
        let mut row = vec![inert(&super::safe_name(&skipped.path))];
        row.extend(item_ids.iter().map(|_| String::new()));
        row.extend([String::new(), String::new()]);
        row.push(format!("not graded: {}", skipped.reason));
        row.extend([String::new(), String::new(), String::new()]);
        if changed {
            row.extend([String::new(), String::new(), String::new()]);
        }
        push_row(&mut out, row.into_iter());
    }
    out
}

/// `ok`, or what went wrong in words, joined with "; " (e.g. `timed out; crashed`).
pub fn status(submission: &SubmissionReport) -> String {
    if !submission.build.ok {
        return "build failed".into();
    }
    let any = |wanted: Status| {
        submission
            .runs
            .iter()
            .any(|run| run.items.iter().any(|i| i.status == wanted))
    };
    let problems: Vec<&str> = [
        (Status::BuildError, "unit harness did not build"),
        (Status::Timeout, "timed out"),
        (Status::Crash, "crashed"),
        (Status::OutputLimit, "output limit"),
    ]
    .into_iter()
    .filter(|(wanted, _)| any(*wanted))
    .map(|(_, words)| words)
    .collect();
    if problems.is_empty() {
        "ok".into()
    } else {
        problems.join("; ")
    }
}

/// A submission name comes from a student's file name; one starting like a formula would be
/// run by a spreadsheet on import, so it gets a leading apostrophe (shown as text).
fn inert(name: &str) -> String {
    if name.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{name}")
    } else {
        name.to_string()
    }
}

fn number(value: f64) -> String {
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// RFC 4180: a field with a comma, quote or line break is quoted, quotes doubled.
fn push_row(out: &mut String, fields: impl Iterator<Item = String>) {
    let fields: Vec<String> = fields
        .map(|field| {
            if field.contains([',', '"', '\n', '\r']) {
                format!("\"{}\"", field.replace('"', "\"\""))
            } else {
                field
            }
        })
        .collect();
    out.push_str(&fields.join(","));
    out.push_str("\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_with_separators_are_quoted() {
        let mut out = String::new();
        push_row(
            &mut out,
            ["plain", "a,b", "say \"hi\"", "two\nlines"]
                .iter()
                .map(|s| s.to_string()),
        );
        assert_eq!(out, "plain,\"a,b\",\"say \"\"hi\"\"\",\"two\nlines\"\r\n");
    }

    #[test]
    fn names_that_look_like_formulas_stay_text() {
        assert_eq!(inert("=HYPERLINK(\"x\")"), "'=HYPERLINK(\"x\")");
        assert_eq!(inert("@sum"), "'@sum");
        assert_eq!(inert("alice"), "alice");
    }

    #[test]
    fn numbers_drop_needless_zeros() {
        assert_eq!(number(4.5), "4.5");
        assert_eq!(number(6.0), "6");
        assert_eq!(number(0.333), "0.333");
    }
}
