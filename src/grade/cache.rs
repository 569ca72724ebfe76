//! A content-addressed cache of builds: the key is a hash of everything that decides the
//! binary (compiler and its version, flags, target, the student's sources, the harness and
//! provided files, referee's runtime), so regrading after a rubric or case change recompiles
//! nothing that did not change. Only successful builds are kept.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::build::Built;

pub struct BuildCache {
    root: PathBuf,
}

impl BuildCache {
    pub fn open(root: PathBuf) -> std::io::Result<Self> {
        std::fs::create_dir_all(&root)?;
        Ok(BuildCache { root })
    }

    /// `REFEREE_CACHE`, else `$XDG_CACHE_HOME/referee`, else `~/.cache/referee`.
    pub fn default_dir() -> Option<PathBuf> {
        if let Some(dir) = std::env::var_os("REFEREE_CACHE") {
            return Some(PathBuf::from(dir));
        }
        if let Some(dir) = std::env::var_os("XDG_CACHE_HOME") {
            return Some(PathBuf::from(dir).join("referee"));
        }
        std::env::var_os("HOME").map(|home| PathBuf::from(home).join(".cache/referee"))
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A build stored under `key`, if any.
    pub fn lookup(&self, key: &str) -> Option<Built> {
        let entry = self.root.join(key);
        let binary = entry.join("binary");
        if !binary.is_file() {
            return None;
        }
        let log = std::fs::read_to_string(entry.join("log.txt")).ok()?;
        let mut objects: Vec<PathBuf> = std::fs::read_dir(entry.join("objects"))
            .ok()?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        objects.sort();
        Some(Built {
            binary: Some(binary),
            log,
            objects,
            cached: true,
        })
    }

    /// Stores a successful build; a concurrent store of the same key wins harmlessly.
    pub fn store(&self, key: &str, built: &Built) -> std::io::Result<()> {
        let Some(binary) = &built.binary else {
            return Ok(());
        };
        let staging = tempfile::Builder::new()
            .prefix(".staging-")
            .tempdir_in(&self.root)?;
        std::fs::copy(binary, staging.path().join("binary"))?;
        std::fs::write(staging.path().join("log.txt"), &built.log)?;
        let objects = staging.path().join("objects");
        std::fs::create_dir(&objects)?;
        for object in &built.objects {
            if let Some(name) = object.file_name() {
                std::fs::copy(object, objects.join(name))?;
            }
        }
        let staged = staging.keep();
        if std::fs::rename(&staged, self.root.join(key)).is_err() {
            // Another process stored the same build first.
            let _ = std::fs::remove_dir_all(&staged);
        }
        Ok(())
    }
}

/// A hash of the parts, each length-prefixed so that no two lists collide by concatenation.
pub fn key(parts: &[&[u8]]) -> String {
    let mut hasher = Sha256::new();
    for part in parts {
        hasher.update((part.len() as u64).to_le_bytes());
        hasher.update(part);
    }
    hasher
        .finalize()
        .iter()
        .map(|byte| format!("{byte:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_depend_on_every_part_and_its_boundaries() {
        assert_eq!(key(&[b"a", b"b"]), key(&[b"a", b"b"]));
        assert_ne!(key(&[b"a", b"b"]), key(&[b"ab"]));
        assert_ne!(key(&[b"a", b"b"]), key(&[b"a", b"c"]));
        assert_eq!(key(&[b""]).len(), 64);
    }

    #[test]
    fn a_stored_build_is_found_again() {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = BuildCache::open(dir.path().join("cache")).expect("cache");
        let binary = dir.path().join("program");
        let object = dir.path().join("main.o");
        std::fs::write(&binary, b"\x7fELF").expect("write");
        std::fs::write(&object, b"obj").expect("write");
        let built = Built {
            binary: Some(binary),
            log: "warning: x\n".into(),
            objects: vec![object],
            cached: false,
        };
        assert!(cache.lookup("k").is_none());
        cache.store("k", &built).expect("store");
        cache
            .store("k", &built)
            .expect("a second store is harmless");
        let found = cache.lookup("k").expect("hit");
        assert!(found.cached);
        assert_eq!(found.log, "warning: x\n");
        assert_eq!(found.objects.len(), 1);
        assert_eq!(
            std::fs::read(found.binary.expect("binary")).expect("read"),
            b"\x7fELF"
        );
    }
}
