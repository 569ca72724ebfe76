//! `referee similar` on a generated class: the project's model solutions and samples, second
//! Reversi and Othello solutions written apart from the models, and copies of each disguised
//! the ways students disguise copies (every identifier renamed, functions reordered, comments
//! and spacing rewritten, dead code added, a function split). Every disguised copy must rank above
//! every pair of independently written programs; the course's template must not make two
//! students look alike; the HTML report must show its marked regions in a real browser.
//!
//! The project's samples (tests/submissions/<game>/) are its model solution with one bug put
//! in, so they are copies too. The independent pairs are the pairs of programs from different
//! origins: different games (Reversi's Lab 6 and Othello's hw5 play by the same rules and were
//! written apart), and the same game from its two solutions (reference/<game>/ and
//! tests/similar/independent/<game>/ for Reversi and Othello; the second must keep full marks
//! to count as a solution).

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::*;
use serde_json::Value;
use tree_sitter::{Node, Parser, Tree};

fn parse(source: &str) -> Tree {
    let mut parser = Parser::new();
    parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .expect("the C grammar loads");
    parser.parse(source, None).expect("tree-sitter parses")
}

fn each_node<'t>(node: Node<'t>, visit: &mut dyn FnMut(Node<'t>)) {
    visit(node);
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        each_node(child, visit);
    }
}

/// `source` with the byte ranges replaced (ranges do not overlap).
fn replaced(source: &str, mut edits: Vec<(usize, usize, String)>) -> String {
    edits.sort_by_key(|(start, ..)| std::cmp::Reverse(*start));
    let mut out = source.to_string();
    for (start, end, text) in edits {
        out.replace_range(start..end, &text);
    }
    out
}

/// Every identifier (variables, functions, fields, types, library calls alike) renamed.
fn rename_identifiers(source: &str) -> String {
    let tree = parse(source);
    let mut names: BTreeMap<String, String> = BTreeMap::new();
    let mut edits = Vec::new();
    each_node(tree.root_node(), &mut |node| {
        if matches!(
            node.kind(),
            "identifier" | "field_identifier" | "type_identifier"
        ) {
            let old = &source[node.byte_range()];
            let count = names.len();
            let new = names
                .entry(old.to_string())
                .or_insert_with(|| format!("zq{count}_{}", old.len()))
                .clone();
            edits.push((node.start_byte(), node.end_byte(), new));
        }
    });
    replaced(source, edits)
}

/// The file's function definitions in reverse order, everything else in place.
fn reorder_functions(source: &str) -> String {
    let tree = parse(source);
    let root = tree.root_node();
    let mut cursor = root.walk();
    let functions: Vec<(usize, usize)> = root
        .children(&mut cursor)
        .filter(|n| n.kind() == "function_definition")
        .map(|n| (n.start_byte(), n.end_byte()))
        .collect();
    let edits = functions
        .iter()
        .zip(functions.iter().rev())
        .map(|(&(start, end), &(from, to))| (start, end, source[from..to].to_string()))
        .collect();
    replaced(source, edits)
}

/// Comments rewritten and the layout redone: tokens one space apart, a line break after
/// `;`, `{` and `}`, a blank line after each function.
fn rewrite_layout(source: &str) -> String {
    let tree = parse(source);
    let mut out = String::new();
    let mut comments = 0;
    let lines: Vec<&str> = source.lines().collect();
    let mut pending = vec![tree.root_node()];
    while let Some(node) = pending.pop() {
        let kind = node.kind();
        let whole = matches!(
            kind,
            "string_literal" | "char_literal" | "system_lib_string" | "comment" | "preproc_arg"
        );
        if node.child_count() > 0 && !whole {
            let mut cursor = node.walk();
            let children: Vec<Node> = node.children(&mut cursor).collect();
            pending.extend(children.into_iter().rev());
            continue;
        }
        let text = &source[node.byte_range()];
        if kind == "comment" {
            comments += 1;
            out.push_str(&format!("\n// reworded note {comments}\n"));
            continue;
        }
        if text.trim().is_empty() {
            out.push('\n');
            continue;
        }
        out.push_str(text);
        let closes_function = kind == "}"
            && node
                .parent()
                .and_then(|p| p.parent())
                .is_some_and(|p| p.kind() == "function_definition");
        // A preprocessor line still ends where it ended.
        let row = node.end_position().row;
        let directive = lines
            .get(row)
            .is_some_and(|l| l.trim_start().starts_with('#'));
        let ends_line = source[node.end_byte()..]
            .split('\n')
            .next()
            .is_some_and(|rest| rest.trim().is_empty());
        match kind {
            _ if directive && ends_line => out.push('\n'),
            ";" | "{" => out.push_str("\n    "),
            "}" if closes_function => out.push_str("\n\n"),
            "}" => out.push('\n'),
            _ => out.push(' '),
        }
    }
    out
}

