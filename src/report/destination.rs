//! Where a report may be written: never over a file that matters.

use std::path::{Path, PathBuf};

use crate::error::Error;

/// Refuses to write a report, feedback or gradebook file over a file that matters: an
/// existing C source or header anywhere (`-o Lab6.c` would destroy the student's work), a
/// file being graded or anything inside a folder being graded (`graded`: the paths given on
/// the command line), or a symbolic link (writing through it would land outside the folder
/// asked for). A path that does not exist yet is always fine.
pub fn refuse_overwrite(path: &Path, graded: &[PathBuf]) -> Result<(), Error> {
    let Ok(meta) = std::fs::symlink_metadata(path) else {
        return Ok(());
    };
    let shown = path.display();
    if meta.file_type().is_symlink() {
        return Err(Error::config(format!(
            "{shown}: a symbolic link: referee does not write through it (remove it or choose another file)"
        )));
    }
    let source = path
        .extension()
        .and_then(|e| e.to_str())
        .is_some_and(|e| e.eq_ignore_ascii_case("c") || e.eq_ignore_ascii_case("h"));
    if source && meta.is_file() {
        return Err(Error::config(format!(
            "{shown}: an existing C source file: referee never writes a report over it (choose another file)"
        )));
    }
    if inside(path, graded) {
        return Err(Error::config(format!(
            "{shown}: a file being graded: referee never writes a report over it (choose a file outside the submissions)"
        )));
    }
    Ok(())
}

/// Whether `path` is one of `graded` or lies inside one of them (a path not made yet is
/// placed by its nearest existing folder).
pub fn inside(path: &Path, graded: &[PathBuf]) -> bool {
    let Ok(absolute) = std::path::absolute(path) else {
        return false;
    };
    let Some((base, rest)) = absolute.ancestors().find_map(|a| {
        let base = a.canonicalize().ok()?;
        Some((base, absolute.strip_prefix(a).ok()?.to_path_buf()))
    }) else {
        return false;
    };
    let target = base.join(rest);
    graded
        .iter()
        .filter_map(|g| g.canonicalize().ok())
        .any(|g| target.starts_with(&g))
}

/// A name (a student's, a submission's, a case's) in characters every file system and LMS
/// upload accepts: letters, digits, `-` and `.` kept, anything else `_`, no leading or
/// trailing `_` or `.` (so never `..`); `student` when nothing is left.
pub fn file_safe(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '.' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let cleaned = cleaned.trim_matches(['_', '.']);
    if cleaned.is_empty() {
        "student".into()
    } else {
        cleaned.to_string()
    }
}
