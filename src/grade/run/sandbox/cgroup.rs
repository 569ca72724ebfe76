//! A cgroup per run, where referee may make them (root, or a delegated cgroup v2 subtree):
//! the run's memory is counted with everything it holds (tmpfs files, shared memory, its
//! children's pages), its processes with all its children, and, without namespaces, its CPU
//! time with its children's. The launcher moves the program into the run's cgroup before the
//! exec; referee reads whether the memory limit killed it, and removes the cgroup afterwards.
//!
//! cgroup v2 (one hierarchy): referee needs a cgroup of its own with the `memory` and `pids`
//! controllers, in which it may enable them for children: it moves itself into a leaf
//! (`referee-PID/supervisor`) and makes each run a sibling leaf (`referee-PID/run-N`), as
//! isolate's cgroup keeper does. cgroup v1 (a hierarchy per controller): a folder per run in
//! the `memory`, `pids` and `cpuacct` hierarchies, under referee's own cgroup of each.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// The sandboxes of this process using its `referee-PID` folder: the last one removes it.
/// Held while the folder is made or removed, so one sandbox never removes it under another.
static USERS: Mutex<usize> = Mutex::new(0);

/// Where runs' cgroups are made.
#[derive(Debug)]
pub(super) enum Cgroups {
    /// Runs are `base/run-N`; `base` is `referee-PID` in referee's own cgroup.
    V2 { base: PathBuf },
    /// The `referee-PID` folder of each controller's hierarchy.
    V1 {
        memory: PathBuf,
        pids: PathBuf,
        cpuacct: PathBuf,
    },
}

/// One run's cgroup (a folder per hierarchy): removed on drop, once its processes are gone.
#[derive(Debug)]
pub(super) struct RunCgroup {
    folders: Vec<PathBuf>,
    v2: bool,
}

/// Runs' cgroups made so far (their names).
static NEXT_RUN: AtomicUsize = AtomicUsize::new(0);

impl Cgroups {
    /// Sets up the folder runs' cgroups go in, if this process may: cgroup v2 first, then v1.
    /// The reason when neither works, for the report's sandbox line.
    pub(super) fn set_up() -> Result<Self, String> {
        let mut users = USERS.lock().unwrap_or_else(|e| e.into_inner());
        let cgroups = Self::make()?;
        *users += 1;
        Ok(cgroups)
    }

    fn make() -> Result<Self, String> {
        let mounts = std::fs::read_to_string("/proc/self/mountinfo")
            .map_err(|e| format!("cannot read /proc/self/mountinfo: {e}"))?;
        let own = std::fs::read_to_string("/proc/self/cgroup")
            .map_err(|e| format!("cannot read /proc/self/cgroup: {e}"))?;
        let name = format!("referee-{}", std::process::id());
        let v2 = v2_base(&mounts, &own, &name);
        if let Ok(cgroups) = &v2 {
            return Ok(Cgroups::V2 {
                base: cgroups.clone(),
            });
        }
        let v1 = v1_folders(&mounts, &own, &name);
        match (v2, v1) {
            (_, Ok(cgroups)) => Ok(cgroups),
            (Err(v2), Err(v1)) => Err(format!("cgroup v2: {v2}; cgroup v1: {v1}")),
            (Ok(_), Err(_)) => unreachable!("returned above"),
        }
    }

