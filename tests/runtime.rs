//! referee's C runtime (linked into every build): the fixed clock that gives each run of a
//! trace case its own game, the same in every grading.

mod common;

use std::process::Command;

/// Builds `source` with referee's runtime, as every build is linked.
fn build_with_runtime(dir: &std::path::Path, name: &str, source: &str) -> std::path::PathBuf {
    let program = dir.join(format!("{name}.c"));
    std::fs::write(&program, source).expect("write");
    let binary = dir.join(name);
    let status = Command::new("cc")
        .arg(&program)
        .arg(common::root().join("src/grade/run/runtime.c"))
        .args(["-Wl,--wrap=time", "-o"])
        .arg(&binary)
        .status()
        .expect("cc runs");
    assert!(status.success());
    binary
}

/// The numbers a run of `binary` prints.
fn numbers_printed(binary: &std::path::Path, env: &[(&str, &str)]) -> Vec<i64> {
    let out = Command::new(binary)
        .envs(env.iter().copied())
        .output()
        .expect("runs")
        .stdout;
    String::from_utf8(out)
        .expect("utf-8")
        .split_whitespace()
        .map(|p| p.parse::<i64>().expect("a number"))
        .collect()
}

/// A program that seeds from the clock and then waits for the next second (some students
/// do, to get another seed) still finishes under a fixed clock, which moves on with the run.
#[test]
fn a_fixed_clock_moves_on_with_the_run() {
    let dir = tempfile::tempdir().expect("tempdir");
    let binary = build_with_runtime(
        dir.path(),
        "wait",
        "#include <stdio.h>\n#include <time.h>\nint main(void) { time_t start = time(NULL); \
         time_t later; while ((later = time(NULL)) == start) {} \
         printf(\"%lld %lld\\n\", (long long) start, (long long) later); return 0; }\n",
    );
    assert_eq!(
        numbers_printed(&binary, &[("REFEREE_FIXED_TIME", "1000")]),
        [1000, 1001]
    );
}

/// A trace run's fixed clock: time() (returned and through its pointer), clock_gettime's
/// CLOCK_REALTIME (nanoseconds and all) and gettimeofday (microseconds and all) read
/// REFEREE_FIXED_TIME, so a clock-seeded program plays the case's games; without it they are
/// the real clock.
#[test]
fn a_fixed_clock_is_read_by_time_clock_gettime_and_gettimeofday() {
    let dir = tempfile::tempdir().expect("tempdir");
    let binary = build_with_runtime(
        dir.path(),
        "clocks",
        "#include <stdio.h>\n#include <sys/time.h>\n#include <time.h>\nint main(void) { \
         struct timespec now; struct timeval tv; time_t t; time(&t); \
         clock_gettime(CLOCK_REALTIME, &now); gettimeofday(&tv, NULL); \
         printf(\"%lld %lld %lld %ld %lld %ld\\n\", (long long) time(NULL), (long long) t, \
         (long long) now.tv_sec, now.tv_nsec, (long long) tv.tv_sec, (long) tv.tv_usec); \
         return 0; }\n",
    );
    assert_eq!(
        numbers_printed(&binary, &[("REFEREE_FIXED_TIME", "1000")]),
        [1000, 1000, 1000, 0, 1000, 0]
    );
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs() as i64;
    let real = numbers_printed(&binary, &[]);
    assert!(
        [real[0], real[1], real[2], real[4]]
            .iter()
            .all(|t| (t - now).abs() <= 2),
        "{real:?} vs {now}"
    );
}
