//! referee: autograder and reference checker for C board-game assignments.

pub mod adjust;
pub mod assignment;
pub mod bundle;
pub mod cli;
pub mod compare;
pub mod error;
pub mod games;
pub mod grade;
pub mod lms;
pub mod mutants;
pub mod places;
pub mod report;
pub mod rng;
pub mod similar;
