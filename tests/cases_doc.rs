//! `docs/cases.md` documents every field a case file and a spec may hold, checked against the
//! parsers themselves: each parser is asked for its fields (serde's own "unknown field …,
//! expected one of …" when given a field that no parser has), and the fields documented
//! under each section must be exactly those. A field added to a parser and not documented,
//! or documented and not parsed, fails this test.

mod common;

use std::collections::{BTreeMap, BTreeSet};

use common::root;
use referee::assignment::cases::{load_file, COMMON_FIELDS};
use referee::assignment::spec::Spec;
use referee::games::{self, CaseKind, CaseSpec};

/// A field no parser knows.
const PROBE: &str = "referee_probe";

/// The names serde lists after "expected" in an unknown-field or unknown-variant message:
/// "expected one of `a`, `b`", "expected `a` or `b`", "expected `a`", or "there are no
/// fields".
fn expected_names(message: &str) -> Option<BTreeSet<String>> {
    if message.contains("there are no fields") {
        return Some(BTreeSet::new());
    }
    let (_, list) = message.split_once("expected ")?;
    Some(
        list.split('`')
            .skip(1)
            .step_by(2)
            .map(String::from)
            .collect(),
    )
}

const MINIMAL_SPEC: &str = "title = \"t\"\nsubmission = { layout = \"single\", file = \"a.c\" }\n";

/// The fields of the spec's top level and of each of its tables.
fn spec_fields() -> BTreeMap<String, BTreeSet<String>> {
    let mut found = BTreeMap::new();
    let sections = [
        ("spec.toml: top level", format!("{PROBE} = 1\n{MINIMAL_SPEC}[[item]]\nid = \"i\"\npoints = 1\n")),
        ("spec.toml: [[item]]", format!("{MINIMAL_SPEC}[[item]]\nid = \"i\"\npoints = 1\n{PROBE} = 1\n")),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .chain(
        ["submission", "build", "compare", "limits", "facts", "deadline", "similar"]
            .iter()
            .map(|table| {
                let spec = if *table == "submission" {
                    format!("title = \"t\"\n[submission]\nlayout = \"single\"\nfile = \"a.c\"\n{PROBE} = 1\n[[item]]\nid = \"i\"\npoints = 1\n")
                } else {
                    format!("{MINIMAL_SPEC}[{table}]\n{PROBE} = 1\n[[item]]\nid = \"i\"\npoints = 1\n")
                };
                (format!("spec.toml: [{table}]"), spec)
            }),
    );
    for (section, text) in sections {
        let message = match toml::from_str::<Spec>(&text) {
            Ok(_) => panic!("{section}: the spec parser accepts an unknown field"),
            Err(e) => e.message().to_string(),
        };
        let names = expected_names(&message)
            .unwrap_or_else(|| panic!("{section}: no field list in {message:?}"));
        found.insert(section, names);
    }
    found
}

/// The fields of a case file's top level and of every case.
fn case_file_fields() -> BTreeMap<String, BTreeSet<String>> {
    let dir = tempfile::tempdir().expect("tempdir");
    let file = dir.path().join("probe.toml");
    std::fs::write(&file, format!("{PROBE} = 1\n")).expect("write");
    let message = match load_file(&file) {
        Ok(_) => panic!("the case file parser accepts an unknown key"),
        Err(e) => e.to_string(),
    };
    let top = expected_names(&message).unwrap_or_else(|| panic!("{message}"));
    BTreeMap::from([
        ("case file: top level".to_string(), top),
        (
            "case file: every case".to_string(),
            COMMON_FIELDS.iter().map(|f| f.to_string()).collect(),
        ),
    ])
}

fn probe_case(kind: CaseKind, fields: &[(&str, &str)]) -> CaseSpec {
    let mut table = toml::Table::new();
    for (key, value) in fields {
        table.insert(key.to_string(), toml::Value::String(value.to_string()));
    }
    CaseSpec {
        name: "probe".into(),
        kind,
        description: None,
        file: "probe.toml".into(),
        fields: table,
    }
}

/// Each game's fields per kind of case (per function for unit cases told apart by one).
fn game_fields() -> BTreeMap<String, BTreeSet<String>> {
    let mut found = BTreeMap::new();
    for game in games::all() {
        for (kind, word) in [
            (CaseKind::Program, "program"),
            (CaseKind::Unit, "unit"),
            (CaseKind::Trace, "trace"),
        ] {
            let message = match game.prepare(&probe_case(kind, &[(PROBE, "1")])) {
                Ok(_) => panic!("{}: {word} cases accept any field", game.id()),
                Err(e) => e.to_string(),
            };
            if message.ends_with(&format!("has no {word} cases")) {
                continue;
            }
            if message.contains("missing field `function`") {
                let variants = game
                    .prepare(&probe_case(kind, &[("function", PROBE)]))
                    .err()
                    .map(|e| e.to_string())
                    .and_then(|m| expected_names(&m))
                    .unwrap_or_else(|| panic!("{}: no list of functions", game.id()));
                for function in variants {
                    let message = game
                        .prepare(&probe_case(kind, &[("function", &function), (PROBE, "1")]))
                        .err()
                        .map(|e| e.to_string())
                        .unwrap_or_default();
                    let names = expected_names(&message)
                        .unwrap_or_else(|| panic!("{}: {function}: {message}", game.id()));
                    found.insert(
                        format!("{}: {word} cases, function = \"{function}\"", game.id()),
                        names,
                    );
                }
                continue;
            }
            let names = expected_names(&message)
                .unwrap_or_else(|| panic!("{} {word}: no field list in {message}", game.id()));
            found.insert(format!("{}: {word} cases", game.id()), names);
        }
    }
    found
}

/// docs/cases.md: each `### ` heading and the fields its tables list (a row's first cell,
/// in backticks).
fn documented() -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(root().join("docs/cases.md")).expect("docs/cases.md");
    let mut found: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut section: Option<String> = None;
    for line in text.lines() {
        if let Some(heading) = line.strip_prefix("### ") {
            let heading = heading.trim().to_string();
            assert!(!found.contains_key(&heading), "{heading}: documented twice");
            found.insert(heading.clone(), BTreeSet::new());
            section = Some(heading);
        } else if line.starts_with("## ") {
            section = None;
        } else if let (Some(section), Some(row)) = (&section, line.strip_prefix("| `")) {
            let field = row.split('`').next().expect("a field name");
            found
                .get_mut(section)
                .expect("the section")
                .insert(field.to_string());
        }
    }
    found
}

#[test]
fn every_field_the_parsers_read_is_documented_and_nothing_else() {
    let mut parsed = spec_fields();
    parsed.extend(case_file_fields());
    parsed.extend(game_fields());
    assert!(parsed.contains_key("reversi: unit cases, function = \"printBoard\""));
    assert!(parsed["spec.toml: [deadline]"].contains("late_penalty"));
    assert!(parsed["case file: every case"].contains("visibility"));
    let documented = documented();
    let mut problems = Vec::new();
    for (section, fields) in &parsed {
        match documented.get(section) {
            None => problems.push(format!("no section `### {section}` in docs/cases.md")),
            Some(written) => {
                for field in fields.difference(written) {
                    problems.push(format!("{section}: `{field}` is read but not documented"));
                }
                for field in written.difference(fields) {
                    problems.push(format!("{section}: `{field}` is documented but not read"));
                }
            }
        }
    }
    for section in documented.keys().filter(|s| !parsed.contains_key(*s)) {
        problems.push(format!(
            "docs/cases.md: `### {section}` is no parser's section"
        ));
    }
    assert!(problems.is_empty(), "{problems:#?}");
}