    /// A new cgroup for one run with these limits (`memory` in bytes; `None`: none).
    pub(super) fn run(&self, memory: Option<u64>, processes: u64) -> std::io::Result<RunCgroup> {
        let name = format!("run-{}", NEXT_RUN.fetch_add(1, Ordering::Relaxed));
        let cgroup = match self {
            Cgroups::V2 { base } => {
                let folder = base.join(&name);
                std::fs::create_dir(&folder)?;
                let cgroup = RunCgroup {
                    folders: vec![folder.clone()],
                    v2: true,
                };
                if let Some(bytes) = memory {
                    std::fs::write(folder.join("memory.max"), bytes.to_string())?;
                    // Swap would hold what the limit keeps out of memory.
                    let _ = std::fs::write(folder.join("memory.swap.max"), "0");
                }
                std::fs::write(folder.join("pids.max"), processes.to_string())?;
                cgroup
            }
            Cgroups::V1 {
                memory: memory_root,
                pids,
                cpuacct,
            } => {
                let folders: Vec<PathBuf> = [memory_root, pids, cpuacct]
                    .iter()
                    .map(|root| root.join(&name))
                    .collect();
                let mut cgroup = RunCgroup {
                    folders: Vec::new(),
                    v2: false,
                };
                for folder in &folders {
                    std::fs::create_dir(folder)?;
                    cgroup.folders.push(folder.clone());
                }
                if let Some(bytes) = memory {
                    std::fs::write(folders[0].join("memory.limit_in_bytes"), bytes.to_string())?;
                    // Where swap is accounted, memory and swap together get the same limit.
                    let _ = std::fs::write(
                        folders[0].join("memory.memsw.limit_in_bytes"),
                        bytes.to_string(),
                    );
                }
                std::fs::write(folders[1].join("pids.max"), processes.to_string())?;
                cgroup
            }
        };
        Ok(cgroup)
    }

    /// Removes referee's own folder once no sandbox of this process uses it (runs' cgroups
    /// are gone by then). With cgroup v2 referee stays in its leaf, which goes with the
    /// process.
    pub(super) fn remove(&self) {
        let mut users = USERS.lock().unwrap_or_else(|e| e.into_inner());
        *users = users.saturating_sub(1);
        if *users > 0 {
            return;
        }
        match self {
            Cgroups::V2 { .. } => {}
            Cgroups::V1 {
                memory,
                pids,
                cpuacct,
            } => {
                for folder in [memory, pids, cpuacct] {
                    let _ = std::fs::remove_dir(folder);
                }
            }
        }
    }

    pub(super) fn describe(&self) -> &'static str {
        match self {
            Cgroups::V2 { .. } => "cgroup v2",
            Cgroups::V1 { .. } => "cgroup v1",
        }
    }
}

impl RunCgroup {
    /// The `cgroup.procs` files the program joins (the launcher's `--cgroup`).
    pub(super) fn procs_files(&self) -> Vec<PathBuf> {
        self.folders
            .iter()
            .map(|f| f.join("cgroup.procs"))
            .collect()
    }

    /// The CPU counter of the run's processes (the launcher's `--cpu-usage`).
    pub(super) fn cpu_usage_file(&self) -> PathBuf {
        if self.v2 {
            self.folders[0].join("cpu.stat")
        } else {
            self.folders[2].join("cpuacct.usage")
        }
    }

    /// Whether the kernel killed a process of the run for going over the memory limit.
    pub(super) fn memory_limit_hit(&self) -> bool {
        let events = if self.v2 {
            self.folders[0].join("memory.events")
        } else {
            self.folders[0].join("memory.oom_control")
        };
        std::fs::read_to_string(events)
            .ok()
            .and_then(|text| counter(&text, "oom_kill"))
            .is_some_and(|kills| kills > 0)
    }
}

impl Drop for RunCgroup {
    fn drop(&mut self) {
        // The run's processes are dead or dying (the sweep killed what outlived it): a cgroup
        // is removed once its last one is reaped.
        for folder in self.folders.iter().rev() {
            for attempt in 0..200 {
                if std::fs::remove_dir(folder).is_ok() || !folder.exists() {
                    break;
                }
                if attempt == 0 {
                    kill_members(folder);
                }
                std::thread::sleep(std::time::Duration::from_millis(5));
            }
        }
    }
}

/// Kills what is left in a run's cgroup.
fn kill_members(folder: &Path) {
    let Ok(procs) = std::fs::read_to_string(folder.join("cgroup.procs")) else {
        return;
    };
    for pid in procs
        .lines()
        .filter_map(|line| line.trim().parse::<i32>().ok())
    {
        // SAFETY: plain system call on a pid read from the run's own cgroup.
        unsafe {
            libc::kill(pid, libc::SIGKILL);
        }
    }
}

