//! The text report: ranked pairs with their scores and matched line ranges, then clusters.

use super::{cluster_names, percent, place};
use crate::similar::Comparison;

pub fn render(comparison: &Comparison) -> String {
    let mut out = String::new();
    let documents = &comparison.documents;
    let archived = documents.iter().filter(|d| d.archived).count();
    out.push_str(&format!(
        "{} submissions compared{}; {}{}\n",
        documents.len() - archived,
        if archived > 0 {
            format!(" (and {archived} archived)")
        } else {
            String::new()
        },
        match comparison.pairs_sharing {
            1 => "1 pair shares code".to_string(),
            n => format!("{n} pairs share code"),
        },
        if comparison.pairs.len() < comparison.pairs_sharing {
            format!(", the {} closest shown", comparison.pairs.len())
        } else {
            String::new()
        }
    ));
    if comparison.pairs.is_empty() {
        out.push_str("No two submissions share code beyond the template and common code.\n");
    }
    for (rank, pair) in comparison.pairs.iter().enumerate() {
        let (a, b) = (&documents[pair.a], &documents[pair.b]);
        out.push_str(&format!(
            "\n{:>3}. {}  {} ~ {}  ({} of {}'s fingerprints, {} of {}'s)\n",
            rank + 1,
            percent(pair.score),
            a.name,
            b.name,
            percent(pair.a_share),
            a.name,
            percent(pair.b_share),
            b.name
        ));
        for m in &pair.matches {
            out.push_str(&format!(
                "       {}  ~  {}\n",
                place(a, m.a_file, m.a_lines),
                place(b, m.b_file, m.b_lines)
            ));
        }
    }
    if !comparison.clusters.is_empty() {
        out.push_str(&format!(
            "\nClusters (pairs at {} or more):\n",
            percent(comparison.options.threshold)
        ));
        for cluster in &comparison.clusters {
            out.push_str(&format!(
                "  {}\n",
                cluster_names(comparison, cluster).join(", ")
            ));
        }
    }
    out
}
