//! Many cases of one binary in one sandboxed run: referee's runtime (`referee_rt.c`, batch
//! mode) forks a child per case, each in a process group and a folder of its own with its own
//! stdin, stdout and stderr, time limit and output cap, and reports each ending as a record.
//! When runs are isolated (a PID namespace of their own), whatever a case leaves running is
//! killed before the next. A sandboxed run costs far more than a fork (namespaces, a uid, the sweep), so this
//! is how a submission's cases run. A case the batch did not report (it stopped after a
//! timeout, or the program broke the batch) is left for a run of its own.

use std::time::Duration;

use super::sandbox::{
    Isolation, RunLimits, RunOutcome, RunRequest, Sandbox, Termination, TimeLimit,
};

/// What one batch needs: the binary, its arguments and every case's stdin.
pub struct Batch<'a> {
    pub program: &'a std::path::Path,
    pub args: &'a [String],
    pub inputs: Vec<&'a [u8]>,
    /// Each case's limits (the batch as a whole gets room for all of them).
    pub limits: &'a RunLimits,
    /// The batch stops once its cases have slept this long in all (the time left of the
    /// submission's sleep budget).
    pub sleep: Duration,
}

/// Room in the batch's own time limit beyond the cases' (forks, reading the records), and
/// beyond one case's time limit for the silence between two records (a case's output may
/// take half a second to drain after it ends): a batch silent longer was stopped or stalled
/// by one of its cases, and is cut short.
const BATCH_SLACK: Duration = Duration::from_secs(2);
/// The longest record header: index, kind, value, two times in microseconds and two lengths.
const HEADER_BYTES: usize = 120;

/// Runs the batch; the outcome of case `i` is at index `i`, for the cases that were reported
/// (a prefix of them). An error is referee's own failure to start the run.
pub fn run(sandbox: &Sandbox, batch: &Batch) -> std::io::Result<Vec<RunOutcome>> {
    let mut stdin = Vec::new();
    for input in &batch.inputs {
        stdin.extend_from_slice(format!("{}\n", input.len()).as_bytes());
        stdin.extend_from_slice(input);
    }
    let cases = batch.inputs.len();
    let case_timeout = batch.limits.timeout;
    let mut limits = batch.limits.clone();
    limits.timeout = case_timeout * cases as u32 + BATCH_SLACK;
    limits.output_bytes = cases * (2 * batch.limits.output_bytes + HEADER_BYTES);
    let env = vec![(
        "REFEREE_BATCH".to_string(),
        format!(
            "{} {} {} {}",
            case_timeout.as_millis().max(1),
            batch.limits.output_bytes,
            // Killing every process it may signal is safe only in the run's own PID namespace.
            u8::from(!matches!(sandbox.isolation(), Isolation::Basic(_))),
            batch.sleep.as_millis(),
        ),
    )];
    let outcome = sandbox.run(&RunRequest {
        program: batch.program,
        args: batch.args,
        stdin: &stdin,
        env: &env,
        limits: &limits,
        // A case meets its wall-clock backstop only when it sleeps.
        silence: Some(super::sandbox::wall_limit(case_timeout, true) + BATCH_SLACK),
    })?;
    let mut outcomes = parse(&outcome.stdout, cases);
    // Only the kernel's memory limit kills a case with SIGKILL that the batch did not kill.
    if outcome.memory_limit_hit {
        for case in &mut outcomes {
            if case.termination == Termination::Signaled(libc::SIGKILL) {
                case.termination = Termination::MemoryLimit;
                case.memory_limit_hit = true;
            }
        }
    }
    Ok(outcomes)
}

