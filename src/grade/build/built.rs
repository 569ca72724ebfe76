//! What a build gives: a binary, or why there is none, with the compiler's output.

use std::path::PathBuf;

/// A built binary, or why there is none.
#[derive(Debug)]
pub struct Built {
    pub binary: Option<PathBuf>,
    /// Compiler output (warnings, errors), as the student would see it.
    pub log: String,
    /// Object files of the student's own sources (their symbols give the globals fact).
    pub objects: Vec<PathBuf>,
    /// Taken from the build cache.
    pub cached: bool,
}
