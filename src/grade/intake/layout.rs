//! What an LMS's "download all submissions" looks like, and how its entries group into one
//! submission per student with the student's name and LMS id.
//!
//! Formats, as the LMSs document them:
//! - Canvas, "How do I download all student submissions for an assignment?" (Canvas
//!   Instructor Guide): one flat folder, each file named
//!   `<lastfirst>[_late]_<user id>_<submission id>_<original name>`; a file uploaded again
//!   under a name the student already used gets `-1`, `-2`, … before its ending.
//! - Moodle, "Assignment settings: Download all submissions" (MoodleDocs): files named
//!   `<Full Name>_<participant id>_assignsubmission_file_<original name>`, or with
//!   "Download submissions in folders" one folder `<Full Name>_<participant id>_assignsubmission_file_`
//!   per student holding the original files.
//! - Gradescope, "Exporting submissions" (Gradescope Help Center): a `submission_<id>/` folder
//!   per submission and `submission_metadata.yml`, which maps `:submission_<id>:` to its
//!   `:submitters:` (`:name:`, `:sid:`, `:email:`) and `:created_at:` (when it was submitted).
//! - GitHub Classroom, "Using the GitHub Classroom assistant" / `gh classroom clone
//!   student-repos` (GitHub Docs): one cloned repository per student, named
//!   `<assignment>-<username>/`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use clap::ValueEnum;

use crate::error::Error;

/// How a batch folder is laid out (`--layout`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Lms {
    /// Recognise the layouts below; a plain folder otherwise.
    Auto,
    /// One file, folder or zip per student, named after the student.
    Plain,
    /// Canvas "Download Submissions": `<lastfirst>[_late]_<user id>_<submission id>_<file>`.
    Canvas,
    /// Moodle "Download all submissions", with or without "in folders".
    Moodle,
    /// Gradescope "Export Submissions": `submission_<id>/` and `submission_metadata.yml`.
    Gradescope,
    /// GitHub Classroom: cloned repositories named `<assignment>-<username>`.
    Classroom,
}

impl Lms {
    pub fn label(self) -> &'static str {
        match self {
            Lms::Auto => "auto",
            Lms::Plain => "plain",
            Lms::Canvas => "Canvas",
            Lms::Moodle => "Moodle",
            Lms::Gradescope => "Gradescope",
            Lms::Classroom => "GitHub Classroom",
        }
    }
}

/// Who a submission belongs to, as the LMS names them.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Student {
    /// Display name (`doejane` on Canvas, `Jane Doe` on Moodle and Gradescope).
    pub name: String,
    /// The LMS's id: Canvas user id, Moodle participant id, Gradescope SID (or email),
    /// GitHub username.
    pub id: String,
    /// Canvas marked the submission late.
    pub late: bool,
    /// When it was submitted, as the LMS wrote it (Gradescope's `:created_at:`).
    pub submitted: Option<String>,
}

/// One student's entries of an export: files to read under the name the build uses, and
/// folders or zips whose sources are all read.
#[derive(Debug, Clone, Default)]
pub struct Group {
    pub student: Student,
    /// What the submission's path says in reports (the student's folder, or first file).
    pub root: PathBuf,
    /// `(name for the build, file on disk)`; zips are unpacked.
    pub files: Vec<(String, PathBuf)>,
    pub folders: Vec<PathBuf>,
    /// Files of the export that belong to the student but are not graded, with the reason.
    pub ignored: Vec<(String, String)>,
    pub notes: Vec<String>,
}

/// The groups of an export folder and the entries that belong to no student.
#[derive(Debug, Default)]
pub struct Export {
    pub groups: Vec<Group>,
    pub unmatched: Vec<(PathBuf, String)>,
}

pub const METADATA: &str = "submission_metadata.yml";

/// The layout of `dir`: the first LMS whose shape every gradable entry fits, else plain.
pub fn detect(dir: &Path) -> Lms {
    let names = visible_names(dir);
    if names.is_empty() {
        return Lms::Plain;
    }
    if dir.join(METADATA).is_file() && names.iter().any(|n| gradescope_id(n).is_some()) {
        return Lms::Gradescope;
    }
    let folders: Vec<&String> = names.iter().filter(|n| dir.join(n).is_dir()).collect();
    if !folders.is_empty()
        && folders.len() == names.len()
        && folders.iter().all(|n| dir.join(n).join(".git").exists())
        && classroom_prefix(&names).is_some()
    {
        return Lms::Classroom;
    }
    // Every entry a plain batch would grade must fit; others (a TA's notes) are skipped.
    let gradable: Vec<&String> = names
        .iter()
        .filter(|n| {
            let lower = n.to_ascii_lowercase();
            dir.join(n).is_dir() || [".c", ".h", ".zip"].iter().any(|e| lower.ends_with(e))
        })
        .collect();
    if gradable.is_empty() {
        return Lms::Plain;
    }
    if gradable.iter().all(|n| parse_moodle(n).is_some()) {
        return Lms::Moodle;
    }
    if gradable.iter().all(|n| parse_canvas(n).is_some()) {
        return Lms::Canvas;
    }
    Lms::Plain
}

