//! The cost of one run, side by side: the bare program started by `std::process::Command`
//! (what a shell loop pays), referee's basic sandbox, and the isolated sandbox (namespaces and
//! a uid per run when root). Prints the median and the ratio to the bare run.
//!
//! `cargo bench --bench sandbox` (RUNS=N changes the number of runs per kind, default 300).

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use referee::grade::sandbox::{RunLimits, RunRequest, Sandbox};

/// Reads its input and prints a short answer, like a small case.
const PROGRAM: &str = r#"#include <stdio.h>
int main(void) {
    char line[256];
    int lines = 0;
    while (fgets(line, sizeof line, stdin)) lines++;
    printf("%d lines\n", lines);
    return 0;
}
"#;

fn median(mut samples: Vec<Duration>) -> Duration {
    samples.sort();
    samples[samples.len() / 2]
}

fn main() {
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    let dir = tempfile::tempdir().expect("temporary folder");
    let source = dir.path().join("program.c");
    let binary = dir.path().join("program");
    std::fs::write(&source, PROGRAM).expect("write the program");
    let compiled = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .arg("-O2")
        .arg("-o")
        .arg(&binary)
        .arg(&source)
        .status()
        .expect("a C compiler");
    assert!(compiled.success(), "the benchmark program compiles");
    let stdin = b"4\nabcd\nefgh\n".repeat(4);
    let limits = RunLimits {
        timeout: Duration::from_secs(5),
        cpu_seconds: 5,
        memory_bytes: Some(256 << 20),
        output_bytes: 1 << 20,
        file_size_bytes: 1 << 20,
        open_files: 64,
        processes: 16,
    };

    let bare = || {
        let start = Instant::now();
        let mut child = Command::new(&binary)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("spawn");
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(&stdin)
            .expect("write stdin");
        let out = child.wait_with_output().expect("wait");
        assert!(out.status.success());
        start.elapsed()
    };
    let sandboxed = |sandbox: &Sandbox| {
        let start = Instant::now();
        let outcome = sandbox
            .run(&RunRequest {
                program: &binary,
                args: &[],
                stdin: &stdin,
                env: &[],
                limits: &limits,
            })
            .expect("run");
        assert_eq!(outcome.stdout, b"12 lines\n");
        start.elapsed()
    };

    let basic = Sandbox::basic().expect("basic sandbox");
    let isolated = Sandbox::new(vec![dir.path().to_path_buf()]).expect("sandbox");
    let mut samples: [Vec<Duration>; 3] = Default::default();
    // Interleaved, so that a busy moment of the machine costs every kind alike.
    for _ in 0..runs {
        samples[0].push(bare());
        samples[1].push(sandboxed(&basic));
        samples[2].push(sandboxed(&isolated));
    }
    let [bare, basic_runs, isolated_runs] = samples.map(median);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!("runs per kind: {runs} (medians)");
    println!("bare program         {:7.3} ms", ms(bare));
    println!(
        "basic sandbox        {:7.3} ms  {:5.2}x bare",
        ms(basic_runs),
        ms(basic_runs) / ms(bare)
    );
    println!(
        "isolated sandbox     {:7.3} ms  {:5.2}x bare  ({})",
        ms(isolated_runs),
        ms(isolated_runs) / ms(bare),
        isolated.describe()
    );
}
