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
    // Held to the run's memory: refused segments end it (fail), or touching them outlasts the
    // time limit, or the memory limit (which counts shared memory) stops it (crash).
    assert!(
        shm.iter()
            .all(|s| ["fail", "timeout", "crash", "build_error"].contains(&s.as_str())),
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

/// The programs of tests/hostile/round3/, copied into `folder` as submissions.
fn round3_programs(folder: &Path, names: &[&str]) {
    for name in names {
        std::fs::copy(
            root()
                .join("tests/hostile/round3")
                .join(format!("{name}.c")),
            folder.join(format!("{name}.c")),
        )
        .expect("copy");
    }
}

/// A Backgammon submission folder: the model solution's files under other names.
fn backgammon_submission(folder: &Path, names: [&str; 3]) {
    std::fs::create_dir_all(folder).expect("mkdir");
    for (from, to) in ["check.c", "backgammon.c", "board.c"].iter().zip(names) {
        std::fs::copy(
            root().join("reference/backgammon").join(from),
            folder.join(to),
        )
        .expect("copy");
    }
}

/// No file name is read as an option: a file named `@x.c` holding gcc options (a
/// `-wrapper` that would run a script during the build) is compiled as C and fails, and the
/// model solution with its files named `@check.c` and `-game.c` gets full marks. With and
/// without namespaces.
#[test]
fn file_names_are_never_options() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let batch = tempfile::tempdir().expect("tempdir");
    let marker = batch.path().join("wrapper-ran");
    backgammon_submission(
        &batch.path().join("options"),
        ["check.c", "backgammon.c", "board.c"],
    );
    std::fs::write(
        batch.path().join("options/@x.c"),
        format!("-wrapper /bin/sh,-c,touch {}\n", marker.display()),
    )
    .expect("write");
    backgammon_submission(
        &batch.path().join("odd-names"),
        ["@check.c", "-game.c", "board.c"],
    );
    for isolation in ["auto", "basic"] {
        let output = referee()
            .env("REFEREE_ISOLATION", isolation)
            .args(["grade", "backgammon"])
            .arg(batch.path())
            .args(["--format", "json", "--no-cache", "--jobs", "2"])
            .output()
            .expect("referee runs");
        assert_eq!(output.status.code(), Some(0), "{isolation}");
        let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
        let by_name: BTreeMap<String, &Value> = report["submissions"]
            .as_array()
            .expect("submissions")
            .iter()
            .map(|s| (s["name"].as_str().expect("name").to_string(), s))
            .collect();
        let options = by_name["options"];
        assert_eq!(options["build"]["ok"], Value::Bool(false), "{isolation}");
        let log = options["build"]["log"].as_str().expect("log");
        assert!(log.contains("@x.c:1:1: error"), "{isolation}: {log}");
        assert!(!marker.exists(), "{isolation}: the wrapper ran");
        let odd = by_name["odd-names"];
        assert_eq!(odd["score"], odd["max_score"], "{isolation}: {odd}");
    }
}

