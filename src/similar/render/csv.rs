//! The CSV report: one row per pair, best first, with the matched regions in one cell.

use super::{matched_lines, place};
use crate::similar::Comparison;

const HEADER: [&str; 8] = [
    "a",
    "b",
    "score",
    "a_share",
    "b_share",
    "a_matched_lines",
    "b_matched_lines",
    "matches",
];

pub fn render(comparison: &Comparison) -> String {
    let mut writer = csv::Writer::from_writer(Vec::new());
    let mut rows: Vec<Vec<String>> = vec![HEADER.iter().map(|h| h.to_string()).collect()];
    for pair in &comparison.pairs {
        let (a, b) = (&comparison.documents[pair.a], &comparison.documents[pair.b]);
        let (a_lines, b_lines) = matched_lines(&pair.matches);
        let regions: Vec<String> = pair
            .matches
            .iter()
            .map(|m| {
                format!(
                    "{} ~ {}",
                    place(a, m.a_file, m.a_lines),
                    place(b, m.b_file, m.b_lines)
                )
            })
            .collect();
        rows.push(vec![
            a.name.clone(),
            b.name.clone(),
            format!("{:.4}", pair.score),
            format!("{:.4}", pair.a_share),
            format!("{:.4}", pair.b_share),
            a_lines.to_string(),
            b_lines.to_string(),
            regions.join("; "),
        ]);
    }
    // Writing into memory cannot fail short of running out of it.
    let written = rows.iter().try_for_each(|row| writer.write_record(row));
    match (written, writer.into_inner()) {
        (Ok(()), Ok(bytes)) => String::from_utf8_lossy(&bytes).into_owned(),
        _ => String::new(),
    }
}
