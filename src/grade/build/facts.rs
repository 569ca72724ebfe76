//! Facts about the source reported for the TA, scored by no item unless the rubric says so:
//! required helpers defined and called, keywords used, global variables (from the object files' symbol tables),
//! and what the unit harness saw a function change besides its result.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use crate::assignment::spec::FactsSpec;
use crate::grade::intake::csource::{scan, Scan, Token};

/// Whether `name` is called from a function other than itself.
fn called_elsewhere(tokens: &[Token], name: &str) -> bool {
    tokens.iter().any(|t| {
        t.word == name && t.depth > 0 && t.before_paren && t.inside.as_deref() != Some(name)
    })
}

/// Facts from the sources' text.
pub fn source_facts(spec: &FactsSpec, sources: &[(String, String)]) -> BTreeMap<String, Value> {
    let scans: Vec<Scan> = sources
        .iter()
        .filter(|(name, _)| name.ends_with(".c") || name.ends_with(".h"))
        .map(|(_, text)| scan(text))
        .collect();
    let all: Vec<&Token> = scans.iter().flat_map(|s| &s.tokens).collect();
    let mut facts = BTreeMap::new();
    if !spec.helpers.is_empty() {
        let helpers: serde_json::Map<String, Value> = spec
            .helpers
            .iter()
            .map(|name| {
                let defined = scans.iter().any(|s| s.defined.contains(name));
                let called = scans.iter().any(|s| called_elsewhere(&s.tokens, name));
                (
                    name.clone(),
                    json!({ "defined": defined, "called": called }),
                )
            })
            .collect();
        facts.insert("helpers".into(), Value::Object(helpers));
    }
    for keyword in &spec.keywords {
        let uses = all.iter().filter(|t| t.word == *keyword).count();
        facts.insert(format!("uses_{keyword}"), json!(uses));
    }
    facts
}

/// Global variables defined in the object files (data, bss, common, read-only and
/// thread-local symbols, file-scope statics included), less the template's: what `nm` lists
/// as B, C, D, R, S, G or V, read from the ELF symbol table in-process. `Err` when an object
/// cannot be read.
pub fn globals(objects: &[&Path], template: &[String]) -> Result<Vec<String>, String> {
    use object::{Object, ObjectSymbol, SymbolKind};
    let mut names = Vec::new();
    for path in objects {
        let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let file = object::File::parse(&*bytes)
            .map_err(|e| format!("{} is not an object file: {e}", path.display()))?;
        for symbol in file.symbols() {
            let variable = matches!(symbol.kind(), SymbolKind::Data | SymbolKind::Tls);
            let Ok(name) = symbol.name() else { continue };
            // `name.0` is a function-local static, not a global.
            if variable && !symbol.is_undefined() && !name.is_empty() && !name.contains('.') {
                names.push(name.to_string());
            }
        }
    }
    names.retain(|n| !template.contains(n));
    names.sort();
    names.dedup();
    Ok(names)
}

/// How a unit harness starts a line on stderr that reports a fact about the function it
/// called (a change to the board or globals), which no item scores: `referee fact: NAME: TEXT`.
pub const UNIT_FACT_PREFIX: &str = "referee fact: ";

/// The harness's fact lines over a submission's unit runs, given as (case name, stderr): per
/// function, in how many cases it changed something and what it changed in the first.
/// `None` when no run reported anything.
pub fn unit_side_effects<'a>(runs: impl IntoIterator<Item = (&'a str, &'a str)>) -> Option<Value> {
    // function -> (cases, first case, its reports)
    let mut found: BTreeMap<String, (usize, String, Vec<String>)> = BTreeMap::new();
    for (case, stderr) in runs {
        let mut in_this_case: BTreeMap<&str, Vec<String>> = BTreeMap::new();
        for line in stderr.lines() {
            let Some((function, text)) = line
                .strip_prefix(UNIT_FACT_PREFIX)
                .and_then(|rest| rest.split_once(": "))
            else {
                continue;
            };
            in_this_case
                .entry(function)
                .or_default()
                .push(text.to_string());
        }
        for (function, texts) in in_this_case {
            let entry = found
                .entry(function.to_string())
                .or_insert_with(|| (0, case.to_string(), texts));
            entry.0 += 1;
        }
    }
    if found.is_empty() {
        return None;
    }
    let described: serde_json::Map<String, Value> = found
        .into_iter()
        .map(|(function, (cases, first, texts))| {
            let shown: Vec<&str> = texts.iter().take(3).map(String::as_str).collect();
            let more = if texts.len() > 3 { ", …" } else { "" };
            let text = format!(
                "in {cases} unit case{}, not graded (e.g. {first}: {}{more})",
                if cases == 1 { "" } else { "s" },
                shown.join(", "),
            );
            (function, json!(text))
        })
        .collect();
    Some(Value::Object(described))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SRC: &str = r#"
#include <stdio.h>
#define CALL(x) printBoard(x)
void printBoard(char b[][26], int n);
/* printBoard( in a comment */
bool positionInBounds(int n, char r, char c) { return positionInBounds(n, r, c); }
void printBoard(char b[][26], int n) { printf("printBoard(%d)", n); }
int main(void) { char b[26][26]; printBoard(b, 4); goto end; end: return 0; }
"#;

    #[test]
    fn globals_are_read_from_the_symbol_table_as_nm_would_list_them() {
        let dir = tempfile::tempdir().expect("tempdir");
        let source = dir.path().join("g.c");
        std::fs::write(
            &source,
            r#"#include <stdio.h>
int board[8][8];
int counter = 3;
static int hidden;
static const char names[] = "abc";
const int limit = 5;
_Thread_local int tls;
int template_one;
extern int elsewhere;
int func(void) { static int calls; calls++; hidden++; return calls + elsewhere + names[0] + tls; }
int main(void) { printf("%d\n", func()); return 0; }
"#,
        )
        .expect("write");
        for (flag, object) in [("-fno-common", "plain.o"), ("-fcommon", "common.o")] {
            let object = dir.path().join(object);
            let status = std::process::Command::new("cc")
                .args(["-std=gnu17", flag, "-c"])
                .arg(&source)
                .arg("-o")
                .arg(&object)
                .status()
                .expect("cc runs");
            assert!(status.success());
            let found = globals(&[&object], &["template_one".to_string()]).expect("readable");
            // Not: functions, the function-local static `calls`, the undefined `elsewhere`.
            assert_eq!(
                found,
                ["board", "counter", "hidden", "limit", "names", "tls"],
                "{flag}"
            );
        }
        let text = dir.path().join("g.c");
        assert!(
            globals(&[&text], &[]).is_err(),
            "C source is not an object file"
        );
    }

    #[test]
    fn helpers_defined_and_called_from_elsewhere() {
        let spec = FactsSpec {
            helpers: vec![
                "printBoard".into(),
                "positionInBounds".into(),
                "missing".into(),
            ],
            keywords: vec!["goto".into(), "struct".into()],
            ..FactsSpec::default()
        };
        let facts = source_facts(&spec, &[("Lab6.c".into(), SRC.into())]);
        let helpers = &facts["helpers"];
        assert_eq!(
            helpers["printBoard"],
            json!({"defined": true, "called": true})
        );
        // Only recursion: not called from elsewhere.
        assert_eq!(
            helpers["positionInBounds"],
            json!({"defined": true, "called": false})
        );
        assert_eq!(
            helpers["missing"],
            json!({"defined": false, "called": false})
        );
        assert_eq!(facts["uses_goto"], json!(1));
        assert_eq!(facts["uses_struct"], json!(0));
    }
}
