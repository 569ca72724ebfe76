//! Hidden cases, TA adjustments and the late policy (issue 30): a private hidden case that a
//! submission fails shows nothing of itself in any student-facing output and everything in
//! the TA's JSON; `--adjust` and `--late-penalty` give the documented totals in every format
//! and gradebook, and a regrade with the same files gives the same JSON.

mod common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use common::{referee, root};
use serde_json::Value;

/// The example private folder (README, "For TAs").
fn private() -> PathBuf {
    root().join("tests/private")
}

fn missing_newline() -> PathBuf {
    root().join("tests/submissions/reversi/missing_newline/missing_newline.c")
}

/// Runs referee with `args`; exit status 0 expected; stdout.
fn run_ok(args: &[&str]) -> String {
    let output = referee().args(args).output().expect("referee runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "referee {args:?}: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).expect("UTF-8 output")
}

fn path_text(path: &Path) -> &str {
    path.to_str().expect("a UTF-8 path")
}

/// Every file under `dir`, read as text (concatenated with their names).
fn read_all(dir: &Path) -> String {
    let mut text = String::new();
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a folder")
        .map(|e| e.expect("an entry").path())
        .collect();
    entries.sort();
    for path in entries {
        text.push_str(&format!("== {}\n", path.display()));
        text.push_str(&std::fs::read_to_string(&path).expect("a text file"));
    }
    text
}

/// What gives a case away: its name, its description, and the lines of its input and
/// expected output that no public case's input or expected output has.
struct Secret {
    name: String,
    description: String,
    lines: Vec<String>,
}

fn secrets(scratch: &Path) -> Vec<Secret> {
    let public = scratch.join("public");
    let all = scratch.join("all");
    run_ok(&["cases", "reversi", "--export", path_text(&public)]);
    let private = private();
    run_ok(&[
        "--private",
        path_text(&private),
        "cases",
        "reversi",
        "--audience",
        "ta",
        "--export",
        path_text(&all),
    ]);
    let mut known = BTreeSet::new();
    for entry in std::fs::read_dir(&public).expect("export") {
        let text = std::fs::read_to_string(entry.expect("entry").path()).expect("text");
        known.extend(text.lines().map(|l| l.trim().to_string()));
    }
    let listing = run_ok(&[
        "--private",
        path_text(&private),
        "cases",
        "reversi",
        "--audience",
        "ta",
    ]);
    let mut found = Vec::new();
    for line in listing.lines().filter(|l| l.starts_with("private-")) {
        let name = line.split_whitespace().next().expect("a name").to_string();
        let description = line
            .split("  — ")
            .nth(1)
            .expect("a description")
            .to_string();
        let mut lines: Vec<String> = Vec::new();
        for extension in ["stdin", "expected"] {
            let text = std::fs::read_to_string(all.join(format!("{name}.{extension}")))
                .expect("an exported case");
            lines.extend(
                text.lines()
                    .map(|l| l.trim().to_string())
                    .filter(|l| l.len() > 2 && !known.contains(l)),
            );
        }
        assert!(
            lines.len() >= 10,
            "{name}: too few lines of its own: {lines:?}"
        );
        found.push(Secret {
            name,
            description,
            lines,
        });
    }
    assert_eq!(found.len(), 3, "{listing}");
    found
}

/// The names of `secrets` whose name or description `text` holds, or one of whose lines is
/// a line of `text` (in any format: lines of text, of a JSON string, of an HTML cell; a
/// diff's marker and indentation left out).
fn leaked(text: &str, secrets: &[Secret]) -> Vec<String> {
    let shown: BTreeSet<&str> = text
        .split("\\n")
        .flat_map(|part| part.split(['\n', '<', '>', '"']))
        .map(|line| line.trim_start_matches(['-', '+', ' ', '\t']).trim_end())
        .collect();
    let mut found = Vec::new();
    for secret in secrets {
        if text.contains(&secret.name) {
            found.push(format!("{}: name", secret.name));
        }
        if text.contains(&secret.description) {
            found.push(format!("{}: description", secret.name));
        }
        if let Some(line) = secret.lines.iter().find(|l| shown.contains(l.as_str())) {
            found.push(format!("{}: line {line:?}", secret.name));
        }
    }
    found
}