/// An unreachable block at the top of every function and an unused function at the end.
fn add_dead_code(source: &str) -> String {
    let tree = parse(source);
    let mut edits = Vec::new();
    each_node(tree.root_node(), &mut |node| {
        if node.kind() == "function_definition" {
            if let Some(body) = node.child_by_field_name("body") {
                let at = body.start_byte() + 1;
                edits.push((
                    at,
                    at,
                    "\n  if (0) { int spare = 3; while (spare > 0) { spare--; } }\n".to_string(),
                ));
            }
        }
    });
    let mut out = replaced(source, edits);
    out.push_str(
        "\nstatic int unused_helper(int a, int b)\n{\n  int t = a * b;\n  if (t > 100) return t - a;\n  return t + b;\n}\n",
    );
    out
}

/// The longest function's second half moved into a new function it calls.
fn split_function(source: &str) -> String {
    let tree = parse(source);
    let mut longest: Option<Node> = None;
    each_node(tree.root_node(), &mut |node| {
        if node.kind() == "function_definition" {
            let statements = |n: Node| {
                n.child_by_field_name("body")
                    .map_or(0, |b| b.named_child_count())
            };
            if longest.is_none_or(|best| statements(node) > statements(best)) {
                longest = Some(node);
            }
        }
    });
    let Some(function) = longest else {
        return source.to_string();
    };
    let body = function.child_by_field_name("body").expect("a body");
    let mut cursor = body.walk();
    let statements: Vec<Node> = body.named_children(&mut cursor).collect();
    let half = &statements[statements.len() / 2..];
    let (start, end) = (half[0].start_byte(), half[half.len() - 1].end_byte());
    let moved = &source[start..end];
    let mut out = replaced(
        source,
        vec![(start, end, "second_half_of_split();".to_string())],
    );
    out.push_str(&format!(
        "\nstatic void second_half_of_split(void)\n{{\n    {moved}\n}}\n"
    ));
    out
}

/// A way of disguising a copy: a name for it and the rewrite.
type Disguise = (&'static str, fn(&str) -> String);

const DISGUISES: [Disguise; 5] = [
    ("renamed", rename_identifiers),
    ("reordered", reorder_functions),
    ("relaid", rewrite_layout),
    ("dead-code", add_dead_code),
    ("split", split_function),
];

fn all_disguises(source: &str) -> String {
    let mut text = source.to_string();
    for (_, disguise) in DISGUISES {
        text = disguise(&text);
    }
    text
}

/// A program's files, by name.
fn sources(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("a sources folder")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "c" || e == "h"))
        .map(|p| {
            let name = p
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read_to_string(&p).expect("text"))
        })
        .collect();
    files.sort();
    files
}

fn write_student(batch: &Path, name: &str, files: &[(String, String)]) {
    let dir = batch.join(name);
    std::fs::create_dir_all(&dir).expect("mkdir");
    for (file, text) in files {
        std::fs::write(dir.join(file), text).expect("write");
    }
}

