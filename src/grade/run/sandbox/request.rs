//! What a sandboxed run is asked to do (`RunRequest`, `RunLimits`) and how it ended
//! (`RunOutcome`, `Termination`).

use std::path::Path;
use std::time::Duration;

/// Limits for one run.
#[derive(Debug, Clone)]
pub struct RunLimits {
    /// The time limit: CPU time for an untrusted program (`Sandbox::run`, whose wall clock
    /// gets 3 x this + 1 s as a backstop), wall-clock time for a tool (the compiler).
    pub timeout: Duration,
    pub cpu_seconds: u64,
    /// Address space of each process; `None` for no limit (sanitizer builds reserve
    /// terabytes of it).
    pub memory_bytes: Option<u64>,
    /// Memory of the whole run, every process, tmpfs file and shared memory segment of it
    /// together, where runs get a cgroup (see `cgroup`); `None` for no limit.
    pub run_memory_bytes: Option<u64>,
    /// Bytes kept of stdout, and separately of stderr; more stops the program.
    pub output_bytes: usize,
    pub file_size_bytes: u64,
    pub open_files: u64,
    pub processes: u64,
}

/// How a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Termination {
    Exited(i32),
    Signaled(i32),
    Timeout(TimeLimit),
    OutputLimit,
    /// Killed by the kernel for going over the run's memory limit (`run_memory_bytes`).
    MemoryLimit,
}

/// Which limit stopped a run that ran out of time.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeLimit {
    /// The program's CPU time: as repeatable as any other ending, since load does not
    /// change it.
    Cpu,
    /// The wall clock: a tool's own limit, or the backstop of an untrusted program, which
    /// only one that sleeps, is blocked or does not get the CPU meets.
    Wall,
}

impl Termination {
    pub fn is_timeout(&self) -> bool {
        matches!(self, Termination::Timeout(_))
    }
}

#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub termination: Termination,
    /// CPU time for untrusted programs (`Sandbox::run`), wall-clock time for tools.
    pub elapsed: Duration,
    /// Wall-clock time the program spent neither running nor waiting for a CPU (it slept,
    /// or waited for something that was not the CPU): what load does not change.
    pub slept: Duration,
    /// The kernel killed a process of the run at the run's memory limit (a batch's case, or
    /// a child, when the run itself went on).
    pub memory_limit_hit: bool,
}

/// What to run.
pub struct RunRequest<'a> {
    pub program: &'a Path,
    pub args: &'a [String],
    pub stdin: &'a [u8],
    /// Variables set on top of the fixed minimum (`PATH`, `LC_ALL=C`, `HOME`).
    pub env: &'a [(String, String)],
    pub limits: &'a RunLimits,
    /// Stop the program (as a timeout) when its stdout stays silent this long: a batch
    /// prints a record per case, so a stopped or stalled batch is cut short instead of
    /// holding its whole time limit.
    pub silence: Option<Duration>,
}
