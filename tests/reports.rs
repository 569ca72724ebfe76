//! Every report format, checked by a parser (csv, quick-xml, a JSON Schema, headless
//! Chromium) against the JSON report of the same grading run. One Reversi batch is graded
//! once with `--format json,csv,junit,html,text` and shared by the tests: the buggy samples,
//! the model solution, a submission that does not compile and two copies of a buggy sample
//! that differ only in a comment.

mod common;

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command as Process, Output, Stdio};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

use common::{referee, root};
use quick_xml::events::Event;
use serde_json::Value;

/// The buggy sample copied twice under other names to make a group of identical output.
const COPIED_SAMPLE: &str = "missing_newline";
const COPIES: [&str; 2] = ["copy_one", "copy_two"];
const MODEL: &str = "Lab6";
const BROKEN: &str = "broken";

/// One graded batch and the files its single run wrote.
struct Batch {
    /// How many submission files the batch folder holds.
    handed_in: usize,
    folder: PathBuf,
    json_text: String,
    json: Value,
}

impl Batch {
    fn file(&self, extension: &str) -> PathBuf {
        self.folder.join(format!("report.{extension}"))
    }

    fn read(&self, extension: &str) -> String {
        let path = self.file(extension);
        std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{} was not written: {e}", path.display()))
    }

    fn submissions(&self) -> &Vec<Value> {
        self.json["submissions"].as_array().expect("submissions")
    }

    fn submission(&self, name: &str) -> &Value {
        self.submissions()
            .iter()
            .find(|s| s["name"] == name)
            .unwrap_or_else(|| panic!("no submission {name} in the JSON report"))
    }
}

fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join("reports")
        .join(name);
    if dir.exists() {
        std::fs::remove_dir_all(&dir).expect("old scratch folder removed");
    }
    std::fs::create_dir_all(&dir).expect("scratch folder created");
    dir
}

fn batch() -> &'static Batch {
    static BATCH: OnceLock<Batch> = OnceLock::new();
    BATCH.get_or_init(|| {
        let submissions = scratch("batch-submissions");
        let samples = root().join("tests/submissions/reversi");
        // Each sample folder becomes one student's folder in the batch, with its C files
        // whatever they are called (its expected.toml stays behind).
        for entry in std::fs::read_dir(&samples).expect("reversi samples") {
            let folder = entry.expect("sample entry").path();
            if !folder.is_dir() {
                continue;
            }
            let student = submissions.join(folder.file_name().expect("folder name"));
            std::fs::create_dir_all(&student).expect("student folder created");
            for file in std::fs::read_dir(&folder).expect("sample folder") {
                let file = file.expect("sample file").path();
                if file.extension().is_some_and(|x| x == "c" || x == "h") {
                    let name = file.file_name().expect("file name");
                    std::fs::copy(&file, student.join(name)).expect("sample copied");
                }
            }
        }
        std::fs::copy(
            root().join("reference/reversi").join(format!("{MODEL}.c")),
            submissions.join(format!("{MODEL}.c")),
        )
        .expect("model copied");
        let original = std::fs::read_to_string(
            samples
                .join(COPIED_SAMPLE)
                .join(format!("{COPIED_SAMPLE}.c")),
        )
        .expect("sample to copy");
        for copy in COPIES {
            let text = format!("/* {copy}: handed in by another student */\n{original}");
            std::fs::write(submissions.join(format!("{copy}.c")), text).expect("copy written");
        }
        std::fs::write(
            submissions.join(format!("{BROKEN}.c")),
            "int main(void) { return 0 }\n",
        )
        .expect("broken submission written");

        let handed_in = std::fs::read_dir(&submissions)
            .expect("batch folder")
            .count();
        let folder = scratch("batch-reports");
        let output = referee()
            .args(["grade", "reversi"])
            .arg(&submissions)
            .args(["--format", "json,csv,junit,html,text", "-o"])
            .arg(format!("{}/", folder.display()))
            .output()
            .expect("referee runs");
        assert_eq!(
            output.status.code(),
            Some(0),
            "referee failed: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            output.stdout.is_empty(),
            "every report goes to a file when -o names a folder"
        );
        let json_text =
            std::fs::read_to_string(folder.join("report.json")).expect("report.json written");
        let json = serde_json::from_str(&json_text).expect("report.json is JSON");
        Batch {
            handed_in,
            folder,
            json_text,
            json,
        }
    })
}

