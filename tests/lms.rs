//! LMS downloads in, feedback and gradebook out: synthetic exports of every layout (three
//! made-up students: one with two files, one late, one who resubmitted) are graded as three
//! submissions with the right names, ids and files; feedback files hold one student each;
//! gradebook CSVs carry the LMSs' headers; the Classroom workflow's commands run locally.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{chromium_dom, grade_json, referee, root};
use serde_json::Value;

fn reference() -> String {
    std::fs::read_to_string(root().join("reference/reversi/Lab6.c")).expect("reference")
}

/// The C file of the reversi sample `name` (a folder holding `name.c`).
fn sample(name: &str) -> String {
    let folder = root()
        .join("tests/submissions/reversi")
        .join(name.trim_end_matches(".c"));
    std::fs::read_to_string(folder.join(name)).expect("sample")
}

/// A student's own test program, which a one-file assignment does not grade.
const OWN_TEST: &str = "int main(void) { return 0; }\n";

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

/// What every layout must give: student -> (id, late, full marks, ignored files).
fn expected(ids: [&str; 3], names: [&str; 3], canvas: bool) -> BTreeMap<String, Expect> {
    // Only Canvas marks late work and keeps earlier uploads in its download.
    let earlier_upload = if canvas { vec!["Lab6.c"] } else { vec![] };
    [
        (names[0], ids[0], false, true, vec!["mytest.c"]),
        (names[1], ids[1], canvas, false, vec![]),
        (names[2], ids[2], false, true, earlier_upload),
    ]
    .into_iter()
    .map(|(name, id, late, full, ignored)| {
        (
            name.to_string(),
            Expect {
                id: id.to_string(),
                late,
                full,
                ignored: ignored.into_iter().map(String::from).collect(),
            },
        )
    })
    .collect()
}

#[derive(Debug)]
struct Expect {
    id: String,
    late: bool,
    full: bool,
    ignored: Vec<String>,
}

fn check_report(report: &Value, expected: &BTreeMap<String, Expect>) {
    let submissions = report["submissions"].as_array().expect("submissions");
    assert_eq!(submissions.len(), 3, "{report:#}");
    assert_eq!(report["skipped"].as_array().map(Vec::len), Some(0));
    for s in submissions {
        let student = s["student"].as_str().expect("student");
        let want = expected
            .get(student)
            .unwrap_or_else(|| panic!("unexpected student {student}"));
        assert_eq!(s["id"], want.id.as_str(), "{student}");
        assert_eq!(s["late"], want.late, "{student}");
        let full = s["score"].as_f64() == s["max_score"].as_f64();
        assert_eq!(
            full, want.full,
            "{student}: {} / {}",
            s["score"], s["max_score"]
        );
        let ignored: Vec<&str> = s["ignored"]
            .as_array()
            .expect("ignored")
            .iter()
            .filter_map(|i| i["file"].as_str())
            .filter(|f| f.ends_with(".c"))
            .collect();
        assert_eq!(ignored, want.ignored, "{student}");
    }
}

/// Canvas: a flat folder; Cara uploaded Lab6.c twice, the second time as Lab6-1.c (the first
/// crashes, the latest is correct, so full marks prove the latest was graded).
fn canvas_export(dir: &Path) {
    write(&dir.join("smithalice_1001_5001_Lab6.c"), &reference());
    write(&dir.join("smithalice_1001_5001_mytest.c"), OWN_TEST);
    write(
        &dir.join("jonesbob_late_1002_5002_Lab6.c"),
        &sample("no_diagonals.c"),
    );
    write(
        &dir.join("leecara_1003_5003_Lab6.c"),
        &sample("crash_on_invalid.c"),
    );
    write(&dir.join("leecara_1003_5003_Lab6-1.c"), &reference());
}

fn moodle_export(dir: &Path, in_folders: bool) {
    let files = [
        ("Alice Smith_2001", "Lab6.c", reference()),
        ("Alice Smith_2001", "mytest.c", OWN_TEST.to_string()),
        ("Bob Jones_2002", "Lab6.c", sample("no_diagonals.c")),
        ("Cara Lee_2003", "Lab6.c", reference()),
    ];
    for (person, file, text) in files {
        let path = if in_folders {
            dir.join(format!("{person}_assignsubmission_file_"))
                .join(file)
        } else {
            dir.join(format!("{person}_assignsubmission_file_{file}"))
        };
        write(&path, &text);
    }
}

