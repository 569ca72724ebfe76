//! One run of the compiler or the linker: a run like any other (the sandbox's uid, no
//! capability, the seccomp filter, a cgroup), seeing only the folders it is given, under
//! limits; its output kept as the student would see it.

use std::path::Path;
use std::time::Duration;

use crate::grade::run::sandbox::{
    self, Bind, RunLimits, RunOutcome, RunRequest, Sandbox, Termination,
};

/// Largest file one compile or link may write (an object, the binary): a real submission's
/// are well under a megabyte.
pub const FILE_LIMIT_BYTES: u64 = 64 << 20;

/// Runs `program` (the compiler, the linker) with `args` in `workdir` as `uid`, seeing `binds`
/// of the host besides the system folders (see `Sandbox::run_tool`).
pub fn run(
    sandbox: &Sandbox,
    program: &Path,
    args: &[String],
    timeout: Duration,
    workdir: &Path,
    binds: &[Bind],
    uid: Option<u32>,
) -> std::io::Result<RunOutcome> {
    let limits = RunLimits {
        timeout,
        cpu_seconds: timeout.as_secs().max(1) + 1,
        memory_bytes: Some(1 << 30),
        run_memory_bytes: Some(2 << 30),
        output_bytes: 256 << 10,
        file_size_bytes: FILE_LIMIT_BYTES,
        open_files: 256,
        processes: 64,
    };
    sandbox.run_tool(
        &RunRequest {
            program,
            args,
            stdin: b"",
            env: &[],
            limits: &limits,
            silence: None,
        },
        workdir,
        binds,
        uid,
    )
}

/// Whether the run succeeded; appends its output (and why it stopped, if it was stopped) to
/// `log`.
pub fn succeeded(outcome: &RunOutcome, timeout: Duration, log: &mut String) -> bool {
    log.push_str(&String::from_utf8_lossy(&outcome.stderr));
    log.push_str(&String::from_utf8_lossy(&outcome.stdout));
    match outcome.termination {
        Termination::Exited(0) => true,
        Termination::Exited(_) => false,
        Termination::Timeout(_) => {
            log.push_str(&format!(
                "referee: the compiler was stopped after {} s\n",
                timeout.as_secs_f64()
            ));
            false
        }
        Termination::OutputLimit => {
            log.push_str("referee: the compiler printed too much and was stopped\n");
            false
        }
        Termination::MemoryLimit => {
            log.push_str(
                "referee: the compiler used more memory than a build may and was stopped\n",
            );
            false
        }
        Termination::Signaled(signal) => {
            log.push_str(&format!(
                "referee: the compiler died: {}\n",
                sandbox::signal_name(signal)
            ));
            false
        }
    }
}

/// A path as an argument no tool can read as an option or a response file: a relative name
/// (`@x.c`, `-wrapper.c`) gets `./` before it.
pub fn path_arg(path: &Path) -> String {
    let text = path.to_string_lossy();
    if path.is_absolute() || text.starts_with("./") {
        text.into_owned()
    } else {
        format!("./{text}")
    }
}

/// The compiler's output as the student would see it had they typed the file names: the `./`
/// before each of `names` (`./main.c:3:5: error`, `In file included from ./main.c:1`) taken
/// off.
pub fn as_typed(log: &str, names: &[String]) -> String {
    let mut names: Vec<&String> = names.iter().collect();
    // A longer name first, so `./a.c` is not taken for the start of `./a.cpp`.
    names.sort_by_key(|name| std::cmp::Reverse(name.len()));
    let mut out = String::with_capacity(log.len());
    let mut rest = log;
    while let Some(at) = rest.find("./") {
        let before = rest[..at].chars().next_back();
        let starts_a_path = before.is_none_or(|c| c.is_whitespace() || "'\"`(‘".contains(c));
        let name = names
            .iter()
            .find(|name| rest[at + 2..].starts_with(name.as_str()));
        out.push_str(&rest[..at]);
        match name {
            Some(_) if starts_a_path => {}
            _ => out.push_str("./"),
        }
        rest = &rest[at + 2..];
    }
    out.push_str(rest);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn relative_names_get_a_dot_slash_and_absolute_paths_stay() {
        assert_eq!(path_arg(Path::new("@x.c")), "./@x.c");
        assert_eq!(path_arg(Path::new("-wrapper.c")), "./-wrapper.c");
        assert_eq!(path_arg(Path::new("main.c")), "./main.c");
        assert_eq!(path_arg(Path::new("/tmp/b/main.o")), "/tmp/b/main.o");
    }

    #[test]
    fn the_log_names_files_as_typed() {
        let names = vec![
            "main.c".to_string(),
            "types.h".to_string(),
            "@x.c".to_string(),
        ];
        let log = "In file included from ./main.c:1:\n./types.h:3:5: error: x\n./main.c: In function 'main':\n./@x.c:1:1: warning\nsee ../main.c and ./other.c\n";
        assert_eq!(
            as_typed(log, &names),
            "In file included from main.c:1:\ntypes.h:3:5: error: x\nmain.c: In function 'main':\n@x.c:1:1: warning\nsee ../main.c and ./other.c\n"
        );
    }
}