/// A compiler step that runs code (here a compiler that does so for one submission, as gcc's
/// `-wrapper` did) cannot reach referee's objects, another submission's build, the build
/// cache or the host: it runs as the build's own uid, without capabilities, under the seccomp
/// filter. A classmate graded after it gets full marks, in the batch and regraded alone from
/// the same cache.
#[test]
fn a_build_cannot_poison_a_classmate_or_reach_the_host() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let work = tempfile::tempdir().expect("tempdir");
    // The build runs as its own uid, which must reach the compiler, as it would in /usr/bin.
    chmod(work.path(), 0o755);
    let compiler = work.path().join("evil-cc");
    let host_marker = work.path().join("host-written");
    std::fs::write(
        &compiler,
        format!(
            r#"#!/bin/sh
# For a submission holding EVIL: try to overwrite everything a later build reads.
evil=
for arg in "$@"; do
  case "$arg" in *.c) grep -qs EVIL -- "$arg" && evil=1 ;; esac
done
if [ -n "$evil" ]; then
  echo "EVIL RAN in $PWD as $(id -u)" >&2
  scratch=$(dirname "$PWD")
  for target in "$scratch"/objects/*.o "$scratch"/build-*/*.c "$scratch"/launcher \
                "$REFEREE_CACHE" /tmp/referee-uid-blocks {marker}; do
    case "$target" in "$PWD"/*) continue ;; esac  # its own build's files are its own
    # `true`, not `:`: a failed redirection on a special builtin ends the script.
    if [ -e "$target" ] && true > "$target" 2>/dev/null; then echo "EVIL WROTE $target" >&2; fi
  done
  touch {marker} 2>/dev/null && echo "EVIL WROTE {marker}" >&2
  unshare -U true 2>/dev/null && echo "EVIL UNSHARED" >&2
fi
exec gcc "$@"
"#,
            marker = host_marker.display()
        ),
    )
    .expect("write");
    chmod(&compiler, 0o755);
    let batch = work.path().join("class");
    std::fs::create_dir(&batch).expect("mkdir");
    let model = std::fs::read_to_string(root().join("reference/reversi/Lab6.c")).expect("read");
    std::fs::write(batch.join("a-evil.c"), format!("/* EVIL */\n{model}")).expect("write");
    std::fs::write(batch.join("b-classmate.c"), &model).expect("write");
    let cache = work.path().join("cache");
    let cases_root = small_root();
    let grade = |path: &Path, isolation: &str| -> Value {
        let output = referee()
            .env("CC", &compiler)
            .env("REFEREE_CACHE", &cache)
            .env("REFEREE_ISOLATION", isolation)
            .args(["grade", "reversi"])
            .arg(path)
            .arg("--root")
            .arg(cases_root.path())
            .args(["--format", "json", "--jobs", "1"])
            .output()
            .expect("referee runs");
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).expect("JSON")
    };
    for isolation in ["auto", "basic"] {
        let report = grade(&batch, isolation);
        let submissions = report["submissions"].as_array().expect("submissions");
        let evil_log = submissions[0]["build"]["log"].as_str().expect("log");
        assert!(evil_log.contains("EVIL RAN"), "{isolation}: {evil_log}");
        assert!(
            !evil_log.contains("as 0"),
            "{isolation}: ran as root: {evil_log}"
        );
        for attempt in ["EVIL WROTE", "EVIL UNSHARED"] {
            assert!(!evil_log.contains(attempt), "{isolation}: {evil_log}");
        }
        assert!(!host_marker.exists(), "{isolation}");
        let classmate = &submissions[1];
        assert_eq!(classmate["score"], classmate["max_score"], "{isolation}");
        let alone = grade(&batch.join("b-classmate.c"), isolation);
        let alone = only_submission(&alone);
        assert_eq!(alone["score"], alone["max_score"], "{isolation}, alone");
    }
}