/// Groups the entries of an export folder by student.
pub fn group(dir: &Path, lms: Lms) -> Result<Export, Error> {
    match lms {
        Lms::Canvas => Ok(group_canvas(dir)),
        Lms::Moodle => Ok(group_moodle(dir)),
        Lms::Gradescope => group_gradescope(dir),
        Lms::Classroom => Ok(group_classroom(dir)),
        Lms::Auto | Lms::Plain => Ok(Export::default()),
    }
}

fn visible_names(dir: &Path) -> Vec<String> {
    let Ok(read) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut names: Vec<String> = read
        .filter_map(Result::ok)
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| !n.starts_with('.'))
        .collect();
    names.sort();
    names
}

/// A Canvas file name's parts: student, late, user id, original name.
#[derive(Debug, PartialEq, Eq)]
struct CanvasName {
    student: String,
    late: bool,
    user_id: String,
    original: String,
}

fn is_number(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

fn parse_canvas(file_name: &str) -> Option<CanvasName> {
    let mut parts = file_name.splitn(2, '_');
    let student = parts.next()?.to_string();
    let mut rest = parts.next()?;
    let mut late = false;
    if let Some(after) = rest
        .strip_prefix("late_")
        .or_else(|| rest.strip_prefix("LATE_"))
    {
        late = true;
        rest = after;
    }
    let (user_id, rest) = rest.split_once('_')?;
    let (submission_id, original) = rest.split_once('_')?;
    if student.is_empty() || !is_number(user_id) || !is_number(submission_id) {
        return None;
    }
    if original.is_empty() {
        return None;
    }
    Some(CanvasName {
        student,
        late,
        user_id: user_id.to_string(),
        original: original.to_string(),
    })
}

/// `Lab6-2.c` → (`Lab6.c`, 2): the name a resubmitted file had first, and its upload count.
fn resubmission(name: &str) -> (String, u32) {
    let (stem, ending) = match name.rsplit_once('.') {
        Some((stem, ending)) => (stem, format!(".{ending}")),
        None => (name, String::new()),
    };
    match stem.rsplit_once('-') {
        Some((base, count)) if !base.is_empty() && is_number(count) && count.len() <= 3 => {
            match count.parse() {
                Ok(count) => (format!("{base}{ending}"), count),
                Err(_) => (name.to_string(), 0),
            }
        }
        _ => (name.to_string(), 0),
    }
}

/// One upload of a file: its upload count (0 for the first), name in the export, path.
type Upload = (u32, String, PathBuf);

fn group_canvas(dir: &Path) -> Export {
    let mut export = Export::default();
    let mut by_user: BTreeMap<String, Group> = BTreeMap::new();
    // Per user and original name: every upload (count, name on disk, path).
    let mut uploads: BTreeMap<(String, String), Vec<Upload>> = BTreeMap::new();
    for name in visible_names(dir) {
        let path = dir.join(&name);
        let Some(parsed) = parse_canvas(&name) else {
            export
                .unmatched
                .push((path, "not named like a Canvas submission file".into()));
            continue;
        };
        let group = by_user.entry(parsed.user_id.clone()).or_default();
        group.student.name = parsed.student.clone();
        group.student.id = parsed.user_id.clone();
        group.student.late |= parsed.late;
        if group.root.as_os_str().is_empty() {
            group.root = path.clone();
        }
        if path.is_dir() {
            group.folders.push(path);
            continue;
        }
        let (first_name, count) = resubmission(&parsed.original);
        uploads
            .entry((parsed.user_id, first_name))
            .or_default()
            .push((count, parsed.original, path));
    }
    for ((user_id, first_name), mut versions) in uploads {
        let Some(group) = by_user.get_mut(&user_id) else {
            continue;
        };
        versions.sort();
        let Some((_, latest_name, latest_path)) = versions.pop() else {
            continue;
        };
        if latest_name != first_name {
            group.notes.push(format!(
                "graded {latest_name}, the latest upload of {first_name} (built as {first_name})"
            ));
        }
        for (_, older, _) in versions {
            group.ignored.push((
                older,
                format!("an earlier upload of {first_name}: {latest_name} is graded"),
            ));
        }
        if latest_name.to_ascii_lowercase().ends_with(".zip") {
            group.folders.push(latest_path);
        } else {
            group.files.push((first_name, latest_path));
        }
    }
    export.groups = by_user.into_values().collect();
    export
}

/// A Moodle entry's parts: full name, participant id, original name (empty for a folder).
fn parse_moodle(entry: &str) -> Option<(String, String, String)> {
    let (person, plugin) = entry.split_once("_assignsubmission_")?;
    let (name, id) = person.rsplit_once('_')?;
    if name.is_empty() || !is_number(id) {
        return None;
    }
    let original = plugin.split_once('_').map(|(_, rest)| rest).unwrap_or("");
    Some((name.to_string(), id.to_string(), original.to_string()))
}

fn group_moodle(dir: &Path) -> Export {
    let mut export = Export::default();
    let mut by_id: BTreeMap<String, Group> = BTreeMap::new();
    for entry in visible_names(dir) {
        let path = dir.join(&entry);
        let Some((name, id, original)) = parse_moodle(&entry) else {
            export
                .unmatched
                .push((path, "not named like a Moodle submission file".into()));
            continue;
        };
        let group = by_id.entry(id.clone()).or_default();
        group.student.name = name;
        group.student.id = id;
        if path.is_dir() {
            group.root = path.clone();
            group.folders.push(path);
        } else {
            if group.root.as_os_str().is_empty() {
                group.root = path.clone();
            }
            if original.to_ascii_lowercase().ends_with(".zip") {
                group.folders.push(path);
            } else {
                group.files.push((original, path));
            }
        }
    }
    export.groups = by_id.into_values().collect();
    export
}

fn gradescope_id(folder: &str) -> Option<&str> {
    folder
        .strip_prefix("submission_")
        .filter(|id| is_number(id))
}

/// Submission id → (names, ids) of its submitters, from `submission_metadata.yml`.
fn gradescope_submitters(dir: &Path) -> Result<BTreeMap<String, Student>, Error> {
    use yaml_rust2::{Yaml, YamlLoader};
    let path = dir.join(METADATA);
    let text = std::fs::read_to_string(&path)
        .map_err(|e| Error::config(format!("{}: cannot read: {e}", path.display())))?;
    let documents = YamlLoader::load_from_str(&text)
        .map_err(|e| Error::config(format!("{}: not valid YAML: {e}", path.display())))?;
    let mut found = BTreeMap::new();
    let Some(Yaml::Hash(submissions)) = documents.first() else {
        return Ok(found);
    };
    let text_of = |value: &Yaml| match value {
        Yaml::String(s) => Some(s.clone()),
        Yaml::Integer(i) => Some(i.to_string()),
        _ => None,
    };
    for (key, value) in submissions {
        let Some(id) = key
            .as_str()
            .and_then(|k| k.trim_start_matches(':').strip_prefix("submission_"))
        else {
            continue;
        };
        let submitters = value[":submitters"].as_vec().cloned().unwrap_or_default();
        let names: Vec<String> = submitters
            .iter()
            .filter_map(|s| text_of(&s[":name"]))
            .collect();
        let ids: Vec<String> = submitters
            .iter()
            .filter_map(|s| {
                let known = |key: &str| text_of(&s[key]).filter(|id| !id.is_empty());
                known(":sid").or_else(|| known(":email"))
            })
            .collect();
        found.insert(
            id.to_string(),
            Student {
                name: names.join(", "),
                id: ids.join(", "),
                late: false,
                submitted: text_of(&value[":created_at"]),
            },
        );
    }
    Ok(found)
}

fn group_gradescope(dir: &Path) -> Result<Export, Error> {
    let submitters = gradescope_submitters(dir)?;
    let mut export = Export::default();
    for entry in visible_names(dir) {
        let path = dir.join(&entry);
        if entry == METADATA {
            continue;
        }
        match gradescope_id(&entry) {
            Some(id) if path.is_dir() => {
                let mut group = Group {
                    root: path.clone(),
                    folders: vec![path],
                    ..Group::default()
                };
                match submitters.get(id) {
                    Some(student) => group.student = student.clone(),
                    None => {
                        group.student.name = entry.clone();
                        group.notes.push(format!(
                            "{METADATA} does not name the submitters of {entry}"
                        ));
                    }
                }
                export.groups.push(group);
            }
            _ => export
                .unmatched
                .push((path, "not a Gradescope submission_<id> folder".into())),
        }
    }
    Ok(export)
}

/// The `<assignment>-` prefix every repository name shares, when there is one.
fn classroom_prefix(names: &[String]) -> Option<String> {
    let first = names.first()?;
    let mut prefix = first.as_str();
    for name in names {
        while !name.starts_with(prefix) {
            prefix = &prefix[..prefix.len() - prefix.chars().last()?.len_utf8()];
        }
    }
    // One repository: its assignment is everything up to the last '-'.
    let cut = prefix.rfind('-')?;
    let prefix = &prefix[..=cut];
    names
        .iter()
        .all(|n| n.len() > prefix.len())
        .then(|| prefix.to_string())
}

fn group_classroom(dir: &Path) -> Export {
    let names = visible_names(dir);
    let prefix = classroom_prefix(&names).unwrap_or_default();
    let mut export = Export::default();
    for name in names {
        let path = dir.join(&name);
        if !path.is_dir() {
            export
                .unmatched
                .push((path, "not a student repository folder".into()));
            continue;
        }
        let username = name.strip_prefix(&prefix).unwrap_or(&name).to_string();
        export.groups.push(Group {
            student: Student {
                name: username.clone(),
                id: username,
                ..Student::default()
            },
            root: path.clone(),
            folders: vec![path],
            ..Group::default()
        });
    }
    export
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canvas_names_split_into_student_late_id_and_file() {
        assert_eq!(
            parse_canvas("doejane_late_4711_90210_Lab6_final.c"),
            Some(CanvasName {
                student: "doejane".into(),
                late: true,
                user_id: "4711".into(),
                original: "Lab6_final.c".into(),
            })
        );
        assert!(parse_canvas("doejane_LATE_4711_90210_Lab6.c").is_some_and(|n| n.late));
        assert_eq!(parse_canvas("alice.c"), None);
        assert_eq!(parse_canvas("my_lab_6.c"), None);
    }

    #[test]
    fn resubmitted_names_lose_their_count() {
        assert_eq!(resubmission("Lab6-2.c"), ("Lab6.c".into(), 2));
        assert_eq!(resubmission("Lab6.c"), ("Lab6.c".into(), 0));
        assert_eq!(resubmission("tic-tac.c"), ("tic-tac.c".into(), 0));
    }

    #[test]
    fn a_canvas_export_groups_by_user_keeps_zips_and_lists_strays() {
        let dir = tempfile::tempdir().expect("tempdir");
        for name in [
            "doejane_7_70_Lab6.c",
            "doejane_7_70_Lab6-1.c",
            "doejane_7_70_Lab6-2.c",
            "roejohn_late_8_80_work.zip",
            "notes.txt",
        ] {
            std::fs::write(dir.path().join(name), "x").expect("write");
        }
        assert_eq!(
            detect(dir.path()),
            Lms::Canvas,
            "a stray note is not a submission"
        );
        std::fs::write(dir.path().join("alice.c"), "x").expect("write");
        assert_eq!(
            detect(dir.path()),
            Lms::Plain,
            "a plain submission among them"
        );
        std::fs::remove_file(dir.path().join("alice.c")).expect("rm");
        let export = group(dir.path(), Lms::Canvas).expect("grouped");
        assert_eq!(export.unmatched.len(), 1);
        assert_eq!(export.groups.len(), 2);
        let jane = &export.groups[0];
        assert_eq!(jane.student.id, "7");
        assert_eq!(jane.files.len(), 1);
        assert_eq!(jane.files[0].0, "Lab6.c");
        assert!(jane.files[0].1.ends_with("doejane_7_70_Lab6-2.c"));
        let earlier: Vec<&str> = jane.ignored.iter().map(|(f, _)| f.as_str()).collect();
        assert_eq!(earlier, ["Lab6.c", "Lab6-1.c"]);
        let john = &export.groups[1];
        assert!(john.student.late);
        assert_eq!(john.folders.len(), 1, "a zip is unpacked");
    }

    #[test]
    fn moodle_names_with_and_without_folders() {
        assert_eq!(
            parse_moodle("Jane Doe_123_assignsubmission_file_Lab6.c"),
            Some(("Jane Doe".into(), "123".into(), "Lab6.c".into()))
        );
        assert_eq!(
            parse_moodle("Jane Doe_123_assignsubmission_file_"),
            Some(("Jane Doe".into(), "123".into(), String::new()))
        );
        assert_eq!(parse_moodle("Lab6.c"), None);
    }

    #[test]
    fn classroom_repositories_share_the_assignment_prefix() {
        let names = ["lab6-alice".to_string(), "lab6-bob-smith".to_string()];
        assert_eq!(classroom_prefix(&names), Some("lab6-".into()));
        assert_eq!(
            classroom_prefix(&["lab6-alice".to_string()]),
            Some("lab6-".into())
        );
        assert_eq!(
            classroom_prefix(&["alice".to_string(), "bob".to_string()]),
            None
        );
    }
}
