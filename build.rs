//! Records the target triple so referee can ask the `cc` crate for the C compiler at run time
//! (the crate reads TARGET/HOST, which only build scripts see).
fn main() {
    let target = std::env::var("TARGET").unwrap_or_default();
    let host = std::env::var("HOST").unwrap_or_default();
    println!("cargo:rustc-env=REFEREE_TARGET={target}");
    println!("cargo:rustc-env=REFEREE_HOST={host}");
    println!("cargo:rerun-if-changed=build.rs");
}