/// What a run holds and uses is counted for the whole run: no namespace of its own (a tmpfs
/// outside the memory limit), memory in /dev/shm counted with its heap under a cgroup,
/// children's CPU time counted; descriptors the caller left open do not reach it; a flood of
/// blank lines costs a bounded comparison; a megabyte line per case keeps the report small;
/// the model solution is graded as alone.
#[test]
fn runs_are_counted_whole_and_reports_stay_small() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    adopt_orphans();
    let batch = tempfile::tempdir().expect("tempdir");
    round3_programs(
        batch.path(),
        &[
            "unshare_tmpfs",
            "children_cpu",
            "descriptors",
            "blank_flood",
            "megabyte_lines",
        ],
    );
    std::fs::copy(
        root().join("reference/reversi/Lab6.c"),
        batch.path().join("model.c"),
    )
    .expect("copy");
    let cases_root = small_root();
    let grades_log = tempfile::NamedTempFile::new().expect("a log file");
    // The TA's shell has a log open on descriptor 7 when it starts referee.
    let output = std::process::Command::new("sh")
        .arg("-c")
        .arg("exec 7>>\"$1\"; shift; exec \"$@\"")
        .arg("sh")
        .arg(grades_log.path())
        .arg(assert_cmd::cargo::cargo_bin("referee"))
        .args(["grade", "reversi"])
        .arg(batch.path())
        .arg("--root")
        .arg(cases_root.path())
        .args([
            "--format",
            "json",
            "--no-cache",
            "--jobs",
            "2",
            "--memory",
            "128",
            "--timeout",
            "0.5",
        ])
        .env("REFEREE_CACHE", batch.path().join("cache"))
        .output()
        .expect("referee runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    let by_name: BTreeMap<String, Value> = report["submissions"]
        .as_array()
        .expect("submissions")
        .iter()
        .map(|s| (s["name"].as_str().expect("name").to_string(), s.clone()))
        .collect();
    let text = |name: &str| serde_json::to_string(&by_name[name]).expect("json");

    // No namespace, no memory outside the limit: stopped at 128 MiB.
    let hog = text("unshare_tmpfs");
    assert!(!hog.contains("ESCAPED") && !hog.contains("HELD"), "{hog}");
    assert!(statuses(&by_name["unshare_tmpfs"])
        .iter()
        .any(|s| s == "crash"));
    // Its children's CPU time stops it at the time limit.
    let children = text("children_cpu");
    assert!(!children.contains("DONE"), "{children}");
    assert!(statuses(&by_name["children_cpu"])
        .iter()
        .any(|s| s == "timeout"));
    // Nothing inherited.
    assert!(!text("descriptors").contains("LEAK"));
    assert_eq!(
        std::fs::read_to_string(grades_log.path()).expect("read"),
        ""
    );
    // The flood is compared up to twice the expected output.
    let flood = text("blank_flood");
    assert!(flood.contains("not compared"), "{flood}");
    // Whether the cap or the 0.5 s limit stops it first depends on the machine's pipes.
    assert!(statuses(&by_name["blank_flood"])
        .iter()
        .any(|s| s == "output_limit" || s == "timeout"));
    // A megabyte line on stdout and on stderr in every case: the report keeps little of it.
    let megabytes = text("megabyte_lines");
    assert!(
        megabytes.len() < 1 << 20,
        "{} bytes of report for one submission",
        megabytes.len()
    );
    // The model solution is graded as alone.
    let mut together = by_name["model"].clone();
    let solo = grade_json(
        "reversi",
        &batch.path().join("model.c"),
        &["--root", &cases_root.path().to_string_lossy(), "--no-cache"],
    );
    let mut alone = only_submission(&solo).clone();
    for s in [&mut together, &mut alone] {
        s["path"] = Value::Null;
    }
    assert_eq!(together, alone);
    assert_eq!(together["score"], together["max_score"]);
    std::thread::sleep(Duration::from_millis(200));
    let left = leftover_processes();
    assert!(left.is_empty(), "processes survived the batch: {left:?}");
}

/// A program that sleeps in every case spends the submission's sleep budget (2 s in this
/// test's spec): the cases after it are not run, the report says so, and which cases ran does
/// not depend on --jobs.
#[test]
fn a_sleeping_program_spends_its_budget_and_stops() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let batch = tempfile::tempdir().expect("tempdir");
    round3_programs(batch.path(), &["sleeper"]);
    let cases_root = small_root();
    let spec = cases_root.path().join("specs/reversi/spec.toml");
    let text = std::fs::read_to_string(&spec).expect("read");
    std::fs::write(
        &spec,
        text.replace("[limits]\n", "[limits]\nsleep_seconds = 2.0\n"),
    )
    .expect("write");
    let root_arg = cases_root.path().to_string_lossy().into_owned();
    let mut seen = Vec::new();
    for jobs in ["1", "2"] {
        let started = Instant::now();
        let report = grade_json(
            "reversi",
            &batch.path().join("sleeper.c"),
            &["--root", &root_arg, "--no-cache", "--jobs", jobs],
        );
        let elapsed = started.elapsed();
        let sleeper = only_submission(&report);
        let stopped = sleeper["facts"]["stopped"].as_str().unwrap_or_default();
        assert!(
            stopped.starts_with("2 s of sleep for this submission spent")
                && stopped.ends_with("cases not run"),
            "{}",
            sleeper["facts"]
        );
        // 0.6 s a case: the budget is spent at the fourth case.
        assert!(elapsed < Duration::from_secs(60), "{elapsed:?}");
        seen.push(statuses(sleeper));
    }
    assert_eq!(seen[0], seen[1], "the same cases ran with 1 and 2 jobs");
}

