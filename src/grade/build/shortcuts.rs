//! Ways past the C compiler's driver that give the same bytes as going through it, learned
//! once per referee process: a link runs the linker itself on the command line the driver
//! would give it (asked with `-###`, the LTO plugin left out: objects with LTO code go through
//! the driver); `-lm` is left out of a link whose objects use nothing libm defines (the
//! driver links with `--as-needed`, so libm would not be kept anyway); compiles pipe the
//! assembly to the assembler (`-pipe`) instead of writing a temporary file.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

use object::{Object, ObjectSection, ObjectSymbol};

use crate::grade::run::sandbox::TOOL_PATH;

/// Where a link's per-build paths (output, objects, the workspace) stand in a learned line.
const SLOT_PREFIX: &str = "/referee-slot/";
/// The flag that makes a compile pipe its assembly.
pub const PIPE: &str = "-pipe";

/// Runs the driver with these arguments: `Some((stdout, stderr))` when it exits with 0.
pub type Driver<'a> = dyn Fn(&[String]) -> Option<(String, String)> + 'a;

/// What the shortcuts learned so far, and how often they were taken.
#[derive(Default)]
pub struct Shortcuts {
    /// The linker's command line per driver link line (its per-build paths in slots);
    /// `None` where the driver's line could not be learned.
    lines: Mutex<HashMap<Vec<String>, Option<Vec<LineArg>>>>,
    /// The linker collect2 would run; `None` when it cannot be told.
    linker: OnceLock<Option<PathBuf>>,
    /// The symbols libm (`-lm`) defines; `None` when they cannot be read.
    libm: OnceLock<Option<SymbolNames>>,
    direct_links: AtomicUsize,
    libm_left_out: AtomicUsize,
}

impl std::fmt::Debug for Shortcuts {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shortcuts")
            .field("direct_links", &self.direct_links())
            .field("libm_left_out", &self.libm_left_out())
            .finish()
    }
}

/// One argument of a learned linker command line.
#[derive(Debug, Clone, PartialEq)]
enum LineArg {
    Fixed(String),
    /// The driver argument at this index.
    Slot(usize),
}

impl Shortcuts {
    /// Links handed to the linker itself so far (one that fails is made again by the driver).
    pub fn direct_links(&self) -> usize {
        self.direct_links.load(Ordering::Relaxed)
    }

    /// Linker command lines made without `-lm` so far.
    pub fn libm_left_out(&self) -> usize {
        self.libm_left_out.load(Ordering::Relaxed)
    }

    /// The linker `command` without its `-lm` where that leaves the same output: `-lm` is
    /// there once, under `--as-needed`, after no other library, and none of the symbols the
    /// line's objects leave undefined is one libm defines (so libm would not be kept).
    fn without_unused_libm(&self, mut command: Vec<String>, driver: &Driver) -> Vec<String> {
        let mut at = command.iter().enumerate().filter(|(_, arg)| *arg == "-lm");
        let (Some((libm_at, _)), None) = (at.next(), at.next()) else {
            return command;
        };
        if !as_needed_before(&command[..libm_at])
            || command
                .iter()
                .any(|arg| arg == "-static" || arg == "-Bstatic")
        {
            return command;
        }
        let Some(libm) = self.libm.get_or_init(|| libm_symbols(driver)) else {
            return command;
        };
        let objects: Vec<PathBuf> = command
            .iter()
            .filter(|arg| arg.ends_with(".o") && !arg.starts_with('-'))
            .map(PathBuf::from)
            .collect();
        let Some((undefined, defined)) = symbols(&objects) else {
            return command;
        };
        if undefined
            .iter()
            .all(|name| defined.contains(name) || !libm.contains(name))
        {
            command.remove(libm_at);
            self.libm_left_out.fetch_add(1, Ordering::Relaxed);
        }
        command
    }

    /// The linker and its arguments for the driver link `args`, whose arguments at `slots`
    /// are the paths that change from build to build (output, objects, workspace); `None`
    /// where the driver must link (an input is not an object, holds LTO code, or the
    /// driver's line cannot be learned).
    pub fn linker_command(
        &self,
        args: &[String],
        slots: &[usize],
        driver: &Driver,
    ) -> Option<(PathBuf, Vec<String>)> {
        let objects: Vec<PathBuf> = slots
            .iter()
            .map(|&i| &args[i])
            .filter(|arg| arg.ends_with(".o"))
            .map(PathBuf::from)
            .collect();
        if objects.iter().any(|object| !is_plain_object(object))
            || args
                .iter()
                .any(|arg| arg.ends_with(".c") || arg.starts_with("-B"))
        {
            return None;
        }
        let linker = self.linker.get_or_init(|| find_linker(driver)).clone()?;
        let shape = with_slots(args, slots);
        let line = {
            let mut lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
            lines
                .entry(shape.clone())
                .or_insert_with(|| learn_line(&shape, driver))
                .clone()?
        };
        let command = line
            .iter()
            .map(|arg| match arg {
                LineArg::Fixed(text) => text.clone(),
                LineArg::Slot(i) => args[*i].clone(),
            })
            .collect();
        self.direct_links.fetch_add(1, Ordering::Relaxed);
        Some((linker, self.without_unused_libm(command, driver)))
    }
}

