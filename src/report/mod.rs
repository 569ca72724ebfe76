//! Report writers, one per format, all reading the same graded batch.

pub mod csv;
pub mod gradescope;
pub mod groups;
pub mod html;
pub mod json;
pub mod junit;
pub mod model;
pub mod text;

pub use model::{
    BatchReport, CaseOutcome, ItemCase, ItemOutcome, ItemReport, Status, SubmissionReport,
};
