//! Compiles a submission with the C compiler the `cc` crate finds: the student's program,
//! and the game's unit harness linked with the student's functions.

use std::collections::{BTreeSet, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::Duration;

use super::built::Built;
use super::cache::BuildCache;
use super::compiler::Compiler;
use super::own::{self, OwnObject};
use super::rename;
use super::tool::{self, path_arg};
use crate::assignment::spec::Spec;
use crate::games::Target;
use crate::grade::digest;
use crate::grade::intake::submission::{quoted_includes, Submission};
use crate::grade::run::runtime::RUNTIME_LINK_FLAGS;
use crate::grade::run::sandbox::{self, Bind, LentUid, RunOutcome, Sandbox, Termination};

/// GCC before 10 (the courses' compilers) merged a global defined in a header included by
/// two files; newer ones need this flag for it.
const FCOMMON: &str = "-fcommon";
/// How a build log says that the link needed `-fcommon` (the rest of the line names the
/// globals); the grader shows it as a fact.
const FCOMMON_NOTE: &str =
    "a global is defined in a header; linked with -fcommon as older compilers did";

/// The build folder of one submission: its sources side by side with the provided files,
/// owned by the build's own uid (referee runs as root), which every compile and link of the
/// submission runs as.
pub struct Workspace<'a> {
    dir: tempfile::TempDir,
    sources: Vec<String>,
    /// Every file the folder holds at the start, as the student would type its name.
    names: Vec<String>,
    /// Runs the compiler; its scratch folder holds the workspaces.
    sandbox: &'a Sandbox,
    uid: Option<LentUid<'a>>,
    /// Bytes the build may write in its folder, all compiles and links together.
    scratch_limit: u64,
    /// The student's objects (or the failed compile's output) by the flags they were
    /// compiled with.
    compiled: Mutex<HashMap<Vec<String>, CompiledObjects>>,
}

/// The objects of one compile of the student's files (none when a file failed) and the
/// compiler's output.
type CompiledObjects = (Option<Vec<PathBuf>>, String);

/// The harness a harness build links: referee's object, or (when the harness does not compile
/// apart from the student's files) its source, compiled with them in the link.
enum HarnessInput {
    Object(OwnObject),
    Source(PathBuf),
}

/// What a build links of referee's own: the runtime, and for a harness build the harness.
struct Linked {
    runtime: OwnObject,
    harness: Option<HarnessInput>,
}

impl<'a> Workspace<'a> {
    /// Writes the sources, replacing files the spec provides, adding missing ones, in a new
    /// folder of the sandbox's scratch folder (hidden from the programs that run).
    pub fn create(
        submission: &Submission,
        spec: &Spec,
        sandbox: &'a Sandbox,
    ) -> std::io::Result<Self> {
        let dir = tempfile::Builder::new()
            .prefix("build-")
            .tempdir_in(sandbox.scratch())?;
        for file in &submission.files {
            if !spec.submission.provided.contains(&file.name) {
                std::fs::write(dir.path().join(&file.name), &file.bytes)?;
            }
        }
        let mut provided: Vec<&String> = spec.submission.provided.iter().collect();
        provided.extend(
            spec.submission
                .provided_if_missing
                .iter()
                .filter(|name| !submission.files.iter().any(|f| &&f.name == name)),
        );
        for name in provided {
            std::fs::copy(spec.dir.join(name), dir.path().join(name))?;
        }
        let mut names: Vec<String> = std::fs::read_dir(dir.path())?
            .filter_map(|e| e.ok())
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        let sources: Vec<String> = names
            .iter()
            .filter(|name| name.ends_with(".c"))
            .cloned()
            .collect();
        let sources = compiled_on_their_own(dir.path(), sources)?;
        let uid = sandbox.lend_uid()?;
        if let Some(uid) = &uid {
            for name in std::iter::once("").chain(names.iter().map(String::as_str)) {
                std::os::unix::fs::chown(dir.path().join(name), Some(uid.uid()), Some(uid.uid()))?;
            }
        }
        Ok(Workspace {
            dir,
            sources,
            names,
            sandbox,
            uid,
            scratch_limit: spec.limits.build_scratch_mb << 20,
            compiled: Mutex::new(HashMap::new()),
        })
    }

    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    /// Builds `target` with `extra` flags, from the cache when the same inputs were built
    /// before, else into its own subfolder of the workspace (and then into the cache).
    pub fn build(
        &self,
        compiler: &Compiler,
        spec: &Spec,
        target: &Target,
        extra: &[String],
        timeout: Duration,
        cache: Option<&BuildCache>,
    ) -> std::io::Result<Built> {
        let Some(cache) = cache else {
            return self.compile_target(compiler, spec, target, extra, timeout);
        };
        let linked = match self.linked(compiler, spec, target, extra, timeout)? {
            Ok(linked) => linked,
            Err(failed) => return Ok(failed),
        };
        let key = self.cache_key(compiler, spec, target, extra, &linked)?;
        if let Some(hit) = cache.lookup(&key) {
            return Ok(hit);
        }
        let built = self.compile_target(compiler, spec, target, extra, timeout)?;
        // A cache that cannot be written only costs speed.
        let _ = cache.store(&key, &built);
        Ok(built)
    }