#[test]
fn a_failed_private_hidden_case_shows_nothing_of_itself_to_students_and_all_to_the_ta() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let secrets = secrets(scratch.path());
    let private = private();
    let submission = missing_newline();
    let grade = |extra: &[&str]| {
        let mut args = vec![
            "--private",
            path_text(&private),
            "grade",
            "reversi",
            path_text(&submission),
        ];
        args.extend(extra);
        run_ok(&args)
    };
    let feedback = scratch.path().join("feedback");
    let feedback_text = scratch.path().join("feedback-text");
    let mut student_outputs = vec![
        ("text (one submission)", grade(&[])),
        ("text --all", grade(&["--all"])),
        ("gradescope", grade(&["--format", "gradescope"])),
        (
            "json for students",
            grade(&["--format", "json", "--audience", "student"]),
        ),
        (
            "csv for students",
            grade(&["--format", "csv", "--audience", "student"]),
        ),
        (
            "junit for students",
            grade(&["--format", "junit", "--audience", "student"]),
        ),
        (
            "html for students",
            grade(&["--format", "html", "--audience", "student"]),
        ),
    ];
    grade(&["--format", "json", "--feedback", path_text(&feedback)]);
    student_outputs.push(("feedback html", read_all(&feedback)));
    grade(&[
        "--format",
        "json",
        "--feedback",
        path_text(&feedback_text),
        "--feedback-format",
        "text",
    ]);
    student_outputs.push(("feedback text", read_all(&feedback_text)));
    student_outputs.push((
        "cases",
        run_ok(&["--private", path_text(&private), "cases", "reversi"]),
    ));
    let export = scratch.path().join("student-export");
    run_ok(&[
        "--private",
        path_text(&private),
        "cases",
        "reversi",
        "--export",
        path_text(&export),
    ]);
    student_outputs.push(("cases --export", read_all(&export)));
    for secret in &secrets {
        let output = referee()
            .args(["--private", path_text(&private), "expect", "reversi"])
            .arg(&secret.name)
            .arg("--input")
            .output()
            .expect("referee runs");
        assert_eq!(output.status.code(), Some(2), "{}", secret.name);
        let mut shown = String::from_utf8_lossy(&output.stdout).into_owned();
        // The name the student typed comes back in the message, nothing more.
        shown.push_str(
            &String::from_utf8_lossy(&output.stderr).replace(&format!("'{}'", secret.name), ""),
        );
        student_outputs.push(("expect", shown));
    }
    for (what, text) in &student_outputs {
        assert_eq!(leaked(text, &secrets), Vec::<String>::new(), "{what}");
    }
    // The students' reports say that hidden cases fail, and how.
    let text = &student_outputs[0].1;
    assert!(
        text.contains("✗ a hidden case of item move fails (output differs)"),
        "{text}"
    );
    let gradescope: Value = serde_json::from_str(&student_outputs[2].1).expect("JSON");
    let tests = gradescope["tests"].as_array().expect("tests");
    let hidden = tests
        .iter()
        .find(|t| t["name"] == "move (hidden cases)")
        .expect("a test of move's hidden cases");
    assert_eq!(hidden["visibility"], "hidden");
    assert_eq!(hidden["score"].as_f64(), Some(0.0));
    let later = tests
        .iter()
        .find(|t| t["name"] == "move (cases shown after the due date)")
        .expect("a test of move's after_due_date case");
    assert_eq!(later["visibility"], "after_due_date");
    // The tests of an item add up to the item, and the item's to the score.
    let total: f64 = tests.iter().filter_map(|t| t["score"].as_f64()).sum();
    assert!((total - 4.5).abs() < 1e-9, "{total}");

    // The TA's JSON shows every case in full: name, visibility and the expected output in
    // the diff.
    let json_text = grade(&["--format", "json"]);
    let json: Value = serde_json::from_str(&json_text).expect("JSON");
    let moves = &json["submissions"][0]["items"][3]["cases"];
    for secret in &secrets {
        let case = moves
            .as_array()
            .expect("cases")
            .iter()
            .find(|c| c["name"] == secret.name.as_str())
            .unwrap_or_else(|| panic!("{} not in the TA's JSON", secret.name));
        assert_eq!(case["status"], "fail");
        let diff = case["diff"].as_str().expect("diff");
        let expected_line = secret
            .lines
            .iter()
            .find(|l| l.contains('U'))
            .expect("a board line");
        assert!(diff.contains(expected_line.as_str()), "{diff}");
        let visibility = if secret.name.ends_with("after-due") {
            "after_due_date"
        } else {
            "hidden"
        };
        assert_eq!(case["visibility"], visibility);
    }
    // Once the due date has passed, students see the after_due_date case, not the others.
    let after_due = grade(&["--all", "--due", "2000-01-01T00:00Z"]);
    let shown = leaked(&after_due, &secrets);
    assert!(
        shown
            .iter()
            .any(|l| l.starts_with("private-twenty-row-closed-after-due: name")),
        "{shown:?}"
    );
    assert!(
        shown
            .iter()
            .all(|l| l.starts_with("private-twenty-row-closed-after-due")),
        "{shown:?}"
    );
}

