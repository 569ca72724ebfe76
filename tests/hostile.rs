//! Hostile submissions graded in one batch with the model solution: each threat is reported
//! with the right status, the model solution's result is the same as alone, nothing survives
//! the batch, nothing is written outside the run directories, and the batch ends in time.

mod common;

use std::collections::BTreeMap;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use common::*;
use serde_json::Value;

const TIMEOUT: f64 = 0.5;
/// Program cases kept in the test's copy of the Reversi cases (enough to show every
/// behaviour; the full suite would only repeat them).
const PROGRAM_CASES: usize = 12;

/// A root with the Reversi spec, the unit cases and the first `PROGRAM_CASES` program cases.
fn small_root() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("tempdir");
    let specs = dir.path().join("specs/reversi");
    let cases = dir.path().join("cases/reversi");
    std::fs::create_dir_all(&specs).expect("mkdir");
    std::fs::create_dir_all(&cases).expect("mkdir");
    for file in ["spec.toml", "harness.c"] {
        std::fs::copy(root().join("specs/reversi").join(file), specs.join(file)).expect("copy");
    }
    std::fs::copy(
        root().join("cases/reversi/helpers.toml"),
        cases.join("helpers.toml"),
    )
    .expect("copy");
    let program = std::fs::read_to_string(root().join("cases/reversi/program.toml")).expect("read");
    let kept: Vec<&str> = program.split("[[case]]").take(PROGRAM_CASES + 1).collect();
    std::fs::write(cases.join("program.toml"), kept.join("[[case]]")).expect("write");
    dir
}

/// Where `write_outside.c` tries to create files, as seen from outside the sandbox.
fn escape_targets(batch: &Path) -> Vec<PathBuf> {
    let mut targets = vec![
        std::env::temp_dir().join("referee-hostile-escape"),
        PathBuf::from("/referee-hostile-escape"),
        PathBuf::from("/var/tmp/referee-hostile-escape"),
        PathBuf::from("/dev/shm/referee-hostile-escape"),
        PathBuf::from("/root/referee-hostile-escape"),
        PathBuf::from("/run/lock/referee-hostile-escape"),
        PathBuf::from("/etc/referee-hostile-escape"),
        PathBuf::from("/usr/referee-hostile-escape"),
        root().join("referee-hostile-escape"),
    ];
    let mut dir = batch.to_path_buf();
    while let Some(parent) = dir.parent() {
        targets.push(parent.join("referee-hostile-escape"));
        dir = parent.to_path_buf();
    }
    targets
}

/// The tests of this file one at a time: each counts what its own referee left behind.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Makes this process the reaper of every orphan among its descendants, so that whatever a
/// referee it started leaves running stays a descendant of the test (and of no other test
/// process on the machine).
fn adopt_orphans() {
    // SAFETY: plain prctl on this process.
    assert_eq!(unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1) }, 0);
}

/// Reaps the orphans that ended (they were adopted by this process).
fn reap_orphans() {
    // SAFETY: waitpid without a status pointer on any child; only called when no child of
    // this test's own is being waited for elsewhere (the tests run one at a time).
    while unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) } > 0 {}
}

/// Live processes descended from this one (what a referee it started left running), with
/// their command lines.
fn leftover_processes() -> Vec<String> {
    reap_orphans();
    let mut parents = BTreeMap::new();
    let mut commands = BTreeMap::new();
    for entry in std::fs::read_dir("/proc")
        .expect("/proc")
        .filter_map(Result::ok)
    {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let stat = std::fs::read_to_string(entry.path().join("stat")).unwrap_or_default();
        // "PID (COMMAND) STATE PPID ...": the command may hold spaces and parentheses.
        let Some(after) = stat.rfind(')').map(|at| &stat[at + 1..]) else {
            continue;
        };
        let fields: Vec<&str> = after.split_whitespace().collect();
        if fields.first() == Some(&"Z") {
            continue;
        }
        if let Some(parent) = fields.get(1).and_then(|p| p.parse::<u32>().ok()) {
            parents.insert(pid, parent);
            let cmdline = std::fs::read(entry.path().join("cmdline")).unwrap_or_default();
            commands.insert(pid, String::from_utf8_lossy(&cmdline).replace('\0', " "));
        }
    }
    let me = std::process::id();
    parents
        .keys()
        .filter(|&&pid| {
            let mut at = pid;
            while let Some(&parent) = parents.get(&at) {
                if parent == me {
                    return true;
                }
                at = parent;
            }
            false
        })
        .map(|pid| format!("pid {pid}: {}", commands[pid]))
        .collect()
}

