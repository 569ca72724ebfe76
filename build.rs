//! Records the target triple so referee can ask the `cc` crate for the C compiler at run time
//! (the crate reads TARGET/HOST, which only build scripts see), and builds the sandbox's
//! launcher (`src/grade/launcher.c`), which referee embeds and starts for every run.
use std::path::PathBuf;

fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    let host = std::env::var("HOST").unwrap_or_default();
    println!("cargo:rustc-env=REFEREE_TARGET={target}");
    println!("cargo:rustc-env=REFEREE_HOST={host}");
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=src/grade/launcher.c");

    let out = PathBuf::from(std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let launcher = out.join("launcher");
    let compiler = cc::Build::new().opt_level(2).get_compiler();
    // Static when the C library allows it: the launcher then starts without the dynamic
    // loader, which is most of its own cost.
    let build = |extra: &[&str]| {
        let mut command = compiler.to_command();
        command
            .args(["-O2", "-Wall", "-Wextra", "-o"])
            .arg(&launcher)
            .arg("src/grade/launcher.c")
            .args(extra);
        command.status().is_ok_and(|s| s.success())
    };
    if !build(&["-static"]) && !build(&[]) {
        panic!(
            "cannot compile src/grade/launcher.c with {:?}",
            compiler.path()
        );
    }
}
