//! Scoring: each submission's fingerprints without the template's and the class's common
//! ones, an index from fingerprint to submissions, and a score for every pair the index
//! brings together (pairs that share nothing are never looked at).

use std::collections::{HashMap, HashSet};
use std::hash::{BuildHasherDefault, Hasher};

use rayon::prelude::*;

use super::fingerprint::{kgram_hashes, winnow, K};
use super::tokens::tokenize;
use super::{Compared, ComparedFile, Comparison, Document, Match, Options, Pair, SourceText};

/// Keys here are fingerprints or pairs of indices: a fixed mixing hasher is enough, and the
/// same on every run (results are sorted anyway).
#[derive(Default)]
struct FixedHasher(u64);

impl Hasher for FixedHasher {
    fn finish(&self) -> u64 {
        let mut x = self.0;
        x ^= x >> 31;
        x = x.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        x ^ (x >> 29)
    }

    fn write(&mut self, bytes: &[u8]) {
        for byte in bytes {
            self.0 = (self.0 ^ u64::from(*byte)).wrapping_mul(0x0000_0100_0000_01b3);
        }
    }

    fn write_u64(&mut self, value: u64) {
        self.0 = self.0.rotate_left(5) ^ value;
    }
}

type FixedMap<K, V> = HashMap<K, V, BuildHasherDefault<FixedHasher>>;
type FixedSet<K> = HashSet<K, BuildHasherDefault<FixedHasher>>;

/// A kept fingerprint: its hash and the lines of its run of tokens.
#[derive(Debug, Clone, Copy)]
struct Print {
    hash: u64,
    file: usize,
    lines: (u32, u32),
}

/// One submission read: its fingerprints in order and its files' template lines.
struct Analysed {
    prints: Vec<Print>,
    template_lines: Vec<Vec<(u32, u32)>>,
}

/// Every run hash of the template files: any of them in a submission is the course's code.
fn template_hashes(templates: &[SourceText]) -> FixedSet<u64> {
    templates
        .iter()
        .flat_map(|t| kgram_hashes(&tokenize(&t.text)))
        .collect()
}

fn analyse(document: &Document, template: &FixedSet<u64>) -> Analysed {
    let mut prints = Vec::new();
    let mut template_lines = Vec::new();
    for (file, source) in document.files.iter().enumerate() {
        let tokens = tokenize(&source.text);
        let hashes = kgram_hashes(&tokens);
        let lines = |start: usize| (tokens[start].line, tokens[start + K - 1].line);
        let mut ranges: Vec<(u32, u32)> = Vec::new();
        for (start, hash) in hashes.iter().enumerate() {
            if template.contains(hash) {
                push_range(&mut ranges, lines(start));
            }
        }
        template_lines.push(ranges);
        for start in winnow(&hashes) {
            prints.push(Print {
                hash: hashes[start],
                file,
                lines: lines(start),
            });
        }
    }
    Analysed {
        prints,
        template_lines,
    }
}

/// Adds a line range to ranges built in order, joining it to the last one it touches.
fn push_range(ranges: &mut Vec<(u32, u32)>, range: (u32, u32)) {
    match ranges.last_mut() {
        Some(last) if range.0 <= last.1 + 1 => last.1 = last.1.max(range.1),
        _ => ranges.push(range),
    }
}