/// The value of `name N` in a flat-keyed cgroup file.
fn counter(text: &str, name: &str) -> Option<u64> {
    text.lines().find_map(|line| {
        let (key, value) = line.split_once(' ')?;
        (key == name).then(|| value.trim().parse().ok()).flatten()
    })
}

/// The mount point of a cgroup hierarchy in /proc/self/mountinfo: cgroup v2 (`None`), or the
/// v1 hierarchy holding `controller`; only a mount of the hierarchy's root.
fn mount_point(mounts: &str, controller: Option<&str>) -> Option<PathBuf> {
    mounts.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(' ').collect();
        let separator = fields.iter().position(|f| *f == "-")?;
        let (root, point) = (fields.get(3)?, fields.get(4)?);
        let fstype = fields.get(separator + 1)?;
        let options = fields.get(separator + 3)?;
        let wanted = match controller {
            None => *fstype == "cgroup2",
            Some(name) => *fstype == "cgroup" && options.split(',').any(|o| o == name),
        };
        (wanted && *root == "/").then(|| PathBuf::from(point))
    })
}

/// This process's cgroup path in a hierarchy: `0::/path` for v2, `N:controllers:/path` for v1.
fn own_path(own: &str, controller: Option<&str>) -> Option<String> {
    own.lines().find_map(|line| {
        let mut parts = line.splitn(3, ':');
        let (id, controllers, path) = (parts.next()?, parts.next()?, parts.next()?);
        let wanted = match controller {
            None => id == "0" && controllers.is_empty(),
            Some(name) => controllers.split(',').any(|c| c == name),
        };
        wanted.then(|| path.trim_start_matches('/').to_string())
    })
}

/// cgroup v2: referee's own cgroup gets a leaf for referee and the `memory` and `pids`
/// controllers for its other children; the base folder for runs.
fn v2_base(mounts: &str, own: &str, name: &str) -> Result<PathBuf, String> {
    let mount = mount_point(mounts, None).ok_or("no cgroup2 file system mounted")?;
    let path = own_path(own, None).ok_or("this process is in no cgroup v2")?;
    let current = mount.join(path);
    let controllers = std::fs::read_to_string(current.join("cgroup.controllers"))
        .map_err(|e| format!("{}: {e}", current.display()))?;
    for needed in ["memory", "pids"] {
        if !controllers.split_whitespace().any(|c| c == needed) {
            return Err(format!(
                "the {needed} controller is not available in {}",
                current.display()
            ));
        }
    }
    // Runs are siblings of a leaf holding referee itself (no process may sit in a cgroup
    // whose children have controllers).
    let base = current.join(name);
    let supervisor = base.join("supervisor");
    let write = |file: PathBuf, text: &str| {
        std::fs::write(&file, text).map_err(|e| format!("{}: {e}", file.display()))
    };
    std::fs::create_dir_all(&supervisor).map_err(|e| format!("{}: {e}", supervisor.display()))?;
    let enable = "+memory +pids";
    let undo = |reason: String| {
        let _ = std::fs::remove_dir(&supervisor);
        let _ = std::fs::remove_dir(&base);
        reason
    };
    write(current.join("cgroup.subtree_control"), enable)
        .or_else(|_| {
            // Not allowed while referee sits in its own cgroup: move it to the leaf first.
            write(supervisor.join("cgroup.procs"), "0")?;
            write(current.join("cgroup.subtree_control"), enable)
        })
        .map_err(undo)?;
    write(base.join("cgroup.subtree_control"), enable).map_err(undo)?;
    Ok(base)
}