#[test]
fn the_private_folder_adds_cases_and_a_name_clash_names_both_files() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let clash = scratch.path().join("cases/reversi");
    std::fs::create_dir_all(&clash).expect("mkdir");
    std::fs::write(
        clash.join("again.toml"),
        "[[case]]\nname = \"start-4\"\nkind = \"program\"\nn = 4\nmove = \"Bab\"\n",
    )
    .expect("write");
    let output = referee()
        .env("REFEREE_PRIVATE", scratch.path())
        .args(["cases", "reversi"])
        .output()
        .expect("referee runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("again.toml") && stderr.contains("cases/reversi/program.toml"),
        "{stderr}"
    );
    let output = referee()
        .args(["--private", "no/such/folder", "cases", "reversi"])
        .output()
        .expect("referee runs");
    assert_eq!(output.status.code(), Some(2));
    let public = run_ok(&["cases", "reversi"]);
    let private = private();
    let with_private = run_ok(&["--private", path_text(&private), "cases", "reversi"]);
    let count = |text: &str| text.lines().last().map(String::from).unwrap_or_default();
    assert_eq!(count(&public), "106 cases");
    assert_eq!(count(&with_private), "109 cases");
}

fn reference() -> String {
    std::fs::read_to_string(root().join("reference/reversi/Lab6.c")).expect("reference")
}

fn write(path: &Path, text: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).expect("mkdir");
    }
    std::fs::write(path, text).expect("write");
}

/// A Canvas download: Alice (correct), Bob (late, missing newlines), Cara (no diagonals).
fn canvas_export(dir: &Path) {
    let sample = |name: &str| {
        std::fs::read_to_string(
            root()
                .join("tests/submissions/reversi")
                .join(name)
                .join(format!("{name}.c")),
        )
        .expect("sample")
    };
    write(&dir.join("smithalice_1001_5001_Lab6.c"), &reference());
    write(
        &dir.join("jonesbob_late_1002_5002_Lab6.c"),
        &sample("missing_newline"),
    );
    write(
        &dir.join("leecara_1003_5003_Lab6.c"),
        &sample("no_diagonals"),
    );
}

/// The value of `column` in the row of `student` of a CSV.
fn csv_cell(text: &str, key: &str, student: &str, column: &str) -> String {
    let mut reader = csv::Reader::from_reader(text.as_bytes());
    let header = reader.headers().expect("header").clone();
    let at = |name: &str| header.iter().position(|h| h == name).expect(name);
    reader
        .records()
        .map(|r| r.expect("row"))
        .find(|r| &r[at(key)] == student)
        .map(|r| r[at(column)].to_string())
        .unwrap_or_else(|| panic!("no row for {student}"))
}