/// (case name -> statuses it has under its items) for one submission of the JSON report.
fn case_statuses(submission: &Value) -> BTreeMap<String, Vec<String>> {
    let mut cases: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for item in submission["items"].as_array().expect("items") {
        for case in item["cases"].as_array().expect("cases") {
            cases
                .entry(case["name"].as_str().expect("case name").to_string())
                .or_default()
                .push(case["status"].as_str().expect("status").to_string());
        }
    }
    cases
}

fn failing_cases(submission: &Value) -> BTreeSet<String> {
    case_statuses(submission)
        .into_iter()
        .filter(|(_, statuses)| statuses.iter().any(|s| s != "pass"))
        .map(|(name, _)| name)
        .collect()
}

fn auto_items(submission: &Value) -> Vec<&Value> {
    submission["items"]
        .as_array()
        .expect("items")
        .iter()
        .filter(|item| item["manual"] == false)
        .collect()
}

#[test]
fn one_run_writes_every_format_and_the_summary_line() {
    let batch = batch();
    let count = batch.submissions().len();
    assert_eq!(
        count, batch.handed_in,
        "the samples, the model, 2 copies, a broken one"
    );
    // The JSON contract keys come first, then groups.
    let top: Vec<&String> = batch.json.as_object().expect("object").keys().collect();
    for key in ["game", "submissions", "groups"] {
        assert!(top.iter().any(|k| *k == key), "no top-level {key}");
    }
    let submissions_at = batch
        .json_text
        .find("\n  \"submissions\"")
        .expect("submissions");
    let groups_at = batch.json_text.find("\n  \"groups\"").expect("groups");
    assert!(
        groups_at > submissions_at,
        "groups follows the contract keys"
    );
    let text = batch.read("txt");
    assert!(!text.contains('\x1b'), "a text file has no colour codes");
    let summary = text
        .lines()
        .find(|l| l.contains("submissions graded"))
        .expect("a class summary line");
    assert!(summary.contains(&format!("{count} submissions graded")));
    let full = batch
        .submissions()
        .iter()
        .filter(|s| s["score"] == s["max_score"])
        .count();
    assert!(
        summary.contains(&format!("{full} with full marks")),
        "{summary}"
    );
    let failed_builds = batch
        .submissions()
        .iter()
        .filter(|s| s["build"]["ok"] == false)
        .count();
    assert!(failed_builds > 0, "the broken submission does not build");
    assert!(
        summary.contains(&format!("{failed_builds} failed to build")),
        "{summary}"
    );
}

#[test]
fn csv_has_one_row_per_submission_whose_items_sum_to_the_total() {
    let batch = batch();
    let mut reader = csv::Reader::from_path(batch.file("csv")).expect("report.csv opens");
    let header: Vec<String> = reader
        .headers()
        .expect("a header")
        .iter()
        .map(String::from)
        .collect();
    let first = &batch.submissions()[0];
    let item_ids: Vec<&str> = first["items"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| i["id"].as_str().expect("id"))
        .collect();
    let mut expected_header = vec!["name"];
    expected_header.extend(&item_ids);
    expected_header.extend(["total", "max", "status", "student", "id", "late"]);
    assert_eq!(header, expected_header);

    let rows: Vec<csv::StringRecord> = reader
        .records()
        .collect::<Result<_, _>>()
        .expect("rows parse");
    assert_eq!(
        rows.len(),
        batch.submissions().len(),
        "one row per submission"
    );
    for row in &rows {
        let field = |column: &str| {
            let index = header.iter().position(|h| h == column).expect("column");
            row.get(index).expect("field").to_string()
        };
        let name = field("name");
        let submission = batch.submission(&name);
        let total: f64 = field("total").parse().expect("total is a number");
        let json_score = submission["score"].as_f64().expect("score");
        assert!((total - json_score).abs() < 1e-3, "{name}: total {total}");
        let mut sum = 0.0;
        for item in submission["items"].as_array().expect("items") {
            let id = item["id"].as_str().expect("id");
            let cell = field(id);
            if item["manual"] == true {
                assert_eq!(cell, "", "{name}: manual {id} is left for the TA");
            } else {
                let score: f64 = cell.parse().expect("item score is a number");
                let json_item = item["score"].as_f64().expect("item score");
                assert!((score - json_item).abs() < 1e-3, "{name}: {id} {score}");
                sum += score;
            }
        }
        // Each cell is rounded to 3 decimals.
        assert!((sum - total).abs() < 1e-3 * item_ids.len() as f64, "{name}");

        let statuses: Vec<String> = case_statuses(submission).into_values().flatten().collect();
        let status = field("status");
        let build_ok = submission["build"]["ok"] == true;
        let has = |wanted: &str| statuses.iter().any(|s| s == wanted);
        if !build_ok {
            assert_eq!(status, "build failed", "{name}");
        } else {
            assert_eq!(
                has("timeout"),
                status.contains("timed out"),
                "{name}: {status}"
            );
            assert_eq!(has("crash"), status.contains("crashed"), "{name}: {status}");
            let trouble = ["timeout", "crash", "output_limit", "build_error"];
            let clean = !statuses.iter().any(|s| trouble.contains(&s.as_str()));
            // Notes on how the submission was read follow a `;` ("ok; ignored test.c").
            let outcome = status.split(';').next().unwrap_or_default();
            assert_eq!(clean, outcome == "ok", "{name}: {status}");
        }
    }
    let status_of = |name: &str| {
        let index = header.iter().position(|h| h == "status").expect("status");
        rows.iter()
            .find(|r| r.get(0) == Some(name))
            .and_then(|r| r.get(index))
            .unwrap_or_else(|| panic!("no row for {name}"))
            .to_string()
    };
    assert_eq!(status_of(BROKEN), "build failed");
    assert_eq!(status_of(MODEL), "ok");
    assert!(status_of("infinite_loop").contains("timed out"));
    assert!(status_of("crash_on_invalid").contains("crashed"));
}