fn gradescope_export(dir: &Path) {
    write(&dir.join("submission_9001/Lab6.c"), &reference());
    write(&dir.join("submission_9001/mytest.c"), OWN_TEST);
    write(
        &dir.join("submission_9002/src/Lab6.c"),
        &sample("no_diagonals.c"),
    );
    write(&dir.join("submission_9003/Lab6.c"), &reference());
    write(
        &dir.join("submission_metadata.yml"),
        "---\n\
         :submission_9001:\n  :submitters:\n  - :name: Alice Smith\n    :sid: 'A1'\n    :email: alice@example.edu\n  :score: 0.0\n\
         :submission_9002:\n  :submitters:\n  - :name: Bob Jones\n    :sid: 'B2'\n    :email: bob@example.edu\n\
         :submission_9003:\n  :submitters:\n  - :name: Cara Lee\n    :sid: ''\n    :email: cara@example.edu\n",
    );
}

fn classroom_export(dir: &Path) {
    let repos = [
        (
            "lab6-alice",
            vec![("Lab6.c", reference()), ("tests/mytest.c", OWN_TEST.into())],
        ),
        ("lab6-bobj", vec![("Lab6.c", sample("no_diagonals.c"))]),
        ("lab6-cara-lee", vec![("Lab6.c", reference())]),
    ];
    for (repo, files) in repos {
        std::fs::create_dir_all(dir.join(repo).join(".git/objects")).expect("mkdir");
        for (file, text) in files {
            write(&dir.join(repo).join(file), &text);
        }
    }
}

#[test]
fn a_canvas_download_is_one_submission_per_student_with_the_latest_upload() {
    let dir = tempfile::tempdir().expect("tempdir");
    canvas_export(dir.path());
    let report = grade_json("reversi", dir.path(), &[]);
    check_report(
        &report,
        &expected(
            ["1001", "1002", "1003"],
            ["smithalice", "jonesbob", "leecara"],
            true,
        ),
    );
    let cara = report["submissions"]
        .as_array()
        .and_then(|s| s.iter().find(|s| s["student"] == "leecara"))
        .expect("cara");
    let notes = cara["notes"].to_string();
    assert!(
        notes.contains("graded Lab6-1.c, the latest upload of Lab6.c"),
        "{notes}"
    );
    let named = grade_json("reversi", dir.path(), &["--layout", "canvas"]);
    assert_eq!(named["submissions"], report["submissions"]);
}

#[test]
fn moodle_downloads_with_and_without_folders() {
    for in_folders in [false, true] {
        let dir = tempfile::tempdir().expect("tempdir");
        moodle_export(dir.path(), in_folders);
        let report = grade_json("reversi", dir.path(), &[]);
        check_report(
            &report,
            &expected(
                ["2001", "2002", "2003"],
                ["Alice Smith", "Bob Jones", "Cara Lee"],
                false,
            ),
        );
    }
}

#[test]
fn a_gradescope_export_names_students_from_its_metadata() {
    let dir = tempfile::tempdir().expect("tempdir");
    gradescope_export(dir.path());
    let report = grade_json("reversi", dir.path(), &[]);
    check_report(
        &report,
        &expected(
            ["A1", "B2", "cara@example.edu"],
            ["Alice Smith", "Bob Jones", "Cara Lee"],
            false,
        ),
    );
}

#[test]
fn github_classroom_repositories_are_named_by_username() {
    let dir = tempfile::tempdir().expect("tempdir");
    classroom_export(dir.path());
    let report = grade_json("reversi", dir.path(), &[]);
    check_report(
        &report,
        &expected(
            ["alice", "bobj", "cara-lee"],
            ["alice", "bobj", "cara-lee"],
            false,
        ),
    );
}

#[test]
fn a_plain_folder_stays_plain_and_a_named_layout_that_does_not_fit_skips_entries() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(&dir.path().join("alice.c"), &reference());
    let report = grade_json("reversi", dir.path(), &[]);
    let only = common::only_submission(&report);
    assert_eq!(only["student"], "alice");
    assert_eq!(
        only["id"],
        Value::Null,
        "no LMS id is null, as the contract says"
    );
    let output = referee()
        .args(["grade", "reversi"])
        .arg(dir.path())
        .args(["--layout", "canvas"])
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("not named like a Canvas submission file"),
        "{stderr}"
    );
}