#[test]
fn adjustments_and_the_late_penalty_give_the_same_totals_everywhere_and_on_a_regrade() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let export = scratch.path().join("canvas");
    canvas_export(&export);
    let adjust = scratch.path().join("adjust.csv");
    write(
        &adjust,
        "student,id,item,points,delta,comment\n\
         ,1002,move,,+1,regrade request\n\
         leecara,,available_moves,1.5,,\"partial credit, see notes\"\n",
    );
    let out = scratch.path().join("out");
    let grade = |dir: &Path| {
        run_ok(&[
            "grade",
            "reversi",
            path_text(&export),
            "--adjust",
            path_text(&adjust),
            "--late-penalty",
            "10%",
            "--format",
            "json,csv,junit,html,text",
            "-o",
            &format!("{}/", dir.display()),
            "--gradebook",
            "canvas",
            "--gradebook-file",
            path_text(&dir.join("canvas.csv")),
            "--feedback",
            path_text(&dir.join("feedback")),
            "--feedback-format",
            "text",
        ])
    };
    grade(&out);
    let json_text = std::fs::read_to_string(out.join("report.json")).expect("json");
    let json: Value = serde_json::from_str(&json_text).expect("JSON");
    let by_student = |name: &str| {
        json["submissions"]
            .as_array()
            .expect("submissions")
            .iter()
            .find(|s| s["student"] == name)
            .unwrap_or_else(|| panic!("{name}"))
            .clone()
    };
    // The documented rule (README "For TAs"): each adjustment changes its item (kept between
    // 0 and the item's points), then a late submission loses the share of the points
    // possible, never more than it has.
    let alice = by_student("smithalice");
    assert_eq!(alice["raw_score"], alice["score"]);
    assert_eq!(alice["adjustments"].as_array().map(Vec::len), Some(0));
    assert_eq!(alice["late_penalty"], Value::Null);
    let bob = by_student("jonesbob");
    let bob_raw = bob["raw_score"].as_f64().expect("raw");
    assert_eq!(bob_raw, 4.5, "missing newlines lose move");
    assert_eq!(bob["adjustments"][0]["delta"].as_f64(), Some(1.0));
    assert_eq!(bob["late_penalty"]["share"].as_f64(), Some(0.1));
    assert_eq!(bob["late_penalty"]["points"].as_f64(), Some(0.6));
    assert_eq!(bob["score"].as_f64(), Some(4.9), "4.5 + 1 - 10% of 6");
    assert_eq!(bob["items"][3]["score"].as_f64(), Some(1.0));
    let cara = by_student("leecara");
    let cara_raw = cara["raw_score"].as_f64().expect("raw");
    assert_eq!(
        cara["items"][2]["score"].as_f64(),
        Some(1.5),
        "set to 1.5 by hand"
    );
    let cara_total = cara["score"].as_f64().expect("score");
    let cara_delta = cara["adjustments"][0]["delta"].as_f64().expect("delta");
    assert!((cara_total - (cara_raw + cara_delta)).abs() < 1e-9);
    assert!(
        cara_delta > 0.0,
        "no diagonals loses available_moves points"
    );

    let number = |value: f64| {
        let text = format!("{value:.3}");
        text.trim_end_matches('0').trim_end_matches('.').to_string()
    };
    let csv = std::fs::read_to_string(out.join("report.csv")).expect("csv");
    let canvas = std::fs::read_to_string(out.join("canvas.csv")).expect("gradebook");
    let junit = std::fs::read_to_string(out.join("report.junit.xml")).expect("junit");
    let html = std::fs::read_to_string(out.join("report.html")).expect("html");
    let text = std::fs::read_to_string(out.join("report.txt")).expect("text");
    let feedback = read_all(&out.join("feedback"));
    for (name, id, total, raw) in [
        ("jonesbob", "1002", 4.9, bob_raw),
        ("leecara", "1003", cara_total, cara_raw),
    ] {
        assert_eq!(csv_cell(&csv, "student", name, "total"), number(total));
        assert_eq!(csv_cell(&csv, "student", name, "raw_total"), number(raw));
        assert_eq!(csv_cell(&canvas, "ID", id, "reversi"), number(total));
        let line = format!("total: {} / 6 (auto-graded {}", number(total), number(raw));
        for (format, shown) in [("text", &text), ("html", &html), ("feedback", &feedback)] {
            assert!(shown.contains(&line), "{format}: {line} missing");
        }
        assert!(
            junit.contains(&format!("<property name=\"score\" value=\"{total}\"/>")),
            "{name}: {junit}"
        );
    }
    assert_eq!(csv_cell(&csv, "student", "jonesbob", "late_penalty"), "0.6");
    assert!(text.contains("adjusted by hand: move +1 (regrade request)"));
    assert!(text.contains("late penalty: late, -0.6 (10% of the points possible, policy 10%)"));
    // The same files applied to a regrade give the same JSON.
    let again = scratch.path().join("again");
    grade(&again);
    let regraded = std::fs::read_to_string(again.join("report.json")).expect("json");
    assert_eq!(json_text, regraded);
}