/// Text of an XML element's children, entity references resolved.
fn push_text(text: &mut String, event: &Event) {
    match event {
        Event::Text(t) => text.push_str(&t.decode().expect("UTF-8 text")),
        Event::GeneralRef(r) => {
            let reference = format!("&{};", r.decode().expect("UTF-8 reference"));
            text.push_str(&quick_xml::escape::unescape(&reference).expect("known entity"));
        }
        _ => {}
    }
}

fn attribute(element: &quick_xml::events::BytesStart, name: &str) -> String {
    element
        .try_get_attribute(name)
        .expect("well-formed attributes")
        .unwrap_or_else(|| panic!("no {name} attribute"))
        .unescape_value()
        .expect("attribute text")
        .into_owned()
}

#[derive(Default)]
struct Suite {
    tests_attribute: usize,
    failures_attribute: usize,
    cases: BTreeSet<String>,
    failing: BTreeMap<String, String>,
}

#[test]
fn junit_suites_tests_and_failures_match_the_json() {
    let batch = batch();
    let xml = batch.read("junit.xml");
    let mut reader = quick_xml::Reader::from_str(&xml);
    let mut suites: BTreeMap<String, Suite> = BTreeMap::new();
    let mut suite_name = String::new();
    let mut case_name = String::new();
    let mut failure: Option<String> = None;
    loop {
        let event = reader
            .read_event()
            .expect("report.junit.xml is well-formed XML");
        match &event {
            Event::Eof => break,
            Event::Start(e) if e.name().as_ref() == b"testsuite" => {
                suite_name = attribute(e, "name");
                let suite = suites.entry(suite_name.clone()).or_default();
                suite.tests_attribute = attribute(e, "tests").parse().expect("tests count");
                suite.failures_attribute =
                    attribute(e, "failures").parse().expect("failures count");
            }
            Event::Start(e) | Event::Empty(e) if e.name().as_ref() == b"testcase" => {
                case_name = attribute(e, "name");
                let suite = suites
                    .get_mut(&suite_name)
                    .expect("testcase inside a suite");
                assert!(suite.cases.insert(case_name.clone()), "{case_name} twice");
            }
            Event::Start(e) if e.name().as_ref() == b"failure" => failure = Some(String::new()),
            Event::End(e) if e.name().as_ref() == b"failure" => {
                let body = failure.take().expect("failure text");
                let suite = suites.get_mut(&suite_name).expect("failure inside a suite");
                suite.failing.insert(case_name.clone(), body);
            }
            other => {
                if let Some(body) = failure.as_mut() {
                    push_text(body, other);
                }
            }
        }
    }
    assert_eq!(
        suites.len(),
        batch.submissions().len(),
        "one suite per submission"
    );
    let mut failures_with_diff = 0;
    for submission in batch.submissions() {
        let name = submission["name"].as_str().expect("name");
        let suite = suites
            .get(name)
            .unwrap_or_else(|| panic!("no suite {name}"));
        let cases: BTreeSet<String> = case_statuses(submission).into_keys().collect();
        let failing = failing_cases(submission);
        assert_eq!(suite.cases, cases, "{name}: one testcase per case");
        assert_eq!(suite.tests_attribute, cases.len(), "{name}");
        assert_eq!(suite.failures_attribute, failing.len(), "{name}");
        let junit_failing: BTreeSet<String> = suite.failing.keys().cloned().collect();
        assert_eq!(junit_failing, failing, "{name}: the failing cases");
        for item in submission["items"].as_array().expect("items") {
            for case in item["cases"].as_array().expect("cases") {
                let diff = case["diff"].as_str().expect("diff");
                if case["status"] != "pass" && !diff.is_empty() {
                    let case_name = case["name"].as_str().expect("case name");
                    let body = &suite.failing[case_name];
                    assert!(
                        body.contains(diff),
                        "{name}/{case_name}: the diff is carried"
                    );
                    failures_with_diff += 1;
                }
            }
        }
    }
    assert!(failures_with_diff > 0, "the batch has failures with diffs");
}