/// A program written apart from every other origin's, and the folder of its samples (the
/// program with one bug put in each), if the project has some.
struct Origin {
    /// The family's name: the prefix of its students' names.
    name: &'static str,
    game: &'static str,
    program: &'static str,
    samples: Option<&'static str>,
}

/// Second solutions of Reversi Lab 6 and Othello, written from the handout and the published
/// I/O apart from the models.
const INDEPENDENT_REVERSI: &str = "tests/similar/independent/reversi";
const INDEPENDENT_OTHELLO: &str = "tests/similar/independent/othello";

const ORIGINS: [Origin; 7] = [
    Origin {
        name: "trouble",
        game: "trouble",
        program: "reference/trouble",
        samples: Some("tests/submissions/trouble"),
    },
    Origin {
        name: "reversi",
        game: "reversi",
        program: "reference/reversi",
        samples: Some("tests/submissions/reversi"),
    },
    Origin {
        name: "reversi-independent",
        game: "reversi",
        program: INDEPENDENT_REVERSI,
        samples: None,
    },
    Origin {
        name: "othello",
        game: "othello",
        program: "reference/othello",
        samples: None,
    },
    Origin {
        name: "othello-independent",
        game: "othello",
        program: INDEPENDENT_OTHELLO,
        samples: None,
    },
    Origin {
        name: "backgammon",
        game: "backgammon",
        program: "reference/backgammon",
        samples: Some("tests/submissions/backgammon"),
    },
    Origin {
        name: "ludo",
        game: "ludo",
        program: "reference/ludo",
        samples: None,
    },
];

/// What each copy is called after its origin: one per disguise, and `all` for every
/// disguise at once.
const COPY_LABELS: [&str; 6] = [
    "renamed",
    "reordered",
    "relaid",
    "dead-code",
    "split",
    "all",
];

/// The class: per origin, its program (`ORIGIN-model`), one copy per disguise
/// (`ORIGIN-renamed`, …, `ORIGIN-all`) and up to three samples (`ORIGIN-sample-NAME`); each
/// student's family is the origin.
fn write_class(batch: &Path) -> BTreeMap<String, &'static Origin> {
    let mut family = BTreeMap::new();
    for origin in &ORIGINS {
        let model = sources(&root().join(origin.program));
        let mut add = |label: String, files: Vec<(String, String)>| {
            let name = format!("{}-{label}", origin.name);
            write_student(batch, &name, &files);
            family.insert(name, origin);
        };
        add("model".into(), model.clone());
        for (label, disguise) in DISGUISES {
            let files = model
                .iter()
                .map(|(n, t)| (n.clone(), disguise(t)))
                .collect();
            add(label.into(), files);
        }
        let files = model
            .iter()
            .map(|(n, t)| (n.clone(), all_disguises(t)))
            .collect();
        add("all".into(), files);
        if let Some(samples) = origin.samples {
            let mut entries: Vec<PathBuf> = std::fs::read_dir(root().join(samples))
                .expect("samples")
                .map(|e| e.expect("entry").path())
                .filter(|p| p.is_dir())
                .collect();
            entries.sort();
            // The Trouble template with empty functions is the template, not the model.
            for sample in entries
                .iter()
                .filter(|p| !p.ends_with("template_stubs"))
                .take(3)
            {
                let name = sample.file_name().expect("a name").to_string_lossy();
                add(format!("sample-{name}"), sources(sample));
            }
        }
    }
    family
}

fn similar_json(game: &str, paths: &[&Path], extra: &[&str]) -> Value {
    let mut command = referee();
    command
        .args(["similar", game])
        .args(paths)
        .args(["--format", "json"])
        .args(extra);
    json_of(command)
}

fn pairs(report: &Value) -> Vec<(String, String, f64)> {
    report["pairs"]
        .as_array()
        .expect("a pairs list")
        .iter()
        .map(|p| {
            (
                p["a"].as_str().expect("a").to_string(),
                p["b"].as_str().expect("b").to_string(),
                p["score"].as_f64().expect("score"),
            )
        })
        .collect()
}