/// Without namespaces (as in Gradescope's containers) programs run as uids of their own:
/// a program that finds referee's project through /proc cannot read it when it is not
/// readable by other users, and referee says so when it is.
#[test]
fn without_namespaces_the_project_is_out_of_reach_or_reported() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let batch = tempfile::tempdir().expect("tempdir");
    round3_programs(batch.path(), &["proc_reference"]);
    let cases_root = small_root();
    let reference = cases_root.path().join("reference/reversi");
    std::fs::create_dir_all(&reference).expect("mkdir");
    std::fs::copy(
        root().join("reference/reversi/Lab6.c"),
        reference.join("Lab6.c"),
    )
    .expect("copy");
    let grade = |mode: u32| -> Value {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(cases_root.path(), std::fs::Permissions::from_mode(mode))
            .expect("chmod");
        let output = referee()
            .env("REFEREE_ISOLATION", "basic")
            .args(["grade", "reversi"])
            .arg(batch.path().join("proc_reference.c"))
            .arg("--root")
            .arg(cases_root.path())
            .args(["--format", "json", "--no-cache"])
            .output()
            .expect("referee runs");
        assert_eq!(output.status.code(), Some(0));
        serde_json::from_slice(&output.stdout).expect("JSON")
    };
    let closed = grade(0o700);
    let sandbox = closed["sandbox"].as_str().expect("sandbox");
    assert!(sandbox.starts_with("basic only"), "{sandbox}");
    assert!(
        sandbox.contains("a separate uid per build and run"),
        "{sandbox}"
    );
    assert!(!sandbox.contains("WARNING"), "{sandbox}");
    let text = serde_json::to_string(&closed["submissions"]).expect("json");
    assert!(!text.contains("LEAK"), "{text}");
    let open = grade(0o755);
    let sandbox = open["sandbox"].as_str().expect("sandbox");
    assert!(
        sandbox.contains(&format!(
            "WARNING: programs can read {}",
            cases_root.path().display()
        )),
        "{sandbox}"
    );
}

/// The Gradescope bundle, run as Gradescope runs it (root, no namespaces): a submission that
/// finds /autograder through /proc can neither change run_autograder, write its own
/// results.json nor read the cases; the results are referee's.
#[test]
fn the_gradescope_tree_is_out_of_the_programs_reach() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let work = tempfile::tempdir().expect("tempdir");
    let zip_path = work.path().join("autograder.zip");
    let output = referee()
        .args(["gradescope-bundle", "reversi", "-o"])
        .arg(&zip_path)
        .output()
        .expect("referee runs");
    assert_eq!(output.status.code(), Some(0));
    let autograder = work.path().join("autograder");
    let source = autograder.join("source");
    let archive = std::fs::File::open(&zip_path).expect("open");
    zip::ZipArchive::new(archive)
        .expect("zip")
        .extract(&source)
        .expect("unzip");
    let script = source.join("run_autograder");
    let before = std::fs::read(&script).expect("read");
    let submission = autograder.join("submission");
    std::fs::create_dir_all(&submission).expect("mkdir");
    std::fs::create_dir_all(autograder.join("results")).expect("mkdir");
    std::fs::write(
        submission.join("Lab6.c"),
        std::fs::read_to_string(root().join("tests/hostile/round3/proc_reference.c"))
            .expect("read")
            .replace(
                "try_read(root, \"specs/reversi/spec.toml\");",
                "try_read(root, \"specs/reversi/spec.toml\");\n                \
                 char target[1024];\n                \
                 snprintf(target, sizeof target, \"%s/run_autograder\", root);\n                \
                 FILE *own = fopen(target, \"a\");\n                \
                 if (own != NULL) { fputs(\"echo OWNED\\n\", own); fclose(own); printf(\"LEAK wrote %s\\n\", target); }\n                \
                 snprintf(target, sizeof target, \"%s/../results/results.json\", root);\n                \
                 FILE *results = fopen(target, \"w\");\n                \
                 if (results != NULL) { fputs(\"{\\\"score\\\": 100}\", results); fclose(results); printf(\"LEAK wrote %s\\n\", target); }",
            ),
    )
    .expect("write");
    let run = std::process::Command::new("bash")
        .arg(&script)
        .env("REFEREE_AUTOGRADER", &autograder)
        .env("REFEREE_ISOLATION", "basic")
        .env("HOME", work.path())
        .output()
        .expect("run_autograder runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    assert_eq!(
        std::fs::read(&script).expect("read"),
        before,
        "run_autograder changed"
    );
    let results = std::fs::read_to_string(autograder.join("results/results.json")).expect("read");
    let results: Value = serde_json::from_str(&results).expect("JSON");
    assert!(
        !results["tests"].as_array().expect("tests").is_empty(),
        "{results}"
    );
    assert_ne!(results["score"], serde_json::json!(100));
    let text = serde_json::to_string(&results).expect("json");
    assert!(!text.contains("LEAK"), "{text}");
}