#[test]
fn a_penalty_per_day_counts_the_days_from_gradescopes_submission_times() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let export = scratch.path().join("gradescope");
    write(&export.join("submission_9001/Lab6.c"), &reference());
    write(&export.join("submission_9002/Lab6.c"), &reference());
    write(
        &export.join("submission_metadata.yml"),
        "---\n\
         :submission_9001:\n  :submitters:\n  - :name: Alice Smith\n    :sid: 'A1'\n  :created_at: 2026-10-01 20:00:00.000000000 -04:00\n\
         :submission_9002:\n  :submitters:\n  - :name: Bob Jones\n    :sid: 'B2'\n  :created_at: 2026-10-03 09:30:00.000000000 -04:00\n",
    );
    let json: Value = serde_json::from_str(&run_ok(&[
        "grade",
        "reversi",
        path_text(&export),
        "--late-penalty",
        "15%/day,cap=20%",
        "--due",
        "2026-10-01T23:59-04:00",
        "--format",
        "json",
    ]))
    .expect("JSON");
    let submissions = json["submissions"].as_array().expect("submissions");
    let alice = &submissions[0];
    assert_eq!(alice["late"], false);
    assert_eq!(alice["score"].as_f64(), Some(6.0));
    let bob = &submissions[1];
    assert_eq!(bob["late"], true);
    assert_eq!(bob["late_penalty"]["days"].as_u64(), Some(2));
    assert_eq!(bob["late_penalty"]["share"].as_f64(), Some(0.2), "capped");
    assert_eq!(bob["score"].as_f64(), Some(4.8));
    // A per-day penalty without a due date, or an adjustment of a student not graded, is a
    // usage error before anything is graded.
    let output = referee()
        .args(["grade", "reversi"])
        .arg(&export)
        .args(["--late-penalty", "10%/day"])
        .output()
        .expect("referee runs");
    assert_eq!(output.status.code(), Some(2));
    let adjust = scratch.path().join("adjust.toml");
    write(
        &adjust,
        "[[adjustment]]\nstudent = \"Dan Brown\"\nitem = \"move\"\ndelta = 1\n",
    );
    let output = referee()
        .args(["grade", "reversi"])
        .arg(&export)
        .arg("--adjust")
        .arg(&adjust)
        .output()
        .expect("referee runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("line 1: no submission of student 'Dan Brown' is graded"),
        "{stderr}"
    );
}

