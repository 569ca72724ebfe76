//! Report writers, one per format, all reading the same graded batch.

pub mod json;
pub mod model;
pub mod text;

pub use model::{BatchReport, CaseResult, CaseRun, ItemReport, Status, SubmissionReport};
