//! The JSON report: `pairs` (best first: `a`, `b` by their names in grading, `score` 0..1,
//! each side's share and the matched regions), `clusters`, and the settings that made them.

use serde_json::{json, Value};

use super::cluster_names;
use crate::similar::fingerprint::{K, WINDOW};
use crate::similar::Comparison;

pub fn render(comparison: &Comparison) -> String {
    let documents = &comparison.documents;
    let pairs: Vec<Value> = comparison
        .pairs
        .iter()
        .map(|pair| {
            let (a, b) = (&documents[pair.a], &documents[pair.b]);
            let matches: Vec<Value> = pair
                .matches
                .iter()
                .map(|m| {
                    json!({
                        "a_file": a.files.get(m.a_file).map(|f| f.name.as_str()),
                        "a_lines": [m.a_lines.0, m.a_lines.1],
                        "b_file": b.files.get(m.b_file).map(|f| f.name.as_str()),
                        "b_lines": [m.b_lines.0, m.b_lines.1],
                    })
                })
                .collect();
            json!({
                "a": a.name,
                "b": b.name,
                "score": pair.score,
                "a_share": pair.a_share,
                "b_share": pair.b_share,
                "shared_fingerprints": pair.shared,
                "a_archived": a.archived,
                "b_archived": b.archived,
                "matches": matches,
            })
        })
        .collect();
    let clusters: Vec<Vec<&str>> = comparison
        .clusters
        .iter()
        .map(|cluster| cluster_names(comparison, cluster))
        .collect();
    let report = json!({
        "pairs": pairs,
        "pairs_sharing_code": comparison.pairs_sharing,
        "clusters": clusters,
        "submissions": documents.iter().filter(|d| !d.archived).count(),
        "archived": documents.iter().filter(|d| d.archived).count(),
        "settings": {
            "k": K,
            "window": WINDOW,
            "common_share": comparison.options.common_share,
            "common_fingerprints": comparison.common_fingerprints,
            "cluster_threshold": comparison.options.threshold,
        },
    });
    let mut text = serde_json::to_string_pretty(&report).unwrap_or_default();
    text.push('\n');
    text
}