/// Every report format names each student and their id.
#[test]
fn every_report_format_carries_student_and_id() {
    let dir = tempfile::tempdir().expect("tempdir");
    moodle_export(&dir.path().join("export"), false);
    let out = dir.path().join("out/");
    referee()
        .args(["grade", "reversi"])
        .arg(dir.path().join("export"))
        .args(["--format", "json,csv,junit,html,text", "-o"])
        .arg(&out)
        .assert()
        .success();
    for file in [
        "report.json",
        "report.csv",
        "report.junit.xml",
        "report.html",
        "report.txt",
    ] {
        let text = std::fs::read_to_string(out.join(file)).expect("report");
        for (name, id) in [
            ("Alice Smith", "2001"),
            ("Bob Jones", "2002"),
            ("Cara Lee", "2003"),
        ] {
            assert!(text.contains(name), "{file} lacks {name}");
            assert!(text.contains(id), "{file} lacks {id}");
        }
    }
    let mut csv = csv::Reader::from_path(out.join("report.csv")).expect("csv");
    let header: Vec<String> = csv
        .headers()
        .expect("header")
        .iter()
        .map(String::from)
        .collect();
    let rows: Vec<csv::StringRecord> = csv.records().collect::<Result<_, _>>().expect("rows");
    let column = |row: &csv::StringRecord, name: &str| {
        let index = header.iter().position(|h| h == name).expect("column");
        row.get(index).unwrap_or_default().to_string()
    };
    let ids: Vec<String> = rows.iter().map(|r| column(r, "id")).collect();
    assert_eq!(ids, ["2001", "2002", "2003"]);
    let junit = std::fs::read_to_string(out.join("report.junit.xml")).expect("junit");
    assert!(
        junit.contains("<property name=\"id\" value=\"2002\"/>"),
        "{junit}"
    );
}

fn canvas_graded_with(extra: &[&str]) -> (tempfile::TempDir, Value) {
    let dir = tempfile::tempdir().expect("tempdir");
    canvas_export(&dir.path().join("export"));
    let report = grade_json("reversi", &dir.path().join("export"), extra);
    (dir, report)
}

#[test]
fn feedback_files_hold_only_their_student() {
    for (format, ending) in [("html", "html"), ("text", "txt")] {
        let dir = tempfile::tempdir().expect("tempdir");
        canvas_export(&dir.path().join("export"));
        let feedback = dir.path().join("feedback");
        let feedback_text = feedback.to_string_lossy().into_owned();
        let report = grade_json(
            "reversi",
            &dir.path().join("export"),
            &["--feedback", &feedback_text, "--feedback-format", format],
        );
        let students = report["submissions"].as_array().expect("submissions");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&feedback)
            .expect("feedback folder")
            .map(|e| e.expect("entry").path())
            .collect();
        files.sort();
        let names: Vec<String> = files
            .iter()
            .filter_map(|f| f.file_name().map(|n| n.to_string_lossy().into_owned()))
            .collect();
        assert_eq!(
            names,
            [
                format!("jonesbob_1002.{ending}"),
                format!("leecara_1003.{ending}"),
                format!("smithalice_1001.{ending}")
            ]
        );
        for student in students {
            let me = student["student"].as_str().expect("student");
            let id = student["id"].as_str().expect("id");
            let text = std::fs::read_to_string(feedback.join(format!("{me}_{id}.{ending}")))
                .expect("feedback file");
            assert!(text.contains(me) && text.contains(id), "{me}");
            let path = student["path"].as_str().expect("path");
            let file = Path::new(path).file_name().expect("file name");
            assert!(text.contains(&*file.to_string_lossy()), "{me}");
            let export = dir.path().canonicalize().expect("absolute");
            for absolute in [dir.path(), export.as_path()] {
                let absolute = absolute.to_string_lossy();
                assert!(
                    !text.contains(&*absolute),
                    "{me}'s feedback shows {absolute}"
                );
            }
            for other in students.iter().filter(|o| o["student"] != me) {
                for key in ["student", "id", "path"] {
                    let value = other[key].as_str().expect("text");
                    assert!(!text.contains(value), "{me}'s feedback names {value}");
                }
            }
            let shown = visible_text(&text).to_lowercase();
            for word in [
                "class",
                "histogram",
                "most common",
                "submissions graded",
                "mean",
            ] {
                assert!(
                    !shown.contains(word),
                    "{me}'s feedback says {word}: {shown}"
                );
            }
            let failing = student["score"] != student["max_score"];
            assert_eq!(
                text.contains("no_diagonal") || text.contains("✗"),
                failing,
                "{me}"
            );
            if format == "html" {
                assert!(text.starts_with("<!DOCTYPE html>"), "{me}");
                assert!(
                    !text.contains("<script src") && !text.contains("<link"),
                    "self-contained"
                );
            }
        }
    }
}

