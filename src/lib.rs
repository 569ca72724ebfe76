//! referee: autograder and reference checker for C board-game assignments.

pub mod bundle;
pub mod cases;
pub mod cli;
pub mod error;
pub mod games;
pub mod grade;
pub mod lms;
pub mod report;
pub mod rng;
pub mod spec;
