//! A submission's binaries: one per (target, extra flags), built on first use and kept.

use std::collections::HashMap;
use std::time::Duration;

use crate::assignment::Assignment;
use crate::games::Target;

pub mod built;
pub mod cache;
pub mod compile;
pub mod compiler;
pub mod facts;
pub mod own;
pub mod rename;
pub mod shortcuts;
pub mod signature;
pub mod tool;

use built::Built;
use compile::Workspace;
use compiler::Compiler;

/// Builds per (target, flags), made on first use and kept for the submission.
pub struct Builds<'a> {
    pub workspace: &'a Workspace<'a>,
    pub assignment: &'a Assignment,
    pub compiler: &'a Compiler,
    pub timeout: Duration,
    pub sanitize: bool,
    pub cache: Option<&'a cache::BuildCache>,
    pub done: HashMap<BuildKey, Built>,
}

/// A binary of a submission: which target, built with which extra flags.
pub type BuildKey = (Target, Vec<String>);

impl Builds<'_> {
    pub fn get(&mut self, target: &Target, extra: &[String]) -> &Built {
        let key = (target.clone(), extra.to_vec());
        let (workspace, assignment, compiler, timeout, cache) = (
            self.workspace,
            self.assignment,
            self.compiler,
            self.timeout,
            self.cache,
        );
        let mut flags = extra.to_vec();
        if self.sanitize {
            flags.extend(assignment.spec.build.sanitize_flags.iter().cloned());
        }
        self.done.entry(key).or_insert_with(|| {
            workspace
                .build(compiler, &assignment.spec, target, &flags, timeout, cache)
                .unwrap_or_else(|e| Built {
                    binary: None,
                    log: format!("referee could not run the compiler: {e}\n"),
                    objects: Vec::new(),
                    cached: false,
                })
        })
    }
}
