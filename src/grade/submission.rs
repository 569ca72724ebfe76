//! Finds submissions: a `.c` file, a folder of sources, a `.zip`, or a batch folder of them.

use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

use crate::assignment::spec::Layout;
use crate::error::Error;

/// One student's work as read from disk.
#[derive(Debug, Clone)]
pub struct Submission {
    pub name: String,
    pub path: PathBuf,
    /// `.c` and `.h` files by base name (builds see them side by side).
    pub files: Vec<SourceFile>,
    /// Why the submission cannot be built at all (empty, binary, clashing names), if so.
    pub problem: Option<String>,
}

#[derive(Debug, Clone)]
pub struct SourceFile {
    pub name: String,
    pub bytes: Vec<u8>,
}

impl SourceFile {
    pub fn is_c(&self) -> bool {
        self.name.ends_with(".c")
    }

    /// The text for analysis (invalid UTF-8, e.g. Latin-1 comments, replaced).
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.bytes).into_owned()
    }
}

/// Largest source file read; anything bigger is not a hand-written assignment.
const MAX_SOURCE_BYTES: u64 = 2 << 20;
/// Most bytes unpacked from one zip.
const MAX_ZIP_BYTES: u64 = 16 << 20;

/// Expands the command-line paths into submissions, in a stable order.
pub fn discover(paths: &[PathBuf], layout: Layout) -> Result<Vec<Submission>, Error> {
    let mut found = Vec::new();
    for path in paths {
        let before = found.len();
        discover_path(path, layout, &mut found)?;
        if found.len() == before {
            return Err(Error::config(format!(
                "{}: no submissions found (expected .c files, .zip files, or one folder per student)",
                path.display()
            )));
        }
    }
    dedupe_names(&mut found);
    Ok(found)
}

fn discover_path(path: &Path, layout: Layout, found: &mut Vec<Submission>) -> Result<(), Error> {
    let meta = std::fs::metadata(path)
        .map_err(|e| Error::config(format!("{}: {}", path.display(), io_reason(&e))))?;
    if meta.is_file() {
        return match extension(path).as_deref() {
            Some("c") => {
                found.push(from_files(path, vec![path.to_path_buf()]));
                Ok(())
            }
            Some("zip") => {
                found.push(from_zip(path));
                Ok(())
            }
            _ => Err(Error::config(format!(
                "{}: not a submission (expected a .c file, a .zip, or a folder)",
                path.display()
            ))),
        };
    }
    let entries = list_dir(path)?;
    let holds_c = entries
        .iter()
        .any(|p| p.is_file() && extension(p).as_deref() == Some("c"));
    if layout == Layout::Multi && holds_c {
        // A folder that directly holds .c files is one student's submission.
        found.push(from_files(path, source_files_under(path)?));
        return Ok(());
    }
    for entry in entries {
        if entry.is_dir() {
            found.push(from_files(&entry, source_files_under(&entry)?));
        } else {
            match extension(&entry).as_deref() {
                Some("zip") => found.push(from_zip(&entry)),
                Some("c") if layout == Layout::Single => {
                    found.push(from_files(&entry, vec![entry.clone()]));
                }
                _ => {}
            }
        }
    }
    Ok(())
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file or folder".into(),
        std::io::ErrorKind::PermissionDenied => "permission denied".into(),
        _ => e.to_string(),
    }
}

fn extension(path: &Path) -> Option<String> {
    path.extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
}

/// Sorted entries of a folder, hidden ones left out.
fn list_dir(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let read = std::fs::read_dir(dir)
        .map_err(|e| Error::config(format!("{}: {}", dir.display(), io_reason(&e))))?;
    let mut entries: Vec<PathBuf> = read
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|p| {
            !p.file_name()
                .is_some_and(|n| n.to_string_lossy().starts_with('.'))
        })
        .collect();
    entries.sort();
    Ok(entries)
}

/// Every `.c`/`.h` file below `dir` (macOS resource forks and hidden folders left out).
fn source_files_under(dir: &Path) -> Result<Vec<PathBuf>, Error> {
    let mut files = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in list_dir(&folder)? {
            if entry.is_dir() {
                if entry.file_name().is_some_and(|n| n != "__MACOSX") {
                    stack.push(entry);
                }
            } else if is_source_name(&entry.to_string_lossy()) {
                files.push(entry);
            }
        }
    }
    files.sort();
    Ok(files)
}

fn is_source_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".c") || lower.ends_with(".h")
}

fn name_of(path: &Path) -> String {
    path.file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

fn from_files(root: &Path, paths: Vec<PathBuf>) -> Submission {
    let mut files = Vec::new();
    let mut problem = None;
    for path in paths {
        match read_source(&path) {
            Ok(bytes) => files.push(SourceFile {
                name: base_name(&path.to_string_lossy()),
                bytes,
            }),
            Err(reason) => {
                problem.get_or_insert(reason);
            }
        }
    }
    finish(root, files, problem)
}

fn read_source(path: &Path) -> Result<Vec<u8>, String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{}: {}", path.display(), io_reason(&e)))?
        .len();
    if size > MAX_SOURCE_BYTES {
        return Err(format!(
            "{}: {size} bytes is too large for a source file",
            path.display()
        ));
    }
    std::fs::read(path).map_err(|e| format!("{}: {}", path.display(), io_reason(&e)))
}