#[test]
fn identical_wrong_outputs_are_grouped_and_the_model_is_in_no_group() {
    let batch = batch();
    let groups = batch.json["groups"].as_array().expect("groups array");
    let names = |group: &Value| -> BTreeSet<String> {
        group["submissions"]
            .as_array()
            .expect("group submissions")
            .iter()
            .map(|n| n.as_str().expect("name").to_string())
            .collect()
    };
    let expected: BTreeSet<String> = std::iter::once(COPIED_SAMPLE)
        .chain(COPIES)
        .map(String::from)
        .collect();
    let group = groups
        .iter()
        .find(|g| names(g).contains(COPIES[0]))
        .expect("the copies form a group");
    assert_eq!(names(group), expected);
    let listed: BTreeSet<String> = group["failing_cases"]
        .as_array()
        .expect("failing_cases")
        .iter()
        .map(|c| c.as_str().expect("case").to_string())
        .collect();
    assert!(!listed.is_empty());
    for member in &expected {
        assert_eq!(failing_cases(batch.submission(member)), listed, "{member}");
    }
    for group in groups {
        let members = names(group);
        assert!(members.len() >= 2, "a group has two or more members");
        assert!(!members.contains(MODEL), "the model fails nothing");
        assert!(
            !members.contains(BROKEN),
            "a build failure is not an output"
        );
    }
    let html = batch.read("html");
    let list_at = html
        .find("id=\"group-list\"")
        .expect("the HTML lists the groups");
    for member in &expected {
        assert!(
            html[list_at..].contains(member.as_str()),
            "{member} in the HTML group"
        );
    }
}

