//! Case files: `cases/<game>/*.toml`, each with `[[case]]` tables.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::Error;
use crate::games::{CaseKind, CaseSpec};

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
