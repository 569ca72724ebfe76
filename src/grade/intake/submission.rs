//! Finds submissions: a `.c` file, a folder of sources, a `.zip`, or a batch folder of them.
//! Symbolic links inside a batch or a submission are never followed (a link could show a
//! file outside the submission to the student); every entry of a batch that is not graded is
//! listed with its reason, and so is every file of a submission left out of the build.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Read;
use std::path::{Path, PathBuf};

use super::csource;
use super::layout::{self, Group, Lms};
use crate::assignment::spec::{Layout, SubmissionSpec};
use crate::error::Error;
pub use crate::report::model::{Ignored, Skipped};

/// One student's work as read from disk.
#[derive(Debug, Clone)]
pub struct Submission {
    pub name: String,
    pub path: PathBuf,
    /// `.c` and `.h` files by base name (builds see them side by side).
    pub files: Vec<SourceFile>,
    /// Why the submission cannot be built at all (empty, binary, clashing names), if so.
    pub problem: Option<String>,
    /// Files of the submission that are not graded, with the reason.
    pub ignored: Vec<Ignored>,
    /// How the submission was read, where a TA would want to know (a `.C` file graded as C,
    /// the file chosen when none has the handout's name).
    pub notes: Vec<String>,
    /// The student's display name: the LMS's when the batch is an LMS export, else `name`.
    pub student: String,
    /// The student's LMS id (empty outside an LMS export).
    pub id: String,
    /// The LMS marked the submission late.
    pub late: bool,
    /// When it was submitted, as the LMS wrote it, where its download says (Gradescope).
    pub submitted: Option<String>,
}