/// Whether `--as-needed` holds at the end of `args` (linker arguments) and no library came
/// before: object files and options only.
fn as_needed_before(args: &[String]) -> bool {
    let (mut as_needed, mut pushed) = (false, Vec::new());
    let mut args = args.iter();
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--as-needed" => as_needed = true,
            "--no-as-needed" => as_needed = false,
            "--push-state" => pushed.push(as_needed),
            "--pop-state" => as_needed = pushed.pop().unwrap_or(false),
            "-dynamic-linker" | "-m" | "-o" | "-z" => {
                args.next();
            }
            library if library.starts_with("-l") => return false,
            option if option.starts_with('-') => {}
            object if object.ends_with(".o") => {}
            _ => return false,
        }
    }
    as_needed
}

/// The placeholder of the driver argument at `index` (keeping its extension, which tells the
/// driver what kind of input it is).
fn slot_name(index: usize, arg: &str) -> String {
    let extension = Path::new(arg)
        .extension()
        .map(|e| format!(".{}", e.to_string_lossy()))
        .unwrap_or_default();
    format!("{SLOT_PREFIX}{index}{extension}")
}

fn with_slots(args: &[String], slots: &[usize]) -> Vec<String> {
    let mut shape = args.to_vec();
    for &i in slots {
        shape[i] = slot_name(i, &args[i]);
    }
    shape
}

/// The linker's arguments for the driver line `shape`: the collect2 line of `-###`, asked
/// twice (a line naming temporary files differs and is refused), without the LTO plugin's
/// arguments; `None` when that line holds anything collect2 acts on itself (`-f...`) or a
/// slot anywhere but as a whole argument.
fn learn_line(shape: &[String], driver: &Driver) -> Option<Vec<LineArg>> {
    let ask = || {
        let mut args = vec!["-###".to_string()];
        args.extend(shape.iter().cloned());
        let (_, stderr) = driver(&args)?;
        collect2_args(&stderr)
    };
    let line = ask()?;
    if ask()? != line {
        return None;
    }
    let slots: HashMap<String, usize> = shape
        .iter()
        .enumerate()
        .filter(|(_, arg)| arg.starts_with(SLOT_PREFIX))
        .map(|(i, arg)| (arg.clone(), i))
        .collect();
    let mut learned = Vec::with_capacity(line.len());
    for arg in line {
        if let Some(&i) = slots.get(&arg) {
            learned.push(LineArg::Slot(i));
        } else if arg.contains(SLOT_PREFIX) || arg.starts_with("-f") {
            return None;
        } else {
            learned.push(LineArg::Fixed(arg));
        }
    }
    Some(learned)
}

/// The arguments (after the program) of the collect2 command in the driver's `-###` output,
/// without `-plugin FILE` and `-plugin-opt=...`; `None` without exactly one such line.
fn collect2_args(output: &str) -> Option<Vec<String>> {
    let mut lines = output
        .lines()
        .filter_map(|line| line.strip_prefix(' ').and_then(split_quoted))
        .filter(|args| {
            args.first()
                .is_some_and(|program| Path::new(program).file_name() == Some("collect2".as_ref()))
        });
    let args = lines.next()?;
    if lines.next().is_some() {
        return None;
    }
    let mut kept = Vec::with_capacity(args.len());
    let mut rest = args.into_iter().skip(1);
    while let Some(arg) = rest.next() {
        if arg == "-plugin" {
            rest.next()?;
        } else if !arg.starts_with("-plugin-opt=") {
            kept.push(arg);
        }
    }
    Some(kept)
}

/// A command line as the driver prints it for `-###`: arguments separated by one space, in
/// double quotes (with `\` before `"`, `\` and `$`) when they hold anything but letters,
/// digits and `_/-.`; `None` for anything else.
fn split_quoted(line: &str) -> Option<Vec<String>> {
    let mut args = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        let mut arg = String::new();
        if chars.peek() == Some(&'"') {
            chars.next();
            loop {
                match chars.next()? {
                    '"' => break,
                    '\\' => arg.push(chars.next()?),
                    c => arg.push(c),
                }
            }
        } else {
            while let Some(&c) = chars.peek() {
                if c == ' ' {
                    break;
                }
                if !(c.is_ascii_alphanumeric() || "_/-.".contains(c)) {
                    return None;
                }
                arg.push(c);
                chars.next();
            }
            if arg.is_empty() {
                return None;
            }
        }
        args.push(arg);
        match chars.next() {
            None => return Some(args),
            Some(' ') => {}
            Some(_) => return None,
        }
    }
}

