//! C source read as text, without a compiler: comments and literals blanked out, the
//! identifiers with the function and brace depth they stand in, and the functions defined.
//! Intake uses it to find the file that defines `main`; the build's facts and signature
//! checks use it on every file.

/// An identifier in the code with what it is used as.
pub struct Token {
    pub word: String,
    /// Brace depth where it stands (0 = file scope).
    pub depth: usize,
    /// The next significant character is `(`.
    pub before_paren: bool,
    /// The function whose body holds it, if any.
    pub inside: Option<String>,
}

/// Blanks out comments, string and character literals, keeping lengths and newlines.
pub fn strip_comments_and_literals(src: &str) -> String {
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
pub struct Scan {
    pub tokens: Vec<Token>,
    pub defined: Vec<String>,
}

pub fn scan(src: &str) -> Scan {
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
