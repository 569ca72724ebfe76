//! Where referee keeps its own files on the user's machine.

use std::path::PathBuf;

/// referee's cache folder: `REFEREE_CACHE`, else `$XDG_CACHE_HOME/referee`, else
/// `~/.cache/referee`.
pub fn cache_home() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("REFEREE_CACHE").filter(|dir| !dir.is_empty()) {
        return Some(PathBuf::from(dir));
    }
    if let Some(dir) = std::env::var_os("XDG_CACHE_HOME").filter(|dir| !dir.is_empty()) {
        return Some(PathBuf::from(dir).join("referee"));
    }
    std::env::var_os("HOME")
        .filter(|home| !home.is_empty())
        .map(|home| PathBuf::from(home).join(".cache/referee"))
}
