//! Who reads a report. A student reads their own: the text report of one submission (the
//! self-check), `--feedback` files, Gradescope's results, `expect` and `cases`. A TA reads
//! the rest: the text report of a batch, JSON, CSV, HTML and JUnit. `--audience` overrides
//! the default. A student never sees a case whose visibility keeps it from them: such a
//! case appears only as "a hidden case of item X fails (output differs)", under a
//! placeholder name, without its input, expected output, diff, hints or anything the
//! program printed in it.

use std::borrow::Cow;

use clap::ValueEnum;

use super::hints::Explanation;
use super::{BatchReport, CaseOutcome, Status};
use crate::compare::Mismatch;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum Audience {
    /// The student whose submission it is: cases they may not see are concealed.
    Student,
    /// Course staff: every case in full.
    Ta,
}

impl Audience {
    /// The spelling on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Audience::Student => "student",
            Audience::Ta => "ta",
        }
    }
}

/// The batch as its students may see it: every case they may not see (by its visibility,
/// given whether the due date has passed) concealed. The batch itself when there is none.
pub fn for_students(batch: &BatchReport, due_passed: bool) -> Cow<'_, BatchReport> {
    let hidden = |run: &CaseOutcome| !run.visibility.shown_to_students(due_passed);
    if !batch.submissions.iter().flat_map(|s| &s.runs).any(hidden) {
        return Cow::Borrowed(batch);
    }
    let mut view = batch.clone();
    for submission in &mut view.submissions {
        // Numbered in case order, so "hidden case 2" is the same case for every student.
        let mut number = 0;
        for run in &mut submission.runs {
            if hidden(run) {
                number += 1;
                *run = conceal(run, number);
            }
        }
    }
    Cow::Owned(view)
}

/// The students' view of a case they may not see.
fn conceal(run: &CaseOutcome, number: usize) -> CaseOutcome {
    let reason = if run.passed() {
        String::new()
    } else {
        concealed_reason(run)
    };
    CaseOutcome {
        name: format!("hidden case {number}"),
        description: None,
        args: Vec::new(),
        stdin: String::new(),
        items: run.items.clone(),
        trace: run.trace,
        ended: run.ended.clone(),
        mismatch: Mismatch::None,
        diff: String::new(),
        notes: Vec::new(),
        explanation: Explanation {
            reason,
            ..Explanation::default()
        },
        stderr: String::new(),
        output_digest: run.output_digest,
        elapsed: run.elapsed,
        visibility: run.visibility,
        concealed: true,
    }
}

/// "a hidden case of item move fails (output differs)": the items it fails and how, in the
/// coarsest words.
pub fn concealed_reason(run: &CaseOutcome) -> String {
    let failing: Vec<&str> = run
        .items
        .iter()
        .filter(|verdict| verdict.status != Status::Pass)
        .map(|verdict| verdict.item.as_str())
        .collect();
    let worst = run
        .items
        .iter()
        .map(|verdict| verdict.status)
        .find(|status| !matches!(status, Status::Pass | Status::Fail))
        .unwrap_or(Status::Fail);
    let how = match worst {
        Status::Timeout => "time limit",
        Status::Crash => "crash",
        Status::OutputLimit => "output limit",
        Status::BuildError => "not run",
        Status::Fail if run.trace => "the rules checker found a problem",
        Status::Pass | Status::Fail => "output differs",
    };
    let items = match failing.as_slice() {
        [one] => format!("item {one}"),
        several => format!("items {}", several.join(", ")),
    };
    format!("a hidden case of {items} fails ({how})")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::assignment::cases::Visibility;
    use crate::report::model::BuildReport;
    use crate::report::{ItemOutcome, SubmissionReport};

    fn run(name: &str, visibility: Visibility, statuses: &[(&str, Status)]) -> CaseOutcome {
        CaseOutcome {
            name: name.into(),
            description: Some(format!("{name}'s secret description")),
            args: vec![format!("{name}-argument")],
            stdin: format!("{name}'s input\n"),
            items: statuses
                .iter()
                .map(|(item, status)| ItemOutcome {
                    item: item.to_string(),
                    status: *status,
                    fraction: if *status == Status::Pass { 1.0 } else { 0.0 },
                })
                .collect(),
            trace: false,
            ended: "exit status 0".into(),
            mismatch: Mismatch::Content,
            diff: format!("-{name}'s expected output\n"),
            notes: vec![format!("{name} note")],
            explanation: Explanation {
                reason: format!("line 3: `{name}'s expected output` is missing"),
                hints: vec![format!("{name} hint")],
                divergence: None,
                suggest_sanitize: true,
            },
            stderr: format!("{name} on stderr"),
            output_digest: None,
            elapsed: std::time::Duration::ZERO,
            visibility,
            concealed: false,
        }
    }

    fn batch(runs: Vec<CaseOutcome>) -> BatchReport {
        BatchReport {
            game: "g".into(),
            sandbox: String::new(),
            data: String::new(),
            skipped: Vec::new(),
            submissions: vec![SubmissionReport {
                name: "ann".into(),
                path: "ann.c".into(),
                score: 0.0,
                max_score: 1.0,
                build: BuildReport {
                    ok: true,
                    log: String::new(),
                },
                items: Vec::new(),
                facts: Default::default(),
                ignored: Vec::new(),
                notes: Vec::new(),
                student: "ann".into(),
                id: String::new(),
                late: false,
                runs,
                changes: None,
            }],
        }
    }

    #[test]
    fn a_concealed_case_keeps_its_statuses_and_nothing_that_shows_its_input() {
        let graded = batch(vec![
            run("open", Visibility::Visible, &[("move", Status::Fail)]),
            run(
                "secret",
                Visibility::Hidden,
                &[("board", Status::Pass), ("move", Status::Timeout)],
            ),
            run("later", Visibility::AfterDueDate, &[("move", Status::Pass)]),
        ]);
        let view = for_students(&graded, false);
        let runs = &view.submissions[0].runs;
        assert_eq!(runs[0].name, "open");
        assert!(!runs[0].concealed);
        assert_eq!(
            (runs[1].name.as_str(), runs[2].name.as_str()),
            ("hidden case 1", "hidden case 2")
        );
        assert_eq!(runs[1].items, graded.submissions[0].runs[1].items);
        assert_eq!(
            runs[1].explanation.reason,
            "a hidden case of item move fails (time limit)"
        );
        assert_eq!(runs[2].explanation.reason, "");
        let shown = format!("{:?}", &runs[1..]);
        for secret in ["secret", "later"] {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
        let after_due = for_students(&graded, true);
        assert_eq!(after_due.submissions[0].runs[2].name, "later");
    }

    #[test]
    fn a_batch_with_nothing_to_conceal_is_not_copied() {
        let graded = batch(vec![run(
            "open",
            Visibility::Visible,
            &[("m", Status::Pass)],
        )]);
        assert!(matches!(for_students(&graded, false), Cow::Borrowed(_)));
    }

    #[test]
    fn the_reason_names_every_failing_item_and_the_worst_ending() {
        let case = run(
            "x",
            Visibility::Hidden,
            &[("board", Status::Fail), ("move", Status::Crash)],
        );
        assert_eq!(
            concealed_reason(&case),
            "a hidden case of items board, move fails (crash)"
        );
    }
}
