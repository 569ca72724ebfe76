//! `--format json`: the contract in the design, pretty-printed, plus a `groups` key listing
//! submissions with identical failing output (see `groups`).

use serde::Serialize;

use super::groups::{self, Group};
use super::BatchReport;

/// The contract's keys in their order, then `groups`.
#[derive(Serialize)]
struct WithGroups<'a> {
    #[serde(flatten)]
    batch: &'a BatchReport,
    groups: Vec<Group>,
}

pub fn render(batch: &BatchReport) -> String {
    let report = WithGroups {
        batch,
        groups: groups::find(batch),
    };
    let mut text = serde_json::to_string_pretty(&report)
        .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialize report: {e}\"}}"));
    text.push('\n');
    text
}
