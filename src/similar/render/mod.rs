//! The comparison's reports, one writer per format; each gives the whole text.

pub mod csv;
pub mod html;
pub mod json;
pub mod text;

use super::{Compared, Comparison, Match};

/// `main.c:10-24`, or `main.c:10` for one line.
pub fn place(document: &Compared, file: usize, lines: (u32, u32)) -> String {
    let name = document.files.get(file).map_or("?", |f| f.name.as_str());
    if lines.0 == lines.1 {
        format!("{name}:{}", lines.0)
    } else {
        format!("{name}:{}-{}", lines.0, lines.1)
    }
}

/// Lines of a covered by the matches, and of b.
pub fn matched_lines(matches: &[Match]) -> (u32, u32) {
    matches.iter().fold((0, 0), |(a, b), m| {
        (
            a + m.a_lines.1 - m.a_lines.0 + 1,
            b + m.b_lines.1 - m.b_lines.0 + 1,
        )
    })
}

/// A score as a percentage, `87%`.
pub fn percent(score: f64) -> String {
    format!("{:.0}%", score * 100.0)
}

/// The names of a cluster's submissions.
pub fn cluster_names<'c>(comparison: &'c Comparison, cluster: &[usize]) -> Vec<&'c str> {
    cluster
        .iter()
        .map(|&at| comparison.documents[at].name.as_str())
        .collect()
}