#[test]
fn every_disguised_copy_ranks_above_every_independent_pair() {
    let dir = tempfile::tempdir().expect("tempdir");
    // SIMILAR_CORPUS=DIR writes the class there instead, to run other tools on the same
    // corpus (benches/RESULTS.md, "Precision of the ranking").
    let batch =
        std::env::var_os("SIMILAR_CORPUS").map_or_else(|| dir.path().join("class"), PathBuf::from);
    let origin_of = write_class(&batch);
    // LUDO-CS is a many-file assignment: every file of each folder is compared, and no
    // template is taken out (the two Reversi solutions keep the handout's prototypes in
    // common; `the_two_reversi_solutions_share_next_to_nothing_but_the_template` takes
    // them out). No fingerprint is left out as common: each family is under half the class.
    let report = similar_json("ludo", &[&batch], &["--top", "0"]);
    let ranked = pairs(&report);
    for (a, b, _) in &ranked {
        assert!(
            origin_of.contains_key(a) && origin_of.contains_key(b),
            "{a} ~ {b}: unknown names"
        );
    }
    let copies = |a: &str, b: &str| origin_of[a].name == origin_of[b].name;
    let same_game = |a: &str, b: &str| origin_of[a].game == origin_of[b].game;
    let score_of = |x: &str, y: &str| {
        ranked
            .iter()
            .find(|(a, b, _)| (a == x && b == y) || (a == y && b == x))
            .map_or(0.0, |(.., s)| *s)
    };
    let best_independent = |only_same_game: bool| {
        ranked
            .iter()
            .filter(|(a, b, _)| !copies(a, b) && (!only_same_game || same_game(a, b)))
            .max_by(|x, y| x.2.total_cmp(&y.2))
    };
    let independent = best_independent(false);
    let independent_best = independent.map_or(0.0, |(.., s)| *s);
    // The class holds same-game independent pairs: each independent solution and its 6
    // copies against the model and its 6 copies (7 x 7), and for Reversi the model's 3
    // samples too (7 x 10).
    let names: Vec<&String> = origin_of.keys().collect();
    let same_game_independent = names
        .iter()
        .enumerate()
        .flat_map(|(i, a)| names[i + 1..].iter().map(move |b| (*a, *b)))
        .filter(|(a, b)| !copies(a, b) && same_game(a, b))
        .count();
    assert!(
        same_game_independent >= 7 * 10 + 7 * 7,
        "{same_game_independent} same-game independent pairs"
    );
    let mut lowest_copy = (String::new(), 1.0f64);
    for origin in &ORIGINS {
        for label in COPY_LABELS {
            let copy = format!("{}-{label}", origin.name);
            let score = score_of(&format!("{}-model", origin.name), &copy);
            if score < lowest_copy.1 {
                lowest_copy = (copy.clone(), score);
            }
            assert!(
                score > independent_best,
                "{copy} scores {score:.3} against its model, not above the best independent pair's {independent_best:.3}"
            );
        }
    }
    // Precision at k: of the k best pairs, the share that are copies (k = 10, 50, and the
    // number of pairs within families); reported in benches/RESULTS.md.
    let relevant = ranked.iter().filter(|(a, b, _)| copies(a, b)).count();
    let mut total_family_pairs = 0;
    for origin in &ORIGINS {
        let size = origin_of.values().filter(|o| o.name == origin.name).count();
        total_family_pairs += size * (size - 1) / 2;
    }
    for k in [10, 50, total_family_pairs] {
        let hits = ranked
            .iter()
            .take(k)
            .filter(|(a, b, _)| copies(a, b))
            .count();
        println!(
            "precision at {k}: {hits}/{k} = {:.3}",
            hits as f64 / k as f64
        );
    }
    println!(
        "{} students, {} pairs share code, {relevant} of them copies (of {total_family_pairs}); lowest disguised copy {} at {:.3}; best independent pair {independent:?}; best same-game independent pair {:?} (of {same_game_independent})",
        origin_of.len(),
        ranked.len(),
        lowest_copy.0,
        lowest_copy.1,
        best_independent(true),
    );
}

