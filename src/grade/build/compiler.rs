//! The C compiler the `cc` crate finds, checked to run, and its version line.

use std::path::PathBuf;
use std::process::Command;
use std::sync::Arc;

use super::shortcuts::{Shortcuts, PIPE};
use crate::error::Error;

/// The C compiler and its version line (part of what identifies a build).
#[derive(Debug, Clone)]
pub struct Compiler {
    pub path: PathBuf,
    pub version: String,
    /// Ways past the driver that give the same bytes (see `shortcuts`); `None`: every
    /// compile and link goes through the driver as given.
    shortcuts: Option<Arc<Shortcuts>>,
}

impl Compiler {
    /// Finds the compiler the way the `cc` crate does (honouring `CC`), and checks it runs.
    pub fn find() -> Result<Self, Error> {
        let tool = cc::Build::new()
            .cargo_metadata(false)
            .cargo_warnings(false)
            .target(env!("REFEREE_TARGET"))
            .host(env!("REFEREE_HOST"))
            .opt_level(0)
            .try_get_compiler()
            .map_err(|e| Error::config(format!("no C compiler found: {e}")))?;
        let path = tool.path().to_path_buf();
        let output = Command::new(&path).arg("--version").output().map_err(|e| {
            Error::config(format!(
                "no C compiler found: '{}' cannot be run ({e}); install gcc or set CC",
                path.display()
            ))
        })?;
        if !output.status.success() {
            return Err(Error::config(format!(
                "the C compiler '{}' does not work ('--version' failed); install gcc or set CC",
                path.display()
            )));
        }
        let version = String::from_utf8_lossy(&output.stdout)
            .lines()
            .next()
            .unwrap_or_default()
            .to_string();
        Ok(Compiler {
            path,
            version,
            shortcuts: Some(Arc::default()),
        })
    }

    /// The same compiler with every compile and link going through the driver as given.
    pub fn without_shortcuts(&self) -> Self {
        Compiler {
            shortcuts: None,
            ..self.clone()
        }
    }

    /// The shortcuts taken, if they are on.
    pub fn shortcuts(&self) -> Option<&Shortcuts> {
        self.shortcuts.as_deref()
    }

    /// The flags of a compile with `flags`: with `-pipe` where shortcuts are on.
    pub(super) fn compile_flags(&self, flags: &[String]) -> Vec<String> {
        let mut all = flags.to_vec();
        if self.shortcuts.is_some() {
            all.push(PIPE.into());
        }
        all
    }
}
