//! Running untrusted programs: the sandbox, many cases in one run (batches), the runs kept
//! from earlier gradings, and referee's runtime linked into every program.

pub mod batch;
pub mod cache;
pub mod runtime;
pub mod sandbox;
