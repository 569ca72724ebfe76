//! What comparing a flood of output costs: a program that prints blank lines until it is
//! stopped, against a 47-line expected transcript (a Reversi case's size).
//!
//! `compare` is referee's comparison as it runs (the output cut at twice the expected lines,
//! a linear diff past 20,000 lines); `myers, whole output` is the comparison it replaced: one
//! Myers line diff of the whole output, whose time grows with the lines times the lines that
//! differ (measured up to 16,000 lines; the default 1 MiB cap holds a million blank lines).
//! Prints the median of `RUNS` runs (default 5) per size, in milliseconds.
//!
//! `cargo bench --bench compare`

use std::time::Instant;

use referee::assignment::spec::CompareMode;
use referee::compare::compare;
use referee::games::Transcript;
use similar::{capture_diff_slices, Algorithm};

fn expected() -> Transcript {
    let mut transcript = Transcript::new();
    transcript.print("board", "Enter the board dimension: ");
    for row in 0..46 {
        transcript.print(
            "board",
            &format!("{} UUUUWBUUUU\n", (b'a' + row % 26) as char),
        );
    }
    transcript
}

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn time(runs: usize, mut work: impl FnMut()) -> f64 {
    median(
        (0..runs)
            .map(|_| {
                let start = Instant::now();
                work();
                start.elapsed().as_secs_f64() * 1000.0
            })
            .collect(),
    )
}

fn main() {
    let runs: usize = std::env::var("RUNS")
        .ok()
        .and_then(|runs| runs.parse().ok())
        .unwrap_or(5);
    let expected = expected();
    let expected_text = expected.text();
    println!("| blank lines | compare ms | myers, whole output ms |");
    println!("|---|---|---|");
    for lines in [2_000, 4_000, 8_000, 16_000, 100_000, 1_000_000] {
        let output = format!("Enter the board dimension: {}", "\n".repeat(lines));
        let bounded = time(runs, || {
            std::hint::black_box(compare(&expected, &output, CompareMode::Exact));
        });
        let whole = if lines <= 16_000 {
            let old: Vec<&str> = expected_text.lines().collect();
            let new: Vec<&str> = output.lines().collect();
            format!(
                "{:.1}",
                time(runs, || {
                    std::hint::black_box(capture_diff_slices(Algorithm::Myers, &old, &new));
                })
            )
        } else {
            "not run".to_string()
        };
        println!("| {lines} | {bounded:.2} | {whole} |");
    }
}
