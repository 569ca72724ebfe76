//! The pool of empty network namespaces that isolated runs borrow, one run at a time.

use super::*;

/// An empty network namespace (no interface up, not even loopback), kept alive by a
/// `launcher hold` process. Making one costs more than the rest of a run's set-up together
/// (the kernel registers and later tears down its sysctl tables), so a namespace is reused:
/// lent to one run at a time, and returned only after every process of that run is gone,
/// so runs never share one while they run. Without root, the holder makes it inside a user
/// namespace of its own, which a run joins first (`user`).
pub(super) struct NetworkNamespace {
    holder: std::process::Child,
    pub(super) path: PathBuf,
    pub(super) user: Option<PathBuf>,
}

impl NetworkNamespace {
    /// Whether the namespace holds no socket at all. The sweep signals a run's escaped
    /// processes but does not wait for them to die: one still dying may hold a listener (an
    /// abstract Unix socket needs no file) that the next run in this namespace would reach.
    fn is_empty(&self) -> bool {
        // /proc/PID/net/ describes the network namespace of PID, here the holder's.
        std::fs::read_to_string(format!("/proc/{}/net/sockstat", self.holder.id()))
            .is_ok_and(|sockstat| sockets_in_use(&sockstat) == Some(0))
    }
}

/// The count on the `sockets: used N` line of `/proc/net/sockstat` (per network namespace).
fn sockets_in_use(sockstat: &str) -> Option<u64> {
    sockstat
        .lines()
        .find_map(|line| line.strip_prefix("sockets: used "))
        .and_then(|count| count.trim().parse().ok())
}

impl Drop for NetworkNamespace {
    fn drop(&mut self) {
        // Closing its standard input ends the holder.
        drop(self.holder.stdin.take());
        let _ = self.holder.wait();
    }
}

