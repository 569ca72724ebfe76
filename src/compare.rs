//! Compares a program's output with the tagged expected transcript: one line diff, a
//! mismatch class, the items whose lines differ, and a unified diff a student can read.

use std::collections::{BTreeSet, HashMap};

use serde::Serialize;
use similar::{capture_diff_slices, group_diff_ops, Algorithm, DiffOp};

use crate::assignment::spec::CompareMode;
use crate::games::Transcript;

/// What kind of difference there is between the outputs, judged on the raw text (JSON
/// `mismatch`, in snake case).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Mismatch {
    /// The outputs are identical (or the item passes).
    None,
    /// Only CRLF line endings differ.
    Crlf,
    /// Only the final newline is missing or extra.
    FinalNewline,
    /// Only blanks at the ends of lines differ.
    TrailingSpace,
    /// Only empty lines differ.
    BlankLines,
    /// Only spacing inside lines differs.
    Whitespace,
    /// Only upper/lower case differs.
    Case,
    /// The text differs.
    Content,
}

impl Mismatch {
    pub fn describe(self) -> &'static str {
        match self {
            Mismatch::None => "identical",
            Mismatch::Crlf => "only line endings differ (CRLF instead of LF)",
            Mismatch::FinalNewline => "only the newline at the very end differs",
            Mismatch::TrailingSpace => "only spaces at the ends of lines differ",
            Mismatch::BlankLines => "only empty lines differ",
            Mismatch::Whitespace => "only spacing differs",
            Mismatch::Case => "only upper/lower case differs",
            Mismatch::Content => "the text differs",
        }
    }
}

pub fn classify(expected: &str, actual: &str) -> Mismatch {
    if expected == actual {
        return Mismatch::None;
    }
    if expected.replace("\r\n", "\n") == actual.replace("\r\n", "\n") {
        return Mismatch::Crlf;
    }
    if expected.trim_end_matches('\n') == actual.trim_end_matches('\n') {
        return Mismatch::FinalNewline;
    }
    let trimmed = |s: &str| -> Vec<String> {
        let mut lines: Vec<String> = s.lines().map(|l| l.trim_end().to_string()).collect();
        while lines.last().is_some_and(|l| l.is_empty()) {
            lines.pop();
        }
        lines
    };
    if trimmed(expected) == trimmed(actual) {
        return Mismatch::TrailingSpace;
    }
    let non_blank = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.trim().is_empty())
            .map(|l| l.trim_end().to_string())
            .collect()
    };
    if non_blank(expected) == non_blank(actual) {
        return Mismatch::BlankLines;
    }
    let words = |s: &str| -> Vec<String> {
        s.lines()
            .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
            .filter(|l| !l.is_empty())
            .collect()
    };
    if words(expected) == words(actual) {
        return Mismatch::Whitespace;
    }
    if expected.to_lowercase() == actual.to_lowercase() {
        return Mismatch::Case;
    }
    Mismatch::Content
}

/// The outcome of comparing one run's output.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub mismatch: Mismatch,
    /// Items with at least one line that differs in the comparison mode, or that an extra
    /// output line is charged to.
    pub failed_items: BTreeSet<&'static str>,
    /// Unified diff (empty when the outputs match in the comparison mode).
    pub diff: String,
}

/// A line of output with its terminator noted, as the diff sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct OutLine<'a> {
    pub(crate) text: &'a str,
    pub(crate) newline: bool,
}

pub(crate) fn split_lines(text: &str) -> Vec<OutLine<'_>> {
    text.split_inclusive('\n')
        .map(|line| match line.strip_suffix('\n') {
            Some(text) => OutLine {
                text,
                newline: true,
            },
            None => OutLine {
                text: line,
                newline: false,
            },
        })
        .collect()
}

/// Whether two lines count as equal in `mode` (the newline counts only in exact mode).
pub(crate) fn lines_match(mode: CompareMode, expected: OutLine, actual: OutLine) -> bool {
    key(mode, expected.text, expected.newline) == key(mode, actual.text, actual.newline)
}

