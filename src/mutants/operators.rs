//! Mutation operators over a C syntax tree (tree-sitter's C grammar): each mutant replaces
//! one span of one source file.

use std::collections::BTreeSet;

use serde::Serialize;
use tree_sitter::{Node, Parser};

/// The kind of change a mutant makes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Operator {
    /// `<`↔`<=`, `>`↔`>=`, `==`↔`!=`.
    Relational,
    /// `&&`↔`||`.
    Logical,
    /// A condition `c` becomes `!(c)`.
    NegatedCondition,
    /// `+`↔`-`.
    Arithmetic,
    /// An integer constant plus or minus one.
    Constant,
    /// An expression statement (assignment, call), `break` or `continue` removed.
    DeletedStatement,
    /// A loop condition's bound one closer (`i < n` becomes `i < (n) - 1`).
    LoopBound,
    /// A returned `true`/`false` or pair of header constants swapped.
    ReturnFlip,
}

impl Operator {
    pub fn name(self) -> &'static str {
        match self {
            Operator::Relational => "relational",
            Operator::Logical => "logical",
            Operator::NegatedCondition => "negated condition",
            Operator::Arithmetic => "arithmetic",
            Operator::Constant => "constant",
            Operator::DeletedStatement => "deleted statement",
            Operator::LoopBound => "loop bound",
            Operator::ReturnFlip => "return flip",
        }
    }
}

/// One mutant: `replacement` in place of bytes `start..end` of `file`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Mutant {
    pub file: String,
    /// 1-based line of the change.
    pub line: usize,
    /// The function holding the change (none at file scope).
    pub function: Option<String>,
    pub operator: Operator,
    #[serde(skip)]
    pub start: usize,
    #[serde(skip)]
    pub end: usize,
    #[serde(skip)]
    pub replacement: String,
    /// The source line(s) holding the change, before and after it (trimmed).
    pub original: String,
    pub mutated: String,
}

impl Mutant {
    /// `source` with this mutant's change.
    pub fn apply(&self, source: &str) -> String {
        format!(
            "{}{}{}",
            &source[..self.start],
            self.replacement,
            &source[self.end..]
        )
    }
}

/// Names a return flip may swap, each pair only when the sources define both.
const RETURN_PAIRS: [(&str, &str); 3] = [
    ("TRUE", "FALSE"),
    ("VALID_MOVE", "INVALID_MOVE"),
    ("VALID", "INVALID"),
];

/// The `#define` and enumerator names of C sources (for the return-flip pairs).
pub fn defined_names(sources: &[&str]) -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    for source in sources {
        let Some(tree) = parse(source) else { continue };
        visit(tree.root_node(), &mut |node| {
            if matches!(node.kind(), "preproc_def" | "enumerator") {
                if let Some(name) = node.child_by_field_name("name") {
                    names.insert(text(name, source).to_string());
                }
            }
        });
    }
    names
}

fn parse(source: &str) -> Option<tree_sitter::Tree> {
    let mut parser = Parser::new();
    parser.set_language(&tree_sitter_c::LANGUAGE.into()).ok()?;
    parser.parse(source, None)
}

/// Every mutant of one file, in source order. `defined` holds the names the sources define
/// (see `defined_names`). Parts of the file the grammar cannot parse are left alone.
pub fn mutants_of(file: &str, source: &str, defined: &BTreeSet<String>) -> Vec<Mutant> {
    let Some(tree) = parse(source) else {
        return Vec::new();
    };
    let mut edits: Vec<(Node, Operator, usize, usize, String)> = Vec::new();
    visit(tree.root_node(), &mut |node| {
        edits_at(
            node,
            source,
            defined,
            &mut |operator, span: Node, replacement| {
                edits.push((
                    node,
                    operator,
                    span.start_byte(),
                    span.end_byte(),
                    replacement,
                ))
            },
        );
    });
    let mut mutants: Vec<Mutant> = Vec::new();
    for (node, operator, start, end, replacement) in edits {
        if inside_error(node) {
            continue;
        }
        let line_start = source[..start].rfind('\n').map_or(0, |i| i + 1);
        let line_end = source[end..].find('\n').map_or(source.len(), |i| end + i);
        let mutant = Mutant {
            file: file.to_string(),
            line: source[..start].matches('\n').count() + 1,
            function: enclosing_function(node, source),
            operator,
            start,
            end,
            replacement: replacement.clone(),
            original: source[line_start..line_end].trim().to_string(),
            mutated: format!(
                "{}{replacement}{}",
                &source[line_start..start],
                &source[end..line_end]
            )
            .trim()
            .to_string(),
        };
        if !mutants
            .iter()
            .any(|m| m.start == start && m.end == end && m.mutated == mutant.mutated)
        {
            mutants.push(mutant);
        }
    }
    mutants
}

