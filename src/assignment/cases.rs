//! Case files: `cases/<game>/*.toml`, each with `[[case]]` tables (every field:
//! `docs/cases.md`). A game's cases come from the project's folder and, with `--private`,
//! from the course's private folder of the same layout.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::error::Error;
use crate::games::{CaseKind, CaseSpec};

/// Who may see a case's input and expected output: Gradescope's four words. Every case
/// counts in the score alike; only what a student is shown differs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Visibility {
    /// Shown in full to everyone.
    #[default]
    Visible,
    /// Never shown to students in full.
    Hidden,
    /// Shown to students once the assignment's due date has passed.
    AfterDueDate,
    /// Shown to students once grades are published (on Gradescope; referee itself cannot
    /// know when that is, so its own reports treat it as hidden).
    AfterPublished,
}

impl Visibility {
    /// The spelling in case files, JSON and Gradescope's results.
    pub fn as_str(self) -> &'static str {
        match self {
            Visibility::Visible => "visible",
            Visibility::Hidden => "hidden",
            Visibility::AfterDueDate => "after_due_date",
            Visibility::AfterPublished => "after_published",
        }
    }

    /// Whether a student may see the case in full, given whether the due date has passed.
    pub fn shown_to_students(self, due_passed: bool) -> bool {
        match self {
            Visibility::Visible => true,
            Visibility::AfterDueDate => due_passed,
            Visibility::Hidden | Visibility::AfterPublished => false,
        }
    }
}

/// A case as its file gives it, with who may see it.
#[derive(Debug, Clone)]
pub struct LoadedCase {
    pub spec: CaseSpec,
    pub visibility: Visibility,
}

/// The keys of a case file outside its `[[case]]` tables.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CaseFile {
    /// The visibility of every case of the file that does not give its own.
    #[serde(default)]
    visibility: Option<Visibility>,
    #[serde(default)]
    case: Vec<toml::Table>,
}

/// The fields every case has; the others are the game's (its kind's fields).
pub const COMMON_FIELDS: [&str; 4] = ["name", "kind", "description", "visibility"];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Common {
    name: String,
    kind: CaseKind,
    #[serde(default)]
    description: Option<String>,
    #[serde(default)]
    visibility: Option<Visibility>,
}

/// Loads every `*.toml` under `dir`, sorted by file name, cases in file order.
/// Case names must be unique across the game.
pub fn load_dir(dir: &Path) -> Result<Vec<CaseSpec>, Error> {
    Ok(load_dirs(&[dir.to_path_buf()])?
        .into_iter()
        .map(|case| case.spec)
        .collect())
}

/// Loads the cases of every folder in turn (the project's, then the private one), each
/// folder's files sorted by name. A name used twice, in one folder or across them, is an
/// error naming both files.
pub fn load_dirs(dirs: &[PathBuf]) -> Result<Vec<LoadedCase>, Error> {
    let mut cases = Vec::new();
    for dir in dirs {
        let entries = std::fs::read_dir(dir).map_err(|e| {
            Error::config(format!("{}: cannot read case folder: {e}", dir.display()))
        })?;
        let mut files: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|ext| ext == "toml"))
            .collect();
        files.sort();
        for file in files {
            cases.extend(load_file(&file)?);
        }
    }
    let mut seen = BTreeMap::new();
    for case in &cases {
        if let Some(first) = seen.insert(case.spec.name.clone(), case.spec.file.clone()) {
            return Err(case.spec.error(format!(
                "the name is used twice (also in {})",
                first.display()
            )));
        }
    }
    Ok(cases)
}

/// Loads the cases of one file.
pub fn load_file(file: &Path) -> Result<Vec<LoadedCase>, Error> {
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
    parsed
        .case
        .into_iter()
        .enumerate()
        .map(|(index, mut table)| {
            let common: toml::Table = COMMON_FIELDS
                .iter()
                .filter_map(|key| table.remove(*key).map(|value| (key.to_string(), value)))
                .collect();
            let common: Common =
                toml::Value::Table(common)
                    .try_into()
                    .map_err(|e: toml::de::Error| {
                        Error::config(format!(
                            "{}: case {} of the file: {}",
                            file.display(),
                            index + 1,
                            e.message().trim_end()
                        ))
                    })?;
            Ok(LoadedCase {
                spec: CaseSpec {
                    name: common.name,
                    kind: common.kind,
                    description: common.description,
                    file: file.to_path_buf(),
                    fields: table,
                },
                visibility: common.visibility.or(parsed.visibility).unwrap_or_default(),
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loaded(text: &str) -> Result<Vec<LoadedCase>, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let file = dir.path().join("cases.toml");
        std::fs::write(&file, text).map_err(|e| e.to_string())?;
        load_file(&file).map_err(|e| e.to_string())
    }

    #[test]
    fn a_case_takes_its_files_visibility_unless_it_gives_its_own() {
        let cases = loaded(
            "visibility = \"hidden\"\n\
             [[case]]\nname = \"a\"\nkind = \"program\"\nn = 4\n\
             [[case]]\nname = \"b\"\nkind = \"program\"\nvisibility = \"after_due_date\"\n",
        )
        .expect("the file loads");
        let found: Vec<(&str, Visibility)> = cases
            .iter()
            .map(|c| (c.spec.name.as_str(), c.visibility))
            .collect();
        assert_eq!(
            found,
            [("a", Visibility::Hidden), ("b", Visibility::AfterDueDate)]
        );
        assert!(cases[0].spec.fields.contains_key("n"));
        assert!(!cases[1].spec.fields.contains_key("visibility"));
        let plain = loaded("[[case]]\nname = \"c\"\nkind = \"unit\"\n").expect("loads");
        assert_eq!(plain[0].visibility, Visibility::Visible);
    }

    #[test]
    fn an_unknown_visibility_or_a_case_without_a_name_is_an_error() {
        let error = loaded("[[case]]\nname = \"a\"\nkind = \"program\"\nvisibility = \"secret\"\n")
            .err()
            .unwrap_or_default();
        assert!(error.contains("unknown variant `secret`"), "{error}");
        let error = loaded("[[case]]\nkind = \"program\"\n")
            .err()
            .unwrap_or_default();
        assert!(
            error.contains("case 1 of the file: missing field `name`"),
            "{error}"
        );
        let error = loaded("visiblity = \"hidden\"\n").err().unwrap_or_default();
        assert!(
            error.contains("line 1: unknown field `visiblity`"),
            "{error}"
        );
    }

    #[test]
    fn only_due_dates_that_passed_show_after_due_date_cases() {
        assert!(Visibility::Visible.shown_to_students(false));
        assert!(Visibility::AfterDueDate.shown_to_students(true));
        assert!(!Visibility::AfterDueDate.shown_to_students(false));
        assert!(!Visibility::Hidden.shown_to_students(true));
        assert!(!Visibility::AfterPublished.shown_to_students(true));
    }
}
