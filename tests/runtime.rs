//! referee's C runtime (linked into every build): the time() shift that gives each run of a
//! trace case its own game, and the fixed clock `referee mutants` gives trace runs.

mod common;

use std::process::Command;

#[test]
fn each_run_of_a_clock_seeded_program_sees_a_different_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    let program = dir.path().join("clock.c");
    std::fs::write(
        &program,
        "#include <stdio.h>\n#include <time.h>\nint main(void) { time_t t; time(&t); \
         printf(\"%lld %lld\\n\", (long long) time(NULL), (long long) t); return 0; }\n",
    )
    .expect("write");
    let binary = dir.path().join("clock");
    let status = Command::new("cc")
        .arg(&program)
        .arg(common::root().join("src/grade/referee_rt.c"))
        .args(["-Wl,--wrap=time", "-o"])
        .arg(&binary)
        .status()
        .expect("cc runs");
    assert!(status.success());
    let read = |offset: Option<&str>| -> (i64, i64) {
        let mut command = Command::new(&binary);
        if let Some(offset) = offset {
            command.env("REFEREE_TIME_OFFSET", offset);
        }
        let out = String::from_utf8(command.output().expect("runs").stdout).expect("utf-8");
        let mut parts = out
            .split_whitespace()
            .map(|p| p.parse::<i64>().expect("a number"));
        (
            parts.next().expect("time"),
            parts.next().expect("time via pointer"),
        )
    };
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs() as i64;
    let (plain, plain_pointer) = read(None);
    assert!((plain - now).abs() <= 2, "{plain} vs {now}");
    assert_eq!(plain, plain_pointer);
    let (shifted, shifted_pointer) = read(Some("86400"));
    assert!((shifted - now - 86_400).abs() <= 2, "{shifted}");
    assert_eq!(shifted, shifted_pointer);
}

/// `referee mutants` fixes the wall clock of trace runs: time() and clock_gettime's
/// CLOCK_REALTIME (nanoseconds and all) read REFEREE_FIXED_TIME plus the run's offset, so a
/// clock-seeded model plays known games; without it clock_gettime is the real clock.
#[test]
fn a_fixed_clock_is_read_by_time_and_clock_gettime() {
    let dir = tempfile::tempdir().expect("tempdir");
    let program = dir.path().join("clocks.c");
    std::fs::write(
        &program,
        "#include <stdio.h>\n#include <time.h>\nint main(void) { struct timespec now; \
         clock_gettime(CLOCK_REALTIME, &now); printf(\"%lld %lld %ld\\n\", \
         (long long) time(NULL), (long long) now.tv_sec, now.tv_nsec); return 0; }\n",
    )
    .expect("write");
    let binary = dir.path().join("clocks");
    let status = Command::new("cc")
        .arg(&program)
        .arg(common::root().join("src/grade/referee_rt.c"))
        .args(["-Wl,--wrap=time", "-o"])
        .arg(&binary)
        .status()
        .expect("cc runs");
    assert!(status.success());
    let read = |env: &[(&str, &str)]| -> Vec<i64> {
        let out = Command::new(&binary)
            .envs(env.iter().copied())
            .output()
            .expect("runs")
            .stdout;
        String::from_utf8(out)
            .expect("utf-8")
            .split_whitespace()
            .map(|p| p.parse::<i64>().expect("a number"))
            .collect()
    };
    assert_eq!(read(&[("REFEREE_FIXED_TIME", "1000")]), [1000, 1000, 0]);
    assert_eq!(
        read(&[
            ("REFEREE_FIXED_TIME", "1000"),
            ("REFEREE_TIME_OFFSET", "86400")
        ]),
        [87_400, 87_400, 0]
    );
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("after 1970")
        .as_secs() as i64;
    let real = read(&[]);
    assert!(
        (real[0] - now).abs() <= 2 && (real[1] - now).abs() <= 2,
        "{real:?} vs {now}"
    );
}