/// Compares the submissions: `documents` (this class and any archived ones), with the code of
/// `templates` taken out.
pub fn compare(
    documents: Vec<Document>,
    templates: &[SourceText],
    options: &Options,
) -> Comparison {
    let template = template_hashes(templates);
    let analysed: Vec<Analysed> = documents
        .par_iter()
        .map(|document| analyse(document, &template))
        .collect();
    let distinct: Vec<Vec<u64>> = analysed
        .iter()
        .map(|a| {
            let mut hashes: Vec<u64> = a
                .prints
                .iter()
                .map(|p| p.hash)
                .filter(|h| !template.contains(h))
                .collect();
            hashes.sort_unstable();
            hashes.dedup();
            hashes
        })
        .collect();
    let common = common_hashes(&documents, &distinct, options.common_share);
    let kept: Vec<Vec<u64>> = distinct
        .into_iter()
        .map(|hashes| hashes.into_iter().filter(|h| !common.contains(h)).collect())
        .collect();
    let shared = shared_counts(&documents, &kept);
    let mut pairs: Vec<Pair> = shared
        .into_iter()
        .map(|((a, b), count)| {
            let (size_a, size_b) = (kept[a].len() as f64, kept[b].len() as f64);
            let count_f = count as f64;
            Pair {
                a,
                b,
                score: 2.0 * count_f / (size_a + size_b),
                a_share: count_f / size_a,
                b_share: count_f / size_b,
                shared: count,
                matches: Vec::new(),
            }
        })
        .collect();
    pairs.sort_by(|x, y| {
        y.score
            .total_cmp(&x.score)
            .then_with(|| documents[x.a].name.cmp(&documents[y.a].name))
            .then_with(|| documents[x.b].name.cmp(&documents[y.b].name))
    });
    let pairs_sharing = pairs.len();
    let clusters = clusters(documents.len(), &pairs, options.threshold);
    if options.top > 0 {
        pairs.truncate(options.top);
    }
    for pair in &mut pairs {
        pair.matches = matches(
            &analysed[pair.a],
            &analysed[pair.b],
            &kept[pair.a],
            &kept[pair.b],
        );
    }
    let compared = documents
        .into_iter()
        .zip(analysed)
        .zip(&kept)
        .map(|((document, analysed), kept)| Compared {
            name: document.name,
            archived: document.archived,
            fingerprints: kept.len(),
            files: document
                .files
                .into_iter()
                .zip(analysed.template_lines)
                .map(|(file, template_lines)| ComparedFile {
                    name: file.name,
                    text: file.text,
                    template_lines,
                })
                .collect(),
        })
        .collect();
    Comparison {
        documents: compared,
        pairs,
        pairs_sharing,
        clusters,
        common_fingerprints: common.len(),
        options: options.clone(),
    }
}

/// Fingerprints in more than `share` of this term's submissions and in at least three: a
/// pair alone never makes its code common, however small the class.
fn common_hashes(documents: &[Document], distinct: &[Vec<u64>], share: f64) -> FixedSet<u64> {
    let class: Vec<&Vec<u64>> = documents
        .iter()
        .zip(distinct)
        .filter(|(d, _)| !d.archived)
        .map(|(_, hashes)| hashes)
        .collect();
    let limit = share * class.len() as f64;
    let mut counts: FixedMap<u64, u32> = FixedMap::default();
    for hashes in &class {
        for hash in hashes.iter() {
            *counts.entry(*hash).or_default() += 1;
        }
    }
    counts
        .into_iter()
        .filter(|(_, count)| f64::from(*count) > limit && *count >= 3)
        .map(|(hash, _)| hash)
        .collect()
}

/// How many fingerprints each pair shares, for every pair sharing one (two archived
/// submissions are never a pair).
fn shared_counts(documents: &[Document], kept: &[Vec<u64>]) -> FixedMap<(usize, usize), usize> {
    let mut index: FixedMap<u64, Vec<usize>> = FixedMap::default();
    for (at, hashes) in kept.iter().enumerate() {
        for hash in hashes {
            index.entry(*hash).or_default().push(at);
        }
    }
    let mut shared: FixedMap<(usize, usize), usize> = FixedMap::default();
    for holders in index.values() {
        for (i, &a) in holders.iter().enumerate() {
            for &b in &holders[i + 1..] {
                if documents[a].archived && documents[b].archived {
                    continue;
                }
                *shared.entry((a, b)).or_default() += 1;
            }
        }
    }
    shared
}

/// Submissions joined by pairs at or above `threshold`: groups of two or more, largest
/// first, each in index order.
fn clusters(count: usize, pairs: &[Pair], threshold: f64) -> Vec<Vec<usize>> {
    let mut parent: Vec<usize> = (0..count).collect();
    fn root(parent: &mut [usize], mut at: usize) -> usize {
        while parent[at] != at {
            parent[at] = parent[parent[at]];
            at = parent[at];
        }
        at
    }
    for pair in pairs.iter().filter(|p| p.score >= threshold) {
        let (x, y) = (root(&mut parent, pair.a), root(&mut parent, pair.b));
        parent[x.max(y)] = x.min(y);
    }
    let mut groups: FixedMap<usize, Vec<usize>> = FixedMap::default();
    for at in 0..count {
        let top = root(&mut parent, at);
        groups.entry(top).or_default().push(at);
    }
    let mut found: Vec<Vec<usize>> = groups.into_values().filter(|g| g.len() > 1).collect();
    found.sort_by(|x, y| y.len().cmp(&x.len()).then_with(|| x.cmp(y)));
    found
}

