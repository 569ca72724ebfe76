//! The project's data (`specs/`, `cases/`, `reference/`) compiled into the binary, so a
//! `referee` copied alone to another machine grades with the cases it was built with.
//!
//! The files are written out once per data version into the cache folder
//! (`<cache>/data/<digest>/`), where builds and runs read them like a checkout's; a copy that
//! was changed since is written again, so the grade always comes from the embedded data.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::LazyLock;

use sha2::{Digest, Sha256};

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

/// The digest of a set of data files: their relative paths and bytes, in path order. The same
/// for the embedded data and for a checkout holding the same files.
pub fn digest_of<'a>(files: impl IntoIterator<Item = (&'a str, &'a [u8])>) -> String {
    let mut hasher = Sha256::new();
    for (path, bytes) in files {
        hasher.update((path.len() as u64).to_le_bytes());
        hasher.update(path.as_bytes());
        hasher.update((bytes.len() as u64).to_le_bytes());
        hasher.update(bytes);
    }
    hasher
        .finalize()
        .iter()
        .take(8)
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

/// The embedded data's version: a digest of every file (16 hex digits).
pub fn version() -> &'static str {
    static VERSION: LazyLock<String> = LazyLock::new(|| {
        let mut files = FILES.to_vec();
        files.sort_by_key(|(path, _)| *path);
        digest_of(files)
    });
    &VERSION
}

/// `referee --version`: the crate's version and the data's.
pub fn long_version() -> &'static str {
    static LONG: LazyLock<String> =
        LazyLock::new(|| format!("{} (data {})", env!("CARGO_PKG_VERSION"), version()));
    &LONG
}

/// The digest of the data folders under `root` as they are now (see `digest_of`).
pub fn digest_of_folder(root: &Path) -> io::Result<String> {
    let mut files: Vec<(String, Vec<u8>)> = Vec::new();
    for folder in ["specs", "cases", "reference"] {
        collect(root, Path::new(folder), &mut files)?;
    }
    files.sort();
    Ok(digest_of(
        files
            .iter()
            .map(|(path, bytes)| (path.as_str(), bytes.as_slice())),
    ))
}

fn collect(root: &Path, folder: &Path, files: &mut Vec<(String, Vec<u8>)>) -> io::Result<()> {
    let entries = match std::fs::read_dir(root.join(folder)) {
        Ok(entries) => entries,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
    };
    for entry in entries {
        let entry = entry?;
        let relative = folder.join(entry.file_name());
        let kind = entry.file_type()?;
        if kind.is_dir() {
            collect(root, &relative, files)?;
        } else if kind.is_file() {
            let bytes = std::fs::read(entry.path())?;
            files.push((relative.to_string_lossy().into_owned(), bytes));
        }
    }
    Ok(())
}

/// The embedded data written out under `cache` (`cache/data/<version>/`), written now if it
/// is missing or differs from the embedded files.
pub fn unpacked(cache: &Path) -> io::Result<PathBuf> {
    let folder = cache.join("data").join(version());
    if matches_embedded(&folder) {
        return Ok(folder);
    }
    std::fs::create_dir_all(cache.join("data"))?;
    // Written apart and moved into place whole, so a referee starting beside this one never
    // reads half of it.
    let fresh = tempfile::Builder::new()
        .prefix(".unpacking-")
        .tempdir_in(cache.join("data"))?;
    for (path, bytes) in FILES {
        let target = fresh.path().join(path);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&target, bytes)?;
    }
    readable_by_all(fresh.path())?;
    if folder.exists() {
        std::fs::remove_dir_all(&folder)?;
    }
    let fresh = fresh.keep();
    if let Err(e) = std::fs::rename(&fresh, &folder) {
        // Another referee moved its copy in first: use that one, if it is whole.
        let _ = std::fs::remove_dir_all(&fresh);
        if !matches_embedded(&folder) {
            return Err(e);
        }
    }
    Ok(folder)
}

/// Whether `folder` holds exactly the embedded files (the same paths and bytes: the same
/// digest).
fn matches_embedded(folder: &Path) -> bool {
    digest_of_folder(folder).is_ok_and(|digest| digest == version())
}

/// Folders 0755 and files 0644: the sandbox's build uid reads the harnesses and headers.
fn readable_by_all(folder: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(folder, std::fs::Permissions::from_mode(0o755))?;
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        if entry.file_type()?.is_dir() {
            readable_by_all(&entry.path())?;
        } else {
            std::fs::set_permissions(entry.path(), std::fs::Permissions::from_mode(0o644))?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_data_folder_is_embedded() {
        for folder in ["specs/", "cases/", "reference/"] {
            assert!(FILES.iter().any(|(path, _)| path.starts_with(folder)));
        }
        assert!(FILES
            .iter()
            .any(|(path, _)| *path == "specs/reversi/spec.toml"));
    }

    #[test]
    fn the_checkout_and_the_embedded_data_have_one_version() {
        let checkout = Path::new(env!("CARGO_MANIFEST_DIR"));
        assert_eq!(digest_of_folder(checkout).expect("read"), version());
    }

    #[test]
    fn an_unpacked_copy_that_was_changed_is_written_again() {
        let cache = tempfile::tempdir().expect("tempdir");
        let folder = unpacked(cache.path()).expect("unpack");
        assert_eq!(digest_of_folder(&folder).expect("read"), version());
        let spec = folder.join("specs/reversi/spec.toml");
        std::fs::write(&spec, "changed").expect("write");
        std::fs::write(folder.join("cases/reversi/extra.toml"), "").expect("write");
        let again = unpacked(cache.path()).expect("unpack");
        assert_eq!(again, folder);
        assert_eq!(digest_of_folder(&again).expect("read"), version());
        assert!(!again.join("cases/reversi/extra.toml").exists());
    }
}
