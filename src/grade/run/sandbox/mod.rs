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

mod cgroup;
mod interrupt;
mod network;
mod request;
mod supervise;

pub use interrupt::{interrupted, wait_for_interrupt_exit};
pub use request::{RunLimits, RunOutcome, RunRequest, Termination, TimeLimit};

use cgroup::{Cgroups, RunCgroup};
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
    /// referee runs as root: each build and run gets a uid of its own.
    root: bool,
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
    /// Objects compiled by referee itself (runtime, harnesses), read-only to every build.
    shared: PathBuf,
    /// Marks the launcher's own error messages (random per sandbox).
    token: String,
    /// Empty network namespaces not lent to a run right now.
    idle_networks: Mutex<Vec<NetworkNamespace>>,
    /// Where runs get a cgroup, or why they do not.
    cgroups: Result<Cgroups, String>,
    /// Hidden folders a program could still read (without namespaces), found at start.
    readable_to_runs: Vec<PathBuf>,
    /// Untrusted runs started so far (`run`).
    runs: AtomicUsize,
}

impl Drop for Sandbox {
    fn drop(&mut self) {
        if let Ok(cgroups) = &self.cgroups {
            cgroups.remove();
        }
        unregister_live(&LIVE_SCRATCH, &self.scratch.path().to_path_buf());
    }
}

/// The launcher built by build.rs: started for every run with posix_spawn, it sets up the
/// process group, namespaces, limits and uid and execs the program (see `launcher.c`).
const LAUNCHER: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/launcher"));
/// The launcher's exit status when the set-up failed before the exec.
const LAUNCH_FAILED: i32 = 125;
/// Where a run's program is copied when it runs without namespaces as a uid of its own,
/// which cannot reach the build folders.
const BASIC_PROGRAM: &str = "program";

/// A uid lent to one build or run (referee runs as root), returned when dropped.
pub struct LentUid<'a> {
    sandbox: &'a Sandbox,
    uid: u32,
}

impl LentUid<'_> {
    pub fn uid(&self) -> u32 {
        self.uid
    }
}

impl Drop for LentUid<'_> {
    fn drop(&mut self) {
        if let Ok(mut free) = self.sandbox.free_uids.lock() {
            free.push(self.uid);
        }
    }
}

/// How a run is carried out beyond its request: as which uid, in which cgroup, how its time
/// limit is measured, and where the launcher writes what it used.
struct Launch<'a> {
    uid: Option<u32>,
    cgroup: Option<&'a RunCgroup>,
    clock: Clock,
    report: &'a Path,
}

impl Sandbox {
    /// Probes what isolation the kernel allows; `hidden` are folders a program must not see
    /// (the project, with its cases and references).
    pub fn new(hidden: Vec<PathBuf>) -> std::io::Result<Self> {
        Self::set_up(hidden, true)
    }

    /// A sandbox that does not use namespaces even where the kernel allows them: what runs
    /// get in a locked-down container (Gradescope's), to try that mode anywhere.
    pub fn without_namespaces(hidden: Vec<PathBuf>) -> std::io::Result<Self> {
        Self::set_up(hidden, false)
    }

