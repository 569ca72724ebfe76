//! Runs one untrusted program: its own session (killed as a whole), resource limits, a
//! CPU-time limit with a wall-clock backstop, capped output, a cleared environment and a
//! fresh working directory; and, where the kernel allows, new mount, PID, network and IPC
//! namespaces on a minimal root file system, and (as root) a uid of its own. The compiler
//! runs on the same minimal root (`run_tool`).

use std::io::{Read, Write};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex, Once};
use std::thread;
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

mod interrupt;
mod network;
mod request;
mod supervise;

pub use interrupt::{interrupted, wait_for_interrupt_exit};
pub use request::{RunLimits, RunOutcome, RunRequest, Termination, TimeLimit};

use interrupt::{
    handle_interrupts, register_live, unregister_live, INTERRUPTED, LIVE_RUNS, LIVE_SCRATCH,
};
use network::NetworkNamespace;
use supervise::{execute, kill_group};

/// A host folder seen at the same place inside an isolated run of a tool.
#[derive(Debug, Clone)]
pub struct Bind {
    pub path: PathBuf,
    pub writable: bool,
}

/// What an isolated run sees of the host beyond the minimal root.
struct Inside<'a> {
    /// Copied into the run's /tmp as `INSIDE_PROGRAM`, and run from there.
    program: Option<&'a Path>,
    workdir: &'a Path,
    binds: &'a [Bind],
    tmp_size: u64,
    /// Run as referee's own user (a trusted tool), not a uid of its own.
    own_uid: bool,
    clock: Clock,
}

/// What a run's time limit (`RunLimits::timeout`) measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Clock {
    /// The program's CPU time (untrusted programs): the same whatever the machine's load.
    /// The wall clock is only a backstop, `WALL_BACKSTOP_FACTOR` x the limit + 1 s, which
    /// only a sleeping or blocked program meets. `RunOutcome::elapsed` is CPU time.
    Cpu,
    /// The wall clock (the compiler).
    Wall,
}

const WALL_BACKSTOP_FACTOR: u32 = 3;

/// The `PATH` of every run (the compiler finds its linker there).
pub const TOOL_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

/// The wall-clock limit of a run whose time limit is `limit` on `clock`.
pub fn wall_limit(limit: Duration, cpu_clock: bool) -> Duration {
    if cpu_clock {
        limit * WALL_BACKSTOP_FACTOR + Duration::from_secs(1)
    } else {
        limit
    }
}

/// How much a run is isolated beyond the basic limits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Isolation {
    /// Namespaces, and a uid of its own per run (referee runs as root).
    SeparateUser,
    /// Namespaces inside a user namespace, as the invoking user.
    UserNamespace,
    /// Session, limits and a fresh directory only; the reason namespaces are unavailable.
    Basic(String),
}

/// Uids handed to runs when referee is root: blocks of `UIDS_PER_BLOCK` from
/// `FIRST_RUN_UID`, far from real accounts; each referee process holds its own block.
const FIRST_RUN_UID: u32 = 100_000;
const UIDS_PER_BLOCK: u32 = 4096;
const UID_BLOCKS: u32 = 1000;
/// How long to wait for output pipes after the process group is gone (a descendant that
/// escaped the group may hold them open).
const DRAIN_GRACE: Duration = Duration::from_millis(500);
/// Where the run directory appears inside the namespace (also the program's HOME).
const INSIDE_DIR: &str = "/tmp";
const INSIDE_PROGRAM: &str = "/tmp/program";

/// Runs untrusted programs. Owns referee's scratch folder (builds and run directories),
/// removed when the sandbox is dropped; folders left by a referee that died are swept at
/// start.
pub struct Sandbox {
    isolation: Isolation,
    scratch: tempfile::TempDir,
    /// Folders covered by an empty read-only file system inside each run.
    hidden: Vec<PathBuf>,
    free_uids: Mutex<Vec<u32>>,
    /// Holds this process's uid block (an exclusive lock, released when the process ends).
    _uid_block_lock: Option<std::fs::File>,
    /// Process limit for user-namespace runs, which count against the invoking user.
    user_processes: u64,
    /// The launcher (`launcher.c`), written into the scratch folder.
    launcher: PathBuf,
    /// An empty folder in the scratch folder, on which each isolated run builds its root.
    new_root: PathBuf,
    /// Objects compiled once per referee process (runtime, harness), seen by every compile.
    shared: PathBuf,
    /// Marks the launcher's own error messages (random per sandbox).
    token: String,
    /// Empty network namespaces not lent to a run right now.
    idle_networks: Mutex<Vec<NetworkNamespace>>,
    /// Untrusted runs started so far (`run`).
    runs: AtomicUsize,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        unregister_live(&LIVE_SCRATCH, &self.scratch.path().to_path_buf());
    }
}

