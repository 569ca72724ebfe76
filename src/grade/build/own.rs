//! referee's own objects, linked into students' programs: its runtime, and each game's unit
//! harness. referee compiles them itself, once per process and set of flags, in a folder of
//! their own that no student's build sees, and keeps them read-only in the sandbox's shared
//! folder; a build's cache key holds the digest of the objects it links, so a binary is never
//! kept under a key that does not describe it.

use std::path::{Path, PathBuf};
use std::time::Duration;

use super::compiler::Compiler;
use super::tool;
use crate::grade::digest;
use crate::grade::run::runtime::{RUNTIME_NAME, RUNTIME_SOURCE};
use crate::grade::run::sandbox::{Bind, Sandbox};

/// One of referee's objects, and the digest of its bytes.
#[derive(Debug, Clone)]
pub struct OwnObject {
    pub path: PathBuf,
    pub digest: String,
}

/// The runtime compiled with `flags` (the build's); `Err` holds the compiler's output.
pub fn runtime(
    sandbox: &Sandbox,
    compiler: &Compiler,
    flags: &[String],
    timeout: Duration,
) -> Result<OwnObject, String> {
    let sources = [(RUNTIME_NAME, RUNTIME_SOURCE.as_bytes())];
    let mut args = flags.to_vec();
    args.push(tool::path_arg(Path::new(RUNTIME_NAME)));
    compile_once(sandbox, compiler, "runtime", &sources, args, timeout, &[])
}

/// The game's harness (`source`, in the spec folder, whose headers it may include) compiled
/// with `flags`; `Err` holds the compiler's output (say the harness includes a header of the
/// student's).
pub fn harness(
    sandbox: &Sandbox,
    compiler: &Compiler,
    spec_dir: &Path,
    source: &Path,
    flags: &[String],
    timeout: Duration,
) -> Result<OwnObject, String> {
    let text = std::fs::read(source).map_err(|e| format!("{}: {e}", source.display()))?;
    // The spec's own files (headers the grader provides) are part of what the object is.
    let mut spec_files: Vec<(String, Vec<u8>)> = Vec::new();
    for entry in std::fs::read_dir(spec_dir).map_err(|e| format!("{}: {e}", spec_dir.display()))? {
        let entry = entry.map_err(|e| e.to_string())?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.ends_with(".h") {
            let bytes = std::fs::read(entry.path()).map_err(|e| format!("{name}: {e}"))?;
            spec_files.push((name, bytes));
        }
    }
    spec_files.sort();
    let mut sources: Vec<(&str, &[u8])> = vec![("harness.c", &text)];
    sources.extend(spec_files.iter().map(|(n, b)| (n.as_str(), b.as_slice())));
    let mut args = flags.to_vec();
    args.extend([
        "-I".into(),
        tool::path_arg(spec_dir),
        tool::path_arg(Path::new("harness.c")),
    ]);
    let spec = Bind {
        path: spec_dir.to_path_buf(),
        writable: false,
    };
    compile_once(
        sandbox,
        compiler,
        "harness",
        &sources,
        args,
        timeout,
        &[spec],
    )
}

/// Compiles `sources` (written by referee into a fresh folder, the compile's working folder)
/// with `args`, unless an object of the same inputs is in the shared folder already; the
/// object is copied there by referee, so it belongs to referee and no build can change it.
fn compile_once(
    sandbox: &Sandbox,
    compiler: &Compiler,
    what: &str,
    sources: &[(&str, &[u8])],
    mut args: Vec<String>,
    timeout: Duration,
    binds: &[Bind],
) -> Result<OwnObject, String> {
    let mut parts: Vec<&[u8]> = vec![
        compiler.path.as_os_str().as_encoded_bytes(),
        compiler.version.as_bytes(),
    ];
    for (name, bytes) in sources {
        parts.push(name.as_bytes());
        parts.push(bytes);
    }
    parts.extend(args.iter().map(|a| a.as_bytes()));
    let shared = sandbox.shared();
    let object = shared.join(format!("{what}-{}.o", &digest::key(&parts)[..16]));
    if let Ok(bytes) = std::fs::read(&object) {
        return Ok(OwnObject {
            digest: digest::key(&[&bytes]),
            path: object,
        });
    }
    let failed = |e: std::io::Error| format!("referee could not compile its {what}: {e}");
    let folder = tempfile::Builder::new()
        .prefix(&format!("{what}-"))
        .tempdir_in(sandbox.scratch())
        .map_err(failed)?;
    for (name, bytes) in sources.iter().filter(|(name, _)| name.ends_with(".c")) {
        std::fs::write(folder.path().join(name), bytes).map_err(failed)?;
    }
    let uid = sandbox.lend_uid().map_err(failed)?;
    if let Some(uid) = &uid {
        std::os::unix::fs::chown(folder.path(), Some(uid.uid()), Some(uid.uid()))
            .map_err(failed)?;
    }
    let output = folder.path().join(format!("{what}.o"));
    args.extend(compiler.compile_flags(&[]));
    args.extend(["-c".into(), "-o".into(), tool::path_arg(&output)]);
    let mut all_binds = vec![Bind {
        path: folder.path().to_path_buf(),
        writable: true,
    }];
    all_binds.extend(binds.iter().cloned());
    let outcome = tool::run(
        sandbox,
        &compiler.path,
        &args,
        timeout,
        folder.path(),
        &all_binds,
        uid.as_ref().map(|u| u.uid()),
    )
    .map_err(failed)?;
    let mut log = String::new();
    if !tool::succeeded(&outcome, timeout, &mut log) {
        return Err(log);
    }
    let bytes = std::fs::read(&output).map_err(failed)?;
    // Written under a name of its own, then renamed: a concurrent build never links a
    // half-written object.
    let staging = tempfile::Builder::new()
        .prefix(&format!("{what}-"))
        .suffix(".o")
        .tempfile_in(shared)
        .map_err(failed)?;
    std::fs::write(staging.path(), &bytes).map_err(failed)?;
    {
        // Readable by every build's uid, writable by none.
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(staging.path(), std::fs::Permissions::from_mode(0o644))
            .map_err(failed)?;
    }
    staging.persist(&object).map_err(|e| failed(e.error))?;
    Ok(OwnObject {
        digest: digest::key(&[&bytes]),
        path: object,
    })
}