impl Sandbox {
    /// An idle network namespace whose holder is alive, or a new one.
    pub(super) fn lend_network(&self) -> std::io::Result<NetworkNamespace> {
        loop {
            let idle = self
                .idle_networks
                .lock()
                .map_or(None, |mut idle| idle.pop());
            let Some(mut network) = idle else { break };
            if matches!(network.holder.try_wait(), Ok(None)) {
                return Ok(network);
            }
        }
        let in_user_namespace = self.isolation == Isolation::UserNamespace;
        let mut holder = Command::new(&self.launcher)
            .arg(&self.token)
            .arg("hold")
            .args(in_user_namespace.then_some("user"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()?;
        let mut ready = [0u8; 6];
        let said_ready = holder
            .stdout
            .take()
            .is_some_and(|mut out| out.read_exact(&mut ready).is_ok() && &ready == b"ready\n");
        let namespace = |kind: &str| PathBuf::from(format!("/proc/{}/ns/{kind}", holder.id()));
        let path = namespace("net");
        let user = in_user_namespace.then(|| namespace("user"));
        let network = NetworkNamespace { holder, path, user };
        if !said_ready {
            return Err(std::io::Error::other(
                "the sandbox could not make a network namespace",
            ));
        }
        Ok(network)
    }

    /// Takes back the namespace a run borrowed. It goes back to the pool only if nothing of
    /// that run is left in it; otherwise it is dropped and the next run gets a new one.
    /// As root, a run referee killed was swept (every process of its uid killed); without
    /// root nothing makes sure it has ended (its processes die as its init does, a moment
    /// after the launcher), so only a run that ended by itself returns its namespace.
    pub(super) fn return_network(&self, network: NetworkNamespace, ended_by_itself: bool) {
        let swept = self.isolation == Isolation::SeparateUser;
        if (swept || ended_by_itself) && network.is_empty() {
            if let Ok(mut idle) = self.idle_networks.lock() {
                idle.push(network);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_socket_count_is_read_from_sockstat() {
        let empty = "sockets: used 0\nTCP: inuse 0 orphan 0 tw 0 alloc 4 mem 113\n";
        let busy = "sockets: used 2\nTCP: inuse 1 orphan 0 tw 0 alloc 5 mem 113\n";
        assert_eq!(sockets_in_use(empty), Some(0));
        assert_eq!(sockets_in_use(busy), Some(2));
        assert_eq!(sockets_in_use("TCP: inuse 0\n"), None);
    }

    #[test]
    fn a_network_namespace_with_a_socket_in_it_is_not_empty() {
        use std::os::fd::AsRawFd;
        let sandbox = Sandbox::new(Vec::new()).expect("sandbox");
        assert_eq!(
            sandbox.isolation(),
            &Isolation::SeparateUser,
            "the tests run as root (as in CI)"
        );
        let network = sandbox.lend_network().expect("a network namespace");
        assert!(network.is_empty());
        let namespace = std::fs::File::open(&network.path).expect("open the namespace");
        // A thread of its own joins the namespace, so the test process stays where it is.
        thread::scope(|scope| {
            scope.spawn(|| {
                // SAFETY: setns and socket on descriptors this thread owns; the socket is
                // closed below.
                let socket = unsafe {
                    assert_eq!(libc::setns(namespace.as_raw_fd(), libc::CLONE_NEWNET), 0);
                    libc::socket(libc::AF_UNIX, libc::SOCK_STREAM, 0)
                };
                assert!(socket >= 0);
                assert!(!network.is_empty(), "a socket is open in the namespace");
                // SAFETY: closes the socket opened above.
                unsafe { libc::close(socket) };
                assert!(network.is_empty());
            });
        });
    }

    /// The holders of the idle namespaces.
    fn idle_holders(sandbox: &Sandbox) -> Vec<u32> {
        let idle = sandbox.idle_networks.lock().expect("the pool");
        idle.iter().map(|network| network.holder.id()).collect()
    }

    /// Runs in a user namespace (as without root) borrow a namespace made in a user namespace
    /// of its own, and give it back when they end by themselves; a run that referee killed
    /// (here at its wall-clock backstop) does not, so the next run gets a new one.
    #[test]
    fn without_root_a_namespace_is_reused_only_after_a_run_that_ended_by_itself() {
        let mut sandbox = Sandbox::new(Vec::new()).expect("sandbox");
        // As root, the runs of a user namespace work as they do without root.
        sandbox.isolation = Isolation::UserNamespace;
        sandbox.root = false;
        let limits = RunLimits {
            timeout: Duration::from_millis(100),
            cpu_seconds: 2,
            memory_bytes: Some(512 << 20),
            run_memory_bytes: Some(512 << 20),
            output_bytes: 1 << 16,
            file_size_bytes: 1 << 20,
            open_files: 64,
            processes: 64,
        };
        let sh = |script: &str| {
            let args = vec!["-c".to_string(), script.to_string()];
            sandbox
                .run(&RunRequest {
                    program: Path::new("/bin/sh"),
                    args: &args,
                    stdin: b"",
                    env: &[],
                    limits: &limits,
                    silence: None,
                })
                .expect("sh runs")
        };
        let out = sh("readlink /proc/self/ns/net /proc/self/ns/user");
        assert_eq!(out.termination, Termination::Exited(0));
        let first = idle_holders(&sandbox);
        assert_eq!(first.len(), 1);
        let holder = |kind: &str| {
            let link = std::fs::read_link(format!("/proc/{}/ns/{kind}", first[0]));
            link.expect("the holder's namespace").display().to_string()
        };
        let seen = String::from_utf8_lossy(&out.stdout).into_owned();
        let seen: Vec<&str> = seen.lines().collect();
        assert_eq!(seen[0], holder("net"), "the run was in the lent namespace");
        assert_ne!(
            seen[1],
            holder("user"),
            "and in a user namespace of its own"
        );
        assert_eq!(sh("true").termination, Termination::Exited(0));
        assert_eq!(
            idle_holders(&sandbox),
            first,
            "the same namespace, lent again"
        );
        let slept = sh("sleep 30");
        assert_eq!(slept.termination, Termination::Timeout(TimeLimit::Wall));
        assert!(
            idle_holders(&sandbox).is_empty(),
            "the killed run's is dropped"
        );
        assert_eq!(sh("true").termination, Termination::Exited(0));
        let next = idle_holders(&sandbox);
        assert_eq!(next.len(), 1);
        assert_ne!(next, first, "a new namespace");
    }
}
