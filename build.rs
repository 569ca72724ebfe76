//! Records the target triple so referee can ask the `cc` crate for the C compiler at run time
//! (the crate reads TARGET/HOST, which only build scripts see), and builds the sandbox's
//! launcher (`src/grade/run/sandbox/launcher.c`), which referee embeds and starts for every run,
//! and lists the data folders (`specs/`, `cases/`, `reference/`) for `assignment::embedded`,
//! which compiles them into the binary.
use std::path::{Path, PathBuf};

/// The folders of the project compiled into the binary.
const DATA_FOLDERS: [&str; 3] = ["specs", "cases", "reference"];

/// Every file under `folder`, as paths relative to `root`, sorted.
fn files_under(root: &Path, folder: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(root.join(folder)) else {
        return;
    };
    for entry in entries.flatten() {
        let relative = folder.join(entry.file_name());
        match entry.file_type() {
            Ok(kind) if kind.is_dir() => files_under(root, &relative, found),
            Ok(kind) if kind.is_file() => found.push(relative),
            _ => {}
        }
    }
}

/// Writes `embedded.rs`: `FILES`, each data file's relative path and bytes.
fn embed_data(out: &Path) {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets it"));
    let mut files = Vec::new();
    for folder in DATA_FOLDERS {
        println!("cargo:rerun-if-changed={folder}");
        files_under(&root, Path::new(folder), &mut files);
    }
    files.sort();
    let mut code = String::from("pub static FILES: &[(&str, &[u8])] = &[\n");
    for file in &files {
        let relative = file.to_str().expect("data file names are UTF-8");
        let absolute = root.join(file);
        code.push_str(&format!(
            "    ({relative:?}, include_bytes!({:?})),\n",
            absolute.to_str().expect("the checkout's path is UTF-8")
        ));
    }
    code.push_str("];\n");
    std::fs::write(out.join("embedded.rs"), code).expect("write embedded.rs");
}

fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    let host = std::env::var("HOST").unwrap_or_default();
    println!("cargo:rustc-env=REFEREE_TARGET={target}");
    println!("cargo:rustc-env=REFEREE_HOST={host}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/grade/run/sandbox/launcher.c");

    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    embed_data(&out);
    let launcher = out.join("launcher");
    let compiler = cc::Build::new().opt_level(2).get_compiler();
    // Static when the C library allows it: the launcher then starts without the dynamic
    // loader, which is most of its own cost.
    let build = |extra: &[&str]| {
        let mut command = compiler.to_command();
        command
            .args(["-O2", "-Wall", "-Wextra", "-o"])
            .arg(&launcher)
            .arg("src/grade/run/sandbox/launcher.c")
            .args(extra);
        command.status().is_ok_and(|s| s.success())
    };
    if !build(&["-static"]) && !build(&[]) {
        panic!(
            "cannot compile src/grade/run/sandbox/launcher.c with {:?}",
            compiler.path()
        );
    }
}
