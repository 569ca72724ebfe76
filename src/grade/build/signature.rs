//! Before unit cases run: is each function they call the one the handout asks for? A
//! parameter type that differs from the handout's prototype (Lab 7's `int row` where Lab 6
//! asks for `char row`) would turn every case of that function into a misleading wrong
//! answer, so its cases get one clear status and message instead. A helper the handout
//! requires the student to use, defined but never called from their own code, loses its
//! cases the same way.
//!
//! The handout's prototypes are the declarations in the game's harness and provided files
//! (`specs/<game>/`); the student's are read from their source with a small parser of C
//! declarations (comments, literals and preprocessor lines removed).

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::assignment::spec::Spec;
use crate::assignment::{Assignment, PreparedCase};
use crate::games::Target;
use crate::grade::intake::csource::strip_comments_and_literals;
use crate::report::Status;

/// A function's declared type, as written and normalized for comparison.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prototype {
    /// `bool positionInBounds(int n, char row, char col)`, whitespace collapsed.
    pub text: String,
    returns: Vec<String>,
    params: Vec<Vec<String>>,
}

/// Why a function's unit cases are not run, and the status they get.
#[derive(Debug, Clone, PartialEq)]
pub struct Withheld {
    pub status: Status,
    pub reason: String,
}

/// The function declarations and definitions at file scope of a C source, by name (a
/// definition wins over a declaration).
pub fn prototypes(source: &str) -> BTreeMap<String, Prototype> {
    let code = without_directives(&strip_comments_and_literals(source));
    let mut found: BTreeMap<String, Prototype> = BTreeMap::new();
    let mut chunk = String::new();
    let mut depth = 0usize;
    for c in code.chars() {
        match c {
            '{' => {
                if depth == 0 {
                    if let Some((name, prototype)) = parse(&chunk) {
                        found.insert(name, prototype);
                    }
                    chunk.clear();
                }
                depth += 1;
            }
            '}' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    chunk.clear();
                }
            }
            ';' if depth == 0 => {
                if let Some((name, prototype)) = parse(&chunk) {
                    found.entry(name).or_insert(prototype);
                }
                chunk.clear();
            }
            _ if depth == 0 => chunk.push(c),
            _ => {}
        }
    }
    found
}

/// The source with preprocessor lines (and their continuations) blanked.
fn without_directives(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut continued = false;
    for line in code.split_inclusive('\n') {
        let directive = continued || line.trim_start().starts_with('#');
        continued = directive && line.trim_end_matches(['\n', '\r']).ends_with('\\');
        if directive {
            out.push('\n');
        } else {
            out.push_str(line);
        }
    }
    out
}