/// Copies `folder` of the project (specs/, cases/) into `to`, readable by every user.
fn copy_tree(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read_dir") {
        let entry = entry.expect("entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("type").is_dir() {
            copy_tree(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

fn chmod(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).expect("chmod");
}

/// The round-3 attacks made by referee run as an ordinary user (uid 65534 when the tests run
/// as root, else the tests' own user), from a copy of the binary and the data in a folder
/// every user can read, with a log open on descriptor 7: the file named `@x.c` is compiled
/// as C, descriptors do not leak, no namespace is made, children's CPU time counts, the
/// model solutions get full marks.
#[test]
fn as_an_ordinary_user_the_attacks_fail_too() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let place = tempfile::tempdir().expect("tempdir");
    chmod(place.path(), 0o755);
    let binary = place.path().join("referee");
    std::fs::copy(assert_cmd::cargo::cargo_bin("referee"), &binary).expect("copy");
    chmod(&binary, 0o755);
    let data = place.path().join("data");
    for folder in ["specs", "cases"] {
        copy_tree(&root().join(folder), &data.join(folder));
    }
    let class = place.path().join("class");
    std::fs::create_dir(&class).expect("mkdir");
    round3_programs(&class, &["descriptors", "unshare_tmpfs", "children_cpu"]);
    std::fs::copy(
        root().join("reference/reversi/Lab6.c"),
        class.join("model.c"),
    )
    .expect("copy");
    let options = place.path().join("options");
    let marker = place.path().join("wrapper-ran");
    backgammon_submission(
        &options.join("options"),
        ["check.c", "backgammon.c", "board.c"],
    );
    std::fs::write(
        options.join("options/@x.c"),
        format!("-wrapper /bin/sh,-c,touch {}\n", marker.display()),
    )
    .expect("write");
    backgammon_submission(
        &options.join("odd-names"),
        ["@check.c", "-game.c", "board.c"],
    );
    let home = place.path().join("home");
    std::fs::create_dir(&home).expect("mkdir");
    let log = place.path().join("grades.log");
    std::fs::write(&log, "").expect("write");
    // SAFETY: geteuid has no preconditions.
    let as_root = unsafe { libc::geteuid() } == 0;
    if as_root {
        for path in [&home, &class, &options] {
            std::os::unix::fs::chown(path, Some(65534), Some(65534)).expect("chown");
        }
    }
    let grade = |game: &str, path: &Path, extra: &[&str]| -> Value {
        let mut command = std::process::Command::new("sh");
        command
            .arg("-c")
            .arg("exec 7>>\"$1\"; shift; exec \"$@\"")
            .arg("sh")
            .arg(&log);
        if as_root {
            command.args([
                "setpriv",
                "--reuid=65534",
                "--regid=65534",
                "--clear-groups",
                "--inh-caps=-all",
            ]);
        }
        let output = command
            .arg(&binary)
            .args(["grade", game])
            .arg(path)
            .arg("--root")
            .arg(&data)
            .args(["--format", "json", "--jobs", "2"])
            .args(extra)
            .current_dir(&home)
            .env_remove("REFEREE_ROOT")
            .env_remove("REFEREE_ISOLATION")
            .env("HOME", &home)
            .env("REFEREE_CACHE", home.join("cache"))
            .output()
            .expect("referee runs");
        assert_eq!(
            output.status.code(),
            Some(0),
            "{}",
            String::from_utf8_lossy(&output.stderr)
        );
        serde_json::from_slice(&output.stdout).expect("JSON")
    };
    let names = |report: &Value| -> BTreeMap<String, Value> {
        report["submissions"]
            .as_array()
            .expect("submissions")
            .iter()
            .map(|s| (s["name"].as_str().expect("name").to_string(), s.clone()))
            .collect()
    };

    let report = grade("backgammon", &options, &[]);
    let by_name = names(&report);
    let build_log = by_name["options"]["build"]["log"].as_str().expect("log");
    assert!(build_log.contains("@x.c:1:1: error"), "{build_log}");
    assert!(!marker.exists(), "the wrapper ran");
    let odd = &by_name["odd-names"];
    assert_eq!(odd["score"], odd["max_score"], "{odd}");

    let report = grade(
        "reversi",
        &class,
        &["--memory", "128", "--timeout", "0.5", "--no-cache"],
    );
    let by_name = names(&report);
    let text = |name: &str| serde_json::to_string(&by_name[name]).expect("json");
    assert!(!text("descriptors").contains("LEAK"));
    assert_eq!(std::fs::read_to_string(&log).expect("read"), "");
    let hog = text("unshare_tmpfs");
    assert!(!hog.contains("ESCAPED") && !hog.contains("HELD"), "{hog}");
    let children = text("children_cpu");
    assert!(!children.contains("DONE"), "{children}");
    assert!(statuses(&by_name["children_cpu"])
        .iter()
        .any(|s| s == "timeout"));
    let model = &by_name["model"];
    assert_eq!(model["score"], model["max_score"], "{model}");
}

/// A build that writes more than the spec's scratch disk (`build_scratch_mb`) is stopped and
/// says so; each file the compiler writes is limited too.
#[test]
fn a_build_is_held_to_its_scratch_disk() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let cases_root = small_root();
    let spec_path = cases_root.path().join("specs/reversi/spec.toml");
    let spec = std::fs::read_to_string(&spec_path).expect("read");
    let spec = if spec.contains("[limits]") {
        spec.replace("[limits]", "[limits]\nbuild_scratch_mb = 16")
    } else {
        format!("{spec}\n[limits]\nbuild_scratch_mb = 16\n")
    };
    std::fs::write(&spec_path, spec).expect("write");
    let batch = tempfile::tempdir().expect("tempdir");
    let model = std::fs::read_to_string(root().join("reference/reversi/Lab6.c")).expect("read");
    // 24 MB of initialised data: an object of 24 MB, over the 16 MB of scratch disk.
    std::fs::write(
        batch.path().join("heavy.c"),
        format!("char referee_heavy[24 << 20] = {{1}};\n{model}"),
    )
    .expect("write");
    std::fs::write(batch.path().join("light.c"), &model).expect("write");
    let report = grade_json(
        "reversi",
        batch.path(),
        &["--root", &cases_root.path().to_string_lossy(), "--no-cache"],
    );
    let submissions = report["submissions"].as_array().expect("submissions");
    let heavy = &submissions[0];
    assert_eq!(heavy["build"]["ok"], Value::Bool(false), "{heavy}");
    let log = heavy["build"]["log"].as_str().expect("log");
    assert!(log.contains("stopped: the build wrote"), "{log}");
    let light = &submissions[1];
    assert_eq!(light["score"], light["max_score"]);
}

