//! C source as a stream of normalised tokens, read with tree-sitter's C grammar: comments
//! and whitespace are gone, every identifier is one token and every literal one per kind,
//! so renaming and reformatting leave the stream as it was.

use tree_sitter::{Node, Parser};

/// One token: its normalised symbol (a fixed hash of what it stands for) and its line.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Token {
    pub symbol: u64,
    pub line: u32,
}

/// FNV-1a, 64 bits: a fixed hash, the same on every run and machine (Rust's own hasher is
/// seeded at random).
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in bytes {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The tokens of `source`, in order. Text the grammar cannot parse still gives its tokens
/// (tree-sitter keeps them under error nodes), so a broken file is compared too.
pub fn tokenize(source: &str) -> Vec<Token> {
    let mut parser = Parser::new();
    if parser
        .set_language(&tree_sitter_c::LANGUAGE.into())
        .is_err()
    {
        return Vec::new();
    }
    let Some(tree) = parser.parse(source, None) else {
        return Vec::new();
    };
    let mut tokens = Vec::new();
    let mut pending = vec![tree.root_node()];
    while let Some(node) = pending.pop() {
        if node.is_missing() || node.kind() == "comment" {
            continue;
        }
        match normalised(node, source) {
            Some(word) => tokens.push(Token {
                symbol: fnv1a(word.as_bytes()),
                line: u32::try_from(node.start_position().row + 1).unwrap_or(u32::MAX),
            }),
            None => {
                let mut cursor = node.walk();
                let children: Vec<Node> = node.children(&mut cursor).collect();
                pending.extend(children.into_iter().rev());
            }
        }
    }
    tokens
}

/// What a node counts as when it is one token, or `None` for a node read through its children.
fn normalised<'s>(node: Node, source: &'s str) -> Option<&'s str> {
    let kind = node.kind();
    let word = match kind {
        "identifier" | "field_identifier" | "type_identifier" | "statement_identifier" => "id",
        "number_literal" => "number",
        "string_literal" | "raw_string_literal" | "system_lib_string" => "string",
        "char_literal" => "char",
        // `int` and `char` are different types: a primitive type is kept as written.
        "primitive_type" => source.get(node.byte_range()).unwrap_or(kind),
        "preproc_arg" => "macro-body",
        _ if node.child_count() == 0 => kind,
        _ => return None,
    };
    Some(word)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn symbols(source: &str) -> Vec<u64> {
        tokenize(source).iter().map(|t| t.symbol).collect()
    }

    #[test]
    fn renaming_and_reformatting_leave_the_tokens_alone() {
        let first = "int count(int *a, int n) { /* sum */ int s = 0;\n for (int i = 0; i < n; i++) s += a[i]; return s; }";
        let second = "int total(int*xs,int len){\n  // the total\n  int acc=1;\n  for(int k=0;k<len;k++)\n    acc+=xs[k];\n  return acc;\n}";
        assert_eq!(symbols(first), symbols(second));
    }

    #[test]
    fn types_and_operators_still_count() {
        assert_ne!(symbols("int x = 1;"), symbols("char x = 1;"));
        assert_ne!(symbols("x = a + b;"), symbols("x = a - b;"));
    }

    #[test]
    fn tokens_carry_their_lines() {
        let tokens = tokenize("int a;\n\nint b;\n");
        assert_eq!(tokens.first().map(|t| t.line), Some(1));
        assert_eq!(tokens.last().map(|t| t.line), Some(3));
    }
}