/// The submissions found, in a stable order, and the batch entries that are not graded.
#[derive(Debug, Clone, Default)]
pub struct Discovered {
    pub submissions: Vec<Submission>,
    pub skipped: Vec<Skipped>,
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
/// Archive kinds students send that referee does not unpack (only `.zip` is).
const UNPACKED_ARCHIVES: [&str; 10] = [
    ".tar.gz", ".tgz", ".tar.bz2", ".tar.xz", ".tar", ".gz", ".bz2", ".xz", ".rar", ".7z",
];
/// C++ source endings, which a C assignment cannot grade.
const CPP_ENDINGS: [&str; 5] = [".cpp", ".cc", ".cxx", ".c++", ".hpp"];
const LINK_REASON: &str = "a symbolic link: referee never follows links";

/// Expands the command-line paths into submissions, in a stable order. A path given on the
/// command line is the TA's choice and is read even through a link; what it holds is not.
/// A folder's layout is recognised (see `layout`).
pub fn discover(paths: &[PathBuf], spec: &SubmissionSpec) -> Result<Discovered, Error> {
    discover_as(paths, spec, Lms::Auto)
}

/// `discover`, with the layout of the batch folders named (`--layout`) or recognised (`auto`).
pub fn discover_as(
    paths: &[PathBuf],
    spec: &SubmissionSpec,
    lms: Lms,
) -> Result<Discovered, Error> {
    let mut found = Discovered::default();
    for path in paths {
        let before = found.submissions.len();
        let skipped_before = found.skipped.len();
        let lms = match lms {
            Lms::Auto if path.is_dir() => layout::detect(path),
            Lms::Auto => Lms::Plain,
            named => named,
        };
        if lms == Lms::Plain {
            discover_path(path, spec, &mut found)?;
        } else {
            discover_export(path, spec, lms, &mut found)?;
        }
        if found.submissions.len() == before {
            let skipped: Vec<String> = found.skipped[skipped_before..]
                .iter()
                .map(|s| format!("{}: {}", s.path, s.reason))
                .collect();
            return Err(Error::config(format!(
                "{}: no submissions found (expected .c files, .zip files, or one folder per student){}",
                path.display(),
                if skipped.is_empty() {
                    String::new()
                } else {
                    format!("; skipped {}", skipped.join("; "))
                }
            )));
        }
    }
    dedupe_names(&mut found.submissions);
    Ok(found)
}

/// One submission per student of an LMS export folder; entries that belong to no student
/// are skipped with the reason.
fn discover_export(
    dir: &Path,
    spec: &SubmissionSpec,
    lms: Lms,
    found: &mut Discovered,
) -> Result<(), Error> {
    if !dir.is_dir() {
        return Err(Error::config(format!(
            "{}: --layout {} needs the export's folder",
            dir.display(),
            lms.label().to_ascii_lowercase()
        )));
    }
    let export = layout::group(dir, lms)?;
    for (path, reason) in export.unmatched {
        found.skipped.push(Skipped {
            path: path.display().to_string(),
            reason,
        });
    }
    let mut students = Vec::new();
    for group in export.groups {
        students.push(from_group(group, spec)?);
    }
    // Reported in name order, as every batch is (the LMS groups them by id).
    students.sort_by(|a, b| (&a.student, &a.id).cmp(&(&b.student, &b.id)));
    found.submissions.extend(students);
    Ok(())
}

/// A student's files of an export, read under the names the build uses.
fn from_group(group: Group, spec: &SubmissionSpec) -> Result<Submission, Error> {
    let mut files = Vec::new();
    let mut problem = None;
    let mut notes = group.notes;
    let uploaded: Vec<(String, PathBuf)> = group.files.clone();
    let mut ignored: Vec<Ignored> = group
        .ignored
        .into_iter()
        .map(|(file, reason)| Ignored { file, reason })
        .collect();
    for (name, path) in group.files {
        if !is_source_name(&name) {
            ignored.push(Ignored {
                reason: skip_reason(&path),
                file: name,
            });
            continue;
        }
        match read_source(&path) {
            Ok(bytes) => files.push(source_file(&name, bytes, &mut notes)),
            Err(reason) => {
                problem.get_or_insert(reason);
            }
        }
    }
    for folder in group.folders {
        if folder.is_dir() {
            let (paths, links) = source_files_under(&folder)?;
            ignored.extend(links);
            for path in paths {
                match read_source(&path) {
                    Ok(bytes) => {
                        files.push(source_file(&path.to_string_lossy(), bytes, &mut notes))
                    }
                    Err(reason) => {
                        problem.get_or_insert(reason);
                    }
                }
            }
        } else {
            match read_zip(&folder, &mut notes) {
                Ok((unpacked, links)) => {
                    files.extend(unpacked);
                    ignored.extend(links);
                }
                Err(reason) => {
                    problem.get_or_insert(format!("{}: {reason}", folder.display()));
                }
            }
        }
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    let mut submission = finish(&group.root, spec, files, problem, ignored, notes);
    // A student's files side by side in a flat export: the submission is named by the file
    // graded (Canvas's `…_Lab6-1.c`, the latest upload), not the first file of the student.
    let graded: Vec<&SourceFile> = submission.files.iter().filter(|f| f.is_c()).collect();
    if let [graded] = graded.as_slice() {
        if let Some((_, path)) = uploaded.iter().find(|(name, _)| *name == graded.name) {
            submission.path = path.clone();
        }
    }
    submission.name = group.student.name.clone();
    submission.student = group.student.name;
    submission.id = group.student.id;
    submission.late = group.student.late;
    submission.submitted = group.student.submitted;
    Ok(submission)
}

fn discover_path(path: &Path, spec: &SubmissionSpec, found: &mut Discovered) -> Result<(), Error> {
    let meta = std::fs::metadata(path)
        .map_err(|e| Error::config(format!("{}: {}", path.display(), io_reason(&e))))?;
    if meta.is_file() {
        return match extension(path).as_deref() {
            Some("c") => {
                found.submissions.push(from_files(
                    path,
                    spec,
                    vec![path.to_path_buf()],
                    Vec::new(),
                ));
                Ok(())
            }
            Some("zip") => {
                found.submissions.push(from_zip(path, spec));
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
        .any(|e| e.kind == Kind::File && extension(&e.path).as_deref() == Some("c"));
    let holds_handout_file = entries
        .iter()
        .any(|e| e.kind == Kind::File && file_name(&e.path).eq_ignore_ascii_case(&spec.file));
    // A folder that directly holds .c files is one student's submission for a multi-file
    // assignment. For a one-file assignment, a folder with no folder or archive in it is one
    // student's when it holds the handout's file (`Lab6.c` beside the student's own
    // `test.c`), or when it holds only .c/.h files of one program: two or more, at most one
    // defining `main` (`lab7.c` and its `reversi.h`). Any other folder is a batch: one entry
    // per student, each file a whole program of its own.
    let holds_submissions = entries.iter().any(|e| {
        e.kind == Kind::Folder
            || (e.kind == Kind::File && extension(&e.path).as_deref() == Some("zip"))
    });
    let one_student = match spec.layout {
        Layout::Multi => holds_c,
        Layout::Single => {
            !holds_submissions && holds_c && (holds_handout_file || one_program(&entries))
        }
    };
    if one_student {
        let (files, ignored) = source_files_under(path)?;
        found
            .submissions
            .push(from_files(path, spec, files, ignored));
        return Ok(());
    }
    for entry in entries {
        let skip = |reason: String| Skipped {
            path: entry.path.display().to_string(),
            reason,
        };
        match entry.kind {
            Kind::Link => found.skipped.push(skip(LINK_REASON.into())),
            Kind::Other => found
                .skipped
                .push(skip("not a regular file or folder".into())),
            Kind::Folder if list_dir(&entry.path)?.is_empty() => {
                found.skipped.push(skip("an empty folder".into()));
            }
            Kind::Folder => {
                let (files, ignored) = source_files_under(&entry.path)?;
                found
                    .submissions
                    .push(from_files(&entry.path, spec, files, ignored));
            }
            Kind::File => match extension(&entry.path).as_deref() {
                Some("zip") => found.submissions.push(from_zip(&entry.path, spec)),
                Some("c") if spec.layout == Layout::Single => {
                    let files = vec![entry.path.clone()];
                    found
                        .submissions
                        .push(from_files(&entry.path, spec, files, Vec::new()));
                }
                _ => found.skipped.push(skip(skip_reason(&entry.path))),
            },
        }
    }
    Ok(())
}

/// Whether the folder holds one program: nothing but `.c`/`.h` files, at least two, no more
/// than one of them defining `main` (several mains are several students' whole programs). A file too large
/// to read defines none here; its submission reports it.
fn one_program(entries: &[Entry]) -> bool {
    let sources_only = entries
        .iter()
        .all(|e| e.kind == Kind::File && is_source_name(&file_name(&e.path)));
    // A lone .c file is as likely one student's entry of a batch: it keeps its own name.
    if !sources_only || entries.len() < 2 {
        return false;
    }
    let mains = entries
        .iter()
        .filter(|e| e.kind == Kind::File && extension(&e.path).as_deref() == Some("c"))
        .filter(|e| {
            std::fs::metadata(&e.path).is_ok_and(|m| m.len() <= MAX_SOURCE_BYTES)
                && std::fs::read(&e.path).is_ok_and(|bytes| {
                    csource::defines_function(&String::from_utf8_lossy(&bytes), "main")
                })
        })
        .count();
    mains <= 1
}

/// Why a file in a batch folder is not a submission.
fn skip_reason(path: &Path) -> String {
    let name = file_name(path).to_ascii_lowercase();
    if std::fs::symlink_metadata(path).is_ok_and(|m| m.len() == 0) {
        return "an empty file".into();
    }
    if let Some(kind) = UNPACKED_ARCHIVES.iter().find(|k| name.ends_with(*k)) {
        return format!("a {kind} archive: only .zip archives are unpacked");
    }
    if let Some(kind) = CPP_ENDINGS.iter().find(|k| name.ends_with(*k)) {
        return format!("C++ source ({kind}), not C");
    }
    match extension(path) {
        Some(ext) if ext == "h" => "a header without a .c file".into(),
        Some(ext) => format!("not C source (.{ext})"),
        None => "not C source (no file name ending)".into(),
    }
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

fn file_name(path: &Path) -> String {
    path.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default()
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    File,
    Folder,
    Link,
    Other,
}

/// A folder entry, with what it is as it stands (a link is a link, not what it points to).
struct Entry {
    path: PathBuf,
    kind: Kind,
}

/// Sorted entries of a folder, hidden ones left out.
fn list_dir(dir: &Path) -> Result<Vec<Entry>, Error> {
    let read = std::fs::read_dir(dir)
        .map_err(|e| Error::config(format!("{}: {}", dir.display(), io_reason(&e))))?;
    let mut entries: Vec<Entry> = read
        .filter_map(Result::ok)
        .filter(|e| !e.file_name().to_string_lossy().starts_with('.'))
        .map(|e| {
            let kind = match e.file_type() {
                Ok(t) if t.is_symlink() => Kind::Link,
                Ok(t) if t.is_dir() => Kind::Folder,
                Ok(t) if t.is_file() => Kind::File,
                _ => Kind::Other,
            };
            Entry {
                path: e.path(),
                kind,
            }
        })
        .collect();
    entries.sort_by(|a, b| a.path.cmp(&b.path));
    Ok(entries)
}

/// Every `.c`/`.h` file below `dir` (macOS resource forks and hidden folders left out), and
/// the links met on the way, which are not followed.
fn source_files_under(dir: &Path) -> Result<(Vec<PathBuf>, Vec<Ignored>), Error> {
    let mut files = Vec::new();
    let mut links = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(folder) = stack.pop() {
        for entry in list_dir(&folder)? {
            match entry.kind {
                Kind::Folder if file_name(&entry.path) != "__MACOSX" => stack.push(entry.path),
                Kind::File if is_source_name(&entry.path.to_string_lossy()) => {
                    files.push(entry.path);
                }
                Kind::Link => links.push(Ignored {
                    file: entry
                        .path
                        .strip_prefix(dir)
                        .unwrap_or(&entry.path)
                        .display()
                        .to_string(),
                    reason: LINK_REASON.into(),
                }),
                _ => {}
            }
        }
    }
    files.sort();
    links.sort_by(|a, b| a.file.cmp(&b.file));
    Ok((files, links))
}

fn is_source_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.ends_with(".c") || lower.ends_with(".h")
}

/// A submission's name: its file's stem or its folder's name; for `.` or `..` the name of the
/// folder they stand for.
fn name_of(path: &Path) -> String {
    let named = match path.file_name() {
        Some(_) => path.to_path_buf(),
        None => path.canonicalize().unwrap_or_else(|_| path.to_path_buf()),
    };
    named
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string())
}

/// A source file under the name the build uses: `.C`/`.H` endings become `.c`/`.h` (graded
/// as C, with a note).
fn source_file(path_text: &str, bytes: Vec<u8>, notes: &mut Vec<String>) -> SourceFile {
    let name = base_name(path_text);
    let lowered = match name.rsplit_once('.') {
        Some((stem, "C")) => format!("{stem}.c"),
        Some((stem, "H")) => format!("{stem}.h"),
        _ => name.clone(),
    };
    if lowered != name {
        notes.push(format!(
            "{name} was graded as C source (built as {lowered})"
        ));
    }
    SourceFile {
        name: lowered,
        bytes,
    }
}

fn from_files(
    root: &Path,
    spec: &SubmissionSpec,
    paths: Vec<PathBuf>,
    ignored: Vec<Ignored>,
) -> Submission {
    let mut files = Vec::new();
    let mut problem = None;
    let mut notes = Vec::new();
    for path in paths {
        match read_source(&path) {
            Ok(bytes) => files.push(source_file(&path.to_string_lossy(), bytes, &mut notes)),
            Err(reason) => {
                problem.get_or_insert(reason);
            }
        }
    }
    finish(root, spec, files, problem, ignored, notes)
}

fn read_source(path: &Path) -> Result<Vec<u8>, String> {
    let size = std::fs::metadata(path)
        .map_err(|e| format!("{}: {}", path.display(), io_reason(&e)))?
        .len();
    if size > MAX_SOURCE_BYTES {
        return Err(format!(
            "{}: {}: over the {} source limit, not a hand-written program",
            path.display(),
            megabytes(size),
            megabytes(MAX_SOURCE_BYTES)
        ));
    }
    std::fs::read(path).map_err(|e| format!("{}: {}", path.display(), io_reason(&e)))
}

/// `20 MB`, `2.5 MB`: a size as a TA reads it.
fn megabytes(bytes: u64) -> String {
    let mb = bytes as f64 / f64::from(1u32 << 20);
    if (mb - mb.round()).abs() < 0.05 {
        format!("{mb:.0} MB")
    } else {
        format!("{mb:.1} MB")
    }
}

fn base_name(path: &str) -> String {
    path.rsplit(['/', '\\']).next().unwrap_or(path).to_string()
}

fn from_zip(path: &Path, spec: &SubmissionSpec) -> Submission {
    let mut notes = Vec::new();
    match read_zip(path, &mut notes) {
        Ok((files, ignored)) => finish(path, spec, files, None, ignored, notes),
        Err(reason) => Submission {
            name: name_of(path),
            path: path.to_path_buf(),
            files: Vec::new(),
            problem: Some(format!("{}: {reason}", path.display())),
            ignored: Vec::new(),
            notes,
            student: name_of(path),
            id: String::new(),
            late: false,
            submitted: None,
        },
    }
}

fn read_zip(
    path: &Path,
    notes: &mut Vec<String>,
) -> Result<(Vec<SourceFile>, Vec<Ignored>), String> {
    let file = std::fs::File::open(path).map_err(|e| io_reason(&e))?;
    let mut archive =
        zip::ZipArchive::new(file).map_err(|e| format!("not a readable zip ({e})"))?;
    let mut files = Vec::new();
    let mut ignored = Vec::new();
    let mut total = 0u64;
    for index in 0..archive.len() {
        let mut entry = archive
            .by_index(index)
            .map_err(|e| format!("broken zip entry ({e})"))?;
        let name = entry.name().to_string();
        if entry.is_dir() || name.contains("__MACOSX") || !is_source_name(&name) {
            continue;
        }
        if entry.is_symlink() {
            ignored.push(Ignored {
                file: name,
                reason: LINK_REASON.into(),
            });
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
        files.push(source_file(&name, bytes, notes));
    }
    files.sort_by(|a, b| a.name.cmp(&b.name));
    Ok((files, ignored))
}

/// The files a source `#include`s with quotes, by base name (builds see files side by side).
pub fn quoted_includes(text: &str) -> Vec<String> {
    text.lines()
        .filter_map(|line| {
            let directive = line.trim_start().strip_prefix('#')?.trim_start();
            let rest = directive.strip_prefix("include")?.trim_start();
            let quoted = rest.strip_prefix('"')?;
            let (path, _) = quoted.split_once('"')?;
            Some(base_name(path))
        })
        .collect()
}

/// Checks what a build needs: at least one `.c` file, text not binary, no two files with
/// one name; for a one-file assignment, picks the file to grade.
fn finish(
    root: &Path,
    spec: &SubmissionSpec,
    files: Vec<SourceFile>,
    problem: Option<String>,
    ignored: Vec<Ignored>,
    notes: Vec<String>,
) -> Submission {
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
    let mut submission = Submission {
        name: name_of(root),
        path: root.to_path_buf(),
        files,
        problem,
        ignored,
        notes,
        student: name_of(root),
        id: String::new(),
        late: false,
        submitted: None,
    };
    if spec.layout == Layout::Single && submission.problem.is_none() {
        keep_the_graded_file(&mut submission, &spec.file);
    }
    submission
}

/// A one-file assignment grades one `.c` file (and what it `#include`s): the one with the
/// handout's name, else the only one that defines `main`. Other `.c` files (a student's own
/// tests, an older version) are listed as ignored; headers stay for the build.
fn keep_the_graded_file(submission: &mut Submission, handout_file: &str) {
    let c_files: Vec<&SourceFile> = submission.files.iter().filter(|f| f.is_c()).collect();
    if c_files.len() < 2 {
        return;
    }
    let by_name = c_files.iter().find(|f| f.name == handout_file).or_else(|| {
        c_files
            .iter()
            .find(|f| f.name.eq_ignore_ascii_case(handout_file))
    });
    let with_main: Vec<&&SourceFile> = c_files
        .iter()
        .filter(|f| csource::defines_function(&f.text(), "main"))
        .collect();
    let graded = match (by_name, with_main.as_slice()) {
        (Some(file), _) => file.name.clone(),
        (None, [only]) => {
            submission.notes.push(format!(
                "no file is named {handout_file}: graded {}, the only .c file that defines main",
                only.name
            ));
            only.name.clone()
        }
        (None, mains) => {
            let names: Vec<&str> = c_files.iter().map(|f| f.name.as_str()).collect();
            submission.problem = Some(format!(
                "{}: {} .c files ({}), none named {handout_file} and {} defining main: cannot tell which one to grade (name it {handout_file})",
                submission.path.display(),
                names.len(),
                names.join(", "),
                mains.len()
            ));
            return;
        }
    };
    // The graded file and everything it includes, directly or not.
    let mut kept = BTreeSet::from([graded.clone()]);
    let mut pending = vec![graded.clone()];
    while let Some(name) = pending.pop() {
        let Some(file) = submission.files.iter().find(|f| f.name == name) else {
            continue;
        };
        for included in quoted_includes(&file.text()) {
            if kept.insert(included.clone()) {
                pending.push(included);
            }
        }
    }
    let (graded_files, left_out): (Vec<SourceFile>, Vec<SourceFile>) = submission
        .files
        .drain(..)
        .partition(|f| !f.is_c() || kept.contains(&f.name));
    submission.files = graded_files;
    submission
        .ignored
        .extend(left_out.into_iter().map(|file| Ignored {
            file: file.name,
            reason: format!(
                "a one-file assignment: only {graded} and the files it #includes are graded"
            ),
        }));
}

/// Two submissions with one name (alice.c and alice/) get distinct names.
fn dedupe_names(found: &mut [Submission]) {
    let mut counts: BTreeMap<String, usize> = BTreeMap::new();
    for submission in found.iter_mut() {
        let count = counts.entry(submission.name.clone()).or_insert(0);
        *count += 1;
        if *count > 1 {
            submission.name = format!("{}#{}", submission.name, count);
            if submission.id.is_empty() {
                submission.student = submission.name.clone();
            }
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

    fn spec(layout: Layout, file: &str) -> SubmissionSpec {
        SubmissionSpec {
            layout,
            file: file.into(),
            provided: Vec::new(),
            provided_if_missing: Vec::new(),
        }
    }

    fn single() -> SubmissionSpec {
        spec(Layout::Single, "Lab6.c")
    }

    fn found(path: &Path, spec: &SubmissionSpec) -> Vec<Submission> {
        discover(&[path.to_path_buf()], spec)
            .expect("found")
            .submissions
    }

    #[test]
    fn a_batch_folder_of_single_files_and_folders() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "alice.c", "int main(){}");
        write(dir.path(), "bob/src/Lab6.c", "int main(){}");
        write(dir.path(), "notes.txt", "hi");
        let found = found(dir.path(), &single());
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
        let found = found(dir.path(), &spec(Layout::Multi, "main.c"));
        assert_eq!(found.len(), 1);
        assert_eq!(found[0].files.len(), 3);
    }

    #[test]
    fn empty_binary_and_missing_inputs_are_named() {
        let dir = tempfile::tempdir().expect("tempdir");
        let empty = write(dir.path(), "empty/main.c", "  \n");
        let binary = dir.path().join("bin.c");
        std::fs::write(&binary, [0x7f, b'E', b'L', b'F', 0, 0]).expect("write");
        let found = found(empty.parent().expect("parent"), &single());
        assert!(found[0]
            .problem
            .as_deref()
            .is_some_and(|p| p.contains("is empty")));
        let found = super::discover(&[binary], &single())
            .expect("found")
            .submissions;
        assert!(found[0]
            .problem
            .as_deref()
            .is_some_and(|p| p.contains("binary")));
        let none = discover(&[dir.path().join("missing.c")], &single()).unwrap_err();
        assert!(none.to_string().contains("no such file"), "{none}");
        let txt = write(dir.path(), "notes.txt", "x");
        let err = discover(&[txt], &single()).unwrap_err();
        assert!(err.to_string().contains("not a submission"), "{err}");
        let hollow = dir.path().join("hollow");
        std::fs::create_dir(&hollow).expect("mkdir");
        let err = discover(&[hollow], &single()).unwrap_err();
        assert!(err.to_string().contains("no submissions found"), "{err}");
    }

    #[test]
    fn entries_that_are_not_submissions_are_listed_with_their_reason() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "ann.c", "int main(){}");
        write(dir.path(), "bo.cpp", "int main(){}");
        write(dir.path(), "notes.txt", "hi");
        write(dir.path(), "cy.tar.gz", "not really");
        write(dir.path(), "blank", "");
        std::fs::create_dir(dir.path().join("dee")).expect("mkdir");
        let outside = tempfile::tempdir().expect("tempdir");
        let secret = write(outside.path(), "secret.c", "int main(){}");
        std::os::unix::fs::symlink(&secret, dir.path().join("eve.c")).expect("symlink");
        let found = discover(&[dir.path().to_path_buf()], &single()).expect("found");
        let names: Vec<&str> = found.submissions.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, ["ann"]);
        let reasons: BTreeMap<String, &str> = found
            .skipped
            .iter()
            .map(|s| (file_name(Path::new(&s.path)), s.reason.as_str()))
            .collect();
        assert_eq!(reasons.len(), 6, "{reasons:?}");
        assert!(reasons["bo.cpp"].contains("C++"));
        assert!(reasons["notes.txt"].contains("not C source (.txt)"));
        assert!(reasons["cy.tar.gz"].contains(".tar.gz archive"));
        assert!(reasons["blank"].contains("empty file"));
        assert!(reasons["dee"].contains("empty folder"));
        assert!(reasons["eve.c"].contains("symbolic link"));
    }

    #[test]
    fn links_inside_a_submission_are_not_read() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "main.c", "int main(){}");
        let outside = tempfile::tempdir().expect("tempdir");
        let secret = write(outside.path(), "secret.c", "int leaked;");
        std::os::unix::fs::symlink(&secret, dir.path().join("secret.c")).expect("symlink");
        std::os::unix::fs::symlink(outside.path(), dir.path().join("more")).expect("symlink");
        let found = found(dir.path(), &spec(Layout::Multi, "main.c"));
        let files: Vec<&str> = found[0].files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(files, ["main.c"]);
        let ignored: Vec<&str> = found[0].ignored.iter().map(|i| i.file.as_str()).collect();
        assert_eq!(ignored, ["more", "secret.c"]);
    }