fn statuses(submission: &Value) -> Vec<String> {
    submission["items"]
        .as_array()
        .expect("items")
        .iter()
        .flat_map(|item| item["cases"].as_array().expect("cases").iter())
        .map(|case| case["status"].as_str().expect("status").to_string())
        .collect()
}

#[test]
fn hostile_submissions_cannot_hurt_the_batch() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    adopt_orphans();
    let batch_dir = tempfile::tempdir().expect("tempdir");
    let batch = batch_dir.path();
    // A port of its own, so that two test runs on one machine do not share a listener.
    let listener = TcpListener::bind("127.0.0.1:0").expect("a free port");
    listener.set_nonblocking(true).expect("nonblocking");
    let port = listener
        .local_addr()
        .expect("the listener's address")
        .port();
    for entry in std::fs::read_dir(root().join("tests/hostile")).expect("tests/hostile") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "c") {
            // include_project.c names the project folder, wherever it is checked out.
            let source = std::fs::read_to_string(&path)
                .expect("read")
                .replace("@PROJECT@", &root().to_string_lossy())
                .replace("@PORT@", &port.to_string());
            std::fs::write(batch.join(path.file_name().expect("name")), source).expect("copy");
        }
    }
    std::fs::copy(
        root().join("reference/reversi/Lab6.c"),
        batch.join("model.c"),
    )
    .expect("copy");

    let cases_root = small_root();
    let root_arg = cases_root.path().to_string_lossy().into_owned();
    let solo = grade_json(
        "reversi",
        &batch.join("model.c"),
        &["--root", &root_arg, "--no-cache"],
    );
    let timeout = TIMEOUT.to_string();
    let started = Instant::now();
    let report = grade_json(
        "reversi",
        batch,
        // --no-cache: every program must really run (kept runs would hide the sandbox).
        &[
            "--root",
            &root_arg,
            "--timeout",
            &timeout,
            "--jobs",
            "2",
            "--no-cache",
        ],
    );
    let elapsed = started.elapsed();

    assert!(
        report["sandbox"]
            .as_str()
            .is_some_and(|s| s.starts_with("namespaces")),
        "CI runs as root with namespaces: {}",
        report["sandbox"]
    );
    let by_name: BTreeMap<String, Value> = report["submissions"]
        .as_array()
        .expect("submissions")
        .iter()
        .map(|s| (s["name"].as_str().expect("name").to_string(), s.clone()))
        .collect();
    assert_eq!(
        by_name.len(),
        24,
        "23 hostile programs and the model solution"
    );

    let has = |name: &str, status: &str| {
        let all = statuses(&by_name[name]);
        assert!(
            all.iter().any(|s| s == status),
            "{name}: no {status} in {all:?}"
        );
    };
    has("busy_loop", "timeout");
    has("sleep_forever", "timeout");
    has("close_stdout", "timeout");
    has("stdout_flood", "output_limit");
    has("stderr_flood", "output_limit");
    has("deep_recursion", "crash");
    has("segfault_after_prints", "crash");
    has("nul_utf8", "fail");
    for name in [
        "fork_bomb",
        "write_outside",
        "read_parent",
        "network",
        "abstract_socket",
        "kill_parent",
        "stop_parent",
    ] {
        has(name, "fail");
    }
    let hog = statuses(&by_name["memory_hog"]);
    // Refused memory ends it (fail or crash), or touching what it got outlasts the limit.
    assert!(
        hog.iter()
            .all(|s| ["fail", "crash", "timeout", "build_error"].contains(&s.as_str())),
        "{hog:?}"
    );
    assert!(hog.iter().any(|s| s != "build_error"), "{hog:?}");
    // The compiler sees the submission's own files and the system headers only: the project
    // and files only root may read are not there (an ordinary compile error).
    for name in [
        "compile_error",
        "include_project",
        "include_shadow",
        "incbin_shadow",
    ] {
        assert_eq!(by_name[name]["build"]["ok"], Value::Bool(false), "{name}");
        assert!(
            statuses(&by_name[name]).iter().all(|s| s == "build_error"),
            "{name}"
        );
    }
    has("proc_cmdline", "fail");
    has("tmp_counter", "fail");
    // Touching half a gigabyte may outlast the time limit; what matters is no LEAK below.
    let shm = statuses(&by_name["shm_hog"]);
    assert!(
        shm.iter()
            .all(|s| ["fail", "timeout", "build_error"].contains(&s.as_str())),
        "{shm:?}"
    );
    let shadow = std::fs::read_to_string("/etc/shadow").expect("the tests run as root");
    let shadow_line = shadow.lines().next().expect("a first line");
    let whole_report = serde_json::to_string(&report).expect("json");
    assert!(
        !whole_report.contains(shadow_line),
        "/etc/shadow's first line is in the report"
    );

    // What printed before the crash is kept and judged: the first board passes.
    let crashed = &by_name["segfault_after_prints"];
    let board = crashed["items"]
        .as_array()
        .expect("items")
        .iter()
        .find(|i| i["id"] == "board")
        .expect("board");
    assert_eq!(board["score"], board["max_score"], "{board}");
    let crash_text = serde_json::to_string(crashed).expect("json");
    assert!(
        crash_text.contains("+Enter board conf\\n\\\\ (no newline"),
        "the unfinished line before the crash is kept: {crash_text}"
    );

    // Nothing leaked, connected or killed.
    for (name, submission) in &by_name {
        let text = serde_json::to_string(submission).expect("json");
        for marker in ["LEAK", "CONNECTED", "KILLED PARENT", "STOPPED PARENT"] {
            assert!(
                !text.contains(marker),
                "{marker} found in {name}'s report: {text}"
            );
        }
    }
    assert!(
        listener.accept().is_err(),
        "a program connected to 127.0.0.1:{port}"
    );

    // The model solution is graded exactly as alone.
    let mut together = by_name["model"].clone();
    let mut alone = only_submission(&solo).clone();
    for s in [&mut together, &mut alone] {
        s["path"] = Value::Null;
    }
    assert_eq!(together, alone);
    assert_eq!(together["score"], together["max_score"]);

    // Nothing survives, nothing escaped.
    std::thread::sleep(Duration::from_millis(200));
    let left = leftover_processes();
    assert!(left.is_empty(), "processes survived the batch: {left:?}");
    for target in escape_targets(batch) {
        assert!(!target.exists(), "{} was written", target.display());
    }

    // Time: a hanging program costs three full time limits, then short ones (see
    // grade::Pace); any other case at most one full limit. Unit cases do not build for the
    // hostile programs. The sum is the bound for one job; two jobs share it.
    let hanging = 3.0; // busy_loop, sleep_forever, close_stdout
    let cases = PROGRAM_CASES as f64;
    let per_hanging = 3.0 * TIMEOUT + (cases - 3.0) * 0.2_f64.max(TIMEOUT / 5.0);
    let others = 12.0 * cases * TIMEOUT;
    let bound = Duration::from_secs_f64(hanging * per_hanging + others + 15.0);
    assert!(
        elapsed < bound,
        "the batch took {elapsed:?}, more than {bound:?}"
    );
    eprintln!("hostile batch: {elapsed:?} (bound {bound:?})");
}