    /// Everything that decides the binary: the compiler, the flags, the folder's files and
    /// the digests of referee's objects it links.
    fn cache_key(
        &self,
        compiler: &Compiler,
        spec: &Spec,
        target: &Target,
        extra: &[String],
        linked: &Linked,
    ) -> std::io::Result<String> {
        let mut parts: Vec<Vec<u8>> = vec![
            compiler.path.to_string_lossy().as_bytes().to_vec(),
            compiler.version.as_bytes().to_vec(),
            build_tag(target, &[]).into_bytes(),
            spec.build.flags.join("\0").into_bytes(),
            extra.join("\0").into_bytes(),
            spec.build.link.join("\0").into_bytes(),
            linked.runtime.digest.as_bytes().to_vec(),
            RUNTIME_LINK_FLAGS.join("\0").into_bytes(),
        ];
        match &linked.harness {
            Some(HarnessInput::Object(object)) => parts.push(object.digest.as_bytes().to_vec()),
            Some(HarnessInput::Source(source)) => parts.push(std::fs::read(source)?),
            None => {}
        }
        if *target == Target::Harness {
            parts.push(spec.build.harness_student_flags.join("\0").into_bytes());
        }
        let mut files: Vec<PathBuf> = std::fs::read_dir(self.path())?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file())
            .collect();
        files.sort();
        for file in files {
            parts.push(
                file.file_name()
                    .unwrap_or_default()
                    .as_encoded_bytes()
                    .to_vec(),
            );
            parts.push(std::fs::read(&file)?);
        }
        let borrowed: Vec<&[u8]> = parts.iter().map(Vec::as_slice).collect();
        Ok(digest::key(&borrowed))
    }

    /// referee's objects the build links (compiled by referee, apart from every student's
    /// build); a failed build (`Err`) when the runtime does not compile with these flags or
    /// the game has no harness.
    fn linked(
        &self,
        compiler: &Compiler,
        spec: &Spec,
        target: &Target,
        extra: &[String],
        timeout: Duration,
    ) -> std::io::Result<Result<Linked, Built>> {
        let mut flags: Vec<String> = spec.build.flags.clone();
        flags.extend(extra.iter().cloned());
        let failed = |log: String| Built {
            binary: None,
            log,
            objects: Vec::new(),
            cached: false,
        };
        let runtime = match own::runtime(self.sandbox, compiler, &flags, timeout) {
            Ok(runtime) => runtime,
            Err(log) => {
                return Ok(Err(failed(format!(
                    "referee: its runtime does not compile with this build's flags:\n{log}"
                ))))
            }
        };
        let harness = match (target, &spec.build.harness) {
            (Target::Program, _) => None,
            (Target::Harness, None) => {
                return Ok(Err(failed("this game has no unit-test harness\n".into())))
            }
            (Target::Harness, Some(harness)) => {
                let source = spec.dir.join(harness);
                Some(
                    match own::harness(self.sandbox, compiler, &spec.dir, &source, &flags, timeout)
                    {
                        Ok(object) => HarnessInput::Object(object),
                        Err(_) => HarnessInput::Source(source),
                    },
                )
            }
        };
        Ok(Ok(Linked { runtime, harness }))
    }

    fn compile_target(
        &self,
        compiler: &Compiler,
        spec: &Spec,
        target: &Target,
        extra: &[String],
        timeout: Duration,
    ) -> std::io::Result<Built> {
        let linked = match self.linked(compiler, spec, target, extra, timeout)? {
            Ok(linked) => linked,
            Err(failed) => return Ok(failed),
        };
        let tag = build_tag(target, extra);
        let out_dir = self.path().join(&tag);
        std::fs::create_dir_all(&out_dir)?;
        self.give(&out_dir)?;
        let mut flags: Vec<String> = spec.build.flags.clone();
        flags.extend(extra.iter().cloned());
        let (objects, mut log) = match target {
            Target::Program => self.objects(compiler, &flags, timeout)?,
            Target::Harness => self.harness_objects(compiler, spec, &flags, &out_dir, timeout)?,
        };
        let Some(objects) = objects else {
            return Ok(Built {
                binary: None,
                log,
                objects: Vec::new(),
                cached: false,
            });
        };
        let binary = out_dir.join(match target {
            Target::Program => "program",
            Target::Harness => "harness",
        });
        let mut args = flags.clone();
        // The paths that change from build to build (see `Shortcuts::linker_command`).
        let mut slots = Vec::new();
        args.extend(["-I".into(), path_arg(self.path())]);
        slots.push(args.len() - 1);
        args.extend(["-o".into(), path_arg(&binary)]);
        slots.push(args.len() - 1);
        match &linked.harness {
            Some(HarnessInput::Object(object)) => {
                args.push(path_arg(&object.path));
                slots.push(args.len() - 1);
            }
            Some(HarnessInput::Source(source)) => {
                // The compiler of a link with the student's files sees only the workspace: a
                // copy of the harness is compiled there.
                let copy = out_dir.join("harness.c");
                std::fs::copy(source, &copy)?;
                self.give(&copy)?;
                args.push(path_arg(&copy));
                slots.push(args.len() - 1);
            }
            None => {}
        }
        args.push(path_arg(&linked.runtime.path));
        for input in std::iter::once(args.len() - 1).chain(args.len()..args.len() + objects.len()) {
            slots.push(input);
        }
        args.extend(objects.iter().map(|o| path_arg(o)));
        args.extend(spec.build.link.iter().cloned());
        args.extend(RUNTIME_LINK_FLAGS.map(String::from));
        let mut link_log = String::new();
        let linked = self.link(compiler, &args, &slots, timeout, &mut link_log)?;
        if !linked && !extra.iter().any(|flag| flag == FCOMMON) {
            let clashes = header_global_clashes(&link_log, self.path());
            if !clashes.is_empty() {
                let mut retry_flags = extra.to_vec();
                retry_flags.push(FCOMMON.into());
                let mut retried =
                    self.compile_target(compiler, spec, target, &retry_flags, timeout)?;
                if retried.binary.is_some() {
                    retried.log.push_str(&format!(
                        "referee: {FCOMMON_NOTE} ({})\n",
                        clashes.join(", ")
                    ));
                    return Ok(retried);
                }
            }
        }
        log.push_str(&link_log);
        Ok(Built {
            binary: linked.then_some(binary),
            log,
            objects,
            cached: false,
        })
    }

    /// Gives a file or folder referee made in the workspace to the build's uid.
    fn give(&self, path: &Path) -> std::io::Result<()> {
        match &self.uid {
            Some(uid) => std::os::unix::fs::chown(path, Some(uid.uid()), Some(uid.uid())),
            None => Ok(()),
        }
    }

    /// The student's files compiled with `flags`, each into an object, once per workspace
    /// and set of flags (the program, its harness and the `-fcommon` retry share them); no
    /// objects when a file does not compile, and the compiler's output in either case.
    fn objects(
        &self,
        compiler: &Compiler,
        flags: &[String],
        timeout: Duration,
    ) -> std::io::Result<CompiledObjects> {
        let flags = &compiler.compile_flags(flags);
        let mut compiled = self.compiled.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(done) = compiled.get(flags) {
            return Ok(done.clone());
        }
        let out_dir = self.path().join(format!("objects-{}", compiled.len()));
        std::fs::create_dir_all(&out_dir)?;
        self.give(&out_dir)?;
        let mut log = String::new();
        let mut objects = Vec::new();
        let mut all_compiled = true;
        for source in &self.sources {
            let object = out_dir.join(source.replace(".c", ".o"));
            let mut args = flags.to_vec();
            args.extend([
                "-c".into(),
                path_arg(Path::new(source)),
                "-o".into(),
                path_arg(&object),
            ]);
            if !self.compile(
                &compiler.path,
                &args,
                timeout,
                &mut log,
                &self.student_binds(),
            )? {
                all_compiled = false;
                break;
            }
            objects.push(object);
        }
        let done = (all_compiled.then_some(objects), log);
        compiled.insert(flags.to_vec(), done.clone());
        Ok(done)
    }

    /// The student's objects for the harness build: the program's, with `main` renamed in
    /// copies in `out_dir`, when the spec's harness flags only rename it; otherwise (or when
    /// an object cannot be rewritten) the files compiled again with those flags.
    fn harness_objects(
        &self,
        compiler: &Compiler,
        spec: &Spec,
        flags: &[String],
        out_dir: &Path,
        timeout: Duration,
    ) -> std::io::Result<CompiledObjects> {
        let harness_flags = &spec.build.harness_student_flags;
        if let Some(name) = rename::main_renamed_to(harness_flags) {
            let (objects, log) = self.objects(compiler, flags, timeout)?;
            let Some(objects) = objects else {
                return Ok((None, log));
            };
            if let Some(renamed) = renamed_copies(&objects, name, out_dir)? {
                return Ok((Some(renamed), log));
            }
        }
        let mut with_harness_flags = flags.to_vec();
        with_harness_flags.extend(harness_flags.iter().cloned());
        self.objects(compiler, &with_harness_flags, timeout)
    }

    /// What the compiler of the student's files sees of the host: the workspace (a private
    /// copy of the submission's files), and referee's compiled runtime and harness, read-only.
    fn student_binds(&self) -> [Bind; 2] {
        [
            Bind {
                path: self.path().to_path_buf(),
                writable: true,
            },
            Bind {
                path: self.sandbox.shared().to_path_buf(),
                writable: false,
            },
        ]
    }

    /// Links `args` (a driver line whose arguments at `slots` change from build to build)
    /// with the linker itself where the shortcuts know its command line; through the
    /// driver otherwise, and when that link fails (so the log is the driver's).
    fn link(
        &self,
        compiler: &Compiler,
        args: &[String],
        slots: &[usize],
        timeout: Duration,
        log: &mut String,
    ) -> std::io::Result<bool> {
        let mut binds = self.student_binds().to_vec();
        if let Some(shortcuts) = compiler.shortcuts() {
            let driver = |a: &[String]| self.driver_output(compiler, a, timeout);
            if let Some((linker, command)) = shortcuts.linker_command(args, slots, &driver) {
                // The linker reads the compiler's own files (start-up objects, libgcc).
                binds.extend(sandbox::tool_prefix(&compiler.path).map(|path| Bind {
                    path,
                    writable: false,
                }));
                let mut linker_log = String::new();
                if self.compile(&linker, &command, timeout, &mut linker_log, &binds)? {
                    log.push_str(&linker_log);
                    return Ok(true);
                }
            }
        }
        self.compile(&compiler.path, args, timeout, log, &binds)
    }

    /// The output of the driver run with `args` (no input file of the student's is read),
    /// when it exits with 0.
    fn driver_output(
        &self,
        compiler: &Compiler,
        args: &[String],
        timeout: Duration,
    ) -> Option<(String, String)> {
        let outcome = self
            .run_tool(&compiler.path, args, timeout, &self.student_binds())
            .ok()?;
        (outcome.termination == Termination::Exited(0)).then(|| {
            (
                String::from_utf8_lossy(&outcome.stdout).into_owned(),
                String::from_utf8_lossy(&outcome.stderr).into_owned(),
            )
        })
    }

    /// Runs `program` (the compiler or the linker) as `run_tool` does; appends its output to
    /// `log`, with the files named as the student typed them. A build whose folder has grown
    /// past the scratch limit is stopped there.
    fn compile(
        &self,
        program: &Path,
        args: &[String],
        timeout: Duration,
        log: &mut String,
        binds: &[Bind],
    ) -> std::io::Result<bool> {
        let outcome = self.run_tool(program, args, timeout, binds)?;
        let mut output = String::new();
        let succeeded = tool::succeeded(&outcome, timeout, &mut output);
        log.push_str(&tool::as_typed(&output, &self.names));
        let used = folder_bytes(self.path());
        if used > self.scratch_limit {
            log.push_str(&format!(
                "referee: stopped: the build wrote {} MB to its folder, over the {} MB a submission's build may use\n",
                used >> 20,
                self.scratch_limit >> 20
            ));
            return Ok(false);
        }
        Ok(succeeded)
    }

    /// Runs `program` in the workspace as the build's uid (see `tool::run`).
    fn run_tool(
        &self,
        program: &Path,
        args: &[String],
        timeout: Duration,
        binds: &[Bind],
    ) -> std::io::Result<RunOutcome> {
        tool::run(
            self.sandbox,
            program,
            args,
            timeout,
            self.path(),
            binds,
            self.uid.as_ref().map(LentUid::uid),
        )
    }
}

