//! `--feedback DIR`: one self-contained file per student to hand back, holding that student's
//! report only (score, items, facts, failing cases with their input and diff). Each file is
//! rendered from a batch of that one submission, so nothing of another student can appear.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use super::{BatchReport, SubmissionReport};
use crate::error::Error;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FeedbackFormat {
    Html,
    Text,
}

impl FeedbackFormat {
    fn extension(self) -> &'static str {
        match self {
            FeedbackFormat::Html => "html",
            FeedbackFormat::Text => "txt",
        }
    }
}

/// The batch holding only `submission`, as a report for its student.
pub fn alone(batch: &BatchReport, submission: &SubmissionReport) -> BatchReport {
    BatchReport {
        game: batch.game.clone(),
        submissions: vec![submission.clone()],
        sandbox: batch.sandbox.clone(),
        skipped: Vec::new(),
    }
}

/// Writes one file per submission into `dir` and returns their paths, in submission order.
pub fn write(
    batch: &BatchReport,
    dir: &Path,
    format: FeedbackFormat,
) -> Result<Vec<PathBuf>, Error> {
    let fail = |path: &Path, e: std::io::Error| {
        Error::config(format!("{}: cannot write feedback: {e}", path.display()))
    };
    std::fs::create_dir_all(dir).map_err(|e| fail(dir, e))?;
    let mut used = BTreeSet::new();
    let mut written = Vec::new();
    for submission in &batch.submissions {
        let stem = file_stem(submission);
        let mut name = stem.clone();
        let mut count = 1;
        while !used.insert(name.clone()) {
            count += 1;
            name = format!("{stem}-{count}");
        }
        let path = dir.join(format!("{name}.{}", format.extension()));
        let report = alone(batch, submission);
        let text = match format {
            FeedbackFormat::Html => super::html::render(&report),
            FeedbackFormat::Text => super::text::render(&report),
        };
        std::fs::write(&path, text).map_err(|e| fail(&path, e))?;
        written.push(path);
    }
    Ok(written)
}

/// `Jane Doe` with id 123 → `Jane_Doe_123`: the student's name and id in characters every
/// file system and LMS upload accepts.
fn file_stem(submission: &SubmissionReport) -> String {
    let mut text = submission.student.clone();
    if !submission.id.is_empty() {
        text.push('_');
        text.push_str(&submission.id);
    }
    let cleaned: String = text
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let cleaned = cleaned.trim_matches(['_', '.']).to_string();
    if cleaned.is_empty() {
        "student".into()
    } else {
        cleaned
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::model::BuildReport;

    fn submission(student: &str, id: &str) -> SubmissionReport {
        SubmissionReport {
            name: student.into(),
            path: student.into(),
            score: 0.0,
            max_score: 1.0,
            build: BuildReport {
                ok: true,
                log: String::new(),
            },
            items: Vec::new(),
            facts: Default::default(),
            ignored: Vec::new(),
            notes: Vec::new(),
            student: student.into(),
            id: id.into(),
            late: false,
            runs: Vec::new(),
        }
    }

    #[test]
    fn file_names_keep_name_and_id_and_drop_path_characters() {
        assert_eq!(file_stem(&submission("Jane Doe", "123")), "Jane_Doe_123");
        assert_eq!(file_stem(&submission("../../etc/x", "")), "etc_x");
        assert_eq!(file_stem(&submission("..", "")), "student");
    }
}