/// `--sanitize` lifts the address-space limit (AddressSanitizer reserves terabytes of it);
/// with cgroups the run's memory is still limited (twice the limit plus 512 MiB), and
/// without them the report says there is no cgroup.
#[test]
fn sanitized_runs_are_held_to_a_memory_limit() {
    let _alone = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    let batch = tempfile::tempdir().expect("tempdir");
    let model = std::fs::read_to_string(root().join("reference/reversi/Lab6.c")).expect("read");
    // Holds 1.5 GB of heap before playing: over 2 x 128 MiB + 512 MiB.
    let hog = model.replacen(
        "int main(",
        "#include <stdlib.h>\n#include <string.h>\nstatic void referee_hog(void) { for (int i = 0; i < 1536; i++) { char *p = malloc(1 << 20); if (p) memset(p, 1, 1 << 20); } }\nint referee_real_main(",
        1,
    ) + "\nint main(void) { referee_hog(); return referee_real_main(); }\n";
    assert!(hog.contains("referee_real_main("), "the model has a main");
    std::fs::write(batch.path().join("Lab6.c"), hog).expect("write");
    let cases_root = small_root();
    let output = referee()
        .args(["grade", "reversi"])
        .arg(batch.path().join("Lab6.c"))
        .arg("--root")
        .arg(cases_root.path())
        // Touching 768 MiB under AddressSanitizer takes about a second of system time on a
        // busy machine: a longer time limit lets the memory limit, not the clock, stop it.
        .args([
            "--no-cache",
            "--sanitize",
            "--memory",
            "128",
            "--timeout",
            "10",
        ])
        .output()
        .expect("referee runs");
    let report = String::from_utf8_lossy(&output.stdout);
    let sandbox = grade_json(
        "reversi",
        &root().join("reference/reversi/Lab6.c"),
        &["--case", "start-4"],
    )["sandbox"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    if sandbox.contains("no cgroup") {
        assert!(!report.contains("used more than"), "{report}");
    } else {
        assert!(
            report.contains("your program used more than its 768 MiB of memory"),
            "{report}"
        );
    }
}
