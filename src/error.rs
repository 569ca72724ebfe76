//! Errors in referee's own input (usage, configuration, environment): one line, exit 2.
//! Problems with a student's submission are results, not errors.

use std::fmt;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    message: String,
}

impl Error {
    /// Messages are kept to one line (parsers' multi-line messages are joined with "; ").
    pub fn config(message: impl Into<String>) -> Self {
        let message: String = message.into();
        let message = message
            .lines()
            .map(str::trim)
            .filter(|line| !line.is_empty())
            .collect::<Vec<_>>()
            .join("; ");
        Self { message }
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for Error {}