/// The linker collect2 runs: no `real-ld` among the compiler's programs, and `ld` there or
/// else in the `PATH` compiles run with.
fn find_linker(driver: &Driver) -> Option<PathBuf> {
    let program = |name: &str| {
        let (stdout, _) = driver(&[format!("-print-prog-name={name}")])?;
        Some(stdout.trim_end_matches('\n').to_string())
    };
    if program("real-ld")? != "real-ld" {
        return None;
    }
    let ld = PathBuf::from(program("ld")?);
    if ld.is_absolute() {
        return ld.is_file().then_some(ld);
    }
    if ld.components().count() != 1 {
        return None;
    }
    TOOL_PATH
        .split(':')
        .map(|folder| Path::new(folder).join(&ld))
        .find(|candidate| candidate.is_file())
}

/// Whether `path` is an ELF relocatable object without link-time optimisation code.
fn is_plain_object(path: &Path) -> bool {
    let Ok(bytes) = std::fs::read(path) else {
        return false;
    };
    let Ok(file) = object::File::parse(&*bytes) else {
        return false;
    };
    file.kind() == object::ObjectKind::Relocatable
        && !file
            .sections()
            .any(|s| s.name().is_ok_and(|name| name.starts_with(".gnu.lto_")))
}

/// Names of symbols.
type SymbolNames = HashSet<Vec<u8>>;

/// The global symbols `inputs` leave undefined and those they define; `None` when an input is
/// not a plain object.
fn symbols(inputs: &[PathBuf]) -> Option<(SymbolNames, SymbolNames)> {
    let (mut undefined, mut defined) = (HashSet::new(), HashSet::new());
    for input in inputs {
        if !is_plain_object(input) {
            return None;
        }
        let bytes = std::fs::read(input).ok()?;
        let file = object::File::parse(&*bytes).ok()?;
        for symbol in file.symbols().filter(|s| !s.is_local()) {
            let name = symbol.name_bytes().ok()?.to_vec();
            if symbol.is_undefined() {
                undefined.insert(name);
            } else {
                defined.insert(name);
            }
        }
    }
    Some((undefined, defined))
}

/// The dynamic symbols of the libraries `-lm` names, as the driver finds `libm.so` (a shared
/// object, or a linker script naming shared objects by absolute path).
fn libm_symbols(driver: &Driver) -> Option<SymbolNames> {
    let (stdout, _) = driver(&["-print-file-name=libm.so".to_string()])?;
    let path = PathBuf::from(stdout.trim_end_matches('\n'));
    let bytes = std::fs::read(&path).ok()?;
    let libraries = if bytes.starts_with(b"\x7fELF") {
        vec![path]
    } else {
        script_inputs(&String::from_utf8(bytes).ok()?)?
    };
    let mut names = HashSet::new();
    for library in libraries {
        let bytes = std::fs::read(library).ok()?;
        let file = object::File::parse(&*bytes).ok()?;
        if file.kind() != object::ObjectKind::Dynamic {
            return None;
        }
        for symbol in file.dynamic_symbols().filter(|s| !s.is_undefined()) {
            names.insert(symbol.name_bytes().ok()?.to_vec());
        }
    }
    Some(names)
}