/// The key two lines are compared by in `mode`.
fn key(mode: CompareMode, text: &str, newline: bool) -> String {
    match mode {
        CompareMode::Exact => {
            let mut key = text.to_string();
            if newline {
                key.push('\n');
            }
            key
        }
        CompareMode::TrailingSpace => text.trim_end_matches([' ', '\t', '\r']).to_string(),
        CompareMode::Whitespace => text.split_whitespace().collect::<Vec<_>>().join(" "),
    }
}

/// In the lenient modes, blank lines at the very end do not count.
fn trim_trailing_blank(mode: CompareMode, keys: &mut Vec<String>) {
    if mode != CompareMode::Exact {
        while keys.last().is_some_and(|k| k.is_empty()) {
            keys.pop();
        }
    }
}

/// Diff lines shown before the rest is cut.
pub const MAX_DIFF_LINES: usize = 80;
/// Characters of one line a diff shows before the rest of it is cut.
pub const MAX_DIFF_LINE_CHARS: usize = 300;
/// A line diff of more lines than this (expected and compared output together) is worked out
/// in linear time: the common start and end, and everything between as one change. Myers'
/// algorithm takes time in proportion to the lines times the lines that differ.
const MYERS_MAX_LINES: usize = 20_000;

/// The part of a program's output that is compared: at most twice the expected output's
/// lines and bytes, and a margin (a flood of output past it fails the comparison anyway), and
/// how much was left out.
fn compared_part<'a>(expected: &Transcript, actual: &'a str) -> (&'a str, Option<Cut>) {
    let expected_lines = expected.lines();
    let max_lines = 2 * expected_lines.len() + 100;
    let expected_bytes: usize = expected_lines.iter().map(|l| l.text.len() + 1).sum();
    let max_bytes = 2 * expected_bytes + (64 << 10);
    let mut end = actual.len().min(max_bytes);
    while !actual.is_char_boundary(end) {
        end -= 1;
    }
    if let Some((at, _)) = actual[..end].match_indices('\n').nth(max_lines - 1) {
        end = at + 1;
    }
    if end == actual.len() {
        return (actual, None);
    }
    let rest = &actual[end..];
    let cut = Cut {
        lines: rest.lines().count(),
        bytes: rest.len(),
    };
    (&actual[..end], Some(cut))
}

/// Output left out of a comparison.
#[derive(Debug, Clone, Copy)]
struct Cut {
    lines: usize,
    bytes: usize,
}

/// How much of a comparison to work out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Detail {
    /// The failed items, the mismatch and the unified diff a report shows.
    Full,
    /// The failed items and the mismatch only (the diff is left empty): what
    /// `referee mutants` needs. A transcript whose lines all demonstrate one item then needs
    /// no line diff at all, since any difference fails that item and nothing else.
    ItemsOnly,
}

pub fn compare(expected: &Transcript, actual: &str, mode: CompareMode) -> Comparison {
    compare_with(expected, actual, mode, Detail::Full)
}

