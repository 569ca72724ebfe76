//! `referee similar`: which submissions share code, with the course's own code taken out.
//!
//! The engine is pure: it takes sources as text and gives ranked pairs. `tokens` reads C into
//! normalised tokens, `fingerprint` winnows them, `rank` subtracts the template and the
//! class's common code and scores every pair that shares a fingerprint; `render` writes the
//! result as text, JSON, CSV or one HTML page.

pub mod fingerprint;
pub mod rank;
pub mod render;
pub mod tokens;

pub use rank::compare;

/// One source file's name and text.
#[derive(Debug, Clone)]
pub struct SourceText {
    pub name: String,
    pub text: String,
}

/// One submission to compare: its name as in grading and its files (the build's files).
#[derive(Debug, Clone)]
pub struct Document {
    pub name: String,
    pub files: Vec<SourceText>,
    /// From an earlier term (`--archive`): compared with this class, never among its own.
    pub archived: bool,
}

/// What the comparison keeps and reports.
#[derive(Debug, Clone)]
pub struct Options {
    /// A fingerprint in more than this share of the class (and in three submissions or
    /// more) is the course's or the language's, not a copy: left out. 1.0 keeps all.
    pub common_share: f64,
    /// Pairs reported, best first (0: every pair that shares code).
    pub top: usize,
    /// Score from which two submissions join one cluster.
    pub threshold: f64,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            common_share: 0.5,
            top: 50,
            threshold: 0.5,
        }
    }
}

/// The result: every submission (for the report's side-by-side views), the reported pairs
/// and the clusters.
#[derive(Debug, Clone)]
pub struct Comparison {
    pub documents: Vec<Compared>,
    /// Best first; at most `Options::top`.
    pub pairs: Vec<Pair>,
    /// Pairs that share at least one fingerprint, before `top` cut the list.
    pub pairs_sharing: usize,
    /// Groups of submissions joined by pairs at or above the threshold, largest first;
    /// indices into `documents`.
    pub clusters: Vec<Vec<usize>>,
    /// Fingerprints left out as common to the class.
    pub common_fingerprints: usize,
    pub options: Options,
}

/// One submission as compared.
#[derive(Debug, Clone)]
pub struct Compared {
    pub name: String,
    pub archived: bool,
    pub files: Vec<ComparedFile>,
    /// Fingerprints that count (template and common ones left out).
    pub fingerprints: usize,
}

#[derive(Debug, Clone)]
pub struct ComparedFile {
    pub name: String,
    pub text: String,
    /// Line ranges (1-based, inclusive) that match the course's template.
    pub template_lines: Vec<(u32, u32)>,
}

/// Two submissions that share code; `a` and `b` index `Comparison::documents`.
#[derive(Debug, Clone)]
pub struct Pair {
    pub a: usize,
    pub b: usize,
    /// Shared fingerprints over both submissions' fingerprints: 2 x shared / (a's + b's).
    pub score: f64,
    /// The share of a's fingerprints found in b, and of b's in a.
    pub a_share: f64,
    pub b_share: f64,
    pub shared: usize,
    pub matches: Vec<Match>,
}

/// A region of a that matches a region of b; files index each submission's `files`, lines
/// are 1-based and inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Match {
    pub a_file: usize,
    pub a_lines: (u32, u32),
    pub b_file: usize,
    pub b_lines: (u32, u32),
}
