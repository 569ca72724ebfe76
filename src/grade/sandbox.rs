//! Runs one untrusted program: its own session (killed as a whole), resource limits, a
//! wall-clock timeout, capped output, a cleared environment and a fresh working directory.

use std::io::{Read, Write};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use wait_timeout::ChildExt;

/// Limits for one run.
#[derive(Debug, Clone)]
pub struct RunLimits {
    pub timeout: Duration,
    pub cpu_seconds: u64,
    pub memory_bytes: u64,
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
    Timeout,
    OutputLimit,
}

#[derive(Debug, Clone)]
pub struct RunOutcome {
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub termination: Termination,
    pub elapsed: Duration,
}

/// What to run.
pub struct RunRequest<'a> {
    pub program: &'a Path,
    pub args: &'a [String],
    pub stdin: &'a [u8],
    /// Variables set on top of the fixed minimum (`PATH`, `LC_ALL=C`, `HOME`).
    pub env: &'a [(String, String)],
    /// Working directory; `None` makes a fresh empty one, removed afterwards.
    pub cwd: Option<&'a Path>,
    pub limits: &'a RunLimits,
}

/// How long to wait for output pipes after the process group is gone (a descendant that
/// escaped the group may hold them open).
const DRAIN_GRACE: Duration = Duration::from_millis(500);

pub fn run(request: &RunRequest) -> std::io::Result<RunOutcome> {
    let scratch;
    let cwd: PathBuf = match request.cwd {
        Some(dir) => dir.to_path_buf(),
        None => {
            scratch = tempfile::Builder::new().prefix("referee-run-").tempdir()?;
            scratch.path().to_path_buf()
        }
    };
    let limits = request.limits.clone();
    let mut command = Command::new(request.program);
    command
        .args(request.args)
        .current_dir(&cwd)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .env("LC_ALL", "C")
        .env("HOME", &cwd)
        .envs(request.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    // SAFETY: the closure runs in the child between fork and exec and only makes
    // async-signal-safe system calls (setsid, setrlimit).
    unsafe {
        command.pre_exec(move || {
            if libc::setsid() < 0 {
                return Err(std::io::Error::last_os_error());
            }
            set_limit(libc::RLIMIT_CPU, limits.cpu_seconds)?;
            set_limit(libc::RLIMIT_AS, limits.memory_bytes)?;
            set_limit(libc::RLIMIT_FSIZE, limits.file_size_bytes)?;
            set_limit(libc::RLIMIT_NOFILE, limits.open_files)?;
            set_limit(libc::RLIMIT_NPROC, limits.processes)?;
            set_limit(libc::RLIMIT_CORE, 0)?;
            Ok(())
        });
    }

    let start = Instant::now();
    let mut child = command.spawn()?;
    let group = child.id() as libc::pid_t;

    let stdin = child.stdin.take();
    let input = request.stdin.to_vec();
    let writer = thread::spawn(move || {
        if let Some(mut pipe) = stdin {
            // The program may exit without reading everything: a broken pipe is expected.
            let _ = pipe.write_all(&input);
        }
    });

    let (sender, receiver) = mpsc::channel();
    let cap = request.limits.output_bytes;
    for (stream, reader) in [
        (
            Stream::Out,
            child
                .stdout
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        ),
        (
            Stream::Err,
            child
                .stderr
                .take()
                .map(|p| Box::new(p) as Box<dyn Read + Send>),
        ),
    ] {
        let sender = sender.clone();
        thread::spawn(move || {
            let drained = match reader {
                Some(reader) => drain(reader, cap, group),
                None => (Vec::new(), false),
            };
            let _ = sender.send((stream, drained));
        });
    }
    drop(sender);

    let status = child.wait_timeout(request.limits.timeout)?;
    let timed_out = status.is_none();
    // Kill the whole session: after a timeout, and also after a normal exit, so no
    // descendant outlives the run.
    kill_group(group);
    let status = match status {
        Some(status) => status,
        None => child.wait()?,
    };
    let elapsed = start.elapsed();

    let mut stdout = (Vec::new(), false);
    let mut stderr = (Vec::new(), false);
    let deadline = Instant::now() + DRAIN_GRACE;
    for _ in 0..2 {
        let left = deadline.saturating_duration_since(Instant::now());
        match receiver.recv_timeout(left) {
            Ok((Stream::Out, drained)) => stdout = drained,
            Ok((Stream::Err, drained)) => stderr = drained,
            Err(_) => break,
        }
    }
    // The writer ends once the pipe breaks, which the kill above guarantees.
    let _ = writer.join();

    use std::os::unix::process::ExitStatusExt;
    let termination = if timed_out {
        Termination::Timeout
    } else if stdout.1 || stderr.1 {
        Termination::OutputLimit
    } else if let Some(signal) = status.signal() {
        Termination::Signaled(signal)
    } else {
        Termination::Exited(status.code().unwrap_or(-1))
    };
    Ok(RunOutcome {
        stdout: stdout.0,
        stderr: stderr.0,
        termination,
        elapsed,
    })
}

enum Stream {
    Out,
    Err,
}

/// Reads up to `cap` bytes; on overflow kills the process group and reports it.
fn drain(mut reader: Box<dyn Read + Send>, cap: usize, group: libc::pid_t) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut buffer = [0u8; 16 * 1024];
    loop {
        match reader.read(&mut buffer) {
            Ok(0) | Err(_) => return (kept, false),
            Ok(n) => {
                let room = cap.saturating_sub(kept.len());
                kept.extend_from_slice(&buffer[..n.min(room)]);
                if n > room {
                    kill_group(group);
                    return (kept, true);
                }
            }
        }
    }
}

