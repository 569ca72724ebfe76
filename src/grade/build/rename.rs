//! One compile of a student's file serves both binaries: the unit-test harness links the
//! program's objects with the student's `main` renamed in their symbol tables, where the spec
//! asks for no more than that rename (`-Dmain=NAME`).

use object::build::elf::Builder;

/// The name the student's `main` takes in the harness build when the spec's harness flags
/// do nothing but rename it (`["-Dmain=NAME"]`); `None` when they change the source in
/// other ways (say `-DTEST_MAIN`, which a template's `#ifndef` turns into other code): the
/// files are then compiled again with those flags.
pub fn main_renamed_to(harness_flags: &[String]) -> Option<&str> {
    let [flag] = harness_flags else {
        return None;
    };
    let name = flag.strip_prefix("-Dmain=")?;
    let identifier = name.chars().next().is_some_and(|c| !c.is_ascii_digit())
        && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    identifier.then_some(name)
}

/// `object` (an ELF relocatable file) with every symbol named `from` (defined or referred
/// to, global or local) named `to`: what `-Dfrom=to` does to the symbols. `Err` when that
/// would not give the same object as a compile with `-Dfrom=to`: the file already has a
/// symbol `to` (that compile would have failed on a redefinition), carries link-time
/// optimisation code (whose symbols the ELF symbol table does not hold), or holds sections
/// the rewriter does not know.
pub fn rename_symbol(object: &[u8], from: &str, to: &str) -> Result<Vec<u8>, String> {
    let mut builder = Builder::read(object).map_err(|e| e.to_string())?;
    if builder
        .sections
        .iter()
        .any(|section| section.name.starts_with(b".gnu.lto_"))
    {
        return Err("the object holds link-time optimisation code".into());
    }
    if builder
        .symbols
        .iter()
        .any(|symbol| &*symbol.name == to.as_bytes())
    {
        return Err(format!("the object already has a symbol {to}"));
    }
    for symbol in builder.symbols.iter_mut() {
        if &*symbol.name == from.as_bytes() {
            symbol.name = to.as_bytes().to_vec().into();
        }
    }
    let mut renamed = Vec::with_capacity(object.len() + to.len());
    builder.write(&mut renamed).map_err(|e| e.to_string())?;
    Ok(renamed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use object::{Object, ObjectSymbol};
    use std::path::Path;
    use std::process::Command;

    fn strings(flags: &[&str]) -> Vec<String> {
        flags.iter().map(|f| f.to_string()).collect()
    }

    #[test]
    fn only_a_bare_rename_of_main_is_done_on_the_object() {
        assert_eq!(
            main_renamed_to(&strings(&["-Dmain=student_main"])),
            Some("student_main")
        );
        for other in [
            &["-DTEST_MAIN"][..],
            &["-Dmain=student_main", "-DTEST_MAIN"],
            &["-Dmain="],
            &["-Dmain=1x"],
            &["-Dmain=f()"],
            &["-Dmain"],
            &[],
        ] {
            assert_eq!(main_renamed_to(&strings(other)), None, "{other:?}");
        }
    }

    fn gcc(dir: &Path, args: &[&str]) {
        let status = Command::new("cc")
            .current_dir(dir)
            .args(args)
            .status()
            .expect("run cc");
        assert!(status.success(), "cc {args:?}");
    }

    /// The (name, defined) pairs of an object's symbols named `name`.
    fn symbols_named(bytes: &[u8], name: &str) -> Vec<bool> {
        let file = object::File::parse(bytes).expect("an object");
        file.symbols()
            .filter(|s| s.name() == Ok(name))
            .map(|s| !s.is_undefined())
            .collect()
    }

    #[test]
    fn a_renamed_main_links_beside_another_main_and_its_callers_follow_it() {
        let dir = tempfile::tempdir().expect("tempdir");
        // main calls itself (students restart a game that way) and is called from another
        // file: every reference goes to the renamed symbol.
        std::fs::write(
            dir.path().join("student.c"),
            "#include <stdio.h>\nint restarts;\nint main(void) { if (restarts++ < 2) return main(); printf(\"student %d\\n\", restarts); return 0; }\n",
        )
        .expect("write");
        std::fs::write(
            dir.path().join("harness.c"),
            "#include <stdio.h>\nint student_main(void);\nint main(void) { printf(\"harness\\n\"); return student_main(); }\n",
        )
        .expect("write");
        for flags in [&["-c"][..], &["-c", "-g", "-fsanitize=address,undefined"]] {
            let mut args = flags.to_vec();
            args.extend(["student.c", "-o", "student.o"]);
            gcc(dir.path(), &args);
            let object = std::fs::read(dir.path().join("student.o")).expect("read");
            let renamed = rename_symbol(&object, "main", "student_main").expect("renamed");
            assert!(symbols_named(&renamed, "main").is_empty());
            assert_eq!(symbols_named(&renamed, "student_main"), [true]);
            std::fs::write(dir.path().join("renamed.o"), renamed).expect("write");
            let mut link = flags[1..].to_vec();
            link.extend(["harness.c", "renamed.o", "-o", "both"]);
            gcc(dir.path(), &link);
            let out = Command::new(dir.path().join("both")).output().expect("run");
            assert_eq!(
                String::from_utf8_lossy(&out.stdout),
                "harness\nstudent 3\n",
                "{flags:?}"
            );
        }
    }

    #[test]
    fn objects_the_rename_would_not_reproduce_are_refused() {
        let dir = tempfile::tempdir().expect("tempdir");
        std::fs::write(
            dir.path().join("own.c"),
            "int student_main(void) { return 1; }\nint main(void) { return student_main(); }\n",
        )
        .expect("write");
        gcc(dir.path(), &["-c", "own.c", "-o", "own.o"]);
        let own = std::fs::read(dir.path().join("own.o")).expect("read");
        assert!(rename_symbol(&own, "main", "student_main").is_err());

        std::fs::write(dir.path().join("lto.c"), "int main(void) { return 0; }\n").expect("write");
        gcc(dir.path(), &["-c", "-flto", "lto.c", "-o", "lto.o"]);
        let lto = std::fs::read(dir.path().join("lto.o")).expect("read");
        assert!(rename_symbol(&lto, "main", "student_main").is_err());

        assert!(rename_symbol(b"not an object", "main", "student_main").is_err());
    }
}
