//! `--feedback DIR`: one self-contained file per student to hand back, holding that student's
//! report only (score, items, facts, failing cases with their input and diff). Each file is
//! rendered from that one submission alone (no class summary, histogram or batch line), with
//! its path cut to the file or folder name, so nothing of another student or of the TA's
//! machine can appear.

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
        let mine = for_student(submission);
        let text = match format {
            FeedbackFormat::Html => super::html::render_feedback(&batch.game, &mine),
            FeedbackFormat::Text => super::text::render_feedback(&batch.game, &mine),
        };
        // A link planted in DIR would carry the write outside it.
        crate::report::destination::refuse_overwrite(&path, &[])?;
        std::fs::write(&path, text).map_err(|e| fail(&path, e))?;
        written.push(path);
    }
    Ok(written)
}

/// The submission as its student sees it: named by its file or folder alone, so no path of
/// the TA's machine reaches the student.
fn for_student(submission: &SubmissionReport) -> SubmissionReport {
    let mut mine = submission.clone();
    if let Some(name) = Path::new(&submission.path).file_name() {
        mine.path = name.to_string_lossy().into_owned();
    }
    mine
}

/// `Jane Doe` with id 123 → `Jane_Doe_123`: the student's name and id in characters every
/// file system and LMS upload accepts.
fn file_stem(submission: &SubmissionReport) -> String {
    let mut text = submission.student.clone();
    if !submission.id.is_empty() {
        text.push('_');
        text.push_str(&submission.id);
    }
    super::destination::file_safe(&text)
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
            changes: None,
        }
    }

    #[test]
    fn file_names_keep_name_and_id_and_drop_path_characters() {
        assert_eq!(file_stem(&submission("Jane Doe", "123")), "Jane_Doe_123");
        assert_eq!(file_stem(&submission("../../etc/x", "")), "etc_x");
        assert_eq!(file_stem(&submission("..", "")), "student");
    }
}