/// What a reader sees of a page: its text outside tags, style and script (attribute words
/// such as `class="…"` are markup, not something the student reads).
fn visible_text(page: &str) -> String {
    let mut text = page.to_string();
    for (open, close) in [("<style>", "</style>"), ("<script>", "</script>")] {
        while let Some(start) = text.find(open) {
            let end = text[start..]
                .find(close)
                .map_or(text.len(), |e| start + e + close.len());
            text.replace_range(start..end, "");
        }
    }
    let mut shown = String::new();
    let mut in_tag = false;
    for c in text.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            _ if !in_tag => shown.push(c),
            _ => {}
        }
    }
    shown
}

fn read_gradebook(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut reader = csv::Reader::from_path(path).expect("gradebook csv");
    let header = reader
        .headers()
        .expect("header")
        .iter()
        .map(String::from)
        .collect();
    let rows = reader
        .records()
        .map(|r| r.expect("row").iter().map(String::from).collect())
        .collect();
    (header, rows)
}

#[test]
fn gradebook_csvs_have_the_lms_headers_and_the_totals() {
    let scores = |report: &Value| -> BTreeMap<String, f64> {
        report["submissions"]
            .as_array()
            .expect("submissions")
            .iter()
            .map(|s| {
                (
                    s["id"].as_str().expect("id").to_string(),
                    s["score"].as_f64().expect("score"),
                )
            })
            .collect()
    };
    let dir = tempfile::tempdir().expect("tempdir");
    let canvas_file = dir.path().join("canvas.csv");
    let canvas_text = canvas_file.to_string_lossy().into_owned();
    let (_export, report) = canvas_graded_with(&[
        "--gradebook",
        "canvas",
        "--gradebook-file",
        &canvas_text,
        "--gradebook-column",
        "Lab 6 (4242)",
    ]);
    let (header, rows) = read_gradebook(&canvas_file);
    let mut want: Vec<String> = referee::report::gradebook::CANVAS_HEADER
        .iter()
        .map(|h| h.to_string())
        .collect();
    want.push("Lab 6 (4242)".into());
    assert_eq!(header, want);
    let from_csv: BTreeMap<String, f64> = rows
        .iter()
        .map(|r| (r[1].clone(), r[5].parse().expect("score")))
        .collect();
    assert_eq!(from_csv, scores(&report));

    let dir = tempfile::tempdir().expect("tempdir");
    moodle_export(&dir.path().join("export"), true);
    let moodle_file = dir.path().join("moodle.csv");
    let moodle_text = moodle_file.to_string_lossy().into_owned();
    let report = grade_json(
        "reversi",
        &dir.path().join("export"),
        &["--gradebook", "moodle", "--gradebook-file", &moodle_text],
    );
    let (header, rows) = read_gradebook(&moodle_file);
    assert_eq!(header, referee::report::gradebook::MOODLE_HEADER);
    let from_csv: BTreeMap<String, f64> = rows
        .iter()
        .map(|r| {
            let id = r[0].strip_prefix("Participant ").expect("Participant <id>");
            (id.to_string(), r[4].parse().expect("grade"))
        })
        .collect();
    assert_eq!(from_csv, scores(&report));
}

#[test]
fn a_gradebook_needs_lms_ids() {
    let dir = tempfile::tempdir().expect("tempdir");
    write(&dir.path().join("alice.c"), &reference());
    let output = referee()
        .args(["grade", "reversi"])
        .arg(dir.path())
        .args(["--gradebook", "canvas", "--gradebook-file"])
        .arg(dir.path().join("g.csv"))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("no LMS id"));
}

/// The workflow's commands, parsed as YAML.
struct Workflow {
    download: String,
    grade: String,
    /// Item -> (command, max-score).
    items: BTreeMap<String, (String, f64)>,
    runners: String,
    cache_key: String,
}