/// `RETURN NAME(PARAMS)` at file scope, or `None` for anything else (variables, typedefs,
/// function pointers, structs).
fn parse(chunk: &str) -> Option<(String, Prototype)> {
    let chunk = chunk.trim();
    if chunk.contains('=') || chunk.starts_with("typedef") || !chunk.ends_with(')') {
        return None;
    }
    let open = chunk.find('(')?;
    let head = chunk[..open].trim_end();
    let name_start = head
        .rfind(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .map_or(0, |i| i + 1);
    let name = &head[name_start..];
    if name.is_empty() || name.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    let returns = head[..name_start].trim();
    let inside = &chunk[open + 1..chunk.len() - 1];
    // The parentheses must close only at the end: `f(a)(b)` is not a plain function.
    let mut level = 0i32;
    for c in inside.chars() {
        level += match c {
            '(' => 1,
            ')' => -1,
            _ => 0,
        };
        if level < 0 {
            return None;
        }
    }
    let return_tokens = normalize_return(&tokens(returns));
    if return_tokens.is_empty() {
        return None;
    }
    let written: Vec<String> = split_params(inside)
        .iter()
        .map(|p| collapse(p))
        .filter(|p| !p.is_empty())
        .collect();
    let params: Vec<Vec<String>> = if written.len() == 1 && written[0] == "void" {
        Vec::new()
    } else {
        written
            .iter()
            .map(|p| normalize_param(&tokens(p)))
            .collect()
    };
    let text = format!("{} {name}({})", collapse(returns), written.join(", "));
    Some((
        name.to_string(),
        Prototype {
            text,
            returns: return_tokens,
            params,
        },
    ))
}

fn split_params(inside: &str) -> Vec<String> {
    let mut params = vec![String::new()];
    let mut level = 0;
    for c in inside.chars() {
        match c {
            '(' | '[' => level += 1,
            ')' | ']' => level -= 1,
            ',' if level == 0 => {
                params.push(String::new());
                continue;
            }
            _ => {}
        }
        if let Some(last) = params.last_mut() {
            last.push(c);
        }
    }
    params
}

fn collapse(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn tokens(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        if c.is_ascii_alphanumeric() || c == '_' {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if !c.is_whitespace() {
            out.push(c.to_string());
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

const TYPE_WORDS: [&str; 14] = [
    "void", "char", "short", "int", "long", "float", "double", "signed", "unsigned", "bool",
    "_Bool", "const", "volatile", "struct",
];

/// Type spelling that does not change how a value is passed: qualifiers, `_Bool`, `signed`.
fn canonical(tokens: &[String]) -> Vec<String> {
    let mut out: Vec<String> = tokens
        .iter()
        .filter(|t| !matches!(t.as_str(), "const" | "volatile" | "register" | "restrict"))
        .map(|t| {
            if t == "_Bool" {
                "bool".into()
            } else {
                t.clone()
            }
        })
        .collect();
    if out.iter().any(|t| t == "signed") {
        out.retain(|t| t != "signed");
        if !out
            .iter()
            .any(|t| matches!(t.as_str(), "char" | "short" | "long" | "int"))
        {
            out.insert(0, "int".into());
        }
    }
    out
}

fn normalize_return(tokens: &[String]) -> Vec<String> {
    let kept: Vec<String> = tokens
        .iter()
        .filter(|t| !matches!(t.as_str(), "static" | "inline" | "extern" | "_Noreturn"))
        .cloned()
        .collect();
    canonical(&kept)
}

/// A parameter's type without its name; an array parameter is the pointer it stands for.
fn normalize_param(tokens: &[String]) -> Vec<String> {
    let mut tokens = tokens.to_vec();
    let identifiers: Vec<usize> = tokens
        .iter()
        .enumerate()
        .filter(|(_, t)| t.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_'))
        .map(|(i, _)| i)
        .collect();
    if let Some(&last) = identifiers.last() {
        if identifiers.len() > 1 && !TYPE_WORDS.contains(&tokens[last].as_str()) {
            tokens.remove(last);
        }
    }
    if let Some(open) = tokens.iter().position(|t| t == "[") {
        if let Some(close) = tokens[open..].iter().position(|t| t == "]") {
            tokens.splice(open..=open + close, ["*".to_string()]);
        }
    }
    canonical(&tokens)
}

fn is_integer(tokens: &[String]) -> bool {
    !tokens.is_empty()
        && tokens.iter().all(|t| {
            matches!(
                t.as_str(),
                "bool" | "char" | "short" | "int" | "long" | "unsigned"
            )
        })
}

/// Whether a type is spelled with built-in words only: a typedef or macro name (`BOOL`,
/// `Board`) cannot be judged by reading the source, so it is given the benefit of the doubt.
fn built_in(tokens: &[String]) -> bool {
    tokens.iter().all(|t| {
        TYPE_WORDS.contains(&t.as_str())
            || matches!(t.as_str(), "*" | "[" | "]" | "(" | ")")
            || t.chars().all(|c| c.is_ascii_digit())
    })
}

/// Two types that may differ: both spelled with built-in words, and not the same.
fn differ(student: &[String], handout: &[String]) -> bool {
    student != handout && built_in(student) && built_in(handout)
}

impl Prototype {
    /// Whether a call made through `handout` reaches this function with the same meaning:
    /// as many parameters, of the same types, and return types that are equal or both
    /// integers (the harness reads the result as a number or a truth value). `f()` and
    /// `f(void)` both have no parameters here.
    pub fn matches(&self, handout: &Prototype) -> bool {
        let returns = !differ(&self.returns, &handout.returns)
            || (is_integer(&self.returns) && is_integer(&handout.returns));
        let params = self.params.len() == handout.params.len()
            && self
                .params
                .iter()
                .zip(&handout.params)
                .all(|(mine, theirs)| !differ(mine, theirs));
        returns && params
    }
}

/// The handout's prototypes of `functions`: the declarations in the game's harness and
/// provided files. A file that cannot be read adds nothing (building reports it).
pub fn handout_prototypes(
    spec: &Spec,
    functions: &BTreeSet<String>,
) -> BTreeMap<String, Prototype> {
    let files = spec.build.harness.iter().chain(&spec.submission.provided);
    let mut found = BTreeMap::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(spec.dir.join(file)) else {
            continue;
        };
        for (name, prototype) in prototypes(&text) {
            if functions.contains(&name) {
                found.entry(name).or_insert(prototype);
            }
        }
    }
    found
}

/// The unit-tested functions whose cases are withheld: a signature that differs from the
/// handout's (status `build_error`: the call cannot mean what the case asks), or a helper in
/// `must_be_called` that is defined but never called from the student's code (`fail`).
/// `helpers` is the `helpers` fact (`{"name": {"defined": .., "called": ..}}`).
pub fn withheld(
    handout: &BTreeMap<String, Prototype>,
    sources: &[(String, String)],
    must_be_called: &[String],
    helpers: Option<&Value>,
) -> BTreeMap<String, Withheld> {
    let mut student: BTreeMap<String, Prototype> = BTreeMap::new();
    for (name, text) in sources {
        if name.ends_with(".c") {
            student.extend(prototypes(text));
        }
    }
    let mut withheld = BTreeMap::new();
    for (name, expected) in handout {
        let Some(found) = student.get(name) else {
            continue;
        };
        if !found.matches(expected) {
            withheld.insert(
                name.clone(),
                Withheld {
                    status: Status::BuildError,
                    reason: format!(
                        "signature differs from the handout: `{}`, expected `{}`",
                        found.text, expected.text
                    ),
                },
            );
        }
    }
    for name in must_be_called {
        let fact = helpers.and_then(|h| h.get(name));
        let flag = |key: &str| fact.and_then(|f| f.get(key)).and_then(Value::as_bool);
        if flag("defined") == Some(true) && flag("called") == Some(false) {
            withheld.entry(name.clone()).or_insert(Withheld {
                status: Status::Fail,
                reason: format!(
                    "{name} is defined but never called from your code; the handout requires its use"
                ),
            });
        }
    }
    withheld
}

/// The function a unit case calls (its `function` field).
pub fn unit_function(case: &PreparedCase) -> Option<&str> {
    if case.prepared.target != Target::Harness {
        return None;
    }
    case.spec.fields.get("function").and_then(|f| f.as_str())
}

/// The unit-tested functions of `assignment` whose cases are not run, with a `signatures`
/// fact for each signature that differs from the handout.
pub fn withheld_functions(
    assignment: &Assignment,
    sources: &[(String, String)],
    facts: &mut BTreeMap<String, Value>,
) -> BTreeMap<String, Withheld> {
    let functions = assignment
        .cases
        .iter()
        .filter_map(unit_function)
        .map(String::from)
        .collect();
    let handout = handout_prototypes(&assignment.spec, &functions);
    let withheld = withheld(
        &handout,
        sources,
        &assignment.spec.facts.must_be_called,
        facts.get("helpers"),
    );
    let differing: serde_json::Map<String, Value> = withheld
        .iter()
        .filter(|(_, w)| w.status == Status::BuildError)
        .map(|(name, w)| (name.clone(), Value::String(w.reason.clone())))
        .collect();
    if !differing.is_empty() {
        facts.insert("signatures".into(), Value::Object(differing));
    }
    withheld
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(source: &str, name: &str) -> Prototype {
        prototypes(source)
            .remove(name)
            .unwrap_or_else(|| panic!("{name} not found in {source}"))
    }

    const HANDOUT: &str = "#include <stdbool.h>\nvoid printBoard(char board[][26], int n);\nbool positionInBounds(int n, char row, char col);\n";

    #[test]
    fn lab7_int_coordinates_differ_from_lab6_chars() {
        let handout = one(HANDOUT, "positionInBounds");
        let lab7 = one(
            "/* bounds */\nbool positionInBounds(int n, int row, int col) {\n  return row >= 0 && row < n && col >= 0 && col < n;\n}\n",
            "positionInBounds",
        );
        assert!(!lab7.matches(&handout));
        assert_eq!(lab7.text, "bool positionInBounds(int n, int row, int col)");
        assert_eq!(
            handout.text,
            "bool positionInBounds(int n, char row, char col)"
        );
    }

    #[test]
    fn names_qualifiers_array_sizes_and_void_do_not_matter() {
        let handout = one(HANDOUT, "printBoard");
        for same in [
            "void printBoard(char b[26][26], int size) { }",
            "static void printBoard(char board[][26], const int n) { }",
            "void\nprintBoard (char board [ ] [26],\n            int n)\n{\n}",
        ] {
            assert!(one(same, "printBoard").matches(&handout), "{same}");
        }
        assert!(!one("void printBoard(char board[][26]) {}", "printBoard").matches(&handout));
        assert!(one("void f(void) {}", "f").matches(&one("void f();", "f")));
        // A typedef name is not judged; an int answer is read as a truth value like a bool.
        assert!(one(
            "typedef int BOOL;\nBOOL printBoard(char b[][26], int n) {}",
            "printBoard"
        )
        .matches(&one(HANDOUT, "printBoard")));
        let handout = one(HANDOUT, "positionInBounds");
        assert!(one(
            "int positionInBounds(int n, char r, char c) { return 1; }",
            "positionInBounds"
        )
        .matches(&handout));
    }

    #[test]
    fn variables_calls_and_directives_are_not_prototypes() {
        let found = prototypes(
            "#define F(x) (x)\nint table[3] = {1, 2, 3};\nint (*pointer)(int);\ntypedef int (*cb)(int);\nint main(void) { return f(1); }\n",
        );
        assert_eq!(found.keys().collect::<Vec<_>>(), ["main"]);
    }

    #[test]
    fn withheld_names_the_signature_and_the_unused_helper() {
        let handout: BTreeMap<String, Prototype> = prototypes(HANDOUT);
        let sources = vec![(
            "Lab6.c".to_string(),
            "bool positionInBounds(int n, int row, int col) { return 1; }\nvoid printBoard(char b[][26], int n) {}\n"
                .to_string(),
        )];
        let helpers = serde_json::json!({
            "printBoard": {"defined": true, "called": false},
            "positionInBounds": {"defined": true, "called": false},
        });
        let withheld = withheld(
            &handout,
            &sources,
            &["positionInBounds".to_string(), "printBoard".to_string()],
            Some(&helpers),
        );
        assert_eq!(withheld["positionInBounds"].status, Status::BuildError);
        assert!(withheld["positionInBounds"]
            .reason
            .contains("`bool positionInBounds(int n, int row, int col)`, expected `bool positionInBounds(int n, char row, char col)`"));
        assert_eq!(withheld["printBoard"].status, Status::Fail);
        assert!(withheld["printBoard"].reason.contains("never called"));
    }
}
