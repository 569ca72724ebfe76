//! No import cycle in `src/`: inside every folder module ("room", `src/` itself included), the
//! modules it holds (its files and sub-folders) refer to each other without a loop; `grade/`
//! is stricter: its rooms follow the pipeline's order. Only non-test code counts: a file's
//! `#[cfg(test)]` part and the `*tests.rs` files are left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// One source file: its module path (`grade::build::cache`; `[]` for lib.rs) and what its
/// non-test code refers to, as absolute module paths.
struct SourceFile {
    module: Vec<String>,
    references: Vec<Vec<String>>,
}

fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("a source folder") {
        let path = entry.expect("a folder entry").path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// `grade/build/cache.rs` is `grade::build::cache`; `grade/mod.rs` is `grade`.
fn module_path(relative: &Path) -> Vec<String> {
    let mut parts: Vec<String> = relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy().into_owned())
        .collect();
    let last = parts.pop().expect("a file name");
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Reads a path at `at` of `code` (`a::b::{c, d::e}`): every full path it names, as segments.
fn paths_at(code: &[char], at: &mut usize) -> Vec<Vec<String>> {
    let mut prefix = Vec::new();
    loop {
        while *at < code.len() && code[*at].is_whitespace() {
            *at += 1;
        }
        if *at < code.len() && code[*at] == '{' {
            *at += 1;
            let mut found = Vec::new();
            loop {
                while *at < code.len() && (code[*at].is_whitespace() || code[*at] == ',') {
                    *at += 1;
                }
                if *at >= code.len() || code[*at] == '}' {
                    *at += 1;
                    break;
                }
                let before = *at;
                for tail in paths_at(code, at) {
                    let mut full = prefix.clone();
                    full.extend(tail.into_iter().filter(|segment| segment != "self"));
                    found.push(full);
                }
                // Whatever else the group holds (`as name`): skip to the next item.
                while *at < code.len() && code[*at] != ',' && code[*at] != '}' {
                    *at += 1;
                }
                if *at == before {
                    *at += 1;
                }
            }
            return found;
        }
        if *at < code.len() && code[*at] == '*' {
            *at += 1;
            prefix.push("*".to_string());
            return vec![prefix];
        }
        let start = *at;
        while *at < code.len() && is_ident_char(code[*at]) {
            *at += 1;
        }
        if start == *at {
            return vec![prefix];
        }
        prefix.push(code[start..*at].iter().collect());
        if code.get(*at) == Some(&':') && code.get(*at + 1) == Some(&':') {
            *at += 2;
        } else {
            return vec![prefix];
        }
    }
}

/// The absolute module paths `code`, in module `module`, refers to through `crate::`,
/// `super::`, `self::`, or a bare module name of `nearby` (the modules of `scope`: a folder
/// module's children, a file's siblings).
fn references(
    code: &str,
    module: &[String],
    scope: &[String],
    nearby: &BTreeSet<String>,
) -> Vec<Vec<String>> {
    let chars: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let inside_a_word = i > 0 && (is_ident_char(chars[i - 1]) || chars[i - 1] == ':');
        if !is_ident_char(chars[i]) || inside_a_word {
            i += 1;
            continue;
        }
        let mut at = i;
        let paths = paths_at(&chars, &mut at);
        i = at.max(i + 1);
        for path in paths.into_iter().filter(|p| p.len() >= 2) {
            let (mut absolute, rest) = match path[0].as_str() {
                "crate" => (Vec::new(), &path[1..]),
                "self" => (module.to_vec(), &path[1..]),
                "super" => (module.to_vec(), &path[..]),
                name if nearby.contains(name) => (scope.to_vec(), &path[..]),
                _ => continue,
            };
            let mut rest = rest;
            while rest.first().is_some_and(|s| s == "super") {
                absolute.pop();
                rest = &rest[1..];
            }
            absolute.extend(rest.iter().cloned());
            found.push(absolute);
        }
    }
    found
}