#[test]
fn the_two_reversi_solutions_share_next_to_nothing_but_the_template() {
    // Each solution and its copy with every disguise, compared as Reversi (the handout's
    // prototypes taken out) and as Othello (whose spec names no template). Nothing is left
    // out as common code: the class is too small for a share to mean anything.
    let dir = tempfile::tempdir().expect("tempdir");
    let batch = dir.path().join("class");
    for (name, program) in [
        ("model", "reference/reversi"),
        ("independent", INDEPENDENT_REVERSI),
    ] {
        let files = sources(&root().join(program));
        let disguised: Vec<(String, String)> = files
            .iter()
            .map(|(n, t)| (n.clone(), all_disguises(t)))
            .collect();
        write_student(&batch, name, &files);
        write_student(&batch, &format!("{name}-all"), &disguised);
    }
    let score = |game: &str| {
        let found = pairs(&similar_json(
            game,
            &[&batch],
            &["--top", "0", "--common", "1"],
        ));
        move |x: &str, y: &str| {
            found
                .iter()
                .find(|(a, b, _)| (a == x && b == y) || (a == y && b == x))
                .map_or(0.0, |(.., s)| *s)
        }
    };
    let (with_template, without_template) = (score("reversi"), score("othello"));
    for copy in ["model", "independent"] {
        let disguised = format!("{copy}-all");
        assert!(
            with_template(copy, &disguised) > 0.5,
            "{copy}: {:.3}",
            with_template(copy, &disguised)
        );
    }
    for a in ["model", "model-all"] {
        for b in ["independent", "independent-all"] {
            let (with, without) = (with_template(a, b), without_template(a, b));
            println!("{a} ~ {b}: {with:.3} with the template out, {without:.3} with it in");
            // Two copies through the same disguises share the code those add (the dead
            // blocks, the unused helper, the split-off function's head): they are not two
            // students writing alone, only the template is expected to go.
            if !(a.ends_with("-all") && b.ends_with("-all")) {
                assert!(with < 0.05, "{a} ~ {b} scores {with:.3}");
            }
            assert!(
                with < without,
                "{a} ~ {b}: taking the prototypes out does not lower {without:.3} ({with:.3})"
            );
        }
    }
}

#[test]
fn the_independent_solutions_keep_full_marks() {
    // Each stands for a student who wrote the assignment alone: it must be a correct solution.
    for (game, program, max_score) in [
        ("reversi", INDEPENDENT_REVERSI, 6.0),
        ("othello", INDEPENDENT_OTHELLO, 100.0),
    ] {
        let report = grade_json(game, &root().join(program), &[]);
        let submission = only_submission(&report);
        assert_eq!(submission["max_score"].as_f64(), Some(max_score), "{game}");
        assert_eq!(submission["score"], submission["max_score"], "{game}");
        assert_loses_exactly(submission, &[]);
    }
}

#[test]
fn students_who_share_only_the_template_score_near_zero() {
    // Two Trouble students start from the template and write their functions apart (here:
    // each appends an unrelated program's code, Reversi's and Othello's).
    let template = std::fs::read_to_string(root().join("specs/trouble/main.c")).expect("template");
    let own = |path: &str| std::fs::read_to_string(root().join(path)).expect("a model");
    let dir = tempfile::tempdir().expect("tempdir");
    let batch = dir.path().join("class");
    write_student(
        &batch,
        "alice",
        &[(
            "main.c".into(),
            format!("{template}\n{}", own("reference/reversi/Lab6.c")),
        )],
    );
    write_student(
        &batch,
        "bob",
        &[(
            "main.c".into(),
            format!("{template}\n{}", own("reference/othello/hw5.c")),
        )],
    );
    let with_template = pairs(&similar_json("trouble", &[&batch], &[]));
    let score = with_template.first().map_or(0.0, |(.., s)| *s);
    assert!(
        score < 0.05,
        "template-only pair scores {score:.3}: {with_template:?}"
    );
    // Without the template taken out (Othello's spec names none) the pair looks alike.
    let without = pairs(&similar_json("othello", &[&batch], &[]));
    let raw = without.first().map_or(0.0, |(.., s)| *s);
    assert!(
        raw > 0.2,
        "the template alone should make the pair look alike: {raw:.3}"
    );
    // --template takes it out as the spec does.
    let template_path = root().join("specs/trouble/main.c");
    let flagged = pairs(&similar_json(
        "othello",
        &[&batch],
        &["--template", template_path.to_str().expect("UTF-8")],
    ));
    assert!(
        flagged.first().map_or(0.0, |(.., s)| *s) < 0.05,
        "{flagged:?}"
    );
}