/// cgroup v1: a `referee-PID` folder under this process's own cgroup of the memory, pids and
/// cpuacct hierarchies.
fn v1_folders(mounts: &str, own: &str, name: &str) -> Result<Cgroups, String> {
    let mut folders = Vec::new();
    for controller in ["memory", "pids", "cpuacct"] {
        let mount = mount_point(mounts, Some(controller))
            .ok_or_else(|| format!("no {controller} hierarchy mounted"))?;
        let path = own_path(own, Some(controller))
            .ok_or_else(|| format!("this process is in no {controller} cgroup"))?;
        let folder = mount.join(path).join(name);
        std::fs::create_dir_all(&folder).map_err(|e| format!("{}: {e}", folder.display()))?;
        folders.push(folder);
    }
    let [memory, pids, cpuacct]: [PathBuf; 3] = folders
        .try_into()
        .map_err(|_| "three hierarchies expected".to_string())?;
    Ok(Cgroups::V1 {
        memory,
        pids,
        cpuacct,
    })
}

/// Removes the cgroup folders of referee processes that no longer exist (killed, crashed), in
/// this process's own cgroup of each hierarchy: their runs' folders first.
pub(super) fn sweep_stale() {
    let (Ok(mounts), Ok(own)) = (
        std::fs::read_to_string("/proc/self/mountinfo"),
        std::fs::read_to_string("/proc/self/cgroup"),
    ) else {
        return;
    };
    let mut parents = Vec::new();
    if let (Some(mount), Some(path)) = (mount_point(&mounts, None), own_path(&own, None)) {
        parents.push(mount.join(path));
    }
    for controller in ["memory", "pids", "cpuacct"] {
        if let (Some(mount), Some(path)) = (
            mount_point(&mounts, Some(controller)),
            own_path(&own, Some(controller)),
        ) {
            parents.push(mount.join(path));
        }
    }
    for parent in parents {
        let Ok(entries) = std::fs::read_dir(&parent) else {
            continue;
        };
        for entry in entries.filter_map(Result::ok) {
            let name = entry.file_name().to_string_lossy().into_owned();
            let Some(pid) = name
                .strip_prefix("referee-")
                .and_then(|p| p.parse::<u32>().ok())
            else {
                continue;
            };
            if Path::new(&format!("/proc/{pid}")).exists() {
                continue;
            }
            if let Ok(runs) = std::fs::read_dir(entry.path()) {
                for run in runs.filter_map(Result::ok).filter(|r| r.path().is_dir()) {
                    kill_members(&run.path());
                    let _ = std::fs::remove_dir(run.path());
                }
            }
            let _ = std::fs::remove_dir(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOUNTS: &str = "\
31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755
33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup rw,cpuacct
35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory
39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup rw,pids
41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw
50 31 0:38 /sub /mnt/elsewhere rw,relatime - cgroup2 cgroup2 rw
";
    const OWN: &str = "8:pids:/\n4:memory:/jobs/42\n2:cpuacct:/\n0::/user.slice/x.scope\n";

    #[test]
    fn hierarchies_and_own_paths_are_read_from_proc() {
        assert_eq!(
            mount_point(MOUNTS, Some("memory")),
            Some(PathBuf::from("/sys/fs/cgroup/memory"))
        );
        assert_eq!(
            mount_point(MOUNTS, None),
            Some(PathBuf::from("/sys/fs/cgroup/unified"))
        );
        assert_eq!(mount_point(MOUNTS, Some("blkio")), None);
        assert_eq!(own_path(OWN, Some("memory")).as_deref(), Some("jobs/42"));
        assert_eq!(own_path(OWN, Some("pids")).as_deref(), Some(""));
        assert_eq!(own_path(OWN, None).as_deref(), Some("user.slice/x.scope"));
    }

    #[test]
    fn counters_are_read_by_name() {
        let v1 = "oom_kill_disable 0\nunder_oom 0\noom_kill 2\n";
        let v2 = "low 0\nhigh 0\nmax 5\noom 1\noom_kill 1\n";
        assert_eq!(counter(v1, "oom_kill"), Some(2));
        assert_eq!(counter(v2, "oom_kill"), Some(1));
        assert_eq!(counter(v2, "oom_group_kill"), None);
    }
}