fn workflow_commands(text: &str) -> Workflow {
    use yaml_rust2::{Yaml, YamlLoader};
    let docs = YamlLoader::load_from_str(text).expect("the workflow is YAML");
    let steps = docs[0]["jobs"]["run-autograding-tests"]["steps"]
        .as_vec()
        .expect("steps")
        .clone();
    let mut grade = String::new();
    let mut download = String::new();
    let mut cache_key = String::new();
    let mut items = BTreeMap::new();
    let mut runners = String::new();
    for step in &steps {
        let uses = step["uses"].as_str().unwrap_or_default();
        if step["name"].as_str() == Some("Grade with referee") {
            grade = step["run"].as_str().expect("run").to_string();
        } else if step["name"].as_str() == Some("Download referee") {
            download = step["run"].as_str().expect("run").to_string();
            assert_eq!(
                step["if"].as_str(),
                Some("steps.referee_cache.outputs.cache-hit != 'true'")
            );
        } else if uses.starts_with("actions/cache@") {
            assert_eq!(step["id"].as_str(), Some("referee_cache"));
            assert_eq!(step["with"]["path"].as_str(), Some(".referee"));
            cache_key = step["with"]["key"].as_str().expect("key").to_string();
        } else if uses.starts_with("classroom-resources/autograding-command-grader@") {
            let with = &step["with"];
            let points = match &with["max-score"] {
                Yaml::Integer(i) => *i as f64,
                Yaml::Real(r) => r.parse().expect("number"),
                other => panic!("max-score {other:?}"),
            };
            items.insert(
                with["test-name"].as_str().expect("test-name").to_string(),
                (
                    with["command"].as_str().expect("command").to_string(),
                    points,
                ),
            );
        } else if uses.starts_with("classroom-resources/autograding-grading-reporter@") {
            runners = step["with"]["runners"]
                .as_str()
                .expect("runners")
                .to_string();
            for runner in runners.split(',') {
                let key = format!("{}_RESULTS", runner.to_ascii_uppercase());
                let env = step["env"][key.as_str()].as_str().expect("results env");
                assert_eq!(env, format!("${{{{steps.{runner}.outputs.result}}}}"));
            }
        }
    }
    Workflow {
        download,
        grade,
        items,
        runners,
        cache_key,
    }
}

fn run_in(dir: &Path, command: &str) -> bool {
    std::process::Command::new("sh")
        .args(["-c", command])
        .current_dir(dir)
        .status()
        .expect("sh runs")
        .success()
}

/// A release archive as tools/release.sh writes it: REFEREE_RELEASE_ARCHIVE when the release
/// script runs this test on its own archive, else one made here around this build of
/// referee (the same layout: `referee-VERSION-x86_64-linux/referee` and the README).
fn release_archive(dir: &Path) -> PathBuf {
    if let Some(archive) = std::env::var_os("REFEREE_RELEASE_ARCHIVE") {
        return PathBuf::from(archive);
    }
    let name = format!("referee-{}-x86_64-linux", env!("CARGO_PKG_VERSION"));
    let stage = dir.join("stage");
    std::fs::create_dir_all(stage.join(&name)).expect("mkdir");
    std::fs::copy(
        env!("CARGO_BIN_EXE_referee"),
        stage.join(&name).join("referee"),
    )
    .expect("copy");
    std::fs::copy(
        root().join("README.md"),
        stage.join(&name).join("README.md"),
    )
    .expect("copy");
    let archive = dir.join(format!("{name}.tar.gz"));
    let status = std::process::Command::new("tar")
        .arg("-C")
        .arg(&stage)
        .arg("-czf")
        .arg(&archive)
        .arg(&name)
        .status()
        .expect("tar runs");
    assert!(status.success());
    archive
}