#[test]
fn archived_submissions_are_compared_with_the_class_only() {
    let dir = tempfile::tempdir().expect("tempdir");
    let class = dir.path().join("class");
    let archive = dir.path().join("fall2025");
    let model = sources(&root().join("reference/reversi"));
    write_student(&class, "new-student", &model);
    write_student(
        &class,
        "other-student",
        &sources(&root().join("reference/othello")),
    );
    write_student(&archive, "old-one", &model);
    write_student(&archive, "old-two", &model);
    let found = pairs(&similar_json(
        "reversi",
        &[&class],
        &["--archive", archive.to_str().expect("UTF-8")],
    ));
    let pair = |x: &str, y: &str| {
        found
            .iter()
            .find(|(a, b, _)| (a == x && b == y) || (a == y && b == x))
            .map(|(.., s)| *s)
    };
    assert!(
        pair("fall2025/old-one", "new-student").is_some_and(|s| s > 0.9),
        "{found:?}"
    );
    assert!(
        !found
            .iter()
            .any(|(a, b, _)| a.starts_with("fall2025/") && b.starts_with("fall2025/")),
        "{found:?}"
    );
}

#[test]
fn bad_input_is_one_line_naming_the_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let batch = dir.path().join("class");
    write_student(&batch, "a", &sources(&root().join("reference/reversi")));
    write_student(&batch, "b", &sources(&root().join("reference/reversi")));
    std::fs::create_dir_all(batch.join("c")).expect("mkdir");
    std::fs::write(batch.join("c/Lab6.c"), b"\x7fELF\x00\x01binary").expect("write");
    let output = referee()
        .args(["similar", "reversi"])
        .arg(&batch)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let line = stderr
        .lines()
        .find(|l| l.contains("left out"))
        .expect("a line about the binary file");
    assert!(line.contains("Lab6.c") && line.contains("binary"), "{line}");
    let missing = referee()
        .args(["similar", "reversi"])
        .arg(dir.path().join("no-such-folder"))
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert_eq!(missing.status.code(), Some(2), "{stderr}");
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
    assert!(stderr.contains("no-such-folder"), "{stderr}");
}

