//! What one grading run shares: its settings, the compiler, the sandbox and the build cache.

use std::path::PathBuf;
use std::time::Duration;

use crate::assignment::spec::Limits;
use crate::compare::Detail;

use super::build::cache::BuildCache;
use super::build::compiler::Compiler;
use super::run::sandbox::{RunLimits, Sandbox};

/// Settings for one grading run.
#[derive(Debug, Clone)]
pub struct Settings {
    pub limits: RunLimits,
    pub compile_timeout: Duration,
    pub jobs: usize,
    /// Build with the sanitizers (`--sanitize`) and show their reports.
    pub sanitize: bool,
    pub timeouts_in_a_row: usize,
    /// Time a submission's runs may spend sleeping or blocked, all together (see
    /// `Limits::sleep_seconds`).
    pub sleep_budget: Duration,
    /// Run the cases of each binary of a submission in one sandboxed run (see `run::batch`).
    pub batch_cases: bool,
    /// What a failing transcript case records: everything a report shows, or only which
    /// items failed (`referee mutants`); scores are the same either way.
    pub detail: Detail,
    /// Stop a trace case's runs at the first that loses points (`referee mutants`: one
    /// finding in any run kills a mutant, so later runs would only cost time, memory and
    /// run-cache space). Never set for submissions, whose score averages every run.
    pub stop_trace_at_first_loss: bool,
    /// Where each run of a trace case is written (`--save-runs`): a folder per submission
    /// (`report::destination::file_safe` of its name), then per case, `run-001.txt` on.
    pub save_runs: Option<PathBuf>,
}

impl Settings {
    /// Settings from the limits (the spec's, with any command-line overrides applied).
    pub fn new(limits: &Limits, jobs: Option<usize>) -> Self {
        let timeout = limits.timeout;
        Settings {
            sanitize: false,
            batch_cases: true,
            detail: Detail::Full,
            stop_trace_at_first_loss: false,
            save_runs: None,
            timeouts_in_a_row: limits.timeouts_in_a_row.max(1),
            limits: RunLimits {
                timeout: Duration::from_secs_f64(timeout),
                // Above the wall-clock limit, so a busy loop is stopped by the clock first.
                cpu_seconds: limits.cpu_seconds.max(timeout.ceil() as u64 + 1),
                memory_bytes: Some(limits.memory_mb << 20),
                run_memory_bytes: Some(limits.memory_mb << 20),
                output_bytes: (limits.output_kb << 10) as usize,
                file_size_bytes: limits.file_size_kb << 10,
                open_files: 64,
                processes: limits.processes,
            },
            compile_timeout: Duration::from_secs_f64(limits.compile_timeout),
            sleep_budget: Duration::from_secs_f64(limits.sleep_seconds),
            jobs: jobs
                .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get())),
        }
    }

    /// Sanitizer builds: their shadow memory needs the address-space limit lifted. What the
    /// run really holds is limited where runs get a cgroup: the memory limit twice over (the
    /// sanitizer's red zones and shadow) and 512 MiB more (its quarantine of freed memory).
    pub fn with_sanitizers(mut self) -> Self {
        self.sanitize = true;
        self.limits.memory_bytes = None;
        self.limits.run_memory_bytes = self
            .limits
            .run_memory_bytes
            .map(|bytes| 2 * bytes + (512 << 20));
        self
    }
}

/// What one grading run shares: the compiler, the sandbox, the build cache and the settings.
pub struct Grader<'a> {
    pub compiler: &'a Compiler,
    pub sandbox: &'a Sandbox,
    pub cache: Option<&'a BuildCache>,
    pub settings: &'a Settings,
}