/// Calls `edit(operator, span, replacement)` for each mutation of `node` itself.
fn edits_at<'t>(
    node: Node<'t>,
    source: &str,
    defined: &BTreeSet<String>,
    edit: &mut dyn FnMut(Operator, Node<'t>, String),
) {
    match node.kind() {
        "binary_expression" => {
            let Some(operator) = node.child_by_field_name("operator") else {
                return;
            };
            let swapped = match operator.kind() {
                "<" => Some((Operator::Relational, "<=")),
                "<=" => Some((Operator::Relational, "<")),
                ">" => Some((Operator::Relational, ">=")),
                ">=" => Some((Operator::Relational, ">")),
                "==" => Some((Operator::Relational, "!=")),
                "!=" => Some((Operator::Relational, "==")),
                "&&" => Some((Operator::Logical, "||")),
                "||" => Some((Operator::Logical, "&&")),
                "+" => Some((Operator::Arithmetic, "-")),
                "-" => Some((Operator::Arithmetic, "+")),
                _ => None,
            };
            if let Some((kind, to)) = swapped {
                edit(kind, operator, to.to_string());
            }
        }
        "number_literal" if !in_array_size(node) => {
            if let Ok(value) = text(node, source).parse::<i64>() {
                edit(Operator::Constant, node, (value + 1).to_string());
                edit(Operator::Constant, node, (value - 1).to_string());
            }
        }
        "if_statement"
        | "while_statement"
        | "do_statement"
        | "for_statement"
        | "conditional_expression" => {
            let Some(condition) = node.child_by_field_name("condition").map(unparenthesized) else {
                return;
            };
            edit(
                Operator::NegatedCondition,
                condition,
                format!("!({})", text(condition, source)),
            );
            if node.kind() != "if_statement" && node.kind() != "conditional_expression" {
                loop_bound(condition, source, edit);
            }
        }
        "expression_statement" if node.named_child_count() > 0 => {
            edit(Operator::DeletedStatement, node, ";".to_string());
        }
        "break_statement" | "continue_statement" => {
            edit(Operator::DeletedStatement, node, ";".to_string());
        }
        "return_statement" => {
            let Some(value) = node.named_child(0) else {
                return;
            };
            let flipped = match (value.kind(), text(value, source)) {
                ("true", _) => Some("false"),
                ("false", _) => Some("true"),
                ("identifier", name) => RETURN_PAIRS.iter().find_map(|(a, b)| {
                    let both = defined.contains(*a) && defined.contains(*b);
                    match name {
                        _ if !both => None,
                        n if n == *a => Some(*b),
                        n if n == *b => Some(*a),
                        _ => None,
                    }
                }),
                _ => None,
            };
            if let Some(flipped) = flipped {
                edit(Operator::ReturnFlip, value, flipped.to_string());
            }
        }
        _ => {}
    }
}

/// `i < n` → `i < (n) - 1`, `i > n` → `i > (n) + 1`: one iteration fewer. A constant bound
/// is left to the constant operator.
fn loop_bound<'t>(
    condition: Node<'t>,
    source: &str,
    edit: &mut dyn FnMut(Operator, Node<'t>, String),
) {
    if condition.kind() != "binary_expression" {
        return;
    }
    let (Some(operator), Some(bound)) = (
        condition.child_by_field_name("operator"),
        condition.child_by_field_name("right"),
    ) else {
        return;
    };
    if bound.kind() == "number_literal" {
        return;
    }
    let step = match operator.kind() {
        "<" | "<=" => "- 1",
        ">" | ">=" => "+ 1",
        _ => return,
    };
    edit(
        Operator::LoopBound,
        bound,
        format!("({}) {step}", text(bound, source)),
    );
}

fn unparenthesized(node: Node) -> Node {
    if node.kind() == "parenthesized_expression" && node.named_child_count() == 1 {
        node.named_child(0).unwrap_or(node)
    } else {
        node
    }
}

/// An array declarator's size: changing it changes no behaviour a case can see.
fn in_array_size(node: Node) -> bool {
    node.parent()
        .is_some_and(|parent| parent.kind() == "array_declarator")
}

fn inside_error(node: Node) -> bool {
    let mut current = Some(node);
    while let Some(n) = current {
        if n.is_error() {
            return true;
        }
        current = n.parent();
    }
    false
}

fn enclosing_function(node: Node, source: &str) -> Option<String> {
    let mut current = node.parent();
    while let Some(n) = current {
        if n.kind() == "function_definition" {
            let mut declarator = n.child_by_field_name("declarator")?;
            while declarator.kind() != "identifier" {
                declarator = declarator.child_by_field_name("declarator")?;
            }
            return Some(text(declarator, source).to_string());
        }
        current = n.parent();
    }
    None
}