fn base_name(path: &str) -> String {
    path.rsplit(['/', '\\']).next().unwrap_or(path).to_string()
}

fn from_zip(path: &Path) -> Submission {
    match read_zip(path) {
        Ok(files) => finish(path, files, None),
        Err(reason) => Submission {
            name: name_of(path),
            path: path.to_path_buf(),
            files: Vec::new(),
            problem: Some(format!("{}: {reason}", path.display())),
        },
    }
}

fn read_zip(path: &Path) -> Result<Vec<SourceFile>, String> {
    let file = std::fs::File::open(path).map_err(|e| io_reason(&e))?;
    let mut archive =
        zip::ZipArchive::new(file).map_err(|e| format!("not a readable zip ({e})"))?;
    let mut files = Vec::new();
    let mut total = 0u64;
    for index in 0..archive.len() {
        let mut entry = archive
            .by_index(index)
            .map_err(|e| format!("broken zip entry ({e})"))?;
        let name = entry.name().to_string();
        if entry.is_dir() || name.contains("__MACOSX") || !is_source_name(&name) {
            continue;
        }
        let mut bytes = Vec::new();
        let limit = MAX_ZIP_BYTES - total;
        (&mut entry)
            .take(limit + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{name}: cannot unpack ({e})"))?;
        total += bytes.len() as u64;
        if total > MAX_ZIP_BYTES {
            return Err(format!("unpacks to more than {MAX_ZIP_BYTES} bytes"));
        }
        files.push(SourceFile {
            name: base_name(&name),
            bytes,
        });
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(files)
}

/// Checks what a build needs: at least one `.c` file, text not binary, no two files with
/// one name.
fn finish(root: &Path, files: Vec<SourceFile>, problem: Option<String>) -> Submission {
    let mut problem = problem;
    let mut seen = BTreeMap::new();
    for file in &files {
        if let Some(()) = seen.insert(file.name.clone(), ()) {
            problem.get_or_insert(format!(
                "{}: two files are named {}; referee builds them side by side",
                root.display(),
                file.name
            ));
        }
        if file.bytes.contains(&0) {
            problem.get_or_insert(format!(
                "{}: {} is binary, not C source",
                root.display(),
                file.name
            ));
        }
        if file.is_c() && file.bytes.iter().all(u8::is_ascii_whitespace) {
            problem.get_or_insert(format!("{}: {} is empty", root.display(), file.name));
        }
    }
    if !files.iter().any(SourceFile::is_c) {
        problem.get_or_insert(format!("{}: no .c file found", root.display()));
    }
    Submission {
        name: name_of(root),
        path: root.to_path_buf(),
        files,
        problem,
    }
}

/// Two submissions with one name (alice.c and alice/) get distinct names.
fn dedupe_names(found: &mut [Submission]) {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for submission in found.iter_mut() {
        let count = counts.entry(submission.name.clone()).or_insert(0);
        *count += 1;
        if *count > 1 {
            submission.name = format!("{}#{}", submission.name, count);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).expect("mkdir");
        }
        std::fs::write(&path, text).expect("write");
        path
    }

    #[test]
    fn a_batch_folder_of_single_files_and_folders() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "alice.c", "int main(){}");
        write(dir.path(), "bob/src/Lab6.c", "int main(){}");
        write(dir.path(), "notes.txt", "hi");
        let found = discover(&[dir.path().to_path_buf()], Layout::Single).expect("found");
        let names: Vec<_> = found.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["alice", "bob"]);
        assert_eq!(found[1].files[0].name, "Lab6.c");
        assert!(found.iter().all(|s| s.problem.is_none()));
    }

    #[test]
    fn a_multi_file_folder_is_one_submission() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "main.c", "int main(){}");
        write(dir.path(), "logic.c", "int f;");
        write(dir.path(), "types.h", "");
        let found = discover(&[dir.path().to_path_buf()], Layout::Multi).expect("found");
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].files.len(), 3);
    }

    #[test]
    fn empty_binary_and_missing_inputs_are_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        let empty = write(dir.path(), "empty/main.c", "  \n");
        let binary = dir.path().join("bin.c");
        std::fs::write(&binary, [0x7f, b'E', b'L', b'F', 0, 0]).expect("write");
        let found =
            discover(&[empty.parent().expect("parent").into()], Layout::Single).expect("found");
        assert!(found[0]
            .problem
            .as_deref()
            .is_some_and(|p| p.contains("is empty")));
        let found = discover(&[binary], Layout::Single).expect("found");
        assert!(found[0]
            .problem
            .as_deref()
            .is_some_and(|p| p.contains("binary")));
        let none = discover(&[dir.path().join("missing.c")], Layout::Single).unwrap_err();
        assert!(none.to_string().contains("no such file"), "{none}");
        let txt = write(dir.path(), "notes.txt", "x");
        let err = discover(&[txt], Layout::Single).unwrap_err();
        assert!(err.to_string().contains("not a submission"), "{err}");
        let hollow = dir.path().join("hollow");
        std::fs::create_dir(&hollow).expect("mkdir");
        let err = discover(&[hollow], Layout::Single).unwrap_err();
        assert!(err.to_string().contains("no submissions found"), "{err}");
    }
}