fn kill_group(group: libc::pid_t) {
    // SAFETY: plain system call; an already empty group gives ESRCH, which is fine.
    unsafe {
        libc::killpg(group, libc::SIGKILL);
    }
}

fn set_limit(resource: libc::__rlimit_resource_t, value: u64) -> std::io::Result<()> {
    let limit = libc::rlimit {
        rlim_cur: value as libc::rlim_t,
        rlim_max: value as libc::rlim_t,
    };
    // SAFETY: setrlimit reads the struct we pass; no memory is shared.
    if unsafe { libc::setrlimit(resource, &limit) } != 0 {
        return Err(std::io::Error::last_os_error());
    }
    Ok(())
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
            memory_bytes: 512 << 20,
            output_bytes: 1 << 16,
            file_size_bytes: 1 << 20,
            open_files: 64,
            processes: 4096,
        }
    }

    fn sh(script: &str, stdin: &str, limits: &RunLimits) -> RunOutcome {
        let args = vec!["-c".to_string(), script.to_string()];
        run(&RunRequest {
            program: Path::new("/bin/sh"),
            args: &args,
            stdin: stdin.as_bytes(),
            env: &[],
            cwd: None,
            limits,
        })
        .expect("sh runs")
    }

    #[test]
    fn output_and_exit_code_are_captured() {
        let out = sh("cat; echo err >&2; exit 3", "hello\n", &limits());
        assert_eq!(out.stdout, b"hello\n");
        assert_eq!(out.stderr, b"err\n");
        assert_eq!(out.termination, Termination::Exited(3));
    }

    #[test]
    fn a_program_that_sleeps_is_stopped_at_the_timeout() {
        let mut limits = limits();
        limits.timeout = Duration::from_millis(200);
        let out = sh("echo before; sleep 30", "", &limits);
        assert_eq!(out.termination, Termination::Timeout);
        assert_eq!(out.stdout, b"before\n");
        assert!(out.elapsed < Duration::from_secs(5));
    }

    #[test]
    fn endless_output_is_cut_at_the_cap() {
        let out = sh("yes", "", &limits());
        assert_eq!(out.termination, Termination::OutputLimit);
        assert_eq!(out.stdout.len(), 1 << 16);
    }

    #[test]
    fn the_environment_is_cleared() {
        std::env::set_var("REFEREE_SECRET_TEST", "leak");
        let out = sh("echo \"[$REFEREE_SECRET_TEST]\"", "", &limits());
        assert_eq!(out.stdout, b"[]\n");
    }
}