/// The files a linker script such as glibc's `libm.so` names: `GROUP`, `INPUT` and
/// `AS_NEEDED` of absolute paths, beside comments and `OUTPUT_FORMAT`; `None` for anything
/// else.
fn script_inputs(script: &str) -> Option<Vec<PathBuf>> {
    let mut text = String::new();
    let mut rest = script;
    while let Some(start) = rest.find("/*") {
        text.push_str(&rest[..start]);
        rest = &rest[start + 2..];
        rest = &rest[rest.find("*/")? + 2..];
    }
    text.push_str(rest);
    let mut files = Vec::new();
    let mut tokens = text
        .split(|c: char| c.is_whitespace() || c == '(' || c == ')' || c == ',')
        .filter(|token| !token.is_empty());
    while let Some(token) = tokens.next() {
        match token {
            "GROUP" | "INPUT" | "AS_NEEDED" => {}
            "OUTPUT_FORMAT" => {
                tokens.next()?;
            }
            path if path.starts_with('/') => files.push(PathBuf::from(path)),
            _ => return None,
        }
    }
    (!files.is_empty()).then_some(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DRIVER_LINE: &str = r#"COLLECT_GCC_OPTIONS='-o' '/w/p'
 /usr/lib/gcc/x86_64-linux-gnu/12/collect2 -plugin /usr/lib/gcc/x86_64-linux-gnu/12/liblto_plugin.so "-plugin-opt=/usr/lib/gcc/x86_64-linux-gnu/12/lto-wrapper" "-plugin-opt=-fresolution=/tmp/cc87yPeh.res" --build-id -m elf_x86_64 "--hash-style=gnu" -o /referee-slot/3 /usr/lib/crt1.o /referee-slot/4.o -lm "--wrap=time" "a \"b\" \\ \$"
"#;

    #[test]
    fn the_collect2_line_is_read_without_the_plugin() {
        let args = collect2_args(DRIVER_LINE).expect("a collect2 line");
        assert_eq!(
            args,
            [
                "--build-id",
                "-m",
                "elf_x86_64",
                "--hash-style=gnu",
                "-o",
                "/referee-slot/3",
                "/usr/lib/crt1.o",
                "/referee-slot/4.o",
                "-lm",
                "--wrap=time",
                "a \"b\" \\ $",
            ]
        );
        let twice = format!("{DRIVER_LINE}{DRIVER_LINE}");
        assert_eq!(collect2_args(&twice), None);
        assert_eq!(
            collect2_args("COLLECT_GCC=gcc\n /usr/bin/as -o x.o\n"),
            None
        );
        assert_eq!(split_quoted("a  b"), None);
        assert_eq!(split_quoted("a \"b"), None);
        assert_eq!(split_quoted("a=b"), None);
    }

    #[test]
    fn a_line_is_learned_only_when_the_driver_says_the_same_twice_and_collect2_adds_nothing() {
        let shape: Vec<String> = ["-std=gnu17", "-o", "/referee-slot/2", "/referee-slot/3.o"]
            .map(String::from)
            .to_vec();
        let line = |tail: &'static str| {
            move |_: &[String]| {
                Some((
                    String::new(),
                    format!(" /x/collect2 -plugin p -o /referee-slot/2 /referee-slot/3.o {tail}\n"),
                ))
            }
        };
        assert_eq!(
            learn_line(&shape, &line("-lc")),
            Some(vec![
                LineArg::Fixed("-o".into()),
                LineArg::Slot(2),
                LineArg::Slot(3),
                LineArg::Fixed("-lc".into()),
            ])
        );
        assert_eq!(learn_line(&shape, &line("-fuse-ld=gold")), None);
        assert_eq!(learn_line(&shape, &line("-L/referee-slot/2/lib")), None);
        let asked = std::cell::Cell::new(0);
        let temporary = |_: &[String]| {
            asked.set(asked.get() + 1);
            Some((
                String::new(),
                format!(" /x/collect2 /tmp/cc{}.o\n", asked.get()),
            ))
        };
        assert_eq!(learn_line(&shape, &temporary), None);
    }

    #[test]
    fn libm_may_be_left_out_only_under_as_needed_and_before_any_library() {
        let args = |line: &str| line.split(' ').map(String::from).collect::<Vec<_>>();
        let plain = "--as-needed -dynamic-linker /lib64/ld-linux-x86-64.so.2 -pie -o /w/p /c/Scrt1.o -L/l /w/a.o";
        assert!(as_needed_before(&args(plain)));
        for refused in [
            "--build-id -o /w/p /w/a.o",
            "--as-needed --push-state --no-as-needed -lasan --pop-state /w/a.o",
            "--as-needed --push-state --no-as-needed --pop-state --no-as-needed /w/a.o",
            "--as-needed /w/libx.so /w/a.o",
            "--as-needed /w/libx.a",
        ] {
            assert!(!as_needed_before(&args(refused)), "{refused}");
        }
        assert!(as_needed_before(&args(
            "--as-needed --push-state --no-as-needed --pop-state /w/a.o"
        )));
    }

    #[test]
    fn glibc_s_libm_script_names_its_libraries() {
        let script = "/* GNU ld script\n*/\nOUTPUT_FORMAT(elf64-x86-64)\nGROUP ( /lib/x86_64-linux-gnu/libm.so.6  AS_NEEDED ( /lib/x86_64-linux-gnu/libmvec.so.1 ) )\n";
        assert_eq!(
            script_inputs(script),
            Some(vec![
                PathBuf::from("/lib/x86_64-linux-gnu/libm.so.6"),
                PathBuf::from("/lib/x86_64-linux-gnu/libmvec.so.1"),
            ])
        );
        assert_eq!(script_inputs("GROUP ( libm.so.6 )"), None);
        assert_eq!(
            script_inputs("SEARCH_DIR(/lib) GROUP ( /lib/libm.so.6 )"),
            None
        );
        assert_eq!(script_inputs("/* nothing */"), None);
    }
}