/// Runs `program` with `args`, killing it after `limit`. Standard output goes through a file
/// so that a large DOM dump cannot fill a pipe nobody reads while we wait.
fn run_with_limit(program: &str, args: &[String], scratch_dir: &Path, limit: Duration) -> Output {
    let stdout_path = scratch_dir.join("stdout");
    let stderr_path = scratch_dir.join("stderr");
    let create = |path: &Path| std::fs::File::create(path).expect("output file created");
    let mut child = Process::new(program)
        .args(args)
        .stdin(Stdio::null())
        .stdout(create(&stdout_path))
        .stderr(create(&stderr_path))
        .spawn()
        .unwrap_or_else(|e| {
            panic!("cannot run {program}: {e}; install Chromium (apt-get install chromium)")
        });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("chromium status") {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            panic!("{program} did not finish in {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(100));
    };
    Output {
        status,
        stdout: std::fs::read(&stdout_path).expect("stdout file"),
        stderr: std::fs::read(&stderr_path).expect("stderr file"),
    }
}

fn chromium(scratch_dir: &Path, extra: &[String]) -> Output {
    let program = "/usr/bin/chromium";
    assert!(
        Path::new(program).exists(),
        "{program} is missing: install Chromium (apt-get install chromium) to test the HTML report"
    );
    let mut args: Vec<String> = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    let profile = scratch_dir.join("profile");
    args.push(format!("--user-data-dir={}", profile.display()));
    args.extend_from_slice(extra);
    let output = run_with_limit(program, &args, scratch_dir, Duration::from_secs(120));
    assert!(
        output.status.success(),
        "chromium failed: {}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

/// The text of the element with `id` in a DOM dump.
fn element_text<'a>(dom: &'a str, id: &str) -> &'a str {
    let marker = format!("id=\"{id}\">");
    let start = dom
        .find(&marker)
        .unwrap_or_else(|| panic!("no element #{id} in the page"))
        + marker.len();
    let end = dom[start..].find('<').expect("element closes") + start;
    &dom[start..end]
}

#[test]
fn html_report_opens_in_chromium_with_the_json_numbers_and_a_diff() {
    let batch = batch();
    let html_path = batch.file("html");
    let html = batch.read("html");
    for external in ["http://", "https://", "src=\"//", "url("] {
        assert!(!html.contains(external), "self-contained: found {external}");
    }
    let chromium_dir = scratch("chromium");
    let url = format!("file://{}", html_path.display());
    let dom_output = chromium(&chromium_dir, &["--dump-dom".to_string(), url.clone()]);
    let dom = String::from_utf8(dom_output.stdout).expect("the DOM is UTF-8");

    let submissions = batch.submissions();
    let scores: Vec<f64> = submissions
        .iter()
        .map(|s| s["score"].as_f64().expect("score"))
        .collect();
    let mean = scores.iter().sum::<f64>() / scores.len() as f64;
    let full = submissions
        .iter()
        .filter(|s| s["score"] == s["max_score"])
        .count();
    let failed_builds = submissions
        .iter()
        .filter(|s| s["build"]["ok"] == false)
        .count();
    assert_eq!(
        element_text(&dom, "stat-submissions"),
        submissions.len().to_string()
    );
    assert_eq!(element_text(&dom, "stat-mean"), format!("{mean:.2}"));
    assert_eq!(element_text(&dom, "stat-full"), full.to_string());
    assert_eq!(
        element_text(&dom, "stat-build-failed"),
        failed_builds.to_string()
    );
    let histogram_total: usize = dom
        .match_indices("data-count=\"")
        .map(|(at, marker)| {
            let rest = &dom[at + marker.len()..];
            rest[..rest.find('"').expect("quote")]
                .parse::<usize>()
                .expect("a count")
        })
        .sum();
    assert_eq!(
        histogram_total,
        submissions.len(),
        "the histogram counts everyone"
    );
    for item in auto_items(&submissions[0]) {
        let id = item["id"].as_str().expect("id");
        let (mut passed, mut total) = (0usize, 0usize);
        for submission in submissions {
            let same = submission["items"]
                .as_array()
                .expect("items")
                .iter()
                .find(|i| i["id"] == id)
                .expect("same items");
            for case in same["cases"].as_array().expect("cases") {
                total += 1;
                passed += usize::from(case["status"] == "pass");
            }
        }
        let rate = format!("{:.1}%", passed as f64 * 100.0 / total as f64);
        assert_eq!(element_text(&dom, &format!("item-rate-{id}")), rate, "{id}");
    }
    assert!(
        dom.contains("<table class=\"diff\">") && dom.contains("class=\"del\""),
        "a side-by-side diff with a removed line is in the page"
    );
    for index in 0..submissions.len() {
        assert!(
            dom.contains(&format!("href=\"#student-{index}\"")),
            "link {index}"
        );
        assert!(
            dom.contains(&format!("id=\"student-{index}\"")),
            "section {index}"
        );
    }
    for (at, marker) in dom.match_indices("href=\"#") {
        let rest = &dom[at + marker.len()..];
        let target = &rest[..rest.find('"').expect("quote")];
        assert!(
            dom.contains(&format!("id=\"{target}\"")),
            "the link #{target} leads somewhere"
        );
    }
    assert!(
        dom.contains("class=\"build-log\""),
        "the broken submission shows its build log"
    );

    let screenshot = Path::new(env!("CARGO_TARGET_TMPDIR")).join("report.png");
    let _ = std::fs::remove_file(&screenshot);
    chromium(
        &chromium_dir,
        &[
            format!("--screenshot={}", screenshot.display()),
            "--window-size=1280,2000".to_string(),
            url,
        ],
    );
    let png = std::fs::read(&screenshot).expect("the screenshot is written");
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "a PNG file");
    assert!(png.len() > 20_000, "a page with content, not a blank one");
    println!("screenshot of the HTML report: {}", screenshot.display());
}