/// The launcher built by build.rs: started for every run with posix_spawn, it sets up the
/// process group, namespaces, limits and uid and execs the program (see `launcher.c`).
const LAUNCHER: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/launcher"));
/// The launcher's exit status when the set-up failed before the exec.
const LAUNCH_FAILED: i32 = 125;

impl Sandbox {
    /// Probes what isolation the kernel allows; `hidden` are folders a program must not see
    /// (the project, with its cases and references).
    pub fn new(hidden: Vec<PathBuf>) -> std::io::Result<Self> {
        sweep_stale_scratch();
        handle_interrupts();
        let scratch = tempfile::Builder::new()
            .prefix(&format!("referee-{}-", std::process::id()))
            .tempdir()?;
        register_live(&LIVE_SCRATCH, scratch.path().to_path_buf());
        let mut hidden = hidden;
        hidden.push(scratch.path().to_path_buf());
        let launcher = scratch.path().join("launcher");
        {
            use std::os::unix::fs::OpenOptionsExt;
            let mut file = std::fs::OpenOptions::new()
                .write(true)
                .create_new(true)
                .mode(0o755)
                .open(&launcher)?;
            file.write_all(LAUNCHER)?;
        }
        let new_root = scratch.path().join("root");
        std::fs::create_dir(&new_root)?;
        let shared = scratch.path().join("shared");
        std::fs::create_dir(&shared)?;
        // SAFETY: geteuid has no preconditions.
        let root = unsafe { libc::geteuid() } == 0;
        let (first_uid, lock) = if root {
            claim_uid_block()?
        } else {
            (FIRST_RUN_UID, None)
        };
        let mut sandbox = Sandbox {
            isolation: if root {
                Isolation::SeparateUser
            } else {
                Isolation::UserNamespace
            },
            scratch,
            hidden,
            free_uids: Mutex::new((0..UIDS_PER_BLOCK).rev().map(|i| first_uid + i).collect()),
            _uid_block_lock: lock,
            user_processes: count_user_processes() + 256,
            launcher,
            new_root,
            shared,
            token: random_token()?,
            idle_networks: Mutex::new(Vec::new()),
            runs: AtomicUsize::new(0),
        };
        if let Err(reason) = sandbox.probe() {
            sandbox.isolation = Isolation::Basic(reason);
        }
        Ok(sandbox)
    }

    /// A sandbox without namespaces (for tests of the basic limits).
    pub fn basic() -> std::io::Result<Self> {
        let mut sandbox = Self::new(Vec::new())?;
        sandbox.isolation = Isolation::Basic("namespaces not requested".into());
        Ok(sandbox)
    }

    /// Where builds and runs keep their files.
    pub fn scratch(&self) -> &Path {
        self.scratch.path()
    }

    /// Where objects shared by every build are kept.
    pub fn shared(&self) -> &Path {
        &self.shared
    }

    pub fn isolation(&self) -> &Isolation {
        &self.isolation
    }

    /// One line for reports.
    pub fn describe(&self) -> String {
        match &self.isolation {
            Isolation::SeparateUser => "namespaces (no network, minimal root, own processes, private /tmp), a separate uid per run, CPU-time and resource limits".into(),
            Isolation::UserNamespace => "user namespace (no network, minimal root, own processes, private /tmp), CPU-time and resource limits; runs share your uid".into(),
            Isolation::Basic(reason) => format!(
                "basic only (session, resource limits, fresh directory): namespaces unavailable: {reason}"
            ),
        }
    }

    fn probe(&self) -> Result<(), String> {
        let limits = RunLimits {
            timeout: Duration::from_secs(10),
            cpu_seconds: 5,
            memory_bytes: Some(256 << 20),
            output_bytes: 1024,
            file_size_bytes: 1 << 20,
            open_files: 64,
            processes: 16,
        };
        let outcome = self
            .run(&RunRequest {
                program: Path::new("/bin/true"),
                args: &[],
                stdin: b"",
                env: &[],
                limits: &limits,
                silence: None,
            })
            .map_err(|e| e.to_string())?;
        match outcome.termination {
            Termination::Exited(0) => Ok(()),
            other => Err(format!("a test run ended with {other:?}")),
        }
    }