#[test]
fn the_html_report_shows_marked_regions_and_greyed_template_in_chromium() {
    let dir = tempfile::tempdir().expect("tempdir");
    let batch = dir.path().join("class");
    let model = sources(&root().join("reference/trouble"));
    write_student(&batch, "alice", &model);
    let copied: Vec<(String, String)> = model
        .iter()
        .map(|(n, t)| (n.clone(), all_disguises(t)))
        .collect();
    write_student(&batch, "<bob & co>", &copied);
    let page = dir.path().join("similar.html");
    let output = referee()
        .args(["similar", "trouble"])
        .arg(&batch)
        .args(["--format", "html", "-o"])
        .arg(&page)
        .output()
        .expect("runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let html = std::fs::read_to_string(&page).expect("the page");
    assert!(html.contains("&lt;bob &amp; co&gt;") && !html.contains("<bob & co>"));
    let dom = chromium_dom(&page, dir.path());
    let marks = dom.matches("<mark class=\"match\" data-region=").count();
    assert!(marks > 20, "{marks} marked lines in the DOM");
    assert!(
        dom.contains("<span class=\"template\">"),
        "no greyed template line"
    );
    assert!(dom.contains("id=\"pair-1\""), "no side-by-side section");
    assert!(dom.contains("href=\"#pair-1\""), "no index of pairs");
}

#[test]
fn each_disguise_changes_what_it_claims() {
    let model = std::fs::read_to_string(root().join("reference/reversi/Lab6.c")).expect("model");
    let renamed = rename_identifiers(&model);
    assert!(!renamed.contains("positionInBounds") && !renamed.contains("board["));
    let first_function = |text: &str| {
        let tree = parse(text);
        let root = tree.root_node();
        let mut cursor = root.walk();
        let first = root
            .children(&mut cursor)
            .find(|n| n.kind() == "function_definition")
            .map(|n| text[n.byte_range()].to_string());
        first
    };
    assert_ne!(
        first_function(&model),
        first_function(&reorder_functions(&model))
    );
    let relaid = rewrite_layout(&model);
    assert!(!relaid.contains("Model solution") && relaid.contains("reworded note"));
    assert_ne!(
        relaid.lines().count(),
        model.lines().count(),
        "the layout is redone"
    );
    assert!(add_dead_code(&model).contains("unused_helper"));
    let split = split_function(&model);
    assert!(
        split.contains("second_half_of_split();")
            && split.contains("void second_half_of_split(void)")
    );
    // Each disguise leaves code tree-sitter still reads without errors where the model has none.
    for (label, disguise) in DISGUISES {
        let text = disguise(&model);
        let head: Vec<&str> = text.lines().take(12).collect();
        assert!(
            !parse(&text).root_node().has_error(),
            "{label}:\n{}",
            head.join("\n")
        );
    }
}

#[test]
fn an_lms_download_is_named_and_built_as_grading_reads_it() {
    // Moodle "in folders": Alice's own test file is left out of her build, so it must not
    // be compared either; names are the students' as grading gives them.
    let dir = tempfile::tempdir().expect("tempdir");
    let export = dir.path().join("moodle");
    let model = std::fs::read_to_string(root().join("reference/reversi/Lab6.c")).expect("model");
    let files = [
        ("Alice Smith_2001", "Lab6.c", model.clone()),
        ("Alice Smith_2001", "mytest.c", all_disguises(&model)),
        ("Bob Jones_2002", "Lab6.c", rename_identifiers(&model)),
        (
            "Cara Lee_2003",
            "Lab6.c",
            std::fs::read_to_string(root().join("reference/othello/hw5.c")).expect("othello"),
        ),
    ];
    for (person, file, text) in files {
        let folder = export.join(format!("{person}_assignsubmission_file_"));
        std::fs::create_dir_all(&folder).expect("mkdir");
        std::fs::write(folder.join(file), text).expect("write");
    }
    let spec = referee::assignment::spec::Spec::load(&root().join("specs/reversi")).expect("spec");
    let graded: Vec<String> = referee::grade::intake::submission::discover(
        std::slice::from_ref(&export),
        &spec.submission,
    )
    .expect("discover")
    .submissions
    .into_iter()
    .map(|s| s.name)
    .collect();
    assert_eq!(graded, ["Alice Smith", "Bob Jones", "Cara Lee"]);
    let report = similar_json("reversi", &[&export], &[]);
    let best = &report["pairs"][0];
    assert_eq!(
        (best["a"].as_str(), best["b"].as_str()),
        (Some("Alice Smith"), Some("Bob Jones"))
    );
    assert!(best["score"].as_f64().is_some_and(|s| s > 0.9), "{best}");
    let files_matched: Vec<&str> = report["pairs"]
        .as_array()
        .expect("pairs")
        .iter()
        .flat_map(|p| p["matches"].as_array().into_iter().flatten())
        .flat_map(|m| [m["a_file"].as_str(), m["b_file"].as_str()])
        .flatten()
        .collect();
    assert!(!files_matched.contains(&"mytest.c"), "{files_matched:?}");
}
