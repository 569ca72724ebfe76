//! Case files: `cases/<game>/*.toml`, each with `[[case]]` tables.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::de::DeserializeOwned;
use serde::Deserialize;

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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    #[serde(default)]
    case: Vec<RawCase>,
}

#[derive(Deserialize)]
struct RawCase {
    name: String,
    kind: CaseKind,
    #[serde(default)]
    description: Option<String>,
    #[serde(flatten)]
    fields: BTreeMap<String, toml::Value>,
}

/// Loads every `*.toml` under `dir`, sorted by file name, cases in file order.
/// Case names must be unique across the game.
pub fn load_dir(dir: &Path) -> Result<Vec<CaseSpec>, Error> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Error::config(format!("{}: cannot read case folder: {e}", dir.display())))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|ext| ext == "toml"))
        .collect();
    files.sort();
    let mut cases = Vec::new();
    for file in files {
        cases.extend(load_file(&file)?);
    }
    let mut seen = BTreeMap::new();
    for case in &cases {
        if let Some(first) = seen.insert(case.name.clone(), case.file.clone()) {
            return Err(case.error(format!(
                "the name is used twice (also in {})",
                first.display()
            )));
        }
    }
    Ok(cases)
}

/// Loads the cases of one file.
pub fn load_file(file: &Path) -> Result<Vec<CaseSpec>, Error> {
    let text = std::fs::read_to_string(file)
        .map_err(|e| Error::config(format!("{}: cannot read: {e}", file.display())))?;
    let parsed: CaseFile = toml::from_str(&text).map_err(|e| {
        let line = e
            .span()
            .map(|span| format!("line {}: ", text[..span.start].lines().count().max(1)))
            .unwrap_or_default();
        Error::config(format!(
            "{}: {line}{}",
            file.display(),
            e.message().trim_end()
        ))
    })?;
    Ok(parsed
        .case
        .into_iter()
        .map(|raw| CaseSpec {
            name: raw.name,
            kind: raw.kind,
            description: raw.description,
            file: file.to_path_buf(),
            fields: raw.fields.into_iter().collect(),
        })
        .collect())
}
