//! Facts about the source reported for the TA, scored by no item unless the rubric says so:
//! required helpers defined and called, keywords used, global variables (from the object files' symbol tables),
//! and what the unit harness saw a function change besides its result.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{json, Value};

use crate::assignment::spec::FactsSpec;

/// An identifier in the code with what it is used as.
struct Token {
    word: String,
    /// Brace depth where it stands (0 = file scope).
    depth: usize,
    /// The next significant character is `(`.
    before_paren: bool,
    /// The function whose body holds it, if any.
    inside: Option<String>,
}

/// Blanks out comments, string and character literals, keeping lengths and newlines.
pub(crate) fn strip_comments_and_literals(src: &str) -> String {
    let bytes = src.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let rest = &bytes[i..];
        if rest.starts_with(b"//") {
            while i < bytes.len() && bytes[i] != b'\n' {
                out.push(b' ');
                i += 1;
            }
        } else if rest.starts_with(b"/*") {
            out.extend_from_slice(b"  ");
            i += 2;
            while i < bytes.len() && !bytes[i..].starts_with(b"*/") {
                out.push(if bytes[i] == b'\n' { b'\n' } else { b' ' });
                i += 1;
            }
            out.extend(std::iter::repeat_n(b' ', 2.min(bytes.len() - i)));
            i = (i + 2).min(bytes.len());
        } else if bytes[i] == b'"' || bytes[i] == b'\'' {
            let quote = bytes[i];
            out.push(b' ');
            i += 1;
            while i < bytes.len() && bytes[i] != quote && bytes[i] != b'\n' {
                let step = if bytes[i] == b'\\' { 2 } else { 1 };
                let step = step.min(bytes.len() - i);
                out.extend(std::iter::repeat_n(b' ', step));
                i += step;
            }
            if i < bytes.len() {
                out.push(b' ');
                i += 1;
            }
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The identifiers of a source file and the functions it defines (has a body for).
struct Scan {
    tokens: Vec<Token>,
    defined: Vec<String>,
}

fn scan(src: &str) -> Scan {
    let code = strip_comments_and_literals(src);
    let chars: Vec<char> = code.chars().collect();
    let mut result = Vec::new();
    let mut defined = Vec::new();
    let mut depth = 0usize;
    let mut current_function: Option<String> = None;
    // The last identifier seen before a `(` at file scope: the candidate function name.
    let mut pending_function: Option<String> = None;
    let mut i = 0;
    let mut in_directive = false;
    let mut line_start = true;
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            in_directive = in_directive && i > 0 && chars[i - 1] == '\\';
            line_start = true;
            i += 1;
            continue;
        }
        if line_start && c == '#' {
            in_directive = true;
        }
        if !c.is_whitespace() {
            line_start = false;
        }
        if in_directive {
            i += 1;
            continue;
        }
        if c.is_ascii_alphabetic() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let mut j = i;
            while j < chars.len() && chars[j].is_whitespace() {
                j += 1;
            }
            let before_paren = j < chars.len() && chars[j] == '(';
            if depth == 0 && before_paren {
                pending_function = Some(word.clone());
            }
            result.push(Token {
                word,
                depth,
                before_paren,
                inside: current_function.clone(),
            });
            continue;
        }
        match c {
            '{' => {
                if depth == 0 {
                    current_function = pending_function.take();
                    defined.extend(current_function.clone());
                }
                depth += 1;
            }
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    current_function = None;
                }
            }
            ';' if depth == 0 => pending_function = None,
            _ => {}
        }
        i += 1;
    }
    Scan {
        tokens: result,
        defined,
    }
}

/// Whether the source has a body for a function named `name` (e.g. its own `main`).
pub fn defines_function(src: &str, name: &str) -> bool {
    scan(src).defined.iter().any(|defined| defined == name)
}

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
