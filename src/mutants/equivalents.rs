//! `specs/<game>/mutants.toml`: survivors judged equivalent (each with its reason), and
//! survivors that are real gaps in the cases (each with the case that would kill it).
//!
//! An entry matches a mutant by file, function and the original and mutated line, not by
//! line number, so editing the model elsewhere does not orphan it.

use std::path::Path;

use serde::Deserialize;

use super::operators::Mutant;
use crate::error::Error;

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Equivalents {
    #[serde(default)]
    pub equivalent: Vec<Entry>,
    #[serde(default)]
    pub gap: Vec<Gap>,
}

/// A survivor no case can kill: the mutant changes nothing the rulings define.
#[derive(Debug, Clone, Deserialize)]
pub struct Entry {
    #[serde(flatten)]
    pub at: Place,
    pub reason: String,
}

/// A survivor a missing case would kill.
#[derive(Debug, Clone, Deserialize)]
pub struct Gap {
    #[serde(flatten)]
    pub at: Place,
    /// The case that would kill it.
    pub case: String,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Place {
    pub file: String,
    /// For the reader only (not matched).
    pub line: Option<usize>,
    pub function: Option<String>,
    pub original: String,
    pub mutated: String,
}

impl Place {
    fn matches(&self, mutant: &Mutant) -> bool {
        self.file == mutant.file
            && self.function == mutant.function
            && self.original == mutant.original
            && self.mutated == mutant.mutated
    }
}

impl Equivalents {
    /// Reads `path`; a missing file lists nothing.
    pub fn load(path: &Path) -> Result<Self, Error> {
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Self::default()),
            Err(e) => {
                return Err(Error::config(format!(
                    "{}: cannot read: {e}",
                    path.display()
                )))
            }
        };
        toml::from_str(&text).map_err(|e| Error::config(format!("{}: {e}", path.display())))
    }

    pub fn equivalent_reason(&self, mutant: &Mutant) -> Option<String> {
        self.equivalent
            .iter()
            .find(|e| e.at.matches(mutant))
            .map(|e| e.reason.clone())
    }

    pub fn gap_case(&self, mutant: &Mutant) -> Option<String> {
        self.gap
            .iter()
            .find(|g| g.at.matches(mutant))
            .map(|g| g.case.clone())
    }
}
