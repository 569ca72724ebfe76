//! The cost of one run, side by side: the bare program started by `std::process::Command`
//! (what a shell loop pays), referee's basic sandbox, the isolated sandbox (namespaces and a
//! uid per run when root), and one case of a batch in the isolated sandbox (a batch of
//! `BATCH` cases, its time divided by their number: how referee runs a submission's cases).
//! Prints the median and the ratio to the bare run.
//!
//! `cargo bench --bench sandbox` (RUNS=N changes the number of runs per kind, default 300;
//! BALLAST_MB=M the memory this process holds while it runs them, default 48, about
//! referee's resident size while grading a class: a fork copies the page tables of all of
//! it, so the cost of starting a run depends on it).

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use referee::grade::run::batch::{self, Batch};
use referee::grade::run::sandbox::{RunLimits, RunRequest, Sandbox, Termination};

/// Cases in one batch of the batched kind.
const BATCH: usize = 20;

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
    // The same program with referee's runtime, as referee links every build (batch mode).
    let with_runtime = dir.path().join("program-rt");
    let compiled = Command::new(std::env::var("CC").unwrap_or_else(|_| "cc".into()))
        .arg("-O2")
        .arg("-o")
        .arg(&with_runtime)
        .arg(&source)
        .arg(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/src/grade/run/runtime.c"
        ))
        .arg("-Wl,--wrap=time")
        .status()
        .expect("a C compiler");
    assert!(
        compiled.success(),
        "the benchmark program links with the runtime"
    );
    let stdin = b"4\nabcd\nefgh\n".repeat(4);
    let limits = RunLimits {
        timeout: Duration::from_secs(5),
        cpu_seconds: 5,
        memory_bytes: Some(256 << 20),
        run_memory_bytes: Some(256 << 20),
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
                silence: None,
            })
            .expect("run");
        assert_eq!(outcome.stdout, b"12 lines\n");
        start.elapsed()
    };

    let batched = |sandbox: &Sandbox| {
        let start = Instant::now();
        let outcomes = batch::run(
            sandbox,
            &Batch {
                program: &with_runtime,
                args: &[],
                inputs: vec![stdin.as_slice(); BATCH],
                limits: &limits,
                sleep: Duration::from_secs(60),
            },
        )
        .expect("batch");
        assert_eq!(outcomes.len(), BATCH);
        for outcome in outcomes {
            assert_eq!(outcome.stdout, b"12 lines\n");
            assert_eq!(outcome.termination, Termination::Exited(0));
        }
        start.elapsed() / BATCH as u32
    };

    let ballast_mb: usize = std::env::var("BALLAST_MB")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(48);
    let ballast = vec![1u8; ballast_mb << 20];
    let basic = Sandbox::basic().expect("basic sandbox");
    let isolated = Sandbox::new(vec![dir.path().to_path_buf()]).expect("sandbox");
    let mut samples: [Vec<Duration>; 4] = Default::default();
    // Interleaved, so that a busy moment of the machine costs every kind alike.
    for run in 0..runs {
        samples[0].push(bare());
        samples[1].push(sandboxed(&basic));
        samples[2].push(sandboxed(&isolated));
        if run % BATCH == 0 {
            samples[3].push(batched(&isolated));
        }
    }
    let [bare, basic_runs, isolated_runs, batched_cases] = samples.map(median);
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    let held: usize = ballast.iter().step_by(4096).map(|&b| usize::from(b)).sum();
    println!("runs per kind: {runs} (medians), {} MiB held", held >> 8);
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
    println!(
        "isolated batch, 1 case {:7.3} ms  {:5.2}x bare  (batches of {BATCH}, {} batches)",
        ms(batched_cases),
        ms(batched_cases) / ms(bare),
        runs.div_ceil(BATCH)
    );
}
