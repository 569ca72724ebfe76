//! `--format json`: the contract in the design, pretty-printed.

use super::BatchReport;

pub fn render(batch: &BatchReport) -> String {
    let mut text = serde_json::to_string_pretty(batch)
        .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialize report: {e}\"}}"));
    text.push('\n');
    text
}
