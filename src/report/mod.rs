//! Report writers, one per format, all reading the same graded batch.

pub mod csv;
pub mod gradescope;
pub mod groups;
pub mod hints;
pub mod html;
pub mod json;
pub mod junit;
pub mod model;
pub mod summary;
pub mod text;

pub use model::{BatchReport, CaseResult, CaseRun, ItemReport, Status, SubmissionReport};