/// Bytes of the files under `folder`, subfolders included.
fn folder_bytes(folder: &Path) -> u64 {
    let Ok(entries) = std::fs::read_dir(folder) else {
        return 0;
    };
    entries
        .filter_map(Result::ok)
        .map(|entry| match entry.file_type() {
            Ok(kind) if kind.is_dir() => folder_bytes(&entry.path()),
            Ok(_) => entry.metadata().map_or(0, |m| m.len()),
            Err(_) => 0,
        })
        .sum()
}

/// Copies of `objects` in `dir` with the symbol `main` named `name`; `None` when one of them
/// cannot be rewritten (see `rename::rename_symbol`).
fn renamed_copies(
    objects: &[PathBuf],
    name: &str,
    dir: &Path,
) -> std::io::Result<Option<Vec<PathBuf>>> {
    let mut copies = Vec::with_capacity(objects.len());
    for object in objects {
        let Ok(renamed) = rename::rename_symbol(&std::fs::read(object)?, "main", name) else {
            return Ok(None);
        };
        let copy = dir.join(object.file_name().unwrap_or_default());
        std::fs::write(&copy, renamed)?;
        copies.push(copy);
    }
    Ok(Some(copies))
}

/// The `.c` files of a build folder that are compiled on their own: not those another file
/// `#include`s (a TA builds `main.c` that includes `logic.c` by compiling `main.c` alone).
/// If that leaves nothing (files that include each other), all of them.
fn compiled_on_their_own(dir: &Path, sources: Vec<String>) -> std::io::Result<Vec<String>> {
    let mut included = BTreeSet::new();
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if !(name.ends_with(".c") || name.ends_with(".h")) {
            continue;
        }
        let text = String::from_utf8_lossy(&std::fs::read(entry.path())?).into_owned();
        included.extend(
            quoted_includes(&text)
                .into_iter()
                .filter(|included| *included != name),
        );
    }
    let alone: Vec<String> = sources
        .iter()
        .filter(|source| !included.contains(*source))
        .cloned()
        .collect();
    Ok(if alone.is_empty() { sources } else { alone })
}

