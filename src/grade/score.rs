//! Scoring: an item's score is its points times the share of its (case, item) pairs earned;
//! a submission's score and maximum count the auto-graded items only.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::assignment::spec::Spec;
use crate::report::model::BuildReport;
use crate::report::{CaseOutcome, ItemReport, SubmissionReport};

use super::intake::submission::Submission;
use super::judge::verdict::CRLF_NOTE;

/// The submission's report from its case outcomes (in case order).
pub fn score_submission(
    spec: &Spec,
    submission: &Submission,
    runs: Vec<CaseOutcome>,
    build: BuildReport,
    facts: BTreeMap<String, Value>,
) -> SubmissionReport {
    let items = score_items(spec, &runs);
    let score = items.iter().filter_map(|i| i.score).sum::<f64>();
    let max_score = items
        .iter()
        .filter(|i| !i.manual)
        .map(|i| i.max_score)
        .sum::<f64>();
    let mut notes = submission.notes.clone();
    if runs
        .iter()
        .any(|run| run.notes.iter().any(|n| n == CRLF_NOTE))
    {
        notes.push(CRLF_NOTE.to_string());
    }
    SubmissionReport {
        name: submission.name.clone(),
        path: submission.path.display().to_string(),
        score: round(score),
        max_score: round(max_score),
        build,
        items,
        facts,
        ignored: submission.ignored.clone(),
        notes,
        student: submission.student.clone(),
        id: submission.id.clone(),
        late: submission.late,
        runs,
        changes: None,
    }
}

/// Each item's score, in spec order: `None` for a manual item, 0 for an auto-graded item no
/// case reached, else its points times the mean of its cases' fractions.
fn score_items(spec: &Spec, runs: &[CaseOutcome]) -> Vec<ItemReport> {
    spec.items
        .iter()
        .map(|item| {
            let fractions: Vec<f64> = runs
                .iter()
                .flat_map(|run| &run.items)
                .filter(|verdict| verdict.item == item.id)
                .map(|verdict| verdict.fraction)
                .collect();
            let score = if item.manual {
                None
            } else if fractions.is_empty() {
                Some(0.0)
            } else {
                let earned: f64 = fractions.iter().sum();
                Some(round(item.points * earned / fractions.len() as f64))
            };
            ItemReport {
                id: item.id.clone(),
                score,
                max_score: item.points,
                manual: item.manual,
            }
        })
        .collect()
}

/// Points are reported to three decimals.
fn round(points: f64) -> f64 {
    (points * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compare::Mismatch;
    use crate::report::{ItemOutcome, Status};

    fn spec() -> Spec {
        toml::from_str(
            r#"
            title = "t"
            submission = { layout = "single", file = "a.c" }
            [[item]]
            id = "board"
            points = 2
            [[item]]
            id = "moves"
            points = 3
            [[item]]
            id = "style"
            points = 4
            manual = true
            "#,
        )
        .expect("the test spec parses")
    }

    /// One case per fraction, each touching only `item`.
    fn outcomes(results: &[(&str, &[f64])]) -> Vec<CaseOutcome> {
        let mut runs = Vec::new();
        for (item, fractions) in results {
            for fraction in *fractions {
                runs.push(CaseOutcome {
                    name: format!("{item}-{}", runs.len()),
                    description: None,
                    args: Vec::new(),
                    stdin: String::new(),
                    items: vec![ItemOutcome {
                        item: item.to_string(),
                        status: if *fraction == 1.0 {
                            Status::Pass
                        } else {
                            Status::Fail
                        },
                        fraction: *fraction,
                    }],
                    trace: false,
                    explanation: Default::default(),
                    ended: String::new(),
                    mismatch: Mismatch::None,
                    diff: String::new(),
                    notes: Vec::new(),
                    stderr: String::new(),
                    output_digest: None,
                    elapsed: std::time::Duration::ZERO,
                    visibility: Default::default(),
                    concealed: false,
                });
            }
        }
        runs
    }

    fn scores(results: &[(&str, &[f64])]) -> Vec<Option<f64>> {
        score_items(&spec(), &outcomes(results))
            .iter()
            .map(|i| i.score)
            .collect()
    }

    #[test]
    fn an_item_earns_its_points_times_the_share_of_cases_passed() {
        assert_eq!(
            scores(&[("board", &[1.0, 1.0]), ("moves", &[1.0, 0.0, 0.0])]),
            [Some(2.0), Some(1.0), None]
        );
    }

    #[test]
    fn partial_fractions_count_and_scores_round_to_three_decimals() {
        assert_eq!(
            scores(&[("board", &[0.5, 1.0, 0.0]), ("moves", &[1.0])]),
            [Some(1.0), Some(3.0), None]
        );
        assert_eq!(
            scores(&[("board", &[1.0, 0.0, 0.0]), ("moves", &[1.0])]),
            [Some(0.667), Some(3.0), None]
        );
    }

    #[test]
    fn an_item_no_case_reached_scores_zero_and_a_manual_item_none() {
        assert_eq!(scores(&[("moves", &[1.0])]), [Some(0.0), Some(3.0), None]);
    }

    #[test]
    fn the_submission_counts_auto_graded_items_only() {
        let submission = Submission {
            name: "ann".into(),
            path: "ann.c".into(),
            files: Vec::new(),
            problem: None,
            ignored: Vec::new(),
            notes: Vec::new(),
            student: "ann".into(),
            id: String::new(),
            late: false,
            submitted: None,
        };
        let build = BuildReport {
            ok: true,
            log: String::new(),
        };
        let report = score_submission(&spec(), &submission, Vec::new(), build, BTreeMap::new());
        assert_eq!(report.score, 0.0);
        assert_eq!(report.max_score, 5.0);
        assert_eq!(report.items[2].score, None);
    }
}
