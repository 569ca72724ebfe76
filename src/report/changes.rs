//! How reports show what changed a submission's points after grading: adjustments by hand
//! and the late penalty (`crate::adjust` applies them).

use super::SubmissionReport;

/// `+1`, `-0.5`: a change of points in reports.
pub fn signed(points: f64) -> String {
    let text = format!("{:+.3}", points);
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// What the reports say about a submission's changes, one line each: each adjustment
/// ("adjusted by hand: move +1 (regrade request)"), then the late penalty and the total.
pub fn lines(submission: &SubmissionReport) -> Vec<String> {
    let Some(changes) = &submission.changes else {
        return Vec::new();
    };
    let mut out: Vec<String> = changes
        .adjustments
        .iter()
        .map(|a| {
            let comment = if a.comment.is_empty() {
                String::new()
            } else {
                format!(" ({})", super::safe_name(&a.comment))
            };
            format!("adjusted by hand: {} {}{comment}", a.item, signed(a.delta))
        })
        .collect();
    if let Some(penalty) = &changes.late_penalty {
        let late = match penalty.days {
            Some(1) => "1 day late".to_string(),
            Some(days) => format!("{days} days late"),
            None => "late".to_string(),
        };
        out.push(format!(
            "late penalty: {late}, {} ({}% of the points possible, policy {})",
            signed(-penalty.points),
            number(penalty.share * 100.0),
            penalty.policy
        ));
    }
    if !out.is_empty() {
        out.push(format!(
            "total: {} / {} (auto-graded {}{}{})",
            number(submission.score),
            number(submission.max_score),
            number(changes.raw_score),
            if changes.adjustments.is_empty() {
                String::new()
            } else {
                let sum: f64 = changes.adjustments.iter().map(|a| a.delta).sum();
                format!(", adjusted {}", signed(round(sum)))
            },
            changes
                .late_penalty
                .as_ref()
                .map(|p| format!(", late {}", signed(-p.points)))
                .unwrap_or_default()
        ));
    }
    out
}

fn round(points: f64) -> f64 {
    (points * 1000.0).round() / 1000.0
}

fn number(value: f64) -> String {
    let text = format!("{value:.3}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}