/// The globals a failed link defines more than once, when each is defined in a header of the
/// build folder (so `-fcommon` may link it); empty when the link failed for anything else.
fn header_global_clashes(link_log: &str, dir: &Path) -> Vec<String> {
    if link_log.contains("undefined reference") {
        return Vec::new();
    }
    let mut names: Vec<String> = link_log
        .split("multiple definition of ")
        .skip(1)
        .filter_map(|rest| {
            let rest = rest
                .strip_prefix('`')
                .or_else(|| rest.strip_prefix('\u{2018}'))?;
            let end = rest.find(['\'', '\u{2019}'])?;
            Some(rest[..end].to_string())
        })
        .collect();
    names.sort();
    names.dedup();
    let headers: Vec<(String, String)> = std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .filter_map(Result::ok)
        .filter(|e| e.file_name().to_string_lossy().ends_with(".h"))
        .filter_map(|e| {
            let text = std::fs::read(e.path()).ok()?;
            Some((
                e.file_name().to_string_lossy().into_owned(),
                String::from_utf8_lossy(&text).into_owned(),
            ))
        })
        .collect();
    let mut found = Vec::new();
    for name in &names {
        match headers.iter().find(|(_, text)| defines_global(text, name)) {
            Some((header, _)) => found.push(format!("{name} in {header}")),
            None => return Vec::new(),
        }
    }
    found
}

