//! Reused runs: the outcome of running one binary on one input under one set of limits is kept
//! beside the build cache, so a regrade after a rubric, scoring or expected-output change
//! reruns only the cases whose input changed. A run is a pure function of what the key holds
//! (binary, arguments, stdin, environment, limits, sandbox and its launcher), reaching its CPU-time limit
//! included (load does not change CPU time); a run stopped by the wall clock (it slept, was
//! blocked, or did not get the CPU on a loaded machine) is never kept, and gets a fresh
//! chance. The key holds the case's time limit as the settings give it; a run made under a
//! limit the pacing shortened (see `judge::cases`) is kept under that key with the limit it had, so a
//! regrade repeats the first grading's runs instead of depending on the order runs finish in.
//!
//! One file per binary (`runs/<sha256 of the binary>`) holds all its runs, read once before a
//! submission's cases run and written once after, so a class of 300 costs 300 files. The
//! runs are stored deflated: a LUDO-CS submission's 125 games are about 24 MB of text and
//! 2.5 MB deflated, so a class of 300 keeps under a gigabyte instead of seven. The file
//! starts with a digest of the binary's digest and the runs, checked on reading: a file
//! damaged, cut short or moved from another binary's name counts as empty.

use std::collections::HashMap;
use std::io::{self, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use flate2::read::DeflateDecoder;
use flate2::write::DeflateEncoder;
use flate2::Compression;
use sha2::{Digest, Sha256};

use super::sandbox::{RunLimits, RunOutcome, Termination, TimeLimit};
use crate::grade::digest;

const MAGIC: &[u8] = b"referee runs 6\n";
/// A SHA-256 digest, after the magic line.
const DIGEST_BYTES: usize = 32;

/// The kept runs of one binary, and the runs made since it was opened.
pub struct RunStore {
    path: PathBuf,
    binary_digest: String,
    kept: HashMap<String, Kept>,
    fresh: Mutex<Vec<(String, Kept)>>,
}

/// A kept run: how it ended, and the time limit it ran under (the key's, or shorter).
#[derive(Debug, Clone)]
pub struct Kept {
    pub outcome: RunOutcome,
    pub timeout: Duration,
}

/// Everything a run's outcome depends on, besides the binary.
pub struct RunInput<'a> {
    pub args: &'a [String],
    pub stdin: &'a [u8],
    pub env: &'a [(String, String)],
    pub limits: &'a RunLimits,
    /// The sandbox's description: a run in a weaker sandbox may see more of the machine.
    pub sandbox: &'a str,
}

impl RunStore {
    /// The store of `binary` in the cache folder `root`; an unreadable or damaged file is
    /// treated as empty (the runs are made again).
    pub fn open(root: &Path, binary: &Path) -> io::Result<RunStore> {
        let bytes = std::fs::read(binary)?;
        let binary_digest = hex(&Sha256::digest(&bytes));
        let path = root.join("runs").join(&binary_digest);
        let kept = std::fs::read(&path)
            .ok()
            .and_then(|data| decode(&data, &binary_digest))
            .unwrap_or_default();
        Ok(RunStore {
            path,
            binary_digest,
            kept,
            fresh: Mutex::new(Vec::new()),
        })
    }

    pub fn key(&self, input: &RunInput) -> String {
        let limits = input.limits;
        let numbers = [
            limits.timeout.as_nanos() as u64,
            limits.cpu_seconds,
            limits.memory_bytes.unwrap_or(u64::MAX),
            limits.run_memory_bytes.unwrap_or(u64::MAX),
            limits.output_bytes as u64,
            limits.file_size_bytes,
            limits.open_files,
            limits.processes,
        ];
        let numbers: Vec<u8> = numbers.iter().flat_map(|n| n.to_le_bytes()).collect();
        let mut parts: Vec<&[u8]> = vec![self.binary_digest.as_bytes(), &numbers, input.stdin];
        parts.push(input.sandbox.as_bytes());
        for arg in input.args {
            parts.push(arg.as_bytes());
        }
        for (name, value) in input.env {
            parts.push(name.as_bytes());
            parts.push(value.as_bytes());
        }
        digest::key(&parts)
    }