fn grade_output(paths: &[PathBuf], extra: &[&str], env: &[(&str, &str)]) -> Output {
    let mut command = referee();
    command.args(["grade", "reversi"]).args(paths).args(extra);
    command.env_remove("NO_COLOR").env_remove("REFEREE_COLOR");
    for (key, value) in env {
        command.env(key, value);
    }
    let output = command.output().expect("referee runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    output
}

fn sample(name: &str) -> PathBuf {
    root()
        .join("tests/submissions/reversi")
        .join(name)
        .join(format!("{name}.c"))
}

#[test]
fn piped_output_has_no_colour_or_progress_bar_and_no_color_is_honoured() {
    let two = [sample("no_diagonals"), sample("wrong_list_order")];
    // Every failing case in full, so that the diffs have both removed and added lines.
    let piped = grade_output(&two, &["--all"], &[]);
    assert!(!piped.stdout.contains(&0x1b), "no escape codes on a pipe");
    assert!(!piped.stderr.contains(&0x1b), "no progress bar on a pipe");
    let forced = grade_output(&two, &["--all"], &[("REFEREE_COLOR", "always")]);
    let text = String::from_utf8_lossy(&forced.stdout);
    assert!(text.contains("\x1b[31m-"), "removed diff lines are red");
    assert!(text.contains("\x1b[32m+"), "added diff lines are green");
    let refused = grade_output(
        &two,
        &["--all"],
        &[("REFEREE_COLOR", "always"), ("NO_COLOR", "1")],
    );
    assert!(!refused.stdout.contains(&0x1b), "NO_COLOR wins");
    // Same report apart from the colour codes.
    assert_eq!(refused.stdout, piped.stdout);
}

#[test]
fn gradescope_results_validate_against_the_schema_and_match_the_json_score() {
    let schema_path = root().join("tests/schemas/gradescope-results.schema.json");
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(&schema_path).expect("the schema is readable"),
    )
    .expect("the schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    for name in ["no_diagonals", "crash_on_invalid"] {
        let out = scratch(&format!("gradescope-{name}"));
        // A stem with several formats: results.gradescope.json and results.json.
        grade_output(
            &[sample(name)],
            &[
                "--format",
                "gradescope,json",
                "-o",
                &out.join("results").display().to_string(),
            ],
            &[],
        );
        let read = |file: &str| -> Value {
            let text = std::fs::read_to_string(out.join(file))
                .unwrap_or_else(|e| panic!("{file} not written: {e}"));
            serde_json::from_str(&text).expect("JSON")
        };
        let results = read("results.gradescope.json");
        let report = read("results.json");
        let errors: Vec<String> = validator
            .iter_errors(&results)
            .map(|e| format!("{} at {}", e, e.instance_path))
            .collect();
        assert!(errors.is_empty(), "{name}: schema errors: {errors:#?}");
        // The schema is strict: a misspelt key or an unknown visibility fails.
        let mut misspelt = results.clone();
        misspelt["tests"][0]["max_scroe"] = Value::from(1.0);
        assert!(
            !validator.is_valid(&misspelt),
            "a misspelt test key is rejected"
        );
        let mut unknown = results.clone();
        unknown["visibility"] = Value::from("students");
        assert!(
            !validator.is_valid(&unknown),
            "an unknown visibility is rejected"
        );

        let submission = common::only_submission(&report);
        assert_eq!(results["score"], submission["score"], "{name}: the score");
        let tests = results["tests"].as_array().expect("tests");
        let items = auto_items(submission);
        assert_eq!(tests.len(), items.len(), "{name}: one test per auto item");
        let mut failed = 0;
        for (test, item) in tests.iter().zip(&items) {
            assert_eq!(test["name"], item["id"]);
            assert_eq!(test["score"], item["score"]);
            assert_eq!(test["max_score"], item["max_score"]);
            let cases = item["cases"].as_array().expect("cases");
            let failing: Vec<&Value> = cases.iter().filter(|c| c["status"] != "pass").collect();
            let status = if failing.is_empty() {
                "passed"
            } else {
                "failed"
            };
            assert_eq!(test["status"], status, "{name}: {}", item["id"]);
            if let Some(first) = failing.first() {
                failed += 1;
                let output = test["output"].as_str().expect("output");
                assert!(output.contains(first["name"].as_str().expect("case name")));
                assert!(output.contains(first["diff"].as_str().expect("diff")));
            }
        }
        assert!(failed > 0, "{name} is a buggy sample");
        let manual: Vec<&str> = submission["items"]
            .as_array()
            .expect("items")
            .iter()
            .filter(|i| i["manual"] == true)
            .map(|i| i["id"].as_str().expect("id"))
            .collect();
        let overview = results["output"].as_str().expect("output");
        for id in manual {
            assert!(overview.contains(id), "manual {id} is named in the output");
        }
    }
}

