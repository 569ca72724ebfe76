//! Submissions whose failing transcripts are byte-identical: the same cases fail and each
//! printed exactly the same output. A TA grades such a group once, and a large group is also
//! worth a look for copied work.

use std::collections::BTreeMap;

use serde::Serialize;
use sha2::{Digest as _, Sha256};

use super::{BatchReport, CaseOutcome, SubmissionReport};

/// The digest of one output.
pub type Digest = [u8; 32];

/// Submissions sharing one failing transcript.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Group {
    /// Submission names, in batch order.
    pub submissions: Vec<String>,
    /// The cases they all fail, with the same output, in case order.
    pub failing_cases: Vec<String>,
}

/// SHA-256 of the bytes: two outputs with the same digest are, in practice, the same bytes.
pub fn digest(bytes: &[u8]) -> Digest {
    Sha256::digest(bytes).into()
}

/// What a failing run printed: its stdout digest, or for a run without a single stdout (a
/// trace case's several runs) the findings and ending that describe it.
pub fn run_key(run: &CaseOutcome) -> Digest {
    match run.output_digest {
        Some(value) => value,
        None => digest(format!("{}\n{}", run.ended, run.notes.join("\n")).as_bytes()),
    }
}

fn failing_transcript(submission: &SubmissionReport) -> Option<Vec<(String, Digest)>> {
    if !submission.build.ok {
        // A build failure is not an output: every such submission would look alike.
        return None;
    }
    let failing: Vec<(String, Digest)> = submission
        .runs
        .iter()
        .filter(|run| !run.passed())
        .map(|run| (run.name.clone(), run_key(run)))
        .collect();
    (!failing.is_empty()).then_some(failing)
}

/// Groups of two or more submissions, largest first, then in batch order.
pub fn find(batch: &BatchReport) -> Vec<Group> {
    let mut by_transcript: BTreeMap<Vec<(String, Digest)>, Vec<usize>> = BTreeMap::new();
    for (index, submission) in batch.submissions.iter().enumerate() {
        if let Some(key) = failing_transcript(submission) {
            by_transcript.entry(key).or_default().push(index);
        }
    }
    let mut groups: Vec<(usize, Group)> = by_transcript
        .into_iter()
        .filter(|(_, members)| members.len() > 1)
        .map(|(key, members)| {
            (
                members[0],
                Group {
                    submissions: members
                        .iter()
                        .map(|&i| batch.submissions[i].name.clone())
                        .collect(),
                    failing_cases: key.into_iter().map(|(name, _)| name).collect(),
                },
            )
        })
        .collect();
    groups.sort_by(|(first_a, a), (first_b, b)| {
        b.submissions
            .len()
            .cmp(&a.submissions.len())
            .then(first_a.cmp(first_b))
    });
    groups.into_iter().map(|(_, group)| group).collect()
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use super::*;
    use crate::compare::Mismatch;
    use crate::report::model::BuildReport;
    use crate::report::{ItemOutcome, Status};

    fn run(name: &str, status: Status, output: &str) -> CaseOutcome {
        CaseOutcome {
            name: name.into(),
            description: None,
            args: Vec::new(),
            stdin: String::new(),
            items: vec![ItemOutcome {
                item: "item".into(),
                status,
                fraction: if status == Status::Pass { 1.0 } else { 0.0 },
            }],
            trace: false,
            ended: "exit status 0".into(),
            mismatch: Mismatch::None,
            diff: String::new(),
            notes: Vec::new(),
            explanation: Default::default(),
            stderr: String::new(),
            output_digest: Some(digest(output.as_bytes())),
            elapsed: std::time::Duration::ZERO,
            visibility: Default::default(),
            concealed: false,
        }
    }

    fn submission(name: &str, build_ok: bool, runs: Vec<CaseOutcome>) -> SubmissionReport {
        SubmissionReport {
            name: name.into(),
            path: name.into(),
            score: 0.0,
            max_score: 1.0,
            build: BuildReport {
                ok: build_ok,
                log: String::new(),
            },
            items: Vec::new(),
            facts: BTreeMap::new(),
            ignored: Vec::new(),
            notes: Vec::new(),
            student: name.into(),
            id: String::new(),
            late: false,
            runs,
            changes: None,
        }
    }

    #[test]
    fn identical_failing_outputs_group_and_different_ones_do_not() {
        let wrong = |name: &str, output: &str| {
            submission(
                name,
                true,
                vec![
                    run("a", Status::Pass, "right"),
                    run("b", Status::Fail, output),
                ],
            )
        };
        let batch = BatchReport {
            game: "g".into(),
            sandbox: String::new(),
            data: String::new(),
            skipped: Vec::new(),
            submissions: vec![
                wrong("ann", "x\n"),
                wrong("bob", "y\n"),
                wrong("cy", "x\n"),
                submission("dee", true, vec![run("a", Status::Pass, "right")]),
                submission("eve", false, vec![run("a", Status::BuildError, "")]),
                submission("fay", false, vec![run("a", Status::BuildError, "")]),
            ],
        };
        assert_eq!(
            find(&batch),
            vec![Group {
                submissions: vec!["ann".into(), "cy".into()],
                failing_cases: vec!["b".into()],
            }]
        );
    }

    #[test]
    fn the_same_output_in_different_failing_cases_is_not_a_group() {
        let batch = BatchReport {
            game: "g".into(),
            sandbox: String::new(),
            data: String::new(),
            skipped: Vec::new(),
            submissions: vec![
                submission("ann", true, vec![run("a", Status::Fail, "x")]),
                submission("bob", true, vec![run("b", Status::Fail, "x")]),
            ],
        };
        assert!(find(&batch).is_empty());
    }

    #[test]
    fn digest_is_sha256() {
        assert_eq!(
            digest(b"abc")[..4],
            [0xba, 0x78, 0x16, 0xbf],
            "SHA-256(\"abc\") begins ba7816bf"
        );
        assert_ne!(digest(b"a"), digest(b"b"));
    }
}