/// Unpacks a zip into `into`, keeping the files' modes.
fn unzip(zip_path: &Path, into: &Path) {
    use std::os::unix::fs::PermissionsExt;
    let file = std::fs::File::open(zip_path).expect("the bundle opens");
    let mut archive = zip::ZipArchive::new(file).expect("the bundle is a zip");
    for index in 0..archive.len() {
        let mut entry = archive.by_index(index).expect("zip entry");
        let relative = entry.enclosed_name().expect("a safe entry name");
        let path = into.join(relative);
        std::fs::create_dir_all(path.parent().expect("a parent")).expect("folder made");
        let mut file = std::fs::File::create(&path).expect("file created");
        std::io::copy(&mut entry, &mut file).expect("file unpacked");
        if let Some(mode) = entry.unix_mode() {
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(mode))
                .expect("mode set");
        }
    }
}

#[test]
fn the_gradescope_bundle_takes_the_private_cases_along_and_keeps_them_from_students() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let secrets = secrets(scratch.path());
    let zip_path = scratch.path().join("autograder.zip");
    let private = private();
    run_ok(&[
        "--private",
        path_text(&private),
        "gradescope-bundle",
        "reversi",
        "-o",
        path_text(&zip_path),
    ]);
    let autograder = scratch.path().join("autograder");
    let source = autograder.join("source");
    unzip(&zip_path, &source);
    assert!(source.join("private/cases/reversi/course.toml").is_file());
    let script = std::fs::read_to_string(source.join("run_autograder")).expect("script");
    assert!(
        script.contains("--audience student --private \"$source_dir/private\""),
        "{script}"
    );
    std::fs::create_dir_all(autograder.join("submission")).expect("mkdir");
    std::fs::copy(missing_newline(), autograder.join("submission/Lab6.c")).expect("copy");
    let run = std::process::Command::new(source.join("run_autograder"))
        .env("REFEREE_AUTOGRADER", &autograder)
        .env("HOME", scratch.path())
        .output()
        .expect("run_autograder runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(autograder.join("results/results.json")).expect("results");
    assert_eq!(leaked(&text, &secrets), Vec::<String>::new());
    let results: Value = serde_json::from_str(&text).expect("JSON");
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/schemas/gradescope-results.schema.json"))
            .expect("schema"),
    )
    .expect("schema JSON");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    assert!(validator.is_valid(&results), "{results:#}");
    let visibilities: BTreeSet<&str> = results["tests"]
        .as_array()
        .expect("tests")
        .iter()
        .filter_map(|t| t["visibility"].as_str())
        .collect();
    assert_eq!(
        visibilities,
        BTreeSet::from(["visible", "hidden", "after_due_date"])
    );
    assert_eq!(results["score"].as_f64(), Some(4.5));
}

#[test]
fn a_student_program_cannot_read_the_private_cases() {
    let scratch = tempfile::tempdir().expect("tempdir");
    let private = scratch.path().join("course-private");
    let cases = private.join("cases/reversi");
    std::fs::create_dir_all(&cases).expect("mkdir");
    let file = cases.join("course.toml");
    std::fs::copy(
        root().join("tests/private/cases/reversi/course.toml"),
        &file,
    )
    .expect("copy");
    // A Lab 6 that prints the private case file's first line instead of playing.
    let program = format!(
        "#include <stdio.h>\nint main(void) {{\n  char line[256];\n  FILE *f = fopen(\"{}\", \"r\");\n  if (f && fgets(line, sizeof line, f)) printf(\"read: %s\", line);\n  else printf(\"cannot read the private cases\\n\");\n  return 0;\n}}\n",
        file.display()
    );
    let submission = scratch.path().join("Lab6.c");
    std::fs::write(&submission, program).expect("write");
    let json: Value = serde_json::from_str(&run_ok(&[
        "--private",
        path_text(&private),
        "grade",
        "reversi",
        path_text(&submission),
        "--format",
        "json",
    ]))
    .expect("JSON");
    assert!(
        json["sandbox"]
            .as_str()
            .is_some_and(|s| s.starts_with("namespaces")),
        "runs are isolated here: {}",
        json["sandbox"]
    );
    let diff = json["submissions"][0]["items"][0]["cases"][0]["diff"]
        .as_str()
        .expect("a diff")
        .to_string();
    assert!(diff.contains("+cannot read the private cases"), "{diff}");
    assert!(!diff.contains("+read:"), "{diff}");
}