/// The records of a batch's output, in case order; stops at the first record that is out of
/// order, malformed or cut short (the cases from there on are run again on their own).
fn parse(mut output: &[u8], cases: usize) -> Vec<RunOutcome> {
    let mut outcomes = Vec::new();
    while outcomes.len() < cases {
        let Some(end) = output.iter().position(|&b| b == b'\n') else {
            break;
        };
        let Some(record) = std::str::from_utf8(&output[..end])
            .ok()
            .and_then(Record::parse)
        else {
            break;
        };
        let body = &output[end + 1..];
        if record.index != outcomes.len() || body.len() < record.stdout + record.stderr {
            break;
        }
        let (stdout, rest) = body.split_at(record.stdout);
        let (stderr, rest) = rest.split_at(record.stderr);
        outcomes.push(RunOutcome {
            stdout: stdout.to_vec(),
            stderr: stderr.to_vec(),
            termination: record.termination,
            elapsed: record.elapsed,
            slept: record.slept,
            memory_limit_hit: false,
        });
        output = rest;
    }
    outcomes
}

struct Record {
    index: usize,
    termination: Termination,
    elapsed: Duration,
    slept: Duration,
    stdout: usize,
    stderr: usize,
}

impl Record {
    /// "INDEX KIND VALUE CPU_MICROSECONDS SLEPT_MICROSECONDS STDOUT_LENGTH STDERR_LENGTH".
    fn parse(line: &str) -> Option<Record> {
        let fields: Vec<&str> = line.split(' ').collect();
        let [index, kind, value, micros, slept, stdout, stderr] = fields[..] else {
            return None;
        };
        let value: i32 = value.parse().ok()?;
        let termination = match kind {
            "e" => Termination::Exited(value),
            // The CPU-time limit is a time limit too, as for a run of its own.
            "s" if value == libc::SIGXCPU => Termination::Timeout(TimeLimit::Cpu),
            "s" => Termination::Signaled(value),
            "c" => Termination::Timeout(TimeLimit::Cpu),
            "t" => Termination::Timeout(TimeLimit::Wall),
            "o" => Termination::OutputLimit,
            _ => return None,
        };
        Some(Record {
            index: index.parse().ok()?,
            termination,
            elapsed: Duration::from_micros(micros.parse().ok()?),
            slept: Duration::from_micros(slept.parse().ok()?),
            stdout: stdout.parse().ok()?,
            stderr: stderr.parse().ok()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::{Path, PathBuf};
    use std::process::Command;

    #[test]
    fn records_are_read_in_order_and_a_broken_one_ends_the_list() {
        let output = b"0 e 0 120 7 3 0\nabc1 s 11 90 0 0 4\nboom2 e 0 5 0 9 0\nshort";
        let outcomes = parse(output, 3);
        assert_eq!(outcomes.len(), 2, "the third record is cut short");
        assert_eq!(outcomes[0].stdout, b"abc");
        assert_eq!(outcomes[0].termination, Termination::Exited(0));
        assert_eq!(outcomes[0].elapsed, Duration::from_micros(120));
        assert_eq!(outcomes[0].slept, Duration::from_micros(7));
        assert_eq!(outcomes[1].stderr, b"boom");
        assert_eq!(outcomes[1].termination, Termination::Signaled(11));
        assert!(parse(b"1 e 0 1 0 0 0\n", 2).is_empty(), "out of order");
        assert!(parse(b"0 x 0 1 0 0 0\n", 1).is_empty(), "unknown kind");
        assert!(parse(b"0 e 0 1 0 0\n", 1).is_empty(), "a field missing");
        let cpu = parse(format!("0 s {} 1 0 0 0\n", libc::SIGXCPU).as_bytes(), 1);
        assert_eq!(cpu[0].termination, Termination::Timeout(TimeLimit::Cpu));
        let ends = parse(b"0 c 0 1 0 0 0\n1 t 0 1 0 0 0\n", 2);
        assert_eq!(ends[0].termination, Termination::Timeout(TimeLimit::Cpu));
        assert_eq!(ends[1].termination, Termination::Timeout(TimeLimit::Wall));
    }

    /// A program with referee's runtime that does what its stdin says.
    fn program(dir: &Path) -> PathBuf {
        let source = dir.join("cases.c");
        std::fs::write(
            &source,
            r#"#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
static int counter;
/* Live processes of this uid other than this one and its parent (the batch); a zombie has
   already let go of everything it held. */
static int others(void) {
    DIR *proc = opendir("/proc");
    struct dirent *entry;
    int count = 0;
    char path[300], state = 0;
    struct stat info;
    while (proc != NULL && (entry = readdir(proc)) != NULL) {
        int pid = atoi(entry->d_name);
        snprintf(path, sizeof path, "/proc/%s/stat", entry->d_name);
        FILE *stat_file = pid > 0 ? fopen(path, "r") : NULL;
        if (stat_file == NULL) continue;
        if (fscanf(stat_file, "%*d (%*[^)]) %c", &state) == 1 && state != 'Z' &&
            pid != getpid() && pid != getppid() && fstat(fileno(stat_file), &info) == 0 &&
            info.st_uid == getuid()) count++;
        fclose(stat_file);
    }
    if (proc != NULL) closedir(proc);
    return count;
}
int main(void) {
    char word[64] = "";
    if (scanf("%63s", word) != 1) return 9;
    counter++;
    if (strcmp(word, "write") == 0) { FILE *f = fopen("mine.txt", "w"); fputs("x", f); fclose(f); }
    if (strcmp(word, "read") == 0) { printf("%s\n", fopen("mine.txt", "r") ? "seen" : "fresh"); return 0; }
    if (strcmp(word, "others") == 0) { printf("%d others\n", others()); return 0; }
    if (strcmp(word, "stdin") == 0) {
        struct stat input;
        int big = 0, c;
        while ((c = getchar()) != EOF) big += c == 'x';
        printf("%s %d\n", fstat(0, &input) == 0 && S_ISFIFO(input.st_mode) ? "pipe" : "file", big);
        return 0;
    }
    if (strcmp(word, "crash") == 0) { printf("half"); fflush(stdout); abort(); }
    if (strcmp(word, "flood") == 0) for (;;) putchar('x');
    if (strcmp(word, "hang") == 0) for (;;) {}
    if (strcmp(word, "nap") == 0) { puts("napping"); fflush(stdout); for (;;) pause(); }
    if (strcmp(word, "count") == 0) {
        FILE *file = fopen("/tmp/count", "a+");
        fputc('x', file);
        fflush(file);
        printf("%ld\n", ftell(file));
        return 0;
    }
    if (strcmp(word, "memory") == 0) {
        /* Another case's input anywhere in this process's memory (the needle itself aside). */
        char needle[32];
        snprintf(needle, sizeof needle, "SECRET-%s", "NEXT-CASE");
        FILE *maps = fopen("/proc/self/maps", "r");
        char line[512], perms[8];
        unsigned long from, to;
        int found = 0;
        while (fgets(line, sizeof line, maps)) {
            if (sscanf(line, "%lx-%lx %7s", &from, &to, perms) != 3 || perms[0] != 'r' ||
                strstr(line, "[v") != NULL) continue;
            for (char *at = (char *) from; at + strlen(needle) <= (char *) to; at++) {
                at = memmem(at, (size_t) ((char *) to - at), needle, strlen(needle));
                if (at == NULL) break;
                if (at != needle) found = 1;
            }
        }
        puts(found ? "found" : "clean");
        return 0;
    }
    if (strcmp(word, "nest") == 0) {
        /* A folder it may not read or enter, with a file inside, and a POSIX shared object. */
        mkdir("/tmp/d", 0700); mkdir("/tmp/d/e", 0700); fclose(fopen("/tmp/d/e/f", "w"));
        chmod("/tmp/d/e", 0); chmod("/tmp/d", 0); close(shm_open("/left", O_CREAT | O_RDWR, 0600));
        puts("nested");
        return 0;
    }
    if (strcmp(word, "ls") == 0) {
        int left = 0;
        const char *folders[] = {"/tmp", "/dev/shm"};
        for (int i = 0; i < 2; i++) {
            DIR *folder = opendir(folders[i]);
            struct dirent *entry;
            while (folder != NULL && (entry = readdir(folder)) != NULL)
                left += entry->d_name[0] != '.' && strcmp(entry->d_name, "program") != 0;
            if (folder != NULL) closedir(folder);
        }
        printf("%d left\n", left);
        return 0;
    }
    if (strcmp(word, "spin") == 0) { while (clock() < CLOCKS_PER_SEC / 5) {} puts("spun"); return 0; }
    if (strcmp(word, "children") == 0) {
        /* Its work done by two children (1.5 s of CPU each) while it waits. */
        for (int i = 0; i < 2; i++)
            if (fork() == 0) { while (clock() < 3 * CLOCKS_PER_SEC / 2) {} _exit(0); }
        while (wait(NULL) > 0) {}
        puts("waited");
        return 0;
    }
    if (strcmp(word, "orphan") == 0 && fork() == 0) { setsid(); sleep(30); return 0; }
    if (strcmp(word, "exit") == 0) { fprintf(stderr, "bye\n"); return 3; }
    if (strcmp(word, "stop") == 0) { kill(getppid(), SIGSTOP); return 0; }
    printf("%s %d\n", word, counter);
    return 0;
}
"#,
        )
        .expect("write the program");
        let binary = dir.join("cases");
        let status = Command::new("cc")
            .args(["-std=gnu17", "-o"])
            .arg(&binary)
            .arg(&source)
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/grade/run/runtime.c"
            ))
            .arg("-Wl,--wrap=time")
            .status()
            .expect("cc runs");
        assert!(status.success());
        binary
    }

    fn limits() -> RunLimits {
        RunLimits {
            timeout: Duration::from_millis(300),
            cpu_seconds: 2,
            memory_bytes: Some(512 << 20),
            run_memory_bytes: Some(512 << 20),
            output_bytes: 1 << 12,
            file_size_bytes: 1 << 20,
            open_files: 64,
            processes: 64,
        }
    }

    /// Runs `program` in one batch in the sandbox (isolated where the kernel allows) on
    /// `inputs`; the reported outcomes and the sandbox's isolation.
    fn run_program(inputs: Vec<&[u8]>) -> (Vec<RunOutcome>, Isolation) {
        let dir = tempfile::tempdir().expect("tempdir");
        let binary = program(dir.path());
        let sandbox = Sandbox::new(Vec::new()).expect("sandbox");
        let outcomes = run(
            &sandbox,
            &Batch {
                program: &binary,
                args: &[],
                inputs,
                limits: &limits(),
                sleep: Duration::from_secs(60),
            },
        )
        .expect("the batch runs");
        (outcomes, sandbox.isolation().clone())
    }

    /// Two busy loops, one per core of a small machine, stopped when dropped (and bounded:
    /// each ends by itself within a minute or so).
    struct Load(Vec<std::process::Child>);

    impl Load {
        fn start() -> Load {
            let script = "i=0; while [ $i -lt 100000000 ]; do i=$((i+1)); done";
            Load(
                (0..2)
                    .map(|_| {
                        Command::new("sh")
                            .args(["-c", script])
                            .stdout(std::process::Stdio::null())
                            .stderr(std::process::Stdio::null())
                            .spawn()
                            .expect("a busy loop starts")
                    })
                    .collect(),
            )
        }
    }

    impl Drop for Load {
        fn drop(&mut self) {
            for child in &mut self.0 {
                let _ = child.kill();
                let _ = child.wait();
            }
        }
    }

    /// Time limits are on CPU time: a case that needs 0.2 s of CPU passes under a 0.3 s
    /// limit however loaded the machine (two busy loops beside it), batched or alone, and an
    /// endless loop still times out.
    #[test]
    fn grades_do_not_depend_on_load() {
        let dir = tempfile::tempdir().expect("tempdir");
        let binary = program(dir.path());
        let sandbox = Sandbox::new(Vec::new()).expect("sandbox");
        let _load = Load::start();
        let limits = limits();
        for _ in 0..3 {
            let outcomes = run(
                &sandbox,
                &Batch {
                    program: &binary,
                    args: &[],
                    inputs: vec![b"spin", b"spin", b"spin", b"hang"],
                    limits: &limits,
                    sleep: Duration::from_secs(60),
                },
            )
            .expect("the batch runs");
            assert_eq!(outcomes.len(), 4);
            for outcome in &outcomes[..3] {
                assert_eq!(outcome.termination, Termination::Exited(0));
                assert_eq!(outcome.stdout, b"spun\n");
                assert!(outcome.elapsed >= Duration::from_millis(190), "CPU time");
            }
            assert_eq!(
                outcomes[3].termination,
                Termination::Timeout(TimeLimit::Cpu)
            );
            let alone = sandbox
                .run(&RunRequest {
                    program: &binary,
                    args: &[],
                    stdin: b"spin",
                    env: &[],
                    limits: &limits,
                    silence: None,
                })
                .expect("the run");
            assert_eq!(alone.termination, Termination::Exited(0));
            assert_eq!(alone.stdout, b"spun\n");
        }
    }

    /// A case's time limit counts the CPU time of all its processes: one that does its work
    /// in children while it waits times out, batched in its own PID namespace or not, and
    /// the case after it still runs.
    #[test]
    fn a_case_is_charged_its_childrens_cpu_time() {
        let dir = tempfile::tempdir().expect("tempdir");
        let binary = program(dir.path());
        let namespaced = Sandbox::new(Vec::new()).expect("sandbox");
        let basic = Sandbox::basic().expect("sandbox");
        for sandbox in [&namespaced, &basic] {
            let outcomes = run(
                sandbox,
                &Batch {
                    program: &binary,
                    args: &[],
                    inputs: vec![b"children"],
                    limits: &limits(),
                    sleep: Duration::from_secs(60),
                },
            )
            .expect("the batch runs");
            let isolation = sandbox.isolation();
            assert_eq!(
                outcomes[0].termination,
                Termination::Timeout(TimeLimit::Cpu),
                "{isolation:?}: {:?}",
                String::from_utf8_lossy(&outcomes[0].stdout)
            );
            assert!(
                outcomes[0].elapsed >= Duration::from_millis(300),
                "{isolation:?}"
            );
        }
    }

    /// Each case starts from a fresh, empty /tmp and /dev/shm, and no other case's input is
    /// in the memory it inherits from the batch (alone, the program prints 1 and clean).
    #[test]
    fn cases_share_no_state() {
        let (outcomes, _) = run_program(vec![
            b"count",
            b"count",
            b"memory",
            b"SECRET-NEXT-CASE",
            b"count",
            b"nest",
            b"ls",
        ]);
        let out = |i: usize| String::from_utf8_lossy(&outcomes[i].stdout).into_owned();
        assert_eq!(out(0), "1\n");
        assert_eq!(out(1), "1\n", "the first case's /tmp/count is gone");
        assert_eq!(out(2), "clean\n", "the next case's input is not in memory");
        assert_eq!(out(4), "1\n");
        assert_eq!(out(5), "nested\n");
        assert_eq!(
            out(6),
            "0 left\n",
            "a folder it locked, and its shared object, are gone"
        );
    }

    /// A case looks through all of its memory for the other cases' inputs (earlier ones
    /// that the batch read, later ones it has not): none is there.
    #[test]
    fn a_case_holds_no_other_cases_input() {
        let dir = tempfile::tempdir().expect("tempdir");
        let binary = dir.path().join("batch_memory");
        let status = Command::new("cc")
            .args(["-std=gnu17", "-o"])
            .arg(&binary)
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/tests/hostile/round3/batch_memory.c"
            ))
            .arg(concat!(
                env!("CARGO_MANIFEST_DIR"),
                "/src/grade/run/runtime.c"
            ))
            .arg("-Wl,--wrap=time")
            .status()
            .expect("cc runs");
        assert!(status.success());
        let inputs: Vec<String> = (0..6).map(|i| format!("MARKER-{i}\n")).collect();
        let sandbox = Sandbox::new(Vec::new()).expect("sandbox");
        let outcomes = run(
            &sandbox,
            &Batch {
                program: &binary,
                args: &[],
                inputs: inputs.iter().map(|i| i.as_bytes()).collect(),
                limits: &limits(),
                sleep: Duration::from_secs(60),
            },
        )
        .expect("the batch runs");
        assert_eq!(outcomes.len(), inputs.len());
        for (index, outcome) in outcomes.iter().enumerate() {
            assert_eq!(outcome.termination, Termination::Exited(0), "case {index}");
            assert_eq!(
                String::from_utf8_lossy(&outcome.stdout),
                format!("echo: MARKER-{index}\n"),
                "case {index} found another case's input"
            );
        }
    }

    #[test]
    fn stdin_is_a_pipe_as_in_a_run_of_its_own_even_when_large() {
        let large = format!("stdin {}", "x".repeat(200_000));
        let (outcomes, _) = run_program(vec![b"stdin", large.as_bytes()]);
        assert_eq!(outcomes[0].stdout, b"pipe 0\n");
        assert_eq!(outcomes[1].stdout, b"pipe 200000\n");
    }

    #[test]
    fn a_batch_stopped_by_one_of_its_cases_is_cut_short() {
        let mut inputs: Vec<&[u8]> = vec![b"one", b"stop"];
        // Time for 200 cases: 60 s; silence ends the batch a few seconds after "stop".
        inputs.extend(std::iter::repeat_n(b"two".as_slice(), 200));
        let started = std::time::Instant::now();
        let (outcomes, _) = run_program(inputs);
        assert_eq!(
            outcomes.len(),
            1,
            "nothing is reported after the batch stopped"
        );
        assert!(
            started.elapsed() < Duration::from_secs(20),
            "the silent batch was cut short, not given 200 cases' time: {:?}",
            started.elapsed()
        );
    }

    #[test]
    fn each_case_runs_in_a_fresh_child_until_the_first_timeout() {
        let (outcomes, isolation) = run_program(vec![
            b"one", b"two", b"crash", b"exit", b"flood", b"orphan", b"", b"after", b"write",
            b"read", b"others", b"hang", b"never",
        ]);
        let limits = limits();
        assert_eq!(outcomes.len(), 12, "the batch stops after the timeout");
        let out = |i: usize| String::from_utf8_lossy(&outcomes[i].stdout).into_owned();
        // Every case starts from the program's initial state.
        assert_eq!(out(0), "one 1\n");
        assert_eq!(out(1), "two 1\n");
        assert_eq!(out(2), "half", "what was printed before the crash is kept");
        assert_eq!(
            outcomes[2].termination,
            Termination::Signaled(libc::SIGABRT)
        );
        assert_eq!(outcomes[3].termination, Termination::Exited(3));
        assert_eq!(outcomes[3].stderr, b"bye\n");
        assert_eq!(outcomes[4].termination, Termination::OutputLimit);
        assert_eq!(outcomes[4].stdout.len(), limits.output_bytes);
        assert_eq!(outcomes[5].termination, Termination::Exited(0));
        assert!(
            outcomes[5].elapsed < Duration::from_millis(300),
            "a process that left the case's group does not hold up the batch"
        );
        assert_eq!(
            outcomes[6].termination,
            Termination::Exited(9),
            "empty stdin"
        );
        assert_eq!(out(7), "after 1\n");
        assert_eq!(out(9), "fresh\n", "each case starts in a folder of its own");
        assert_eq!(
            isolation,
            Isolation::SeparateUser,
            "runs have a uid of their own when referee is root (as in CI)"
        );
        assert_eq!(
            out(10),
            "0 others\n",
            "the orphan was killed after its case"
        );
        assert_eq!(
            outcomes[11].termination,
            Termination::Timeout(TimeLimit::Cpu)
        );
        assert!(outcomes[11].elapsed >= limits.timeout);
    }

    /// A case that sleeps uses no CPU time: the wall-clock backstop stops it, and says so.
    #[test]
    fn a_sleeping_case_meets_the_wall_clock_backstop() {
        let (outcomes, _) = run_program(vec![b"one", b"nap", b"never"]);
        assert_eq!(outcomes.len(), 2, "the batch stops after the timeout");
        assert_eq!(outcomes[1].stdout, b"napping\n");
        assert_eq!(
            outcomes[1].termination,
            Termination::Timeout(TimeLimit::Wall)
        );
        assert!(
            outcomes[1].elapsed < limits().timeout,
            "it used little CPU time"
        );
    }
}