fn text<'s>(node: Node, source: &'s str) -> &'s str {
    &source[node.start_byte()..node.end_byte()]
}

/// Pre-order walk of every node.
fn visit<'t>(node: Node<'t>, each: &mut dyn FnMut(Node<'t>)) {
    each(node);
    let mut cursor = node.walk();
    for child in node.children(&mut cursor) {
        visit(child, each);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mutated(source: &str, operator: Operator) -> Vec<String> {
        let defined = defined_names(&[source]);
        mutants_of("t.c", source, &defined)
            .into_iter()
            .filter(|m| m.operator == operator)
            .map(|m| m.apply(source))
            .collect()
    }

    #[test]
    fn relational_operators_swap_with_their_inclusive_or_negated_partner() {
        let source = "int f(int a) { return a < 3 || a == 5; }\n";
        assert_eq!(
            mutated(source, Operator::Relational),
            [
                "int f(int a) { return a <= 3 || a == 5; }\n",
                "int f(int a) { return a < 3 || a != 5; }\n",
            ]
        );
    }

    #[test]
    fn logical_operators_swap() {
        let source = "int f(int a, int b) { return a && b; }\n";
        assert_eq!(
            mutated(source, Operator::Logical),
            ["int f(int a, int b) { return a || b; }\n"]
        );
    }

    #[test]
    fn conditions_are_negated_without_their_parentheses_doubled() {
        let source = "void f(int a) { if (a > 1) g(); }\n";
        assert_eq!(
            mutated(source, Operator::NegatedCondition),
            ["void f(int a) { if (!(a > 1)) g(); }\n"]
        );
    }

    #[test]
    fn plus_and_minus_swap() {
        let source = "int f(int a) { return a + 2 - a; }\n";
        assert_eq!(
            mutated(source, Operator::Arithmetic),
            [
                "int f(int a) { return a + 2 + a; }\n",
                "int f(int a) { return a - 2 - a; }\n",
            ]
        );
    }

    #[test]
    fn integer_constants_move_by_one_but_array_sizes_do_not() {
        let source = "int f(void) { int b[8]; return 7; }\n";
        assert_eq!(
            mutated(source, Operator::Constant),
            [
                "int f(void) { int b[8]; return 8; }\n",
                "int f(void) { int b[8]; return 6; }\n",
            ]
        );
    }

    #[test]
    fn statements_and_calls_are_deleted_but_declarations_are_not() {
        let source = "void f(int *p) { int x = 1; *p = x; g(p); }\n";
        assert_eq!(
            mutated(source, Operator::DeletedStatement),
            [
                "void f(int *p) { int x = 1; ; g(p); }\n",
                "void f(int *p) { int x = 1; *p = x; ; }\n",
            ]
        );
    }

    #[test]
    fn loop_bounds_lose_one_iteration_unless_constant() {
        let source = "void f(int n) { for (int i = 0; i < n; i++) g(i); while (n > 0) n--; }\n";
        assert_eq!(
            mutated(source, Operator::LoopBound),
            ["void f(int n) { for (int i = 0; i < (n) - 1; i++) g(i); while (n > 0) n--; }\n"]
        );
    }

    #[test]
    fn returned_booleans_and_defined_move_constants_flip() {
        let source = "#define VALID_MOVE 1\n#define INVALID_MOVE 0\n\
            int f(int a) { if (a) return VALID_MOVE; return false; }\n";
        assert_eq!(
            mutated(source, Operator::ReturnFlip),
            [
                "#define VALID_MOVE 1\n#define INVALID_MOVE 0\n\
                 int f(int a) { if (a) return INVALID_MOVE; return false; }\n",
                "#define VALID_MOVE 1\n#define INVALID_MOVE 0\n\
                 int f(int a) { if (a) return VALID_MOVE; return true; }\n",
            ]
        );
    }

    #[test]
    fn undefined_names_are_not_flipped() {
        let source = "int f(void) { return VALID_MOVE; }\n";
        assert!(mutated(source, Operator::ReturnFlip).is_empty());
    }

    #[test]
    fn each_mutant_knows_its_line_and_function() {
        let source = "int x = 1;\n\nint *p(void)\n{\n    return x + 1;\n}\n";
        let found = mutants_of("t.c", source, &BTreeSet::new());
        let plus = found
            .iter()
            .find(|m| m.operator == Operator::Arithmetic)
            .map(|m| {
                (
                    m.line,
                    m.function.clone(),
                    m.original.clone(),
                    m.mutated.clone(),
                )
            });
        assert_eq!(
            plus,
            Some((
                5,
                Some("p".to_string()),
                "return x + 1;".to_string(),
                "return x - 1;".to_string()
            ))
        );
        let global = found
            .iter()
            .find(|m| m.line == 1)
            .map(|m| m.function.clone());
        assert_eq!(global, Some(None));
    }
}