    pub fn get(&self, key: &str) -> Option<Kept> {
        self.kept.get(key).cloned()
    }

    /// Keeps a run made under the time limit `timeout`, unless the wall clock ended it (its
    /// outcome depended on the machine's load).
    pub fn put(&self, key: String, outcome: &RunOutcome, timeout: Duration) {
        if outcome.termination == Termination::Timeout(TimeLimit::Wall) {
            return;
        }
        let kept = Kept {
            outcome: outcome.clone(),
            timeout,
        };
        self.fresh
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push((key, kept));
    }

    /// Writes the kept and the new runs (atomically: a concurrent writer of the same binary
    /// wins or loses whole).
    pub fn save(self) -> io::Result<()> {
        let fresh = self.fresh.into_inner().unwrap_or_else(|e| e.into_inner());
        if fresh.is_empty() {
            return Ok(());
        }
        let mut all = self.kept;
        all.extend(fresh);
        let dir = self.path.parent().unwrap_or(Path::new("."));
        std::fs::create_dir_all(dir)?;
        let mut staging = tempfile::NamedTempFile::new_in(dir)?;
        staging.write_all(&encode(&all, &self.binary_digest)?)?;
        staging.persist(&self.path).map(|_| ()).map_err(|e| e.error)
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The digest that ties the runs to their binary.
fn digest(binary_digest: &str, runs: &[u8]) -> Vec<u8> {
    let mut hasher = Sha256::new();
    hasher.update(binary_digest.as_bytes());
    hasher.update(runs);
    hasher.finalize().to_vec()
}

/// The magic line, the digest of the runs, and the runs deflated (the fastest level: it
/// already shrinks a game's text about ten times).
fn encode(runs: &HashMap<String, Kept>, binary_digest: &str) -> io::Result<Vec<u8>> {
    let body = encode_runs(runs);
    let mut out = MAGIC.to_vec();
    out.extend(digest(binary_digest, &body));
    let mut deflate = DeflateEncoder::new(out, Compression::fast());
    deflate.write_all(&body)?;
    deflate.finish()
}

fn encode_runs(runs: &HashMap<String, Kept>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut keys: Vec<&String> = runs.keys().collect();
    keys.sort();
    for key in keys {
        let run = &runs[key].outcome;
        let (tag, value): (u8, i32) = match run.termination {
            Termination::Exited(code) => (0, code),
            Termination::Signaled(signal) => (1, signal),
            Termination::Timeout(TimeLimit::Cpu) => (2, 0),
            Termination::Timeout(TimeLimit::Wall) => (2, 1),
            Termination::OutputLimit => (3, 0),
            Termination::MemoryLimit => (4, 0),
        };
        for part in [key.as_bytes(), &run.stdout, &run.stderr] {
            out.extend((part.len() as u64).to_le_bytes());
            out.extend(part);
        }
        out.push(tag);
        out.extend(value.to_le_bytes());
        out.extend((run.elapsed.as_nanos() as u64).to_le_bytes());
        out.extend((run.slept.as_nanos() as u64).to_le_bytes());
        out.extend((runs[key].timeout.as_nanos() as u64).to_le_bytes());
    }
    out
}

/// Reads the fields `encode` wrote, in order; `None` past the end.
struct Reader<'a> {
    rest: &'a [u8],
}

impl<'a> Reader<'a> {
    fn bytes(&mut self, n: usize) -> Option<&'a [u8]> {
        let head = self.rest.get(..n)?;
        self.rest = &self.rest[n..];
        Some(head)
    }

    fn u64(&mut self) -> Option<u64> {
        Some(u64::from_le_bytes(self.bytes(8)?.try_into().ok()?))
    }

    fn part(&mut self) -> Option<&'a [u8]> {
        let len = usize::try_from(self.u64()?).ok()?;
        self.bytes(len)
    }
}