#[test]
fn gradescope_results_for_a_build_failure_say_so_and_validate() {
    let work = scratch("gradescope-broken");
    let broken = work.join("Lab6.c");
    std::fs::write(&broken, "int main(void) { return 0 }\n").expect("written");
    let out = work.join("out");
    grade_output(
        std::slice::from_ref(&broken),
        &[
            "--format",
            "gradescope,json",
            "-o",
            &format!("{}/", out.display()),
        ],
        &[],
    );
    let read = |file: &str| -> Value {
        serde_json::from_str(&std::fs::read_to_string(out.join(file)).expect("written"))
            .expect("JSON")
    };
    let results = read("report.gradescope.json");
    let report = read("report.json");
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/schemas/gradescope-results.schema.json"))
            .expect("schema"),
    )
    .expect("schema JSON");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    assert!(validator.is_valid(&results));
    let submission = common::only_submission(&report);
    assert_eq!(submission["build"]["ok"], false);
    assert_eq!(results["score"], submission["score"]);
    assert!(results["output"]
        .as_str()
        .expect("output")
        .contains("Build: FAILED"));
    for test in results["tests"].as_array().expect("tests") {
        assert_eq!(test["status"], "failed");
        assert!(test["output"]
            .as_str()
            .expect("output")
            .contains("the build failed"));
    }
}

