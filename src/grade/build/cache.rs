//! A content-addressed cache of builds: the key is a hash of everything that decides the
//! binary (compiler and its version, flags, target, the student's sources, the harness and
//! provided files, referee's runtime), so regrading after a rubric or case change recompiles
//! nothing that did not change. Only successful builds are kept. Each entry holds a digest of
//! its key and contents, checked on every read: an entry damaged, cut short or moved under
//! another key is removed, and the build is made again.

use std::path::{Path, PathBuf};

use super::built::Built;
use crate::grade::digest;

pub struct BuildCache {
    root: PathBuf,
}

impl BuildCache {
    pub fn open(root: PathBuf) -> std::io::Result<Self> {
        std::fs::create_dir_all(&root)?;
        Ok(BuildCache { root })
    }

    /// referee's cache folder (see `places::cache_home`).
    pub fn default_dir() -> Option<PathBuf> {
        crate::places::cache_home()
    }

    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A build stored under `key`, if any whose digest matches; an entry that does not
    /// match is removed (a store after the rebuild replaces it).
    pub fn lookup(&self, key: &str) -> Option<Built> {
        let entry = self.root.join(key);
        let binary = entry.join("binary");
        if !binary.is_file() {
            return None;
        }
        let found = read_entry(key, &entry);
        if found.is_none() {
            let _ = std::fs::remove_dir_all(&entry);
        }
        found
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
        let digest = entry_digest(key, staging.path())?;
        std::fs::write(staging.path().join("digest"), digest)?;
        let staged = staging.keep();
        if std::fs::rename(&staged, self.root.join(key)).is_err() {
            // Another process stored the same build first.
            let _ = std::fs::remove_dir_all(&staged);
        }
        Ok(())
    }
}

/// The entry in `dir` stored under `key`, if its digest matches its contents.
fn read_entry(key: &str, dir: &Path) -> Option<Built> {
    let stored = std::fs::read_to_string(dir.join("digest")).ok()?;
    if entry_digest(key, dir).ok()? != stored {
        return None;
    }
    let log = std::fs::read_to_string(dir.join("log.txt")).ok()?;
    Some(Built {
        binary: Some(dir.join("binary")),
        log,
        objects: entry_objects(dir).ok()?,
        cached: true,
    })
}

fn entry_objects(dir: &Path) -> std::io::Result<Vec<PathBuf>> {
    let mut objects: Vec<PathBuf> = std::fs::read_dir(dir.join("objects"))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    objects.sort();
    Ok(objects)
}

/// A digest of the entry's key, binary, log and objects (names and contents).
fn entry_digest(entry_key: &str, dir: &Path) -> std::io::Result<String> {
    let mut parts = vec![
        entry_key.as_bytes().to_vec(),
        std::fs::read(dir.join("binary"))?,
        std::fs::read(dir.join("log.txt"))?,
    ];
    for object in entry_objects(dir)? {
        parts.push(
            object
                .file_name()
                .unwrap_or_default()
                .as_encoded_bytes()
                .to_vec(),
        );
        parts.push(std::fs::read(&object)?);
    }
    let borrowed: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
    Ok(digest::key(&borrowed))
}

#[cfg(test)]
mod tests {
    use super::*;

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

    /// A cache in a temporary folder with one build stored under "k" (and its files).
    fn stored() -> (tempfile::TempDir, BuildCache, Built) {
        let dir = tempfile::tempdir().expect("tempdir");
        let cache = BuildCache::open(dir.path().join("cache")).expect("cache");
        let binary = dir.path().join("program");
        let object = dir.path().join("main.o");
        std::fs::write(&binary, b"\x7fELF student").expect("write");
        std::fs::write(&object, b"obj").expect("write");
        let built = Built {
            binary: Some(binary),
            log: String::new(),
            objects: vec![object],
            cached: false,
        };
        cache.store("k", &built).expect("store");
        assert!(cache.lookup("k").is_some());
        (dir, cache, built)
    }

    /// After `spoil` changes the entry, the lookup misses, the entry is gone, and a store
    /// (the rebuild) is found again.
    fn discarded_and_rebuilt(spoil: impl Fn(&Path)) {
        let (_dir, cache, built) = stored();
        spoil(&cache.root().join("k"));
        assert!(cache.lookup("k").is_none());
        assert!(!cache.root().join("k").exists(), "the bad entry is removed");
        cache.store("k", &built).expect("store again");
        let found = cache.lookup("k").expect("the rebuilt entry");
        assert_eq!(
            std::fs::read(found.binary.expect("binary")).expect("read"),
            b"\x7fELF student"
        );
    }

    #[test]
    fn a_damaged_entry_is_discarded_and_rebuilt() {
        discarded_and_rebuilt(|entry| {
            std::fs::write(entry.join("binary"), b"\x7fELF student, but 6/6").expect("write");
        });
        discarded_and_rebuilt(|entry| {
            std::fs::write(entry.join("objects/main.o"), b"other").expect("write");
        });
    }

    #[test]
    fn a_truncated_entry_is_discarded_and_rebuilt() {
        discarded_and_rebuilt(|entry| {
            std::fs::write(entry.join("binary"), b"\x7fELF").expect("truncate");
        });
        discarded_and_rebuilt(|entry| {
            std::fs::remove_file(entry.join("digest")).expect("remove");
        });
    }

    #[test]
    fn an_entry_swapped_in_from_another_key_is_discarded_and_rebuilt() {
        discarded_and_rebuilt(|entry| {
            // The model solution's build, stored under its own key, moved under the student's.
            let root = entry.parent().expect("cache root");
            let cache = BuildCache::open(root.to_path_buf()).expect("cache");
            let model = root.join("model-binary");
            std::fs::write(&model, b"\x7fELF model").expect("write");
            let built = Built {
                binary: Some(model),
                log: String::new(),
                objects: Vec::new(),
                cached: false,
            };
            cache.store("model-key", &built).expect("store");
            std::fs::remove_dir_all(entry).expect("remove");
            std::fs::rename(root.join("model-key"), entry).expect("swap");
        });
    }
}
