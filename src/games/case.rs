//! One case as the reference reads it: its name, kind and game-specific fields (loaded from
//! `cases/<game>/*.toml` by `assignment::cases`).

use serde::de::DeserializeOwned;
use serde::Deserialize;
use std::path::PathBuf;

use crate::error::Error;

/// How a case exercises the submission.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CaseKind {
    /// The student's whole program, fed stdin and argv.
    Program,
    /// One required function, called by the game's C harness linked with the student's code.
    Unit,
    /// The program is run several times and each output is replayed by a trace checker.
    Trace,
}

/// One `[[case]]` table. Game-specific inputs stay in `fields` until the game parses them.
#[derive(Debug, Clone)]
pub struct CaseSpec {
    pub name: String,
    pub kind: CaseKind,
    pub description: Option<String>,
    /// The file the case came from, for error messages.
    pub file: PathBuf,
    pub fields: toml::Table,
}

impl CaseSpec {
    /// Parses the game-specific fields into `T`. Unknown fields are the game's business:
    /// use `#[serde(deny_unknown_fields)]` on `T` to catch typos.
    pub fn parse<T: DeserializeOwned>(&self) -> Result<T, Error> {
        toml::Value::Table(self.fields.clone())
            .try_into()
            .map_err(|e: toml::de::Error| self.error(e.message()))
    }

    /// An error about this case, naming its file and name.
    pub fn error(&self, message: impl std::fmt::Display) -> Error {
        Error::config(format!(
            "{}: case '{}': {}",
            self.file.display(),
            self.name,
            message
        ))
    }
}