/// A grading referee stopped by SIGINT or SIGTERM kills every run, removes its scratch folder
/// and exits with 130 or 143; one killed by SIGKILL takes its runs with it (they die with
/// their launcher, which dies with referee).
#[test]
fn an_interrupted_referee_leaves_nothing_behind() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    adopt_orphans();
    let batch = tempfile::tempdir().expect("tempdir");
    for name in ["sleep_forever.c", "busy_loop.c"] {
        std::fs::copy(
            root().join("tests/hostile").join(name),
            batch.path().join(name),
        )
        .expect("copy");
    }
    let cases_root = small_root();
    for (signal, code) in [
        (libc::SIGINT, Some(130)),
        (libc::SIGTERM, Some(143)),
        (libc::SIGKILL, None),
    ] {
        let scratch = tempfile::tempdir().expect("tempdir");
        let mut referee = std::process::Command::new(assert_cmd::cargo::cargo_bin("referee"))
            .args(["grade", "reversi"])
            .arg(batch.path())
            .arg("--root")
            .arg(cases_root.path())
            .args(["--timeout", "10", "--jobs", "2", "--no-cache"])
            .env("TMPDIR", scratch.path())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("referee starts");
        let running = Instant::now();
        while !leftover_processes()
            .iter()
            .any(|p| p.ends_with(": /tmp/program "))
        {
            assert!(
                running.elapsed() < Duration::from_secs(60),
                "no program started"
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        // SAFETY: signals the referee this test started (still running: not yet waited for).
        assert_eq!(
            unsafe { libc::kill(referee.id() as libc::pid_t, signal) },
            0
        );
        let status = referee.wait().expect("wait for referee");
        use std::os::unix::process::ExitStatusExt;
        match code {
            Some(code) => assert_eq!(status.code(), Some(code), "after signal {signal}"),
            None => assert_eq!(status.signal(), Some(signal)),
        }
        let stopped = Instant::now();
        let mut left = leftover_processes();
        while !left.is_empty() && stopped.elapsed() < Duration::from_secs(2) {
            std::thread::sleep(Duration::from_millis(50));
            left = leftover_processes();
        }
        assert!(left.is_empty(), "after signal {signal}: {left:?}");
        if code.is_some() {
            let scratch_left: Vec<_> = std::fs::read_dir(scratch.path())
                .expect("read the scratch folder")
                .filter_map(Result::ok)
                .map(|e| e.file_name())
                .collect();
            assert!(
                scratch_left.is_empty(),
                "after signal {signal}: {scratch_left:?}"
            );
        }
    }
}

/// A submission named with terminal escapes (clear screen, set the title, CSI as one C1
/// byte) and a right-to-left override reaches no report raw: text, CSV, JUnit, Gradescope
/// and HTML write them as `\xNN` / `\u{NNNN}`.
#[test]
fn control_characters_in_names_are_escaped_in_every_text_format() {
    // Not beside the other tests: their reaping of orphans (waitpid on any child) could reap
    // this test's referee before it is waited for.
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let folder = tempfile::tempdir().expect("tempdir");
    let name = "evil\u{1b}[2J\u{1b}]0;owned\u{7}\u{9b}31m\u{202e}c.exe";
    let file = folder.path().join(format!("{name}.c"));
    std::fs::copy(root().join("reference/reversi/Lab6.c"), &file).expect("copy");
    let cases_root = small_root();
    for format in ["text", "csv", "junit", "gradescope", "html"] {
        let output = referee()
            .args(["grade", "reversi"])
            .arg(&file)
            .arg("--root")
            .arg(cases_root.path())
            .args(["--format", format])
            .output()
            .expect("referee runs");
        assert_eq!(output.status.code(), Some(0), "{format}");
        let report = String::from_utf8(output.stdout).expect("UTF-8");
        for raw in ['\u{1b}', '\u{7}', '\u{9b}', '\u{202e}'] {
            assert!(
                !report.contains(raw),
                "{format}: {:?} is in the report raw",
                raw
            );
        }
        if format != "gradescope" {
            assert!(
                report.contains("evil\\x1b[2J\\x1b]0;owned\\x07\\u{009b}31m\\u{202e}c.exe"),
                "{format}: the name is not shown escaped:\n{report}"
            );
        }
    }
}