/// The names the `[dependencies]` of `manifest` are imported by (`tree-sitter` as
/// `tree_sitter`).
fn dependency_crates(manifest: &Path) -> BTreeSet<String> {
    let text = std::fs::read_to_string(manifest).expect("Cargo.toml");
    let table: toml::Table = text.parse().expect("Cargo.toml is TOML");
    table
        .get("dependencies")
        .and_then(|d| d.as_table())
        .map(|d| d.keys().map(|name| name.replace('-', "_")).collect())
        .unwrap_or_default()
}

fn source_files(src: &Path) -> Vec<SourceFile> {
    let mut paths = Vec::new();
    rust_files(src, &mut paths);
    let relatives: Vec<PathBuf> = paths
        .iter()
        .map(|p| p.strip_prefix(src).expect("under src/").to_path_buf())
        .collect();
    let modules: BTreeSet<Vec<String>> = relatives.iter().map(|r| module_path(r)).collect();
    let crates = dependency_crates(&src.join("..").join("Cargo.toml"));
    let mut files = Vec::new();
    for (path, relative) in paths.iter().zip(&relatives) {
        let name = relative.file_name().and_then(|n| n.to_str()).unwrap_or("");
        let binary_root = name == "main.rs" && relative.components().count() == 1;
        if binary_root || name.ends_with("tests.rs") {
            continue;
        }
        let module = module_path(relative);
        let scope: Vec<String> = if name == "mod.rs" || name == "lib.rs" {
            module.clone()
        } else {
            module[..module.len() - 1].to_vec()
        };
        // A bare name that is also a dependency's (`similar::` in compare.rs is the diff
        // crate) is the crate's: a use of the module by that name goes through `crate::`.
        let nearby: BTreeSet<String> = modules
            .iter()
            .filter(|m| m.len() == scope.len() + 1 && m.starts_with(&scope))
            .map(|m| m[scope.len()].clone())
            .filter(|name| !crates.contains(name))
            .collect();
        let text = std::fs::read_to_string(path).expect("a readable source");
        let code = text.split("#[cfg(test)]").next().unwrap_or("");
        // Comments name modules too (`see judge::verdicts`) without depending on them.
        let code: String = code
            .lines()
            .map(|line| line.split("//").next().unwrap_or(""))
            .collect::<Vec<_>>()
            .join("\n");
        files.push(SourceFile {
            references: references(&code, &module, &scope, &nearby),
            module,
        });
    }
    files
}

/// The graph of one room: which of its modules (or `mod` for its own mod.rs / lib.rs) refers
/// to which.
fn room_graph(files: &[SourceFile], room: &[String]) -> BTreeMap<String, BTreeSet<String>> {
    let children: BTreeSet<String> = files
        .iter()
        .filter(|f| f.module.len() > room.len() && f.module.starts_with(room))
        .map(|f| f.module[room.len()].clone())
        .collect();
    let node = |path: &[String]| -> Option<String> {
        if !path.starts_with(room) {
            return None;
        }
        match path.get(room.len()) {
            Some(name) if children.contains(name) => Some(name.clone()),
            _ => Some("mod".to_string()),
        }
    };
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let Some(from) = node(&file.module) else {
            continue;
        };
        let targets = graph.entry(from.clone()).or_default();
        for reference in &file.references {
            // A path to the room itself (`use super::{self}`) names no item.
            if reference.len() <= room.len() {
                continue;
            }
            if let Some(to) = node(reference) {
                if to != from {
                    targets.insert(to);
                }
            }
        }
    }
    graph
}

/// A cycle through `start`, if there is one: the modules on it in order.
fn cycle_from(graph: &BTreeMap<String, BTreeSet<String>>, start: &str) -> Option<Vec<String>> {
    let mut stack = vec![(start.to_string(), vec![start.to_string()])];
    let mut seen = BTreeSet::new();
    while let Some((node, path)) = stack.pop() {
        for next in graph.get(&node).into_iter().flatten() {
            if next == start {
                let mut found = path.clone();
                found.push(start.to_string());
                return Some(found);
            }
            if seen.insert(next.clone()) {
                let mut longer = path.clone();
                longer.push(next.clone());
                stack.push((next.clone(), longer));
            }
        }
    }
    None
}

fn cycles(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    graph
        .keys()
        .filter_map(|module| cycle_from(graph, module))
        .map(|cycle| cycle.join(" -> "))
        .collect()
}