    fn set_up(hidden: Vec<PathBuf>, namespaces: bool) -> std::io::Result<Self> {
        sweep_stale_scratch();
        cgroup::sweep_stale();
        handle_interrupts();
        let scratch = tempfile::Builder::new()
            .prefix(&format!("referee-{}-", std::process::id()))
            .tempdir()?;
        register_live(&LIVE_SCRATCH, scratch.path().to_path_buf());
        {
            // Traversable but not listable: a run as another uid without namespaces reaches
            // only its own folder, whose name it is given.
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(scratch.path(), std::fs::Permissions::from_mode(0o711))?;
        }
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
        let shared = scratch.path().join("objects");
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
            root,
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
            cgroups: Cgroups::set_up(),
            readable_to_runs: Vec::new(),
            runs: AtomicUsize::new(0),
        };
        if !namespaces {
            sandbox.isolation = Isolation::Basic("namespaces not requested".into());
        } else if let Err(reason) = sandbox.probe() {
            sandbox.isolation = Isolation::Basic(reason);
        }
        if matches!(sandbox.isolation, Isolation::Basic(_)) {
            sandbox.readable_to_runs = sandbox.hidden_folders_readable_to_runs();
        }
        Ok(sandbox)
    }

    /// A sandbox without namespaces and nothing hidden (for tests of the basic limits).
    pub fn basic() -> std::io::Result<Self> {
        Self::without_namespaces(Vec::new())
    }

    /// Where builds and runs keep their files.
    pub fn scratch(&self) -> &Path {
        self.scratch.path()
    }

    /// Where referee keeps the objects it compiles itself.
    pub fn shared(&self) -> &Path {
        &self.shared
    }

    pub fn isolation(&self) -> &Isolation {
        &self.isolation
    }

    /// Whether runs get a cgroup (memory, processes and CPU time of the whole run counted).
    pub fn has_cgroups(&self) -> bool {
        self.cgroups.is_ok()
    }

    /// What a run's outcome depends on besides its binary, input and limits: the sandbox as
    /// described and the launcher that builds it (a changed launcher makes every kept run
    /// stale).
    pub fn run_identity(&self) -> String {
        static LAUNCHER_DIGEST: std::sync::OnceLock<String> = std::sync::OnceLock::new();
        let launcher = LAUNCHER_DIGEST.get_or_init(|| crate::grade::digest::key(&[LAUNCHER]));
        format!("{}\nlauncher {launcher}", self.describe())
    }

    /// One line for reports.
    pub fn describe(&self) -> String {
        let base = match &self.isolation {
            Isolation::SeparateUser => "namespaces (no network, minimal root, own processes, private /tmp), a separate uid per build and run, CPU-time and resource limits".to_string(),
            Isolation::UserNamespace => "user namespace (no network, minimal root, own processes, private /tmp), CPU-time and resource limits; runs share your uid".to_string(),
            Isolation::Basic(reason) => format!(
                "basic only (session, resource limits, fresh directory{}): namespaces unavailable: {reason}",
                if self.root { ", a separate uid per build and run" } else { "" }
            ),
        };
        let cgroups = match &self.cgroups {
            Ok(cgroups) => format!(
                "; {} per run (memory and processes of the whole run)",
                cgroups.describe()
            ),
            Err(_) => "; no cgroup (memory limited per process)".to_string(),
        };
        let readable = if self.readable_to_runs.is_empty() {
            String::new()
        } else {
            let folders: Vec<String> = self
                .readable_to_runs
                .iter()
                .map(|f| f.display().to_string())
                .collect();
            format!(
                "; WARNING: programs can read {} (make it unreadable to other users: chmod o-rwx)",
                folders.join(", ")
            )
        };
        format!("{base}{cgroups}{readable}")
    }

    fn probe(&self) -> Result<(), String> {
        let limits = RunLimits {
            timeout: Duration::from_secs(10),
            cpu_seconds: 5,
            memory_bytes: Some(256 << 20),
            run_memory_bytes: Some(256 << 20),
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

    /// The hidden folders (the project, the build cache) a program run as another uid can
    /// still list: without namespaces only file permissions keep them from it.
    fn hidden_folders_readable_to_runs(&self) -> Vec<PathBuf> {
        let folders: Vec<&PathBuf> = self
            .hidden
            .iter()
            .filter(|folder| folder.as_path() != self.scratch.path() && folder.exists())
            .collect();
        if folders.is_empty() {
            return Vec::new();
        }
        let mut args = vec![
            "-c".to_string(),
            "for folder; do ls \"$folder\" >/dev/null 2>&1 && echo \"$folder\"; done".to_string(),
            "sh".to_string(),
        ];
        args.extend(folders.iter().map(|f| f.to_string_lossy().into_owned()));
        let limits = RunLimits {
            timeout: Duration::from_secs(10),
            cpu_seconds: 5,
            memory_bytes: Some(256 << 20),
            run_memory_bytes: Some(256 << 20),
            output_bytes: 64 << 10,
            file_size_bytes: 1 << 20,
            open_files: 64,
            processes: 16,
        };
        let Ok(outcome) = self.run(&RunRequest {
            program: Path::new("/bin/sh"),
            args: &args,
            stdin: b"",
            env: &[],
            limits: &limits,
            silence: None,
        }) else {
            return Vec::new();
        };
        String::from_utf8_lossy(&outcome.stdout)
            .lines()
            .map(PathBuf::from)
            .collect()
    }

    /// How many untrusted programs `run` has started (each with its own set-up and limits).
    pub fn runs(&self) -> usize {
        self.runs.load(Ordering::Relaxed)
    }

    /// A uid of its own for one build or run, when referee runs as root (otherwise builds and
    /// runs share referee's uid, inside a user namespace when there are namespaces).
    pub fn lend_uid(&self) -> std::io::Result<Option<LentUid<'_>>> {
        if !self.root {
            return Ok(None);
        }
        let taken = self.free_uids.lock().map(|mut free| free.pop());
        let uid = taken.ok().flatten().ok_or_else(|| {
            std::io::Error::other("no free uid for the run (too many runs at once)")
        })?;
        Ok(Some(LentUid { sandbox: self, uid }))
    }

    /// Runs an untrusted program in a fresh directory, removed afterwards.
    pub fn run(&self, request: &RunRequest) -> std::io::Result<RunOutcome> {
        self.runs.fetch_add(1, Ordering::Relaxed);
        let uid = self.lend_uid()?;
        let uid = uid.as_ref().map(LentUid::uid);
        match &self.isolation {
            Isolation::Basic(_) => self.run_basic(request, uid),
            Isolation::SeparateUser | Isolation::UserNamespace => self.run_isolated(request, uid),
        }
    }

    /// A run without namespaces, in a fresh folder of the scratch folder; as a uid of its own
    /// (root), from a copy of the program in that folder, the only one it can reach.
    fn run_basic(&self, request: &RunRequest, uid: Option<u32>) -> std::io::Result<RunOutcome> {
        let run_dir = tempfile::Builder::new()
            .prefix("run-")
            .tempdir_in(self.scratch.path())?;
        let copied;
        let program = match uid {
            Some(uid) => {
                let copy = run_dir.path().join(BASIC_PROGRAM);
                std::fs::copy(request.program, &copy)?;
                std::os::unix::fs::chown(run_dir.path(), Some(uid), Some(uid))?;
                copied = PathBuf::from(format!("./{BASIC_PROGRAM}"));
                copied.as_path()
            }
            None => request.program,
        };
        let request = RunRequest {
            program,
            ..*request
        };
        self.with_cgroup(&request, Clock::Cpu, |launch| {
            let launch = Launch { uid, ..launch };
            self.run_in(&request, run_dir.path(), &launch)
        })
    }

    /// Runs `run` with a cgroup for the request's limits where runs get one, and a report
    /// file; the outcome carries what the launcher reported (CPU time of every process, time
    /// slept) and says whether the memory limit stopped it.
    fn with_cgroup(
        &self,
        request: &RunRequest,
        clock: Clock,
        run: impl FnOnce(Launch) -> std::io::Result<RunOutcome>,
    ) -> std::io::Result<RunOutcome> {
        let cgroup = match &self.cgroups {
            Ok(cgroups) => {
                Some(cgroups.run(request.limits.run_memory_bytes, request.limits.processes)?)
            }
            Err(_) => None,
        };
        let report = tempfile::Builder::new()
            .prefix("usage-")
            .tempfile_in(self.scratch.path())?
            .into_temp_path();
        let mut outcome = run(Launch {
            uid: None,
            cgroup: cgroup.as_ref(),
            clock,
            report: &report,
        })?;
        if let Some((cpu, slept)) = read_usage(&report) {
            if clock == Clock::Cpu {
                outcome.elapsed = cpu;
            }
            outcome.slept = slept;
        }
        outcome.memory_limit_hit = cgroup.as_ref().is_some_and(RunCgroup::memory_limit_hit);
        if outcome.memory_limit_hit && outcome.termination == Termination::Signaled(libc::SIGKILL) {
            outcome.termination = Termination::MemoryLimit;
        }
        Ok(outcome)
    }

    fn run_in(
        &self,
        request: &RunRequest,
        cwd: &Path,
        launch: &Launch,
    ) -> std::io::Result<RunOutcome> {
        let mut command = self.launch(request.limits, request.limits.processes, launch);
        command
            .current_dir(cwd)
            .arg("--")
            .arg(request.program)
            .args(request.args);
        let outcome = execute(command, request, cwd, launch.clock)?;
        if let Some(uid) = launch.uid {
            self.kill_every_process_of(uid);
        }
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

    /// The launcher with the run's resource limits, uid, cgroup and report file.
    fn launch(&self, limits: &RunLimits, processes: u64, launch: &Launch) -> Command {
        let mut command = Command::new(&self.launcher);
        command.arg(&self.token).arg("run");
        command.args(["--parent", &std::process::id().to_string()]);
        if launch.clock == Clock::Cpu {
            let millis = u64::try_from(limits.timeout.as_millis()).unwrap_or(u64::MAX);
            command.args(["--cpu-ms", &millis.max(1).to_string()]);
        }
        if let Some(cgroup) = launch.cgroup {
            for procs in cgroup.procs_files() {
                command.arg("--cgroup").arg(procs);
            }
            if matches!(self.isolation, Isolation::Basic(_)) {
                command.arg("--cpu-usage").arg(cgroup.cpu_usage_file());
            }
        }
        command.arg("--report").arg(launch.report);
        if let Some(uid) = launch.uid {
            command.args(["--uid", &uid.to_string()]);
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
    fn run_isolated(&self, request: &RunRequest, uid: Option<u32>) -> std::io::Result<RunOutcome> {
        let program = std::fs::canonicalize(request.program)?;
        let program_bytes = std::fs::metadata(&program)?.len();
        // Room for the program, and for files up to the file-size limit.
        let tmp_size = (program_bytes + request.limits.file_size_bytes + (1 << 20)).max(1 << 22);
        let outcome = self.with_cgroup(request, Clock::Cpu, |launch| {
            self.isolated(
                request,
                &Inside {
                    program: Some(&program),
                    workdir: Path::new(INSIDE_DIR),
                    binds: &[],
                    tmp_size,
                },
                &Launch { uid, ..launch },
            )
        })?;
        self.launched(outcome)
    }

    /// Runs a tool (the compiler, the linker) on untrusted input: as `uid` (the build's own,
    /// when referee is root) and like any run, with no capability and the seccomp filter; in
    /// the minimal root with only `binds` of the host besides the system folders, where the
    /// kernel allows it; otherwise in `workdir` as it is. Its time limit is the wall clock.
    pub fn run_tool(
        &self,
        request: &RunRequest,
        workdir: &Path,
        binds: &[Bind],
        uid: Option<u32>,
    ) -> std::io::Result<RunOutcome> {
        if let Isolation::Basic(_) = self.isolation {
            return self.with_cgroup(request, Clock::Wall, |launch| {
                self.run_in(request, workdir, &Launch { uid, ..launch })
            });
        }
        let mut binds = binds.to_vec();
        // A read-only folder over the build's own writable folders would hide them.
        let hides_writable = |folder: &Path| {
            workdir.starts_with(folder)
                || binds
                    .iter()
                    .any(|bind| bind.writable && bind.path.starts_with(folder))
        };
        let tool_folder = tool_prefix(request.program).and_then(|prefix| {
            if !hides_writable(&prefix) {
                return Some(prefix);
            }
            let own = std::fs::canonicalize(request.program)
                .ok()?
                .parent()?
                .to_path_buf();
            (!hides_writable(&own)).then_some(own)
        });
        binds.extend(tool_folder.map(|path| Bind {
            path,
            writable: false,
        }));
        let binds = &binds[..];
        let outcome = self.with_cgroup(request, Clock::Wall, |launch| {
            self.isolated(
                request,
                &Inside {
                    program: None,
                    workdir,
                    binds,
                    tmp_size: request.limits.file_size_bytes + (1 << 20),
                },
                &Launch { uid, ..launch },
            )
        })?;
        self.launched(outcome)
    }

    /// A run in new namespaces (mount, PID, IPC, network; user without root) on the minimal
    /// root the launcher builds.
    fn isolated(
        &self,
        request: &RunRequest,
        inside: &Inside,
        launch: &Launch,
    ) -> std::io::Result<RunOutcome> {
        let separate = self.isolation == Isolation::SeparateUser;
        let network = self.lend_network()?;
        let processes = if launch.uid.is_some() {
            request.limits.processes
        } else {
            self.user_processes
        };
        // SAFETY: geteuid/getegid have no preconditions.
        let (own_uid, own_gid) = unsafe { (libc::geteuid(), libc::getegid()) };
        let mut command = self.launch(request.limits, processes, launch);
        command.current_dir(self.scratch.path());
        command.arg("--root").arg(&self.new_root);
        if let Some(program) = inside.program {
            command.arg("--program").arg(program);
        }
        command.arg("--workdir").arg(inside.workdir);
        command.args(["--tmp-size", &inside.tmp_size.to_string()]);
        // A run's own uid is its gid too; in a user namespace the user's own ids are 0 (the
        // only ids it maps).
        let (tmp_owner, tmp_group) = match (separate, launch.uid) {
            (true, Some(uid)) => (uid, uid),
            (true, None) => (own_uid, own_gid),
            (false, _) => (0, 0),
        };
        command.args(["--tmp-owner", &tmp_owner.to_string()]);
        command.args(["--tmp-group", &tmp_group.to_string()]);
        if let Some(bytes) = request
            .limits
            .memory_bytes
            .or(request.limits.run_memory_bytes)
        {
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
        command.args(["--isolate", if separate { "separate" } else { "user" }]);
        command.arg("--");
        match inside.program {
            Some(_) => command.arg(INSIDE_PROGRAM),
            None => command.arg(request.program),
        };
        command.args(request.args);
        let outcome = execute(command, request, inside.workdir, launch.clock);
        // The namespace's init reaped every process of the run before the launcher ended by
        // itself; a launcher that referee killed leaves that to the kernel, so the sweep
        // makes sure before the uid and the network namespace are lent again.
        let ended_by_itself = outcome.as_ref().is_ok_and(|outcome| {
            matches!(
                outcome.termination,
                Termination::Exited(_) | Termination::Signaled(_)
            )
        });
        if let Some(uid) = launch.uid {
            if !ended_by_itself {
                self.kill_every_process_of(uid);
            }
        }
        self.return_network(network, ended_by_itself);
        outcome
    }
}

/// What the launcher's report file says: the run's CPU time and the time it slept.
fn read_usage(report: &Path) -> Option<(Duration, Duration)> {
    let text = std::fs::read_to_string(report).ok()?;
    let mut numbers = text.split_whitespace().map(|n| n.parse::<u64>().ok());
    let cpu = numbers.next()??;
    let slept = numbers.next()??;
    Some((Duration::from_nanos(cpu), Duration::from_nanos(slept)))
}

/// The folder a tool installed outside the system folders lives in (the parent of its `bin`,
/// or its own folder), which its run must see; `None` for a tool in the system folders or found in `PATH`.
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
    // A toolchain in `PREFIX/bin` needs its `PREFIX/lib` and `PREFIX/libexec`; a lone script
    // needs only its own folder (whose parent may hold the class).
    let folder = real.parent()?;
    if folder.file_name().is_some_and(|name| name == "bin") {
        Some(folder.parent()?.to_path_buf())
    } else {
        Some(folder.to_path_buf())
    }
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
            run_memory_bytes: Some(512 << 20),
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
    fn children_s_cpu_time_counts_against_the_run() {
        let mut limits = limits();
        limits.timeout = Duration::from_millis(300);
        for sandbox in sandboxes() {
            assert!(
                sandbox.has_cgroups() || !matches!(sandbox.isolation(), Isolation::Basic(_)),
                "without namespaces, only a cgroup counts children (the tests run as root)"
            );
            let out = sh(
                &sandbox,
                "(while :; do :; done) & (while :; do :; done) & wait",
                "",
                &limits,
            );
            assert_eq!(
                out.termination,
                Termination::Timeout(TimeLimit::Cpu),
                "{:?}",
                sandbox.isolation()
            );
            assert!(out.elapsed >= limits.timeout, "{:?}", out.elapsed);
        }
    }

    #[test]
    fn descriptors_left_open_do_not_reach_the_program() {
        let file = tempfile::NamedTempFile::new().expect("a file");
        let open = std::fs::OpenOptions::new()
            .append(true)
            .open(file.path())
            .expect("open");
        use std::os::fd::AsRawFd;
        // SAFETY: a duplicate of a descriptor this test owns, inheritable, closed below.
        let inherited = unsafe { libc::fcntl(open.as_raw_fd(), libc::F_DUPFD, 50) };
        assert!(inherited >= 50);
        for sandbox in sandboxes() {
            let script = format!("echo LEAK >&{inherited} && echo wrote");
            let out = sh(&sandbox, &script, "", &limits());
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                "",
                "{:?}",
                sandbox.isolation()
            );
        }
        // SAFETY: closes the duplicate made above.
        unsafe { libc::close(inherited) };
        assert_eq!(std::fs::read_to_string(file.path()).expect("read"), "");
    }

    #[test]
    fn no_run_makes_namespaces_or_mounts() {
        for sandbox in sandboxes() {
            let out = sh(
                &sandbox,
                "unshare -U true || echo no-user; unshare -Ur true || echo no-root; \
                 unshare -m true || echo no-mount",
                "",
                &limits(),
            );
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                "no-user\nno-root\nno-mount\n",
                "{:?}",
                sandbox.isolation()
            );
        }
    }

    /// Two sandboxes of one process share its cgroup folder: dropping one leaves the other's
    /// runs working.
    #[test]
    fn dropping_one_sandbox_leaves_anothers_cgroups() {
        let first = Sandbox::new(Vec::new()).expect("sandbox");
        let second = Sandbox::new(Vec::new()).expect("sandbox");
        drop(first);
        let outcome = sh(&second, "echo ok", "", &limits());
        assert_eq!(outcome.stdout, b"ok\n");
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