fn decode(data: &[u8], binary_digest: &str) -> Option<HashMap<String, Kept>> {
    let rest = data.strip_prefix(MAGIC)?;
    let (stored, deflated) = rest.split_at_checked(DIGEST_BYTES)?;
    let mut body = Vec::new();
    DeflateDecoder::new(deflated).read_to_end(&mut body).ok()?;
    if stored != digest(binary_digest, &body).as_slice() {
        return None;
    }
    let mut reader = Reader { rest: &body };
    let mut runs = HashMap::new();
    while !reader.rest.is_empty() {
        let key = String::from_utf8(reader.part()?.to_vec()).ok()?;
        let stdout = reader.part()?.to_vec();
        let stderr = reader.part()?.to_vec();
        let tag = reader.bytes(1)?[0];
        let value = i32::from_le_bytes(reader.bytes(4)?.try_into().ok()?);
        let elapsed = Duration::from_nanos(reader.u64()?);
        let slept = Duration::from_nanos(reader.u64()?);
        let timeout = Duration::from_nanos(reader.u64()?);
        let termination = match tag {
            0 => Termination::Exited(value),
            1 => Termination::Signaled(value),
            2 if value == 0 => Termination::Timeout(TimeLimit::Cpu),
            2 => Termination::Timeout(TimeLimit::Wall),
            3 => Termination::OutputLimit,
            4 => Termination::MemoryLimit,
            _ => return None,
        };
        let outcome = RunOutcome {
            stdout,
            stderr,
            termination,
            elapsed,
            slept,
            memory_limit_hit: termination == Termination::MemoryLimit,
        };
        runs.insert(key, Kept { outcome, timeout });
    }
    Some(runs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcome(stdout: &[u8], termination: Termination) -> RunOutcome {
        RunOutcome {
            stdout: stdout.to_vec(),
            stderr: b"warning\n".to_vec(),
            termination,
            elapsed: Duration::from_millis(3),
            slept: Duration::from_millis(2),
            memory_limit_hit: false,
        }
    }

    fn limits() -> RunLimits {
        RunLimits {
            timeout: Duration::from_secs(1),
            cpu_seconds: 2,
            memory_bytes: Some(1 << 28),
            run_memory_bytes: Some(1 << 28),
            output_bytes: 1 << 20,
            file_size_bytes: 1 << 20,
            open_files: 64,
            processes: 8,
        }
    }

    #[test]
    fn runs_are_kept_across_opens_except_those_the_wall_clock_ended() {
        let dir = tempfile::tempdir().expect("tempdir");
        let binary = dir.path().join("program");
        std::fs::write(&binary, b"\x7fELF one").expect("write");
        let limits = limits();
        let input = |stdin: &'static [u8]| RunInput {
            args: &[],
            stdin,
            env: &[],
            limits: &limits,
            sandbox: "basic",
        };
        let store = RunStore::open(dir.path(), &binary).expect("open");
        let (a, b, c, d) = (
            store.key(&input(b"a")),
            store.key(&input(b"b")),
            store.key(&input(b"c")),
            store.key(&input(b"d")),
        );
        assert_ne!(a, b);
        let full = limits.timeout;
        store.put(
            a.clone(),
            &outcome(b"out a\xff", Termination::Exited(0)),
            full,
        );
        store.put(b.clone(), &outcome(b"", Termination::Signaled(11)), full);
        let wall = Termination::Timeout(TimeLimit::Wall);
        store.put(c.clone(), &outcome(b"partial", wall), full);
        let cpu = Termination::Timeout(TimeLimit::Cpu);
        // Made under a limit the pacing shortened, kept with that limit.
        let short = Duration::from_millis(200);
        store.put(d.clone(), &outcome(b"looping", cpu), short);
        store.save().expect("save");

        let again = RunStore::open(dir.path(), &binary).expect("open");
        let kept = again.get(&a).expect("kept");
        assert_eq!(kept.timeout, full);
        let kept = kept.outcome;
        assert_eq!(kept.stdout, b"out a\xff");
        assert_eq!(kept.stderr, b"warning\n");
        assert_eq!(kept.termination, Termination::Exited(0));
        assert_eq!(kept.elapsed, Duration::from_millis(3));
        assert_eq!(
            again.get(&b).map(|o| o.outcome.termination),
            Some(Termination::Signaled(11))
        );
        assert!(
            again.get(&c).is_none(),
            "a wall-clock timeout is never reused"
        );
        let looped = again.get(&d).expect("a CPU-time timeout is kept");
        assert_eq!(
            (
                looped.outcome.termination,
                looped.outcome.stdout,
                looped.timeout
            ),
            (cpu, b"looping".to_vec(), short)
        );

        // Another binary, other limits, another sandbox: other keys.
        std::fs::write(&binary, b"\x7fELF two").expect("write");
        let other = RunStore::open(dir.path(), &binary).expect("open");
        assert!(other.get(&a).is_none());
        assert_ne!(other.key(&input(b"a")), a);
        let mut tighter = limits.clone();
        tighter.timeout = Duration::from_millis(500);
        let tight = RunInput {
            limits: &tighter,
            ..input(b"a")
        };
        assert_ne!(again.key(&tight), a);
        let isolated = RunInput {
            sandbox: "namespaces",
            ..input(b"a")
        };
        assert_ne!(again.key(&isolated), a);
    }

    #[test]
    fn a_damaged_truncated_or_swapped_file_counts_as_empty() {
        let mut runs = HashMap::new();
        let kept = Kept {
            outcome: outcome(b"x", Termination::OutputLimit),
            timeout: Duration::from_secs(1),
        };
        runs.insert("k".to_string(), kept);
        let data = encode(&runs, "binary").expect("encode");
        assert_eq!(decode(&data, "binary").map(|r| r.len()), Some(1));
        let mut damaged = data.clone();
        let last = damaged.len() - 20;
        damaged[last] ^= 1;
        assert!(decode(&damaged, "binary").is_none(), "damaged");
        assert!(
            decode(&data[..data.len() - 3], "binary").is_none(),
            "truncated"
        );
        assert!(
            decode(&data[..MAGIC.len() + 5], "binary").is_none(),
            "truncated"
        );
        assert!(decode(&data, "another binary").is_none(), "swapped");
        assert!(decode(b"something else", "binary").is_none());
    }

    /// A game's text is kept deflated: a megabyte of moves costs a few dozen kilobytes.
    #[test]
    fn kept_outputs_are_stored_deflated_and_read_back_whole() {
        let stdout: Vec<u8> = (0..20_000)
            .flat_map(|i| {
                format!(
                    "Red moves piece R{} from location {} to {} by 3 units in clockwise direction.\n",
                    i % 4 + 1,
                    i % 52,
                    (i + 3) % 52
                )
                .into_bytes()
            })
            .collect();
        let mut runs = HashMap::new();
        let kept = Kept {
            outcome: outcome(&stdout, Termination::Exited(0)),
            timeout: Duration::from_secs(1),
        };
        runs.insert("k".to_string(), kept);
        let data = encode(&runs, "binary").expect("encode");
        assert!(
            data.len() * 10 < stdout.len(),
            "{} bytes kept for {}",
            data.len(),
            stdout.len()
        );
        let read = decode(&data, "binary").expect("decode");
        assert_eq!(read["k"].outcome.stdout, stdout);
    }

    #[test]
    fn a_runs_file_swapped_from_another_binary_is_not_used() {
        let dir = tempfile::tempdir().expect("tempdir");
        let (model, student) = (dir.path().join("model"), dir.path().join("student"));
        std::fs::write(&model, b"\x7fELF model").expect("write");
        std::fs::write(&student, b"\x7fELF student").expect("write");
        let limits = limits();
        let input = RunInput {
            args: &[],
            stdin: b"a",
            env: &[],
            limits: &limits,
            sandbox: "basic",
        };
        let store = RunStore::open(dir.path(), &model).expect("open");
        let key = store.key(&input);
        store.put(
            key,
            &outcome(b"right", Termination::Exited(0)),
            limits.timeout,
        );
        let model_file = store.path.clone();
        store.save().expect("save");
        let student_store = RunStore::open(dir.path(), &student).expect("open");
        let student_key = student_store.key(&input);
        let student_file = student_store.path.clone();
        // The model's runs copied under the student's binary's name are refused.
        std::fs::copy(&model_file, &student_file).expect("swap");
        let reopened = RunStore::open(dir.path(), &student).expect("open");
        assert!(reopened.kept.is_empty());
        assert!(reopened.get(&student_key).is_none());
    }
}
