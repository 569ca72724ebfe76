//! `--gradebook canvas|moodle`: the CSV the LMS's grade import reads, filling one assignment
//! column with each student's auto-graded total.
//!
//! - Canvas, "How do I import grades in the Gradebook?" (Canvas Instructor Guide) and the
//!   format of its Gradebook export: columns `Student`, `ID`, `SIS User ID`, `SIS Login ID`,
//!   `Section`, then one column per assignment headed `<Assignment name> (<assignment id>)`.
//!   Rows are matched on `ID`, the Canvas user id that the submission download's file names
//!   carry; the SIS columns may stay empty.
//! - Moodle, "Assignment settings: Offline grading worksheet" (MoodleDocs): the worksheet the
//!   assignment's "Upload grading worksheet" accepts, matched on `Identifier`
//!   (`Participant <id>`, the id of the download's file names), with the score in `Grade`.

use clap::ValueEnum;

use super::BatchReport;
use crate::error::Error;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Gradebook {
    Canvas,
    Moodle,
}

pub const CANVAS_HEADER: [&str; 5] = ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"];
pub const MOODLE_HEADER: [&str; 10] = [
    "Identifier",
    "Full name",
    "Email address",
    "Status",
    "Grade",
    "Maximum Grade",
    "Grade can be changed",
    "Last modified (submission)",
    "Last modified (grade)",
    "Feedback comments",
];

/// The gradebook CSV; `column` is Canvas's assignment column (`Lab 6 (12345)`). An error when
/// a submission has no LMS id: the LMS could not tell whose score it is.
pub fn render(batch: &BatchReport, gradebook: Gradebook, column: &str) -> Result<String, Error> {
    if let Some(nameless) = batch.submissions.iter().find(|s| s.id.is_empty()) {
        return Err(Error::config(format!(
            "{}: no LMS id, so it cannot go into a gradebook (grade the LMS's download as it \
             came, or name its layout with --layout)",
            nameless.path
        )));
    }
    let mut rows: Vec<Vec<String>> = Vec::new();
    match gradebook {
        Gradebook::Canvas => {
            let mut header: Vec<String> = CANVAS_HEADER.iter().map(|h| h.to_string()).collect();
            header.push(column.to_string());
            rows.push(header);
            for s in &batch.submissions {
                rows.push(vec![
                    super::safe_name(&s.student),
                    super::safe_name(&s.id),
                    String::new(),
                    String::new(),
                    String::new(),
                    number(s.score),
                ]);
            }
        }
        Gradebook::Moodle => {
            rows.push(MOODLE_HEADER.iter().map(|h| h.to_string()).collect());
            for s in &batch.submissions {
                rows.push(vec![
                    format!("Participant {}", super::safe_name(&s.id)),
                    super::safe_name(&s.student),
                    String::new(),
                    String::new(),
                    number(s.score),
                    number(s.max_score),
                    "Yes".into(),
                    String::new(),
                    String::new(),
                    // Adjustments by hand and a late penalty, said where the student reads.
                    super::changes::lines(s).join("; "),
                ]);
            }
        }
    }
    Ok(rows
        .into_iter()
        .map(|row| {
            let fields: Vec<String> = row.iter().map(|f| field(f)).collect();
            format!("{}\r\n", fields.join(","))
        })
        .collect())
}

/// RFC 4180 quoting; a field a spreadsheet would run as a formula is kept as text.
fn field(text: &str) -> String {
    let text = if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_string()
    };
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text
    }
}

fn number(value: f64) -> String {
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