/// Whether header text defines (not just declares `extern`) a file-scope variable `name`.
fn defines_global(text: &str, name: &str) -> bool {
    // The file-scope text: directives, line comments and everything inside braces dropped.
    let mut file_scope = String::new();
    let mut depth = 0usize;
    for line in text.lines() {
        if line.trim_start().starts_with('#') {
            continue;
        }
        for c in line.split("//").next().unwrap_or_default().chars() {
            match c {
                '{' => depth += 1,
                '}' => depth = depth.saturating_sub(1),
                _ if depth == 0 => file_scope.push(c),
                _ => {}
            }
        }
        file_scope.push('\n');
    }
    file_scope.split(';').any(|statement| {
        let statement = statement.trim_start();
        !statement.starts_with("extern")
            && !statement.starts_with("typedef")
            && statement.match_indices(name).any(|(at, _)| {
                let before = statement[..at].chars().next_back();
                let after = statement[at + name.len()..].trim_start().chars().next();
                before.is_some_and(|c| !(c.is_alphanumeric() || c == '_'))
                    && matches!(after, None | Some('=' | ',' | '['))
            })
    })
}

/// The fact a build log holds when its link needed `-fcommon`, if it does.
pub fn fcommon_note(log: &str) -> Option<String> {
    log.lines()
        .filter_map(|line| line.strip_prefix("referee: "))
        .find(|note| note.starts_with(FCOMMON_NOTE))
        .map(String::from)
}

