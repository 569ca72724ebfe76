//! LUDO-CS end to end: the model C solution and the buggy submissions, checked by the trace
//! checker directly (always), and graded by `referee grade` (once the grader core is merged).

use std::path::{Path, PathBuf};
use std::process::Command;

use referee::games::ludo::check::{check, Report};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles the C files of `dir` with the course flags into a fresh binary.
fn compile(dir: &Path, out: &Path) {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("submission folder exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    sources.sort();
    let status = Command::new("gcc")
        .args(["-std=gnu17", "-Wall", "-Wextra", "-O2", "-o"])
        .arg(out)
        .args(&sources)
        .status()
        .expect("gcc runs");
    assert!(status.success(), "{} compiles", dir.display());
}

/// The checker's reports of `runs` games of the program in `dir`, seeded 1..=runs.
fn reports(dir: &Path, runs: u32) -> Vec<Report> {
    let build = tempfile::tempdir().expect("temporary folder");
    let binary = build.path().join("ludo");
    compile(dir, &binary);
    (1..=runs)
        .map(|seed| {
            let out = Command::new(&binary)
                .arg(seed.to_string())
                .output()
                .expect("the program runs");
            check(&String::from_utf8_lossy(&out.stdout))
        })
        .collect()
}

#[test]
fn the_model_solution_passes_the_checker_in_20_runs() {
    for (run, report) in reports(&root().join("reference/ludo"), 20)
        .iter()
        .enumerate()
    {
        let violations: Vec<String> = report.violations.iter().map(|v| v.to_string()).collect();
        assert!(
            violations.is_empty(),
            "run {}: {}",
            run + 1,
            violations.join("\n")
        );
        assert!(
            report.unreadable.is_empty(),
            "run {}: {:?}",
            run + 1,
            report.unreadable
        );
        assert!(
            report.missing.is_empty(),
            "run {}: {:?}",
            run + 1,
            report.missing
        );
        assert!(report.winner.is_some(), "run {}: no winner", run + 1);
        for agreement in report.behaviour {
            assert!(agreement.decisions > 0);
            assert_eq!(agreement.agreed, agreement.decisions, "run {}", run + 1);
        }
    }
}