pub fn compare_with(
    expected: &Transcript,
    actual: &str,
    mode: CompareMode,
    detail: Detail,
) -> Comparison {
    let expected_lines = expected.lines();
    let (actual, cut) = compared_part(expected, actual);
    let actual_lines = split_lines(actual);
    let mut old: Vec<String> = expected_lines
        .iter()
        .map(|l| key(mode, &l.text, l.newline))
        .collect();
    let mut new: Vec<String> = actual_lines
        .iter()
        .map(|l| key(mode, l.text, l.newline))
        .collect();
    trim_trailing_blank(mode, &mut old);
    trim_trailing_blank(mode, &mut new);

    let one_item = match expected_lines.split_first() {
        Some((first, rest)) if rest.iter().all(|l| l.item == first.item) => Some(first.item),
        _ => None,
    };
    if detail == Detail::ItemsOnly && (one_item.is_some() || expected_lines.is_empty()) {
        // What the line diff below would find: any difference is charged to the one item
        // (every expected line, and every neighbour of an extra line, is that item's).
        return Comparison {
            mismatch: classify(&expected.text(), actual),
            failed_items: one_item.filter(|_| old != new).into_iter().collect(),
            diff: String::new(),
        };
    }
    let ops = line_diff(&old, &new);
    let item_at = |index: usize| {
        expected_lines
            .get(index.min(expected_lines.len().saturating_sub(1)))
            .map(|line| line.item)
    };
    let mut failed_items = BTreeSet::new();
    // Extra lines between two items' output: (item before, item after).
    let mut boundary_inserts = Vec::new();
    for op in &ops {
        match *op {
            DiffOp::Equal { .. } => {}
            DiffOp::Delete {
                old_index, old_len, ..
            }
            | DiffOp::Replace {
                old_index, old_len, ..
            } => failed_items.extend((old_index..old_index + old_len).filter_map(item_at)),
            DiffOp::Insert { old_index, .. } => {
                let before = item_at(old_index.saturating_sub(1));
                let after = if old_index < expected_lines.len() {
                    item_at(old_index)
                } else {
                    before
                };
                match (before, after) {
                    (Some(b), Some(a)) if a != b => boundary_inserts.push((b, a)),
                    (Some(item), _) | (None, Some(item)) => {
                        failed_items.insert(item);
                    }
                    (None, None) => {}
                }
            }
        }
    }
    // Extra lines where one step's output ends and the next begins are charged to the
    // line they follow, unless a neighbour already fails on its own lines (e.g. a list
    // printed in the wrong place shows up as an insertion before the next item's lines).
    for (before, after) in boundary_inserts {
        if !failed_items.contains(before) && !failed_items.contains(after) {
            failed_items.insert(before);
        }
    }

    let matched = failed_items.is_empty();
    let expected_text = expected.text();
    Comparison {
        mismatch: classify(&expected_text, actual),
        failed_items,
        diff: if matched || detail == Detail::ItemsOnly {
            String::new()
        } else {
            let expected_view: Vec<OutLine> = expected_lines
                .iter()
                .map(|l| OutLine {
                    text: &l.text,
                    newline: l.newline,
                })
                .collect();
            let mut diff = unified_diff(&ops, &expected_view, &actual_lines);
            if let Some(cut) = cut {
                diff.push_str(&format!(
                    "… your output went on for {} more lines ({} bytes), not compared: it is already twice as long as the expected output\n",
                    cut.lines, cut.bytes
                ));
            }
            diff
        },
    }
}

/// Myers' line diff of `old` and `new`, run on numbers standing for the distinct lines: the
/// algorithm only ever asks whether two lines are equal, so the edit script is the one the
/// strings give, found without comparing strings at every step.
fn line_diff(old: &[String], new: &[String]) -> Vec<DiffOp> {
    if old.len() + new.len() > MYERS_MAX_LINES {
        return linear_diff(old, new);
    }
    let mut ids: HashMap<&str, usize> = HashMap::new();
    let mut old_ids = Vec::with_capacity(old.len());
    let mut new_ids = Vec::with_capacity(new.len());
    for (lines, numbers) in [(old, &mut old_ids), (new, &mut new_ids)] {
        for line in lines {
            let next = ids.len();
            numbers.push(*ids.entry(line.as_str()).or_insert(next));
        }
    }
    capture_diff_slices(Algorithm::Myers, &old_ids, &new_ids)
}

/// The edit script of a diff too long for Myers: the lines the two have in common at the
/// start and at the end, and one change for everything between.
fn linear_diff(old: &[String], new: &[String]) -> Vec<DiffOp> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let (old_len, new_len) = (old.len() - prefix - suffix, new.len() - prefix - suffix);
    let mut ops = Vec::new();
    if prefix > 0 {
        ops.push(DiffOp::Equal {
            old_index: 0,
            new_index: 0,
            len: prefix,
        });
    }
    match (old_len, new_len) {
        (0, 0) => {}
        (0, _) => ops.push(DiffOp::Insert {
            old_index: prefix,
            new_index: prefix,
            new_len,
        }),
        (_, 0) => ops.push(DiffOp::Delete {
            old_index: prefix,
            old_len,
            new_index: prefix,
        }),
        _ => ops.push(DiffOp::Replace {
            old_index: prefix,
            old_len,
            new_index: prefix,
            new_len,
        }),
    }
    if suffix > 0 {
        ops.push(DiffOp::Equal {
            old_index: prefix + old_len,
            new_index: prefix + new_len,
            len: suffix,
        });
    }
    ops
}