    /// How many untrusted programs `run` has started (each with its own set-up and limits).
    pub fn runs(&self) -> usize {
        self.runs.load(Ordering::Relaxed)
    }

    /// Runs an untrusted program in a fresh directory, removed afterwards.
    pub fn run(&self, request: &RunRequest) -> std::io::Result<RunOutcome> {
        self.runs.fetch_add(1, Ordering::Relaxed);
        match &self.isolation {
            Isolation::Basic(_) => {
                let run_dir = tempfile::Builder::new()
                    .prefix("run-")
                    .tempdir_in(self.scratch.path())?;
                self.run_in(request, run_dir.path(), Clock::Cpu)
            }
            Isolation::SeparateUser | Isolation::UserNamespace => {
                let outcome = self.run_isolated(request)?;
                self.launched(outcome)
            }
        }
    }

    /// A session and the limits only, in `cwd`, as referee's own user: the compiler and
    /// other trusted tools, and runs when namespaces are unavailable.
    pub fn run_plain(&self, request: &RunRequest, cwd: &Path) -> std::io::Result<RunOutcome> {
        self.run_in(request, cwd, Clock::Wall)
    }

    fn run_in(
        &self,
        request: &RunRequest,
        cwd: &Path,
        clock: Clock,
    ) -> std::io::Result<RunOutcome> {
        let mut command = self.launch(request.limits, request.limits.processes, clock);
        command
            .current_dir(cwd)
            .arg("--")
            .arg(request.program)
            .args(request.args);
        let outcome = execute(command, request, cwd, clock)?;
        self.launched(outcome)
    }