#[test]
fn gradescope_refuses_a_batch() {
    let output = referee()
        .args(["grade", "reversi"])
        .arg(root().join("tests/submissions/reversi"))
        .args(["--format", "gradescope"])
        .output()
        .expect("referee runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("exactly one submission"), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "one line: {stderr}");
}

/// Unpacks a zip, keeping the executable bits.
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

/// The referee a bundle ships: the one in REFEREE_RELEASE_ARCHIVE when the release script
/// runs this test on its archive, else a copy of this build (so `--binary` is what ships).
fn shipped_binary(work: &Path) -> PathBuf {
    let unpacked = work.join("release");
    std::fs::create_dir_all(&unpacked).expect("mkdir");
    match std::env::var_os("REFEREE_RELEASE_ARCHIVE") {
        Some(archive) => {
            let status = Process::new("tar")
                .arg("-C")
                .arg(&unpacked)
                .args(["--strip-components=1", "-xzf"])
                .arg(archive)
                .status()
                .expect("tar runs");
            assert!(status.success());
        }
        None => {
            std::fs::copy(
                assert_cmd::cargo::cargo_bin("referee"),
                unpacked.join("referee"),
            )
            .expect("copy");
        }
    }
    unpacked.join("referee")
}

#[test]
fn gradescope_bundle_ships_only_an_executable() {
    let work = scratch("bundle-binary");
    let text = work.join("referee.txt");
    std::fs::write(&text, "not a program").expect("write");
    let output = referee()
        .args(["gradescope-bundle", "reversi", "--binary"])
        .arg(&text)
        .arg("-o")
        .arg(work.join("autograder.zip"))
        .output()
        .expect("referee runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("referee.txt: not an executable"),
        "{stderr}"
    );
    assert!(!work.join("autograder.zip").exists());
}

#[test]
fn gradescope_bundle_grades_a_submission_as_referee_does() {
    let work = scratch("bundle");
    let zip_path = work.join("autograder.zip");
    let shipped = shipped_binary(&work);
    let output = referee()
        .args(["gradescope-bundle", "reversi", "--binary"])
        .arg(&shipped)
        .arg("-o")
        .arg(&zip_path)
        .output()
        .expect("referee runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    // Gradescope's layout: source/ holds the zip, submission/ the student's files.
    let autograder = work.join("autograder");
    let source = autograder.join("source");
    unzip(&zip_path, &source);
    for file in [
        "setup.sh",
        "run_autograder",
        "referee",
        "specs/reversi/spec.toml",
    ] {
        assert!(source.join(file).is_file(), "{file} in the bundle");
    }
    assert_eq!(
        std::fs::read(source.join("referee")).expect("read"),
        std::fs::read(&shipped).expect("read"),
        "the bundle ships --binary"
    );
    let schema: Value = serde_json::from_str(
        &std::fs::read_to_string(root().join("tests/schemas/gradescope-results.schema.json"))
            .expect("schema"),
    )
    .expect("schema JSON");
    let validator = jsonschema::validator_for(&schema).expect("the schema compiles");
    for name in ["wrong_list_order", "model"] {
        let file = if name == "model" {
            root().join("reference/reversi").join(format!("{MODEL}.c"))
        } else {
            sample(name)
        };
        let submission = autograder.join("submission");
        let results = autograder.join("results");
        for dir in [&submission, &results] {
            if dir.exists() {
                std::fs::remove_dir_all(dir).expect("cleared");
            }
            std::fs::create_dir_all(dir).expect("made");
        }
        std::fs::copy(&file, submission.join("Lab6.c")).expect("submission copied");
        let run = Process::new(source.join("run_autograder"))
            .env("REFEREE_AUTOGRADER", &autograder)
            .env("HOME", &work)
            .output()
            .expect("run_autograder runs");
        assert!(
            run.status.success(),
            "{name}: run_autograder failed: {}",
            String::from_utf8_lossy(&run.stderr)
        );
        let text =
            std::fs::read_to_string(results.join("results.json")).expect("results.json written");
        let results: Value = serde_json::from_str(&text).expect("results.json is JSON");
        assert!(
            validator.is_valid(&results),
            "{name}: results.json validates"
        );
        assert!(
            !results["tests"].as_array().expect("tests").is_empty(),
            "{name}: graded, not the fallback message: {}",
            results["output"]
        );
        let report = common::grade_json("reversi", &file, &[]);
        let expected = &common::only_submission(&report)["score"];
        assert_eq!(
            &results["score"], expected,
            "{name}: same score as referee grade"
        );
    }
}

/// What a terminal shows while `referee grade reversi PATHS --format json -o FILE` runs with
/// stdout and stderr on a pseudo-terminal (util-linux `script`).
fn terminal_transcript(paths: &[PathBuf], name: &str) -> String {
    let work = scratch(name);
    let binary = assert_cmd::cargo::cargo_bin("referee");
    let mut command = format!("{} grade reversi", binary.display());
    for path in paths {
        command.push_str(&format!(" {}", path.display()));
    }
    command.push_str(&format!(
        " --format json -o {}",
        work.join("report.json").display()
    ));
    let transcript = work.join("typescript");
    let status = Process::new("script")
        .args(["-qfec", &command])
        .arg(&transcript)
        .current_dir(root())
        .env_remove("REFEREE_ROOT")
        .env(
            "REFEREE_CACHE",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("build-cache"),
        )
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .status()
        .expect("util-linux `script` runs (it gives referee a terminal)");
    assert!(status.success(), "referee under script failed");
    std::fs::read_to_string(&transcript).expect("the terminal transcript")
}

#[test]
fn a_terminal_sees_a_progress_bar_for_a_batch_only() {
    let batch = terminal_transcript(
        &[sample("no_diagonals"), sample("wrong_list_order")],
        "terminal-batch",
    );
    assert!(batch.contains("ETA"), "a progress bar with ETA: {batch}");
    assert!(
        batch.contains("2 submissions graded"),
        "the summary line: {batch}"
    );
    let single = terminal_transcript(&[sample("no_diagonals")], "terminal-single");
    assert!(
        !single.contains("ETA"),
        "no bar for one submission: {single}"
    );
    assert!(
        single.contains("1 submission graded"),
        "the summary line: {single}"
    );
}

/// Jumps to each student's section in headless Chromium (as clicking its name does) and
/// reads where its heading lands: below the sticky header, not under it.
#[test]
fn the_heading_of_a_student_jumped_to_is_not_hidden_by_the_sticky_header() {
    let batch = batch();
    let count = batch.submissions().len();
    let probe = format!(
        r#"<script>
window.addEventListener('load', function () {{
  var header = document.querySelector('header').getBoundingClientRect().bottom;
  var seen = [];
  for (var i = 0; i < {count}; i++) {{
    location.hash = '#student-' + i;
    var heading = document.querySelector('#student-' + i + ' h2').getBoundingClientRect();
    var scrolled = window.scrollY > 0;
    seen.push(i + ':' + Math.round(heading.top) + ':' + Math.round(header) + ':' + scrolled);
  }}
  var out = document.createElement('div');
  out.id = 'probe';
  out.textContent = seen.join(' ');
  document.body.appendChild(out);
}});
</script></body>"#
    );
    let dir = scratch("chromium-jump");
    let page = dir.join("report.html");
    std::fs::write(&page, batch.read("html").replacen("</body>", &probe, 1)).expect("page");
    let dom = chromium(
        &dir,
        &[
            "--window-size=1280,800".to_string(),
            "--dump-dom".to_string(),
            format!("file://{}", page.display()),
        ],
    );
    let dom = String::from_utf8(dom.stdout).expect("UTF-8");
    let found = element_text(&dom, "probe");
    let mut checked = 0;
    for entry in found.split(' ') {
        let parts: Vec<&str> = entry.split(':').collect();
        let [index, top, header, scrolled] = parts[..] else {
            panic!("probe entry {entry:?}");
        };
        let (top, header): (i64, i64) =
            (top.parse().expect("top"), header.parse().expect("header"));
        // The last sections cannot scroll to the top of the window: the page ends first.
        if scrolled == "true" && top < 400 {
            assert!(
                top >= header,
                "student {index}: heading at {top}px, under the header ending at {header}px"
            );
            checked += 1;
        }
    }
    assert!(checked >= 2, "at least two jumps scrolled: {found}");
}
