//! `referee gradescope-bundle GAME`: a Gradescope autograder zip. It ships this very referee
//! executable or the one `--binary` names (no Rust toolchain needed on Gradescope), the assignment's specs/ and cases/
//! (and the course's private cases, in `private/`),
//! `setup.sh` (installs a C compiler) and `run_autograder` (grades the submission into
//! results.json).

use std::fs::File;
use std::io::Write;
use std::path::{Path, PathBuf};

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

use crate::assignment::Project;
use crate::error::Error;
use crate::report::audience::Audience;

const SETUP: &str = r#"#!/usr/bin/env bash
# Gradescope runs this once while building the autograder image.
set -euo pipefail
if ! command -v cc >/dev/null 2>&1; then
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gcc libc6-dev
fi
chmod +x /autograder/source/referee /autograder/source/run_autograder
# Fails the image build, with the loader's message, when this system's glibc is older than
# the one referee was linked against.
/autograder/source/referee --version
"#;

/// `@GAME@` is replaced by the assignment id.
const RUN_AUTOGRADER: &str = r#"#!/usr/bin/env bash
# Gradescope runs this for each submission: grade /autograder/submission with the bundled
# referee and write /autograder/results/results.json. REFEREE_AUTOGRADER moves the whole
# /autograder layout (source/, submission/, results/), e.g. to try the bundle locally.
set -u
base="${REFEREE_AUTOGRADER:-/autograder}"
source_dir="$base/source"
results="$base/results"
mkdir -p "$results"
# Student programs run as other users (Gradescope's containers allow no namespaces): the
# cases and this script's folder are readable by root alone, the results writable by root
# alone.
chmod 700 "$source_dir"
chmod 755 "$results"
if ! "$source_dir/referee" --root "$source_dir" grade @GAME@ "$base/submission" \
    --no-cache --format gradescope -o "$results/results.json" @OPTIONS@; then
  # referee printed why on stderr (shown to instructors); students get a plain message.
  cat > "$results/results.json" <<'JSON'
{"score": 0, "output": "The autograder could not grade this submission. Check that you uploaded only your .c (and .h) files, then resubmit or ask the course staff.", "tests": []}
JSON
fi
"#;

/// Writes the zip; the course's private cases (`project.private`) go in `private/`, and
/// `run_autograder` writes the results for `audience`.
pub fn write(
    project: &Project,
    game: &str,
    output: &Path,
    shipped: Option<&Path>,
    audience: Audience,
) -> Result<(), Error> {
    let fail = |what: String| Error::config(format!("{}: {what}", output.display()));
    let executable = match shipped {
        Some(path) => path.to_path_buf(),
        None => std::env::current_exe()
            .map_err(|e| fail(format!("cannot find the running referee executable: {e}")))?,
    };
    let binary = std::fs::read(&executable).map_err(|e| {
        Error::config(format!(
            "{}: cannot read the referee executable: {e}",
            executable.display()
        ))
    })?;
    if !binary.starts_with(b"\x7fELF") {
        return Err(Error::config(format!(
            "{}: not an executable (a Linux ELF file, such as the `referee` inside the release archive)",
            executable.display()
        )));
    }
    let mut data: Vec<(String, PathBuf)> = Vec::new();
    let private = project
        .private
        .as_ref()
        .map(|dir| dir.join("cases").join(game))
        .filter(|dir| dir.is_dir());
    let folders = [
        (
            project.root.join("specs").join(game),
            format!("specs/{game}"),
        ),
        (
            project.root.join("cases").join(game),
            format!("cases/{game}"),
        ),
    ]
    .into_iter()
    .chain(private.map(|dir| (dir, format!("private/cases/{game}"))));
    let mut options = format!("--audience {}", audience.as_str());
    for (root, name) in folders {
        collect(&root, &name, &mut data)
            .map_err(|e| fail(format!("cannot read {}: {e}", root.display())))?;
        if name.starts_with("private/") {
            options.push_str(" --private \"$source_dir/private\"");
        }
    }
    let file =
        File::create(output).map_err(|e| fail(format!("cannot create the zip file: {e}")))?;
    let mut zip = ZipWriter::new(file);
    let plain = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .unix_permissions(0o644);
    let executable_file = plain.unix_permissions(0o755);
    let mut add = |name: &str, bytes: &[u8], options: SimpleFileOptions| {
        zip.start_file(name, options)
            .map_err(|e| e.to_string())
            .and_then(|()| zip.write_all(bytes).map_err(|e| e.to_string()))
            .map_err(|e| fail(format!("cannot write {name} into the zip: {e}")))
    };
    add("setup.sh", SETUP.as_bytes(), executable_file)?;
    add(
        "run_autograder",
        RUN_AUTOGRADER
            .replace("@GAME@", game)
            .replace("@OPTIONS@", &options)
            .as_bytes(),
        executable_file,
    )?;
    add("referee", &binary, executable_file)?;
    for (name, path) in &data {
        let bytes = std::fs::read(path)
            .map_err(|e| fail(format!("cannot read {}: {e}", path.display())))?;
        add(name, &bytes, plain)?;
    }
    zip.finish()
        .map_err(|e| fail(format!("cannot finish the zip: {e}")))?;
    Ok(())
}

/// Every file under `dir`, named `prefix/relative/path`, in a stable order.
fn collect(dir: &Path, prefix: &str, out: &mut Vec<(String, PathBuf)>) -> std::io::Result<()> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)?.collect::<Result<_, _>>()?;
    entries.sort_by_key(|e| e.file_name());
    for entry in entries {
        let name = format!("{prefix}/{}", entry.file_name().to_string_lossy());
        if entry.file_type()?.is_dir() {
            collect(&entry.path(), &name, out)?;
        } else {
            out.push((name, entry.path()));
        }
    }
    Ok(())
}