    /// Kills every process running as `uid` (those that left the run's session too): the
    /// launcher becomes that uid and signals all its processes.
    fn kill_every_process_of(&self, uid: u32) {
        let _ = Command::new(&self.launcher)
            .arg(&self.token)
            .arg("sweep")
            .arg(uid.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }

    /// The launcher with the run's resource limits.
    fn launch(&self, limits: &RunLimits, processes: u64, clock: Clock) -> Command {
        let mut command = Command::new(&self.launcher);
        command.arg(&self.token).arg("run");
        command.args(["--parent", &std::process::id().to_string()]);
        if clock == Clock::Cpu {
            let millis = u64::try_from(limits.timeout.as_millis()).unwrap_or(u64::MAX);
            command.args(["--cpu-ms", &millis.max(1).to_string()]);
        }
        let mut limit = |option: &str, value: u64| {
            command.arg(option).arg(value.to_string());
        };
        limit("--cpu", limits.cpu_seconds);
        if let Some(bytes) = limits.memory_bytes {
            limit("--as", bytes);
        }
        limit("--fsize", limits.file_size_bytes);
        limit("--nofile", limits.open_files);
        limit("--nproc", processes);
        command
    }

    /// A run whose set-up failed in the launcher is referee's failure, not the program's.
    fn launched(&self, outcome: RunOutcome) -> std::io::Result<RunOutcome> {
        let marker = format!("{} ", self.token);
        if outcome.termination != Termination::Exited(LAUNCH_FAILED) {
            return Ok(outcome);
        }
        match String::from_utf8_lossy(&outcome.stderr).strip_prefix(&marker) {
            Some(reason) => Err(std::io::Error::other(format!(
                "the sandbox could not start the run: {}",
                reason.trim_end()
            ))),
            None => Ok(outcome),
        }
    }

    /// A run in namespaces: its working folder is a new tmpfs on /tmp holding a copy of the
    /// program (made by the launcher; nothing on disk to create or remove).
    fn run_isolated(&self, request: &RunRequest) -> std::io::Result<RunOutcome> {
        let program = std::fs::canonicalize(request.program)?;
        let program_bytes = std::fs::metadata(&program)?.len();
        // Room for the program, and for files up to the file-size limit.
        let tmp_size = (program_bytes + request.limits.file_size_bytes + (1 << 20)).max(1 << 22);
        self.isolated(
            request,
            &Inside {
                program: Some(&program),
                workdir: Path::new(INSIDE_DIR),
                binds: &[],
                tmp_size,
                own_uid: false,
                clock: Clock::Cpu,
            },
        )
    }

    /// Runs a trusted tool (the compiler) on untrusted input, as referee's own user: in the
    /// minimal root with only `binds` of the host besides the system folders, where the
    /// kernel allows it; otherwise as `run_plain` does, in `workdir`.
    pub fn run_tool(
        &self,
        request: &RunRequest,
        workdir: &Path,
        binds: &[Bind],
    ) -> std::io::Result<RunOutcome> {
        if let Isolation::Basic(_) = self.isolation {
            return self.run_plain(request, workdir);
        }
        let mut binds = binds.to_vec();
        binds.extend(tool_prefix(request.program).map(|path| Bind {
            path,
            writable: false,
        }));
        let binds = &binds[..];
        let outcome = self.isolated(
            request,
            &Inside {
                program: None,
                workdir,
                binds,
                tmp_size: request.limits.file_size_bytes + (1 << 20),
                own_uid: true,
                clock: Clock::Wall,
            },
        )?;
        self.launched(outcome)
    }

    /// A run in new namespaces (mount, PID, IPC, network; user without root) on the minimal
    /// root the launcher builds.
    fn isolated(&self, request: &RunRequest, inside: &Inside) -> std::io::Result<RunOutcome> {
        let separate = self.isolation == Isolation::SeparateUser;
        let network = self.lend_network()?;
        let uid = if separate && !inside.own_uid {
            let taken = self.free_uids.lock().map(|mut free| free.pop());
            let uid = taken.ok().flatten().ok_or_else(|| {
                std::io::Error::other("no free uid for the run (too many runs at once)")
            })?;
            Some(uid)
        } else {
            None
        };
        let processes = if uid.is_some() {
            request.limits.processes
        } else {
            self.user_processes
        };
        // SAFETY: geteuid/getegid have no preconditions.
        let (own_uid, own_gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let mut command = self.launch(request.limits, processes, inside.clock);
        command.current_dir(self.scratch.path());
        command.arg("--root").arg(&self.new_root);
        if let Some(program) = inside.program {
            command.arg("--program").arg(program);
        }
        command.arg("--workdir").arg(inside.workdir);
        command.args(["--tmp-size", &inside.tmp_size.to_string()]);
        // A run's own uid is its gid too; in a user namespace the user's own ids are 0 (the
        // only ids it maps).
        let (tmp_owner, tmp_group) = match (separate, uid) {
            (true, Some(uid)) => (uid, uid),
            (true, None) => (own_uid, own_gid),
            (false, _) => (0, 0),
        };
        command.args(["--tmp-owner", &tmp_owner.to_string()]);
        command.args(["--tmp-group", &tmp_group.to_string()]);
        if let Some(bytes) = request.limits.memory_bytes {
            command.args(["--shm", &bytes.to_string()]);
        }
        for bind in inside.binds {
            let option = if bind.writable { "--bind-rw" } else { "--bind" };
            command.arg(option).arg(&bind.path);
        }
        // A bound folder stays visible even inside a hidden one.
        for folder in self.hidden.iter().filter(|folder| {
            !inside
                .binds
                .iter()
                .any(|bind| bind.path.starts_with(folder) || folder.starts_with(&bind.path))
        }) {
            command.arg("--hide").arg(folder);
        }
        if let Some(user) = &network.user {
            command.arg("--userns").arg(user);
        }
        command.arg("--netns").arg(&network.path);
        match (separate, uid) {
            (true, Some(uid)) => {
                command.args(["--isolate", "separate", "--uid", &uid.to_string()]);
            }
            (true, None) => {
                command.args(["--isolate", "separate"]);
            }
            (false, _) => {
                command.args(["--isolate", "user"]);
            }
        }
        command.arg("--");
        match inside.program {
            Some(_) => command.arg(INSIDE_PROGRAM),
            None => command.arg(request.program),
        };
        command.args(request.args);
        let outcome = execute(command, request, inside.workdir, inside.clock);
        // The namespace's init reaped every process of the run before the launcher ended by
        // itself; a launcher that referee killed leaves that to the kernel, so the sweep
        // makes sure before the uid and the network namespace are lent again.
        let ended_by_itself = outcome.as_ref().is_ok_and(|outcome| {
            matches!(
                outcome.termination,
                Termination::Exited(_) | Termination::Signaled(_)
            )
        });
        if let Some(uid) = uid {
            if !ended_by_itself {
                self.kill_every_process_of(uid);
            }
            self.return_uid(uid);
        }
        self.return_network(network, ended_by_itself);
        outcome
    }

    fn return_uid(&self, uid: u32) {
        if let Ok(mut free) = self.free_uids.lock() {
            free.push(uid);
        }
    }
}

/// The folder a tool installed outside the system folders lives in (the parent of its `bin`),
/// which its run must see; `None` for a tool in the system folders or found in `PATH`.
pub fn tool_prefix(program: &Path) -> Option<PathBuf> {
    if !program.is_absolute() {
        return None;
    }
    let real = std::fs::canonicalize(program).ok()?;
    let system = [
        "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
    ];
    if system.iter().any(|folder| real.starts_with(folder)) {
        return None;
    }
    Some(real.parent()?.parent()?.to_path_buf())
}

/// Claims a block of run uids no other referee process holds: the first block whose lock
/// file this process can lock exclusively, starting from one derived from the pid.
fn claim_uid_block() -> std::io::Result<(u32, Option<std::fs::File>)> {
    use std::os::fd::AsRawFd;
    // One folder for every referee process whatever its TMPDIR, or two could take one block.
    let dir = Path::new("/tmp/referee-uid-blocks");
    std::fs::create_dir_all(dir)?;
    let start = std::process::id() % UID_BLOCKS;
    for offset in 0..UID_BLOCKS {
        let block = (start + offset) % UID_BLOCKS;
        let file = std::fs::OpenOptions::new()
            .create(true)
            .truncate(false)
            .write(true)
            .open(dir.join(format!("{block}.lock")))?;
        // SAFETY: flock on a descriptor this function owns.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) } == 0 {
            return Ok((FIRST_RUN_UID + block * UIDS_PER_BLOCK, Some(file)));
        }
    }
    Err(std::io::Error::other(
        "every block of run uids is held by another referee process",
    ))
}

/// Processes of the invoking user now (a user-namespace run's process limit counts them).
fn count_user_processes() -> u64 {
    // SAFETY: getuid has no preconditions.
    let uid = unsafe { libc::getuid() };
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .bytes()
                .all(|b| b.is_ascii_digit())
        })
        .filter(|e| {
            use std::os::unix::fs::MetadataExt;
            e.metadata().is_ok_and(|m| m.uid() == uid)
        })
        .count() as u64
}