fn src_files() -> Vec<SourceFile> {
    source_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

fn path(text: &str) -> Vec<String> {
    if text.is_empty() {
        return Vec::new();
    }
    text.split("::").map(String::from).collect()
}

#[test]
fn top_level_modules_import_each_other_without_a_cycle() {
    let graph = room_graph(&src_files(), &[]);
    assert!(graph.contains_key("grade") && graph.contains_key("report"));
    assert!(graph["grade"].contains("games"), "grade refers to games");
    let found = cycles(&graph);
    assert!(found.is_empty(), "import cycles: {found:?}");
}

#[test]
fn grade_is_rooms_along_the_pipeline_without_a_cycle() {
    let files = src_files();
    let graph = room_graph(&files, &path("grade"));
    for room in ["intake", "build", "run", "judge", "score"] {
        assert!(
            graph.contains_key(room),
            "grade/ has no {room} room: {graph:?}"
        );
    }
    // The pipeline's order: a room refers to the rooms of earlier steps only (the build runs
    // the compiler in the sandbox, so run/ comes before build/ in this order).
    let order = [
        "digest", "intake", "run", "build", "grader", "judge", "score", "mod",
    ];
    for (from, targets) in &graph {
        let from_at = order.iter().position(|r| r == from);
        for to in targets {
            let to_at = order.iter().position(|r| r == to);
            assert!(
                from_at.is_some() && to_at.is_some() && to_at < from_at,
                "grade::{from} refers to grade::{to}, a later step (order: {order:?})"
            );
        }
    }
    assert!(cycles(&graph).is_empty());
}

#[test]
fn no_room_has_a_cycle_inside() {
    let files = src_files();
    let rooms: BTreeSet<Vec<String>> = files
        .iter()
        .flat_map(|f| (0..f.module.len()).map(|n| f.module[..n].to_vec()))
        .collect();
    assert!(rooms.contains(&path("grade::build")) && rooms.contains(&path("games::ludo::check")));
    let mut found = Vec::new();
    for room in &rooms {
        // A folder module's own mod.rs holds what its modules share and strings them
        // together: the cycles that count are between the modules themselves.
        let mut graph = room_graph(&files, room);
        graph.remove("mod");
        for targets in graph.values_mut() {
            targets.remove("mod");
        }
        for cycle in cycles(&graph) {
            found.push(format!("in {}: {cycle}", room.join("::")));
        }
    }
    assert!(found.is_empty(), "import cycles inside rooms: {found:#?}");
}

#[test]
fn paths_are_read_with_their_groups_and_resolved_from_the_file() {
    let nearby: BTreeSet<String> = ["cache", "compile"].map(String::from).into();
    let module = path("grade::build::compile");
    let code = "use super::{cache::BuildCache, built::{self, Built}};\n\
                use crate::grade::run::sandbox::{self as sb, Bind};\n\
                fn f() { cache::key(); std::mem::take(); super::super::digest::key(); }";
    let found: BTreeSet<String> = references(code, &module, &path("grade::build"), &nearby)
        .into_iter()
        .map(|p| p.join("::"))
        .collect();
    for expected in [
        "grade::build::cache::BuildCache",
        "grade::build::built",
        "grade::build::built::Built",
        "grade::run::sandbox",
        "grade::run::sandbox::Bind",
        "grade::build::cache::key",
        "grade::digest::key",
    ] {
        assert!(found.contains(expected), "{expected} not in {found:?}");
    }
    assert!(!found.iter().any(|p| p.starts_with("std")), "{found:?}");
}

#[test]
fn the_cycle_finder_finds_a_loop() {
    let graph: BTreeMap<String, BTreeSet<String>> = [
        ("a", vec!["b"]),
        ("b", vec!["c"]),
        ("c", vec!["a"]),
        ("d", vec!["a"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v.into_iter().map(String::from).collect()))
    .collect();
    assert_eq!(
        cycle_from(&graph, "a"),
        Some(vec!["a".into(), "b".into(), "c".into(), "a".into()])
    );
    assert_eq!(cycle_from(&graph, "d"), None);
}
