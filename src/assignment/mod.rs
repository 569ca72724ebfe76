//! The assignment model: where the project's folders are, a game's rubric (`spec`), its
//! case files (`cases`), and the cases expanded by the reference, ready to grade.

pub mod cases;
pub mod spec;

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::games::{self, CaseSpec, Expectation, Game, Prepared};
use spec::Spec;

/// Where the project's `cases/`, `specs/` and `reference/` folders are.
#[derive(Debug, Clone)]
pub struct Project {
    pub root: PathBuf,
}

impl Project {
    /// `--root`, else `REFEREE_ROOT`, else the current folder if it holds `specs/`, else the
    /// checkout referee was built from.
    pub fn locate(explicit: Option<&Path>) -> Result<Self, Error> {
        let candidates: Vec<PathBuf> = match explicit {
            Some(root) => vec![root.to_path_buf()],
            None => std::env::var_os("REFEREE_ROOT")
                .map(PathBuf::from)
                .into_iter()
                .chain(std::env::current_dir().ok())
                .chain(Some(PathBuf::from(env!("CARGO_MANIFEST_DIR"))))
                .collect(),
        };
        // Resolved against the current folder now: builds run in other folders, where a
        // relative path to the harness would name nothing.
        let candidates: Vec<PathBuf> = candidates
            .into_iter()
            .map(|root| std::path::absolute(&root).unwrap_or(root))
            .collect();
        candidates
            .iter()
            .find(|root| root.join("specs").is_dir() && root.join("cases").is_dir())
            .map(|root| Project { root: root.clone() })
            .ok_or_else(|| {
                Error::config(format!(
                    "cannot find referee's specs/ and cases/ folders (looked in {}); run from the referee checkout or pass --root DIR",
                    candidates
                        .iter()
                        .map(|p| p.display().to_string())
                        .collect::<Vec<_>>()
                        .join(", ")
                ))
            })
    }

    pub fn reference_dir(&self, game: &str) -> PathBuf {
        self.root.join("reference").join(game)
    }
}

/// A case expanded by the reference, with the rubric items it is judged on.
#[derive(Debug, Clone)]
pub struct PreparedCase {
    pub spec: CaseSpec,
    pub prepared: Prepared,
    pub items: Vec<String>,
}

/// One game ready to grade: reference, rubric and expanded cases.
pub struct Assignment {
    pub game: &'static dyn Game,
    pub spec: Spec,
    pub cases: Vec<PreparedCase>,
}

impl Assignment {
    /// Loads the spec and the cases and expands every case with the reference, so a broken
    /// case file is reported before anything is compiled.
    pub fn load(project: &Project, id: &str) -> Result<Self, Error> {
        let game = games::find(id).ok_or_else(|| {
            Error::config(format!(
                "unknown game '{id}' (known: {})",
                games::all()
                    .iter()
                    .map(|g| g.id())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })?;
        let spec = Spec::load(&project.root.join("specs").join(id))?;
        spec.check_files()?;
        let case_specs = cases::load_dir(&project.root.join("cases").join(id))?;
        let auto_items: Vec<String> = spec
            .items
            .iter()
            .filter(|i| !i.manual)
            .map(|i| i.id.clone())
            .collect();
        let mut cases = Vec::with_capacity(case_specs.len());
        for case in case_specs {
            let prepared = game.prepare(&case)?;
            let items = match &prepared.expect {
                Expectation::Transcript(t) => t.items().into_iter().map(String::from).collect(),
                Expectation::Trace { .. } => auto_items.clone(),
            };
            for item in &items {
                match spec.item(item) {
                    Some(found) if !found.manual => {}
                    _ => {
                        return Err(case.error(format!(
                            "its output is tagged with item '{item}', which specs/{id}/spec.toml does not list as an auto-graded item"
                        )))
                    }
                }
            }
            cases.push(PreparedCase {
                spec: case,
                prepared,
                items,
            });
        }
        for item in &auto_items {
            if !cases.iter().any(|c| c.items.contains(item)) {
                return Err(Error::config(format!(
                    "specs/{id}/spec.toml: item '{item}' has no case that tests it"
                )));
            }
        }
        Ok(Assignment { game, spec, cases })
    }

    pub fn case(&self, name: &str) -> Option<&PreparedCase> {
        self.cases.iter().find(|c| c.spec.name == name)
    }
}
