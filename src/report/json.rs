//! `--format json`: the contract in the design, pretty-printed, plus a `groups` key listing
//! submissions with identical failing output (see `groups`) and a `class` key with the cases
//! failed most (see `class`).

use serde::Serialize;

use super::class::{self, Class};
use super::groups::{self, Group};
use super::BatchReport;

/// The contract's keys in their order, then `groups` and `class`.
#[derive(Serialize)]
struct WithGroups<'a> {
    #[serde(flatten)]
    batch: &'a BatchReport,
    groups: Vec<Group>,
    class: Class,
}

pub fn render(batch: &BatchReport) -> String {
    let report = WithGroups {
        batch,
        groups: groups::find(batch),
        class: class::class(batch),
    };
    let mut text = serde_json::to_string_pretty(&report)
        .unwrap_or_else(|e| format!("{{\"error\": \"cannot serialize report: {e}\"}}"));
    text.push('\n');
    text
}