/// The workflow, run locally step by step on a student's repository with the release
/// archive (served from a file:// address): the download step checks the archive and unpacks
/// it, the grading step gives the same score as `referee grade`, each item's step passes
/// exactly when the item got full marks; a tampered archive is refused.
#[test]
fn the_classroom_workflow_runs_on_a_student_repository() {
    let dir = tempfile::tempdir().expect("tempdir");
    let archive = release_archive(dir.path());
    let served = dir.path().join("served");
    std::fs::create_dir(&served).expect("mkdir");
    let name = archive.file_name().expect("name").to_owned();
    std::fs::copy(&archive, served.join(&name)).expect("copy");
    let url = format!("file://{}", served.join(&name).display());
    let workflow = dir.path().join("classroom.yml");
    referee()
        .args(["classroom-workflow", "reversi", "--archive"])
        .arg(&archive)
        .args(["--url", &url, "-o"])
        .arg(&workflow)
        .assert()
        .success();
    let text = std::fs::read_to_string(&workflow).expect("workflow");
    let Workflow {
        download,
        grade,
        items,
        runners,
        cache_key,
    } = workflow_commands(&text);
    assert_eq!(runners.split(',').count(), items.len());
    assert!(
        !text.contains("cargo"),
        "the workflow builds nothing:\n{text}"
    );
    let sha = std::process::Command::new("sha256sum")
        .arg(&archive)
        .output()
        .expect("sha256sum runs");
    let sha = String::from_utf8_lossy(&sha.stdout);
    let sha = sha.split_whitespace().next().expect("a digest");
    assert_eq!(cache_key, format!("referee-{sha}"));
    let spec = std::fs::read_to_string(root().join("specs/reversi/spec.toml")).expect("spec");
    let spec: toml::Value = toml::from_str(&spec).expect("toml");
    let auto: BTreeMap<String, f64> = spec["item"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|i| i.get("manual").and_then(toml::Value::as_bool) != Some(true))
        .map(|i| {
            (
                i["id"].as_str().expect("id").to_string(),
                i["points"]
                    .as_float()
                    .or(i["points"].as_integer().map(|p| p as f64))
                    .expect("points"),
            )
        })
        .collect();
    let points: BTreeMap<String, f64> = items.iter().map(|(k, (_, p))| (k.clone(), *p)).collect();
    assert_eq!(points, auto);

    for (lab6, all_pass) in [(reference(), true), (sample("no_diagonals.c"), false)] {
        let repo = tempfile::tempdir().expect("tempdir");
        write(&repo.path().join("Lab6.c"), &lab6);
        write(&repo.path().join("README.md"), "lab 6\n");
        assert!(run_in(repo.path(), &download), "{download}");
        assert!(repo.path().join(".referee/referee").is_file());
        // Nothing of the download is left to be taken for the student's files.
        assert!(!repo.path().join(".referee").join(&name).exists());
        assert!(run_in(repo.path(), &grade), "{grade}");
        let results: Value = serde_json::from_str(
            &std::fs::read_to_string(repo.path().join(".referee-results.json")).expect("results"),
        )
        .expect("JSON");
        let alone = grade_json("reversi", &repo.path().join("Lab6.c"), &[]);
        assert_eq!(
            results["score"].as_f64(),
            alone["submissions"][0]["score"].as_f64(),
            "the workflow's score and `referee grade`'s"
        );
        let passed: Vec<bool> = items
            .values()
            .map(|(command, _)| run_in(repo.path(), command))
            .collect();
        if all_pass {
            assert!(passed.iter().all(|p| *p), "{passed:?}");
        } else {
            assert!(passed.iter().any(|p| !p), "{passed:?}");
            assert!(passed.iter().any(|p| *p), "{passed:?}");
        }
    }

    // An archive changed on the server is refused before anything is unpacked.
    let mut bytes = std::fs::read(served.join(&name)).expect("read");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(served.join(&name), bytes).expect("write");
    let repo = tempfile::tempdir().expect("tempdir");
    assert!(!run_in(repo.path(), &download));
    assert!(!repo.path().join(".referee/referee").exists());
}

#[test]
fn the_classroom_workflow_needs_a_release_archive() {
    let dir = tempfile::tempdir().expect("tempdir");
    let not_archive = dir.path().join("notes.txt");
    write(&not_archive, "x");
    let output = referee()
        .args(["classroom-workflow", "reversi", "--archive"])
        .arg(&not_archive)
        .args(["--url", "https://example.org/r.tar.gz", "-o"])
        .arg(dir.path().join("w.yml"))
        .output()
        .expect("runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("notes.txt") && stderr.contains("release archive"),
        "{stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}

#[test]
fn feedback_pages_open_in_chromium_each_showing_only_its_student() {
    let dir = tempfile::tempdir().expect("tempdir");
    moodle_export(&dir.path().join("export"), true);
    let feedback = dir.path().join("feedback");
    let feedback_text = feedback.to_string_lossy().into_owned();
    grade_json(
        "reversi",
        &dir.path().join("export"),
        &["--feedback", &feedback_text],
    );
    let students = [
        ("Alice Smith", "2001"),
        ("Bob Jones", "2002"),
        ("Cara Lee", "2003"),
    ];
    for (name, id) in students {
        let page = feedback.join(format!("{}_{id}.html", name.replace(' ', "_")));
        let dom = chromium_dom(&page, dir.path());
        assert!(dom.contains(&format!("{name} (id {id})")), "{name}'s page");
        assert!(dom.contains("id=\"student-0\""), "{name}'s section");
        assert!(
            !dom.contains("id=\"student-1\""),
            "{name}'s page has one section"
        );
        for (other, other_id) in students.iter().filter(|(n, _)| *n != name) {
            assert!(
                !dom.contains(other) && !dom.contains(other_id),
                "{name}'s page shows {other}"
            );
        }
    }
}
