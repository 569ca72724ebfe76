//! The cases a class fails most: per case, the items it fails in, how many of the
//! submissions that built fail it, and the largest group of them that printed the same
//! wrong output (by `groups::run_key`). The batch's text report ends with it, the JSON
//! report has it as `class`, and the HTML report's class view shows it.

use std::collections::BTreeMap;

use serde::Serialize;

use super::groups::{self, Digest};
use super::BatchReport;

/// Cases listed in the text report.
const TEXT_ROWS: usize = 10;

/// The JSON report's `class` section.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Class {
    /// Submissions that built (those that did not fail every case alike and are left out).
    pub built: usize,
    /// Every case some submission that built fails, the most failed first (then in case
    /// order).
    pub most_failed: Vec<FailedCase>,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FailedCase {
    /// The case's name (a placeholder in a report for students).
    pub case: String,
    /// The items it fails in, for some submission, in rubric order.
    pub items: Vec<String>,
    /// How many submissions that built fail it.
    pub failing: usize,
    /// The largest group of those that printed the same wrong output (two or more, in
    /// batch order); empty when no two did.
    pub commonest_wrong_output: Vec<String>,
}

/// How one case fails across the class: its place in case order, the items it fails in,
/// and the submissions failing it by what they printed.
type Failures<'a> = (usize, Vec<&'a str>, BTreeMap<Digest, Vec<&'a str>>);

pub fn class(batch: &BatchReport) -> Class {
    let built: Vec<_> = batch.submissions.iter().filter(|s| s.build.ok).collect();
    let item_order: Vec<&str> = batch
        .submissions
        .first()
        .map(|s| s.items.iter().map(|i| i.id.as_str()).collect())
        .unwrap_or_default();
    let mut found: BTreeMap<&str, Failures> = BTreeMap::new();
    for submission in &built {
        for (order, run) in submission.runs.iter().enumerate() {
            if run.passed() {
                continue;
            }
            let entry =
                found
                    .entry(run.name.as_str())
                    .or_insert((order, Vec::new(), BTreeMap::new()));
            for verdict in run.items.iter().filter(|v| v.status != super::Status::Pass) {
                if !entry.1.contains(&verdict.item.as_str()) {
                    entry.1.push(&verdict.item);
                }
            }
            entry
                .2
                .entry(groups::run_key(run))
                .or_default()
                .push(&submission.name);
        }
    }
    let mut most_failed: Vec<(usize, FailedCase)> = found
        .into_iter()
        .map(|(case, (order, mut items, outputs))| {
            items.sort_by_key(|item| item_order.iter().position(|i| i == item));
            let failing = outputs.values().map(Vec::len).sum();
            let mut groups: Vec<Vec<&str>> = outputs.into_values().collect();
            // The largest group; of equal ones, the one whose first member comes first.
            groups.sort_by(|a, b| b.len().cmp(&a.len()).then(a[0].cmp(b[0])));
            let commonest = groups
                .into_iter()
                .next()
                .filter(|group| group.len() > 1)
                .map(|group| group.into_iter().map(super::safe_name).collect())
                .unwrap_or_default();
            (
                order,
                FailedCase {
                    case: case.to_string(),
                    items: items.into_iter().map(String::from).collect(),
                    failing,
                    commonest_wrong_output: commonest,
                },
            )
        })
        .collect();
    most_failed
        .sort_by(|(order_a, a), (order_b, b)| b.failing.cmp(&a.failing).then(order_a.cmp(order_b)));
    Class {
        built: built.len(),
        most_failed: most_failed.into_iter().map(|(_, case)| case).collect(),
    }
}

/// The end of a batch's text report: the cases failed most, one line each.
pub fn text_lines(batch: &BatchReport) -> Vec<String> {
    let class = class(batch);
    if class.most_failed.is_empty() {
        return Vec::new();
    }
    let width = class
        .most_failed
        .iter()
        .take(TEXT_ROWS)
        .map(|c| c.case.chars().count())
        .max()
        .unwrap_or(4);
    let mut out = vec![format!(
        "cases failed most (of the {} submissions that built):",
        class.built
    )];
    for case in class.most_failed.iter().take(TEXT_ROWS) {
        let same = match case.commonest_wrong_output.as_slice() {
            [] => String::new(),
            names => format!(
                " · {} printed the same wrong output: {}",
                names.len(),
                names.join(", ")
            ),
        };
        out.push(format!(
            "  {:<width$}  [{}]  {} of {} fail{same}",
            case.case,
            case.items.join(", "),
            case.failing,
            class.built
        ));
    }
    if class.most_failed.len() > TEXT_ROWS {
        out.push(format!(
            "  … {} more failing cases (JSON: class.most_failed)",
            class.most_failed.len() - TEXT_ROWS
        ));
    }
    out
}