/// A folder name for one (target, flags) build.
fn build_tag(target: &Target, extra: &[String]) -> String {
    let base = match target {
        Target::Program => "program",
        Target::Harness => "harness",
    };
    let flags: String = extra
        .iter()
        .flat_map(|f| f.chars())
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    if flags.is_empty() {
        base.to_string()
    } else {
        format!("{base}{flags}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_c_file_another_file_includes_is_not_compiled_on_its_own() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("main.c"),
            "#include \"logic.c\"\nint main(){}",
        )
        .expect("write");
        std::fs::write(dir.path().join("logic.c"), "#include \"types.h\"\n").expect("write");
        std::fs::write(dir.path().join("types.h"), "").expect("write");
        let sources = vec!["logic.c".to_string(), "main.c".to_string()];
        let alone = compiled_on_their_own(dir.path(), sources).expect("read");
        assert_eq!(alone, ["main.c"]);
    }

    #[test]
    fn files_that_include_each_other_are_all_compiled() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(dir.path().join("a.c"), "#include \"b.c\"\n").expect("write");
        std::fs::write(dir.path().join("b.c"), "#include \"a.c\"\n").expect("write");
        let sources = vec!["a.c".to_string(), "b.c".to_string()];
        let alone = compiled_on_their_own(dir.path(), sources.clone()).expect("read");
        assert_eq!(alone, sources);
    }

    #[test]
    fn only_globals_defined_in_a_header_call_for_fcommon() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("types.h"),
            "extern int declared;\nstruct s { int member; };\nint board[4][4];\nint turn; // whose\n",
        )
        .expect("write");
        let clash = |name: &str| {
            format!(
                "/usr/bin/ld: b.o:(.bss+0x0): multiple definition of `{name}'; a.o:(.bss+0x0): first defined here\ncollect2: error: ld returned 1 exit status\n"
            )
        };
        assert_eq!(
            header_global_clashes(&clash("board"), dir.path()),
            ["board in types.h"]
        );
        assert_eq!(
            header_global_clashes(&clash("turn"), dir.path()),
            ["turn in types.h"]
        );
        for not_a_header_global in ["declared", "member", "main"] {
            assert!(header_global_clashes(&clash(not_a_header_global), dir.path()).is_empty());
        }
        let also_undefined = format!(
            "{}main.c:(.text+0x5): undefined reference to `f'\n",
            clash("turn")
        );
        assert!(header_global_clashes(&also_undefined, dir.path()).is_empty());
    }

    #[test]
    fn the_fcommon_note_is_read_back_from_the_log() {
        let log = format!("a.c:1:1: warning: x\nreferee: {FCOMMON_NOTE} (turn in types.h)\n");
        assert_eq!(
            fcommon_note(&log),
            Some(format!("{FCOMMON_NOTE} (turn in types.h)"))
        );
        assert_eq!(
            fcommon_note("referee: the compiler was stopped after 1 s\n"),
            None
        );
    }
}
