//! Exact reimplementations of the random generators the students' C programs use, each with
//! test vectors, so the references draw the same numbers as a real run.

pub mod glibc;
pub mod xorshift;