fn unified_diff(ops: &[DiffOp], old: &[OutLine], new: &[OutLine]) -> String {
    let mut lines = vec!["--- expected".to_string(), "+++ your output".to_string()];
    for group in group_diff_ops(ops.to_vec(), 3) {
        let (Some(first), Some(last)) = (group.first(), group.last()) else {
            continue;
        };
        let old_range = first.old_range().start..last.old_range().end;
        let new_range = first.new_range().start..last.new_range().end;
        lines.push(format!(
            "@@ -{} +{} @@",
            hunk_range(&old_range),
            hunk_range(&new_range)
        ));
        for op in &group {
            match *op {
                DiffOp::Equal { old_index, len, .. } => {
                    for line in &old[old_index..old_index + len] {
                        push_line(&mut lines, ' ', line);
                    }
                }
                _ => {
                    for line in &old[op.old_range()] {
                        push_line(&mut lines, '-', line);
                    }
                    for line in &new[op.new_range()] {
                        push_line(&mut lines, '+', line);
                    }
                }
            }
        }
    }
    if lines.len() > MAX_DIFF_LINES {
        let cut = lines.len() - MAX_DIFF_LINES;
        lines.truncate(MAX_DIFF_LINES);
        lines.push(format!("… {cut} more diff lines not shown"));
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

fn hunk_range(range: &std::ops::Range<usize>) -> String {
    let len = range.end - range.start;
    let start = if len == 0 {
        range.start
    } else {
        range.start + 1
    };
    format!("{start},{len}")
}

fn push_line(lines: &mut Vec<String>, sign: char, line: &OutLine) {
    let shown = visible(line.text);
    let chars = shown.chars().count();
    if chars > MAX_DIFF_LINE_CHARS {
        let kept: String = shown.chars().take(MAX_DIFF_LINE_CHARS).collect();
        lines.push(format!(
            "{sign}{kept}… ({} more characters)",
            chars - MAX_DIFF_LINE_CHARS
        ));
    } else {
        lines.push(format!("{sign}{shown}"));
    }
    if !line.newline {
        lines.push("\\ (no newline at end of line)".to_string());
    }
}

/// Makes invisible characters visible: `·` for spaces at line end, `→` for tabs, `␍` for a
/// carriage return, `␀`-style symbols for other control characters.
pub fn visible(text: &str) -> String {
    let trailing = text.len() - text.trim_end_matches(' ').len();
    let body = &text[..text.len() - trailing];
    let mut out = String::with_capacity(text.len() + trailing);
    for ch in body.chars() {
        match ch {
            '\t' => out.push('→'),
            '\r' => out.push('␍'),
            c if (c as u32) < 0x20 => {
                out.push(char::from_u32(0x2400 + c as u32).unwrap_or('?'));
            }
            '\u{7f}' => out.push('␡'),
            // C1 controls (U+009B starts a terminal sequence) and bidirectional overrides
            // would act on the reader's terminal or reorder the line: written out.
            c if c.is_control()
                || matches!(c, '\u{061c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}') =>
            {
                out.push_str(&format!("\\u{{{:04x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.extend(std::iter::repeat_n('·', trailing));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn transcript(parts: &[(&'static str, &str)]) -> Transcript {
        let mut t = Transcript::new();
        for (item, text) in parts {
            t.print(item, text);
        }
        t
    }

    #[test]
    fn identical_output_passes_every_item() {
        let t = transcript(&[("a", "one\n"), ("b", "two\n")]);
        let c = compare(&t, "one\ntwo\n", CompareMode::Exact);
        assert!(c.failed_items.is_empty());
        assert_eq!(c.mismatch, Mismatch::None);
        assert!(c.diff.is_empty());
    }

    #[test]
    fn a_wrong_line_costs_only_its_item() {
        let t = transcript(&[("a", "one\n"), ("b", "two\n"), ("c", "three\n")]);
        let c = compare(&t, "one\nTWO!\nthree\n", CompareMode::Exact);
        assert_eq!(c.failed_items, BTreeSet::from(["b"]));
        assert!(c.diff.contains("-two\n+TWO!"), "{}", c.diff);
    }

    #[test]
    fn a_missing_newline_after_a_prompt_costs_the_prompt_item() {
        let t = transcript(&[("a", "board\n"), ("m", "Enter a move:\nValid move.\n")]);
        let c = compare(&t, "board\nEnter a move:Valid move.\n", CompareMode::Exact);
        assert_eq!(c.failed_items, BTreeSet::from(["m"]));
    }

    #[test]
    fn lines_printed_in_the_wrong_place_cost_the_item_that_misplaced_them() {
        let t = transcript(&[("config", "board\n"), ("moves", "W:\nw1\nB:\nb1\n")]);
        let c = compare(&t, "board\nB:\nb1\nW:\nw1\n", CompareMode::Exact);
        assert_eq!(c.failed_items, BTreeSet::from(["moves"]));
    }

    #[test]
    fn an_extra_line_is_charged_to_the_line_it_follows() {
        let t = transcript(&[("a", "one\n"), ("b", "two\n")]);
        let c = compare(&t, "one\nextra\ntwo\n", CompareMode::Exact);
        assert_eq!(c.failed_items, BTreeSet::from(["a"]));
    }

    #[test]
    fn trailing_space_mode_ignores_trailing_blanks_but_names_them() {
        let t = transcript(&[("a", "x  \ny\n")]);
        let c = compare(&t, "x\ny\n\n", CompareMode::TrailingSpace);
        assert!(c.failed_items.is_empty());
        let exact = compare(&t, "x\ny\n", CompareMode::Exact);
        assert_eq!(exact.mismatch, Mismatch::TrailingSpace);
        assert!(exact.diff.contains("-x··"), "{}", exact.diff);
    }

    #[test]
    fn mismatch_classes() {
        assert_eq!(classify("a\nb\n", "a\r\nb\r\n"), Mismatch::Crlf);
        assert_eq!(classify("a\nb\n", "a\nb"), Mismatch::FinalNewline);
        assert_eq!(classify("a\nb\n", "a\n\nb\n"), Mismatch::BlankLines);
        assert_eq!(classify("a b\n", "a  b\n"), Mismatch::Whitespace);
        assert_eq!(classify("Valid move.\n", "valid move.\n"), Mismatch::Case);
        assert_eq!(classify("a\n", "b\n"), Mismatch::Content);
    }

    #[test]
    fn a_missing_final_newline_is_shown() {
        let t = transcript(&[("a", "end\n")]);
        let c = compare(&t, "end", CompareMode::Exact);
        assert_eq!(c.failed_items, BTreeSet::from(["a"]));
        assert!(c.diff.contains("+end\n\\ (no newline"), "{}", c.diff);
    }

    #[test]
    fn a_flood_of_output_is_compared_only_up_to_twice_the_expected() {
        let t = transcript(&[("board", "row 1\nrow 2\n"), ("moves", "A to B\n")]);
        let flood = "\n".repeat(1 << 20);
        let c = compare(&t, &flood, CompareMode::Exact);
        assert!(c.failed_items.contains("board") && c.failed_items.contains("moves"));
        assert!(
            c.diff.contains(
                "your output went on for 1048470 more lines (1048470 bytes), not compared"
            ),
            "{}",
            c.diff
        );
        let within = "row 1\nrow 2\nA to B\n\n";
        let c = compare(&t, within, CompareMode::Exact);
        assert!(!c.diff.contains("not compared"), "{}", c.diff);
    }

    #[test]
    fn a_diff_line_is_cut_at_its_width() {
        let t = transcript(&[("a", "short\n")]);
        let long = format!("{}\n", "x".repeat(5000));
        let c = compare(&t, &long, CompareMode::Exact);
        let shown = c
            .diff
            .lines()
            .find(|l| l.starts_with('+') && !l.starts_with("+++"));
        let shown = shown.expect("the program's line");
        assert!(shown.ends_with(&format!(
            "… ({} more characters)",
            5000 - MAX_DIFF_LINE_CHARS
        )));
        assert!(shown.chars().count() < MAX_DIFF_LINE_CHARS + 40);
    }

    #[test]
    fn a_diff_past_the_myers_budget_is_one_change_between_the_common_ends() {
        let lines =
            |n: usize, tag: &str| -> Vec<String> { (0..n).map(|i| format!("{tag}{i}")).collect() };
        let mut old = lines(12_000, "same ");
        let mut new = old.clone();
        old.insert(6_000, "only expected".into());
        new[7_000] = "changed".into();
        new.insert(100, "extra".into());
        let ops = line_diff(&old, &new);
        assert!(old.len() + new.len() > MYERS_MAX_LINES);
        assert_eq!(ops.len(), 3, "{ops:?}");
        assert_eq!(
            ops[0],
            DiffOp::Equal {
                old_index: 0,
                new_index: 0,
                len: 100
            }
        );
        assert!(matches!(ops[1], DiffOp::Replace { old_index: 100, .. }));
        let DiffOp::Equal { len, .. } = ops[2] else {
            panic!("{ops:?}");
        };
        assert_eq!(len, 12_000 - 7_001);
        let same = line_diff(&old, &old);
        assert_eq!(
            same,
            vec![DiffOp::Equal {
                old_index: 0,
                new_index: 0,
                len: old.len()
            }]
        );
    }

    #[test]
    fn long_diffs_are_cut_with_a_count() {
        let expected: String = (0..200).map(|i| format!("line {i}\n")).collect();
        let t = transcript(&[("a", &expected)]);
        let c = compare(&t, "", CompareMode::Exact);
        assert!(c.diff.lines().count() <= MAX_DIFF_LINES + 1);
        assert!(c.diff.contains("more diff lines not shown"));
    }

    /// Lines drawn from a small alphabet, so that two draws share many lines.
    fn lines(seed: u64, count: usize) -> Vec<String> {
        let mut state = seed;
        (0..count)
            .map(|_| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                format!("line {}", (state >> 33) % 7)
            })
            .collect()
    }

    #[test]
    fn the_diff_of_numbered_lines_is_the_diff_of_the_lines() {
        for seed in 0..200 {
            let old = lines(seed, (seed % 40) as usize);
            let new = lines(seed + 1000, ((seed * 7) % 45) as usize);
            assert_eq!(
                line_diff(&old, &new),
                capture_diff_slices(Algorithm::Myers, &old, &new),
                "seed {seed}"
            );
        }
    }

    #[test]
    fn items_only_fails_the_items_the_full_comparison_fails() {
        let one = transcript(&[("a", "x\ny\nz\n")]);
        let three = transcript(&[("a", "one\n"), ("b", "two\n"), ("c", "three\n")]);
        let empty = Transcript::new();
        let blank_end = transcript(&[("a", "x\n\n")]);
        let cases: [(&Transcript, &str, CompareMode); 10] = [
            (&one, "x\ny\nz\n", CompareMode::Exact),
            (&one, "x\nY\nz\n", CompareMode::Exact),
            (&one, "x\ny\nz\nextra\n", CompareMode::Exact),
            (&one, "", CompareMode::Exact),
            (&one, "x  \ny\nz\n\n", CompareMode::TrailingSpace),
            (&three, "one\nTWO\nthree\n", CompareMode::Exact),
            (&three, "one\ntwo\nthree\nfour\n", CompareMode::Exact),
            (&empty, "anything\n", CompareMode::Exact),
            (&empty, "", CompareMode::Exact),
            (&blank_end, "x\n", CompareMode::Whitespace),
        ];
        for (expected, actual, mode) in cases {
            let full = compare(expected, actual, mode);
            let items = compare_with(expected, actual, mode, Detail::ItemsOnly);
            assert_eq!(items.failed_items, full.failed_items, "{actual:?} {mode:?}");
            assert_eq!(items.mismatch, full.mismatch, "{actual:?} {mode:?}");
            assert!(items.diff.is_empty());
        }
    }

    #[test]
    fn control_characters_are_visible() {
        assert_eq!(visible("a\tb\r\0 "), "a→b␍␀·");
        assert_eq!(visible("\u{9b}2J\u{202e}x"), "\\u{009b}2J\\u{202e}x");
    }
}
