//! One started run: fed, drained, capped, timed and, at the end, killed as a whole group.

use super::*;

/// Spawns the prepared command, feeds stdin, drains and caps output, enforces the
/// timeout and kills the whole process group at the end.
pub(super) fn execute(
    mut command: Command,
    request: &RunRequest,
    home: &Path,
    clock: Clock,
) -> std::io::Result<RunOutcome> {
    command
        .env_clear()
        .env("PATH", TOOL_PATH)
        .env("LC_ALL", "C")
        .env("HOME", home)
        .envs(request.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = spawn_retrying_busy(&mut command)?;
    let group = child.id() as libc::pid_t;
    register_live(&LIVE_RUNS, group);
    if INTERRUPTED.load(Ordering::SeqCst) {
        kill_group(group);
    }
    let outcome = supervise(&mut child, request, start, clock);
    unregister_live(&LIVE_RUNS, &group);
    outcome
}

/// Feeds, drains and waits for a started run (see `execute`).
fn supervise(
    child: &mut std::process::Child,
    request: &RunRequest,
    start: Instant,
    clock: Clock,
) -> std::io::Result<RunOutcome> {
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
    let streams: [(Stream, Option<Box<dyn Read + Send>>); 2] = [
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
    ];
    // When stdout was last heard from, in milliseconds since the start.
    let heard = Arc::new(AtomicU64::new(0));
    for (stream, reader) in streams {
        let sender = sender.clone();
        let heard = matches!(stream, Stream::Out).then(|| (Arc::clone(&heard), start));
        thread::spawn(move || {
            let drained = match reader {
                Some(reader) => drain(reader, cap, group, heard),
                None => (Vec::new(), false),
            };
            let _ = sender.send((stream, drained));
        });
    }
    drop(sender);

    let wall = wall_limit(request.limits.timeout, clock == Clock::Cpu);
    let exit = ExitWatch::new(child);
    let exited = match request.silence {
        None => exit.wait(child, wall)?,
        Some(silence) => wait_while_heard(child, &exit, start, wall, silence, &heard)?,
    };
    let timed_out = !exited;
    // The CPU time of the launcher and all it waited for (the program), read while it is
    // a zombie, before it is reaped.
    let cpu = exit.cpu_time();
    // Kill the whole process group: after a timeout, and also after a normal exit, so no
    // descendant outlives the run.
    kill_group(group);
    let status = child.wait()?;
    let elapsed = match clock {
        Clock::Cpu => cpu.unwrap_or_else(|| start.elapsed()),
        Clock::Wall => start.elapsed(),
    };

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

    // The CPU-time limit is a time limit too: SIGXCPU is reported as a timeout.
    let cpu_limit_hit = status.signal() == Some(libc::SIGXCPU);
    let termination = if timed_out {
        Termination::Timeout(TimeLimit::Wall)
    } else if cpu_limit_hit {
        Termination::Timeout(TimeLimit::Cpu)
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
        slept: Duration::ZERO,
        memory_limit_hit: false,
    })
}

/// Spawns, retrying briefly while the executable is "busy": another thread's forked child
/// may still hold a descriptor that was open for writing it, until that child execs.
fn spawn_retrying_busy(command: &mut Command) -> std::io::Result<std::process::Child> {
    let mut attempts = 0;
    loop {
        match command.spawn() {
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && attempts < 50 => {
                attempts += 1;
                thread::sleep(Duration::from_millis(10));
            }
            result => return result,
        }
    }
}

enum Stream {
    Out,
    Err,
}

/// Waits for the child until `timeout` from `start`, or until its stdout has been silent for
/// `silence`; false when either ran out.
fn wait_while_heard(
    child: &mut std::process::Child,
    exit: &ExitWatch,
    start: Instant,
    timeout: Duration,
    silence: Duration,
    heard: &AtomicU64,
) -> std::io::Result<bool> {
    loop {
        let last_heard = Duration::from_millis(heard.load(Ordering::Relaxed));
        let until = (last_heard + silence).min(timeout);
        let now = start.elapsed();
        if now >= until {
            return Ok(false);
        }
        if exit.wait(child, until - now)? {
            return Ok(true);
        }
    }
}

