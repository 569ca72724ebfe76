//! referee: autograder and reference checker for C board-game assignments.

pub mod cases;
pub mod error;
pub mod games;
pub mod rng;
pub mod spec;