/// The regions two submissions share: one per shared fingerprint (its first place in each),
/// joined where both sides continue on the next lines.
fn matches(a: &Analysed, b: &Analysed, kept_a: &[u64], kept_b: &[u64]) -> Vec<Match> {
    let kept_b: FixedSet<u64> = kept_b.iter().copied().collect();
    let both: FixedSet<u64> = kept_a
        .iter()
        .copied()
        .filter(|h| kept_b.contains(h))
        .collect();
    let first_places = |analysed: &Analysed| {
        let mut places: FixedMap<u64, Print> = FixedMap::default();
        for print in analysed.prints.iter().filter(|p| both.contains(&p.hash)) {
            places.entry(print.hash).or_insert(*print);
        }
        places
    };
    let (in_a, in_b) = (first_places(a), first_places(b));
    let mut fragments: Vec<Match> = in_a
        .iter()
        .filter_map(|(hash, pa)| {
            in_b.get(hash).map(|pb| Match {
                a_file: pa.file,
                a_lines: pa.lines,
                b_file: pb.file,
                b_lines: pb.lines,
            })
        })
        .collect();
    fragments.sort_by_key(|m| (m.a_file, m.a_lines, m.b_file, m.b_lines));
    let mut joined: Vec<Match> = Vec::new();
    for fragment in fragments {
        if let Some(last) = joined.last_mut() {
            let touches = |x: (u32, u32), y: (u32, u32)| y.0 <= x.1 + 1 && x.0 <= y.1 + 1;
            if last.a_file == fragment.a_file
                && last.b_file == fragment.b_file
                && touches(last.a_lines, fragment.a_lines)
                && touches(last.b_lines, fragment.b_lines)
            {
                last.a_lines = (
                    last.a_lines.0.min(fragment.a_lines.0),
                    last.a_lines.1.max(fragment.a_lines.1),
                );
                last.b_lines = (
                    last.b_lines.0.min(fragment.b_lines.0),
                    last.b_lines.1.max(fragment.b_lines.1),
                );
                continue;
            }
        }
        joined.push(fragment);
    }
    joined
}

#[cfg(test)]
mod tests {
    use super::*;

    fn document(name: &str, text: &str) -> Document {
        Document {
            name: name.into(),
            files: vec![SourceText {
                name: "main.c".into(),
                text: text.into(),
            }],
            archived: false,
        }
    }

    const PROGRAM: &str = "#include <stdio.h>\nint grid[8][8];\nint count(int who) {\n  int total = 0;\n  for (int r = 0; r < 8; r++)\n    for (int c = 0; c < 8; c++)\n      if (grid[r][c] == who) total++;\n  return total;\n}\nvoid show(void) {\n  for (int r = 0; r < 8; r++) {\n    for (int c = 0; c < 8; c++) printf(\"%c\", grid[r][c] ? 'X' : '.');\n    printf(\"\\n\");\n  }\n}\nint main(void) {\n  grid[3][3] = 1; grid[4][4] = 2;\n  show();\n  printf(\"%d %d\\n\", count(1), count(2));\n  return 0;\n}\n";

    #[test]
    fn a_renamed_copy_scores_one_and_the_template_takes_it_out() {
        let copy = PROGRAM.replace("grid", "board").replace("total", "n");
        let docs = vec![document("a", PROGRAM), document("b", &copy)];
        let result = compare(docs.clone(), &[], &Options::default());
        assert_eq!(result.pairs.len(), 1);
        assert!((result.pairs[0].score - 1.0).abs() < 1e-9);
        assert!(!result.pairs[0].matches.is_empty());
        let template = SourceText {
            name: "main.c".into(),
            text: PROGRAM.into(),
        };
        let result = compare(docs, &[template], &Options::default());
        assert!(result.pairs.is_empty());
        assert!(!result.documents[0].files[0].template_lines.is_empty());
    }

    #[test]
    fn two_archived_submissions_are_never_a_pair() {
        let mut docs = vec![
            document("old1", PROGRAM),
            document("old2", PROGRAM),
            document("new", PROGRAM),
        ];
        docs[0].archived = true;
        docs[1].archived = true;
        let result = compare(docs, &[], &Options::default());
        assert_eq!(result.pairs.len(), 2);
        assert!(result.pairs.iter().all(|p| p.b == 2));
    }

    #[test]
    fn code_most_of_the_class_shares_is_common() {
        let docs: Vec<Document> = (0..4)
            .map(|i| document(&format!("s{i}"), PROGRAM))
            .collect();
        let result = compare(docs.clone(), &[], &Options::default());
        assert!(result.pairs.is_empty() && result.common_fingerprints > 0);
        let keep_all = Options {
            common_share: 1.0,
            ..Options::default()
        };
        assert_eq!(compare(docs, &[], &keep_all).pairs.len(), 6);
    }
}