/// Watches a started launcher through a pidfd: its end can be awaited without reaping it, so
/// that its CPU time (and that of everything it waited for) can still be read. Without
/// pidfds (Linux before 5.3) it is reaped at once and its CPU time is unknown.
struct ExitWatch {
    pid: u32,
    pidfd: Option<std::os::fd::OwnedFd>,
}

impl ExitWatch {
    fn new(child: &std::process::Child) -> Self {
        use std::os::fd::FromRawFd;
        // SAFETY: pidfd_open returns a new descriptor (owned here) or -1.
        let fd = unsafe { libc::syscall(libc::SYS_pidfd_open, child.id(), 0) };
        let pidfd = i32::try_from(fd)
            .ok()
            .filter(|&fd| fd >= 0)
            // SAFETY: `fd` is a fresh descriptor nobody else owns.
            .map(|fd| unsafe { std::os::fd::OwnedFd::from_raw_fd(fd) });
        ExitWatch {
            pid: child.id(),
            pidfd,
        }
    }

    /// Whether the child ended within `wait`.
    fn wait(&self, child: &mut std::process::Child, wait: Duration) -> std::io::Result<bool> {
        use std::os::fd::AsRawFd;
        let Some(pidfd) = &self.pidfd else {
            return Ok(child.wait_timeout(wait)?.is_some());
        };
        let deadline = Instant::now() + wait;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let millis = i32::try_from(left.as_micros().div_ceil(1000)).unwrap_or(i32::MAX);
            let mut watched = libc::pollfd {
                fd: pidfd.as_raw_fd(),
                events: libc::POLLIN,
                revents: 0,
            };
            // SAFETY: polls one descriptor we own, described by a local struct.
            let ready = unsafe { libc::poll(&mut watched, 1, millis) };
            if ready > 0 {
                return Ok(true);
            }
            if ready == 0 && Instant::now() >= deadline {
                return Ok(false);
            }
        }
    }

    /// CPU time used by the launcher and the processes it waited for, while it is a zombie.
    fn cpu_time(&self) -> Option<Duration> {
        self.pidfd.as_ref()?;
        let stat = std::fs::read_to_string(format!("/proc/{}/stat", self.pid)).ok()?;
        let fields: Vec<&str> = stat[stat.rfind(')')? + 1..].split_whitespace().collect();
        // utime, stime, cutime, cstime: fields 14 to 17 of the line, in clock ticks.
        let ticks: u64 = fields
            .get(11..15)?
            .iter()
            .map(|f| f.parse::<u64>().ok())
            .sum::<Option<u64>>()?;
        // SAFETY: sysconf has no preconditions.
        let per_second = u64::try_from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) }).ok()?;
        (per_second > 0).then(|| Duration::from_millis(ticks * 1000 / per_second))
    }
}

/// Reads up to `cap` bytes; on overflow kills the process group and reports it. `heard`
/// gets the time of each read, in milliseconds since its start.
fn drain(
    mut reader: Box<dyn Read + Send>,
    cap: usize,
    group: libc::pid_t,
    heard: Option<(Arc<AtomicU64>, Instant)>,
) -> (Vec<u8>, bool) {
    let mut kept = Vec::new();
    let mut buffer = [0u8; 16 * 1024];
    loop {
        match reader.read(&mut buffer) {
            Ok(0) | Err(_) => return (kept, false),
            Ok(n) => {
                if let Some((heard, start)) = &heard {
                    let at = u64::try_from(start.elapsed().as_millis()).unwrap_or(u64::MAX);
                    heard.store(at, Ordering::Relaxed);
                }
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

pub(super) fn kill_group(group: libc::pid_t) {
    // SAFETY: plain system call; an already empty group gives ESRCH, which is fine.
    unsafe {
        libc::killpg(group, libc::SIGKILL);
    }
}