    #[test]
    fn an_upper_case_c_file_is_graded_as_c_with_a_note() {
        let dir = tempfile::tempdir().expect("tempdir");
        let file = write(dir.path(), "Gil.C", "int main(){}");
        let found = found(&file, &single());
        assert_eq!(found[0].problem, None);
        assert_eq!(found[0].files[0].name, "Gil.c");
        assert!(found[0].notes[0].contains("Gil.C was graded as C"));
    }

    #[test]
    fn a_one_file_assignment_grades_the_handout_file_and_what_it_includes() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(
            dir.path(),
            "Lab6.c",
            "#include \"lab6.h\"\n#include \"moves.c\"\nint main(){}",
        );
        write(dir.path(), "moves.c", "int f(void){return 1;}");
        write(dir.path(), "lab6.h", "");
        write(dir.path(), "test.c", "int main(){return 1;}");
        let found = super::discover(&[dir.path().to_path_buf()], &single())
            .expect("found")
            .submissions;
        assert_eq!(found.len(), 1, "one student's folder");
        std::fs::remove_file(dir.path().join("Lab6.c")).expect("remove");
        let without = super::discover(&[dir.path().to_path_buf()], &single()).expect("found");
        assert_eq!(
            without.submissions.len(),
            1,
            "no Lab6.c, but .c/.h files of one program (one main): still one student's"
        );
        assert!(without.submissions[0].notes[0].contains("graded test.c"));
        let files: Vec<&str> = found[0].files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(files, ["Lab6.c", "lab6.h", "moves.c"]);
        assert_eq!(found[0].ignored.len(), 1);
        assert_eq!(found[0].ignored[0].file, "test.c");
        assert!(found[0].ignored[0].reason.contains("only Lab6.c"));
    }

    #[test]
    fn without_the_handout_file_the_only_main_is_graded_or_the_choice_is_explained() {
        let dir = tempfile::tempdir().expect("tempdir");
        write(dir.path(), "bob/lab.c", "int main(void){return 0;}");
        write(dir.path(), "bob/helpers.c", "int main;/* not a function */");
        write(dir.path(), "cy/a.c", "int main(void){return 0;}");
        write(dir.path(), "cy/b.c", "int main(void){return 1;}");
        let found = found(dir.path(), &single());
        assert_eq!(found[0].files.len(), 1);
        assert_eq!(found[0].files[0].name, "lab.c");
        assert!(
            found[0].notes[0].contains("graded lab.c"),
            "{:?}",
            found[0].notes
        );
        assert_eq!(found[0].ignored[0].file, "helpers.c");
        let problem = found[1].problem.as_deref().unwrap_or_default();
        assert!(
            problem.contains("none named Lab6.c and 2 defining main"),
            "{problem}"
        );
    }

    #[test]
    fn a_folder_of_one_program_without_the_handout_name_is_one_submission() {
        let dir = tempfile::tempdir().expect("tempdir");
        let student = dir.path().join("lab7");
        write(
            &student,
            "lab7.c",
            "#include \"reversi.h\"\nint main(void){return 0;}",
        );
        write(
            &student,
            "reversi.h",
            "void printBoard(char b[][26], int n);",
        );
        write(
            &student,
            "board.c",
            "void printBoard(char b[][26], int n){}",
        );
        let found = found(&student, &single());
        assert_eq!(found.len(), 1, "one student");
        assert_eq!(found[0].name, "lab7");
        let names: Vec<&str> = found[0].files.iter().map(|f| f.name.as_str()).collect();
        assert_eq!(names, ["lab7.c", "reversi.h"]);
        assert!(found[0].problem.is_none(), "{:?}", found[0].problem);
    }

    #[test]
    fn a_folder_of_several_programs_or_of_folders_stays_a_batch() {
        let dir = tempfile::tempdir().expect("tempdir");
        let class = dir.path().join("class");
        write(&class, "alice.c", "int main(void){return 0;}");
        write(&class, "bob.c", "int main(void){return 1;}");
        let names: Vec<String> = found(&class, &single())
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, ["alice", "bob"]);
        let mixed = dir.path().join("mixed");
        write(&mixed, "alice.c", "int main(void){return 0;}");
        write(&mixed, "bob/lab.c", "int main(void){return 0;}");
        let names: Vec<String> = found(&mixed, &single())
            .into_iter()
            .map(|s| s.name)
            .collect();
        assert_eq!(names, ["alice", "bob"]);
        let zipped = dir.path().join("zipped");
        write(&zipped, "alice.c", "int main(void){return 0;}");
        write(&zipped, "bob.tar.gz", "not really");
        let found = discover(&[zipped], &single()).expect("found");
        assert_eq!(found.submissions.len(), 1);
        assert_eq!(found.skipped.len(), 1);
    }

    #[test]
    fn quoted_includes_are_found_by_base_name() {
        let text = "#include <stdio.h>\n  # include \"src/logic.c\"\n#include\"types.h\"\n";
        assert_eq!(quoted_includes(text), ["logic.c", "types.h"]);
    }
}
