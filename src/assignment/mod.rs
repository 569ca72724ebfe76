//! The assignment model: where the project's folders are, a game's rubric (`spec`), its
//! case files (`cases`), and the cases expanded by the reference, ready to grade.

pub mod cases;
pub mod deadline;
pub mod embedded;
pub mod spec;

use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::games::{self, CaseSpec, Expectation, Game, Prepared};
use spec::Spec;

/// Where the project's `cases/`, `specs/` and `reference/` folders are, and the course's
/// private folder of cases (`--private`), if any.
#[derive(Debug, Clone)]
pub struct Project {
    pub root: PathBuf,
    /// A folder laid out like the project's (`cases/<game>/*.toml`) whose cases are added to
    /// the project's: the course keeps it apart from the repository students see.
    pub private: Option<PathBuf>,
}

impl Project {
    /// `--root`, else `REFEREE_ROOT`, else the current folder if it holds `specs/` and
    /// `cases/`, else the data compiled into referee (see `embedded`).
    pub fn locate(explicit: Option<&Path>) -> Result<Self, Error> {
        let candidates: Vec<PathBuf> = match explicit {
            Some(root) => vec![root.to_path_buf()],
            None => std::env::var_os("REFEREE_ROOT")
                .filter(|root| !root.is_empty())
                .map(PathBuf::from)
                .into_iter()
                .chain(std::env::current_dir().ok())
                .collect(),
        };
        // Resolved against the current folder now: builds run in other folders, where a
        // relative path to the harness would name nothing.
        let candidates: Vec<PathBuf> = candidates
            .into_iter()
            .map(|root| std::path::absolute(&root).unwrap_or(root))
            .collect();
        let is_root = |root: &Path| root.join("specs").is_dir() && root.join("cases").is_dir();
        if let Some(root) = candidates.iter().find(|root| is_root(root)) {
            return Ok(Project {
                root: root.clone(),
                private: None,
            });
        }
        if explicit.is_some() {
            return Err(Error::config(format!(
                "--root {}: no specs/ and cases/ folders there",
                candidates
                    .iter()
                    .map(|p| p.display().to_string())
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        }
        let cache = crate::places::cache_home().ok_or_else(|| {
            Error::config(
                "no folder to unpack referee's cases into: set HOME, REFEREE_CACHE or --root DIR",
            )
        })?;
        let root = embedded::unpacked(&cache).map_err(|e| {
            Error::config(format!(
                "{}: cannot unpack referee's cases there: {e} (set REFEREE_CACHE or --root DIR)",
                cache.join("data").display()
            ))
        })?;
        Ok(Project {
            root,
            private: None,
        })
    }

    /// Adds the private folder of cases: `--private`, else `REFEREE_PRIVATE`, else none.
    /// It must be a folder holding `cases/` (a relative path is taken from the current
    /// folder, since runs and builds happen elsewhere).
    pub fn with_private(self, explicit: Option<&Path>) -> Result<Self, Error> {
        let Some(dir) = explicit
            .map(Path::to_path_buf)
            .or_else(|| std::env::var_os("REFEREE_PRIVATE").map(PathBuf::from))
            .filter(|dir| !dir.as_os_str().is_empty())
        else {
            return Ok(self);
        };
        let dir = std::path::absolute(&dir).unwrap_or(dir);
        if !dir.join("cases").is_dir() {
            return Err(Error::config(format!(
                "{}: not a private folder of cases (it must hold cases/<game>/*.toml)",
                dir.display()
            )));
        }
        Ok(Project {
            private: Some(dir),
            ..self
        })
    }

    pub fn reference_dir(&self, game: &str) -> PathBuf {
        self.root.join("reference").join(game)
    }

    /// The folders a game's cases are read from: the project's, then the private folder's
    /// when it has cases for this game. Every command reads cases through this list.
    pub fn case_dirs(&self, game: &str) -> Vec<PathBuf> {
        let private = self
            .private
            .iter()
            .map(|dir| dir.join("cases").join(game))
            .filter(|dir| dir.is_dir());
        std::iter::once(self.root.join("cases").join(game))
            .chain(private)
            .collect()
    }
}

/// A case expanded by the reference, with the rubric items it is judged on.
#[derive(Debug, Clone)]
pub struct PreparedCase {
    pub spec: CaseSpec,
    pub prepared: Prepared,
    pub items: Vec<String>,
    /// Who may see the case in full.
    pub visibility: cases::Visibility,
}

/// One game ready to grade: reference, rubric and expanded cases.
pub struct Assignment {
    pub game: &'static dyn Game,
    pub spec: Spec,
    pub cases: Vec<PreparedCase>,
    /// The version of the data graded with: the digest of the project's specs, cases and
    /// model solutions (as `referee --version` names the data compiled in), and of the
    /// private cases after a `+` when there are any.
    pub data: String,
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
        Self::load_game(project, game)
    }

    /// `load` for a game given by its reference rather than its id (a game outside
    /// `games::all`, as in the example game of `docs/new-game.md`).
    pub fn load_game(project: &Project, game: &'static dyn Game) -> Result<Self, Error> {
        let id = game.id();
        let spec = Spec::load(&project.root.join("specs").join(id))?;
        spec.check_files()?;
        let case_specs = cases::load_dirs(&project.case_dirs(id))?;
        let auto_items: Vec<String> = spec
            .items
            .iter()
            .filter(|i| !i.manual)
            .map(|i| i.id.clone())
            .collect();
        let mut cases = Vec::with_capacity(case_specs.len());
        for cases::LoadedCase {
            spec: case,
            visibility,
        } in case_specs
        {
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
                visibility,
            });
        }
        for item in &auto_items {
            if !cases.iter().any(|c| c.items.contains(item)) {
                return Err(Error::config(format!(
                    "specs/{id}/spec.toml: item '{item}' has no case that tests it"
                )));
            }
        }
        let digest = |folder: &Path| {
            embedded::digest_of_folder(folder)
                .map_err(|e| Error::config(format!("{}: {e}", folder.display())))
        };
        let mut data = digest(&project.root)?;
        if let Some(private) = &project.private {
            data = format!("{data}+{}", digest(private)?);
        }
        Ok(Assignment {
            game,
            spec,
            cases,
            data,
        })
    }

    pub fn case(&self, name: &str) -> Option<&PreparedCase> {
        self.cases.iter().find(|c| c.spec.name == name)
    }
}