/// 16 random bytes in hex, from the kernel.
fn random_token() -> std::io::Result<String> {
    let mut bytes = [0u8; 16];
    // SAFETY: getrandom writes at most `bytes.len()` bytes into the buffer we own.
    let got = unsafe { libc::getrandom(bytes.as_mut_ptr().cast(), bytes.len(), 0) };
    if got != bytes.len() as isize {
        return Err(std::io::Error::other(
            "no random bytes for the sandbox token",
        ));
    }
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Removes scratch folders of referee processes that no longer exist (killed, crashed).
fn sweep_stale_scratch() {
    let Ok(entries) = std::fs::read_dir(std::env::temp_dir()) else {
        return;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name().to_string_lossy().into_owned();
        let Some(pid) = name
            .strip_prefix("referee-")
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok())
        else {
            continue;
        };
        if !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// "Segmentation fault (SIGSEGV)" and the like.
pub fn signal_name(signal: i32) -> String {
    let (name, meaning) = match signal {
        libc::SIGSEGV => ("SIGSEGV", "Segmentation fault"),
        libc::SIGABRT => ("SIGABRT", "Aborted (assert or abort())"),
        libc::SIGFPE => ("SIGFPE", "Arithmetic error (e.g. division by zero)"),
        libc::SIGBUS => ("SIGBUS", "Bus error"),
        libc::SIGILL => ("SIGILL", "Illegal instruction"),
        libc::SIGKILL => ("SIGKILL", "Killed"),
        libc::SIGXCPU => ("SIGXCPU", "CPU time limit exceeded"),
        libc::SIGXFSZ => ("SIGXFSZ", "File size limit exceeded"),
        libc::SIGPIPE => ("SIGPIPE", "Broken pipe"),
        libc::SIGTERM => ("SIGTERM", "Terminated"),
        _ => return format!("killed by signal {signal}"),
    };
    format!("{meaning} ({name})")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limits() -> RunLimits {
        RunLimits {
            timeout: Duration::from_secs(2),
            cpu_seconds: 2,
            memory_bytes: Some(512 << 20),
            output_bytes: 1 << 16,
            file_size_bytes: 1 << 20,
            open_files: 64,
            processes: 64,
        }
    }

    fn sh(sandbox: &Sandbox, script: &str, stdin: &str, limits: &RunLimits) -> RunOutcome {
        let args = vec!["-c".to_string(), script.to_string()];
        sandbox
            .run(&RunRequest {
                program: Path::new("/bin/sh"),
                args: &args,
                stdin: stdin.as_bytes(),
                env: &[],
                limits,
                silence: None,
            })
            .expect("sh runs")
    }

    fn sandboxes() -> Vec<Sandbox> {
        vec![
            Sandbox::basic().expect("basic sandbox"),
            Sandbox::new(Vec::new()).expect("sandbox"),
        ]
    }

    #[test]
    fn output_and_exit_code_are_captured() {
        for sandbox in sandboxes() {
            let out = sh(&sandbox, "cat; echo err >&2; exit 3", "hello\n", &limits());
            assert_eq!(out.stdout, b"hello\n");
            assert_eq!(out.stderr, b"err\n");
            assert_eq!(out.termination, Termination::Exited(3));
        }
    }

    #[test]
    fn a_program_that_sleeps_is_stopped_at_the_timeout() {
        let mut limits = limits();
        limits.timeout = Duration::from_millis(200);
        for sandbox in sandboxes() {
            let out = sh(&sandbox, "echo before; sleep 30", "", &limits);
            assert_eq!(out.termination, Termination::Timeout(TimeLimit::Wall));
            assert_eq!(out.stdout, b"before\n");
            assert!(out.elapsed < Duration::from_secs(5));
        }
    }

    #[test]
    fn a_busy_program_is_stopped_at_its_cpu_time_limit() {
        let mut limits = limits();
        limits.timeout = Duration::from_millis(200);
        for sandbox in sandboxes() {
            let out = sh(&sandbox, "echo before; while :; do :; done", "", &limits);
            assert_eq!(out.termination, Termination::Timeout(TimeLimit::Cpu));
            assert_eq!(out.stdout, b"before\n");
        }
    }

    #[test]
    fn endless_output_is_cut_at_the_cap() {
        for sandbox in sandboxes() {
            let out = sh(&sandbox, "yes", "", &limits());
            assert_eq!(out.termination, Termination::OutputLimit);
            assert_eq!(out.stdout.len(), 1 << 16);
        }
    }

    #[test]
    fn the_environment_is_cleared() {
        std::env::set_var("REFEREE_SECRET_TEST", "leak");
        for sandbox in sandboxes() {
            let out = sh(&sandbox, "echo \"[$REFEREE_SECRET_TEST]\"", "", &limits());
            assert_eq!(out.stdout, b"[]\n");
        }
    }

    #[test]
    fn abort_is_reported_as_sigabrt() {
        for sandbox in sandboxes() {
            let out = sh(&sandbox, "kill -ABRT $$", "", &limits());
            assert_eq!(out.termination, Termination::Signaled(libc::SIGABRT));
        }
    }

    #[test]
    fn an_isolated_run_sees_only_its_own_processes_and_not_its_launchers_arguments() {
        let sandbox = Sandbox::new(Vec::new()).expect("sandbox");
        // ls alone lists /proc: in a pipe, the shell might start grep before or after ls
        // has read it.
        let script = "echo $$; ls /proc > /tmp/listed; grep -c '^[0-9]' /tmp/listed; \
                      tr -d '\\000' < /proc/1/cmdline | wc -c";
        let out = sh(&sandbox, script, "", &limits());
        // The init (1), this shell (2) and ls.
        assert_eq!(String::from_utf8_lossy(&out.stdout), "2\n3\n0\n");
    }

    #[test]
    fn isolated_runs_see_their_own_tmp_and_not_the_hidden_folders() {
        let hidden = tempfile::tempdir().expect("tempdir");
        std::fs::write(hidden.path().join("secret.txt"), "expected output").expect("write");
        let sandbox = Sandbox::new(vec![hidden.path().to_path_buf()]).expect("sandbox");
        if let Isolation::Basic(reason) = sandbox.isolation() {
            panic!("namespaces are expected on this machine: {reason}");
        }
        let script = format!(
            "pwd; ls /tmp; cat {}/secret.txt 2>/dev/null || echo hidden; echo x > /tmp/mine && echo wrote",
            hidden.path().display()
        );
        let out = sh(&sandbox, &script, "", &limits());
        assert_eq!(
            String::from_utf8_lossy(&out.stdout),
            "/tmp\nprogram\nhidden\nwrote\n"
        );
    }
}
