//! What a TA changes after grading, kept in files so that a regrade gives the same totals:
//! adjustments by hand (`--adjust FILE`: a regrade request, partial credit) and the late
//! policy (`--late-penalty`, `--due`, or the spec's `[deadline]`). Both are checked against
//! the submissions before anything is graded and applied to the graded batch, so every
//! format and gradebook shows the same totals.

use std::path::{Path, PathBuf};

use clap::Args;
use serde::Deserialize;

use crate::assignment::deadline::{LatePolicy, Moment};
use crate::assignment::spec::Spec;
use crate::error::Error;
use crate::grade::intake::submission::Submission;
use crate::report::model::{Adjustment, Changes, LatePenalty};
use crate::report::{BatchReport, SubmissionReport};

/// `referee grade` options for what changes after grading.
#[derive(Args, Debug, Clone)]
pub struct AdjustOptions {
    /// Adjustments by hand applied after grading, in every report and gradebook: a CSV
    /// (columns student or id, item, points or delta, comment) or TOML file
    /// ([[adjustment]] tables with the same keys). Kept beside the grades, the same file
    /// gives a regrade the same totals.
    #[arg(long, value_name = "FILE")]
    pub adjust: Option<PathBuf>,
    /// The late policy: a share of the points possible per day late (10%/day, any part of
    /// a day counting, optionally capped: 10%/day,cap=50%), or once (25%). Late is what
    /// the LMS's download says (Canvas's late flag, Gradescope's submission time against
    /// --due). Default: the spec's [deadline] late_penalty.
    #[arg(long, value_name = "SPEC", value_parser = LatePolicy::parse)]
    pub late_penalty: Option<LatePolicy>,
    /// The due date, 2026-10-01T23:59 in this machine's time zone, or with an offset
    /// (2026-10-01T23:59-04:00). Prices lateness per day and shows after_due_date cases to
    /// students once passed. Default: the spec's [deadline] due.
    #[arg(long, value_name = "TIME", value_parser = Moment::parse)]
    pub due: Option<Moment>,
}

/// The changes to make after grading, read and checked before grading.
#[derive(Debug, Clone, Default)]
pub struct AfterGrading {
    pub adjustments: Option<Adjustments>,
    pub late: Option<LateRule>,
    /// The due date, from the command line or the spec.
    pub due: Option<Moment>,
}

impl AdjustOptions {
    /// Reads the adjustments file and the late policy (the command line's, else the spec's).
    pub fn read(&self, spec: &Spec) -> Result<AfterGrading, Error> {
        let adjustments = self
            .adjust
            .as_deref()
            .map(|file| Adjustments::load(file, spec))
            .transpose()?;
        let due = self.due.or_else(|| spec_due(spec));
        let policy = match &self.late_penalty {
            Some(policy) => Some(policy.clone()),
            None => spec
                .deadline
                .late_penalty
                .as_deref()
                .and_then(|text| LatePolicy::parse(text).ok()),
        };
        Ok(AfterGrading {
            adjustments,
            late: policy.map(|policy| LateRule { policy, due }),
            due,
        })
    }
}

impl AfterGrading {
    /// Checks against the submissions to grade that every change can be made.
    pub fn check(&self, submissions: &[Submission]) -> Result<(), Error> {
        if let Some(adjustments) = &self.adjustments {
            adjustments.check(submissions)?;
        }
        if let Some(late) = &self.late {
            late.check(submissions)?;
        }
        Ok(())
    }

    /// Whether the due date has passed: after it, students see the `after_due_date` cases.
    pub fn due_passed(&self) -> bool {
        self.due.is_some_and(|due| due < Moment::now())
    }

    pub fn apply(&self, batch: &mut BatchReport, submissions: &[Submission]) {
        apply(
            batch,
            submissions,
            self.adjustments.as_ref(),
            self.late.as_ref(),
        );
    }
}

/// The spec's due date (checked when the spec was read).
pub fn spec_due(spec: &Spec) -> Option<Moment> {
    spec.deadline
        .due
        .as_deref()
        .and_then(|text| Moment::parse(text).ok())
}

/// The adjustments of one file, in its order.
#[derive(Debug, Clone)]
pub struct Adjustments {
    file: PathBuf,
    entries: Vec<Entry>,
}

/// One adjustment and where it is written.
#[derive(Debug, Clone)]
struct Entry {
    /// Its line in the file, and the line (or table) as written, for messages.
    line: usize,
    text: String,
    student: Option<String>,
    id: Option<String>,
    item: String,
    change: Change,
    comment: String,
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Change {
    /// The item's points become this.
    Points(f64),
    /// This is added to the item's points.
    Delta(f64),
}

/// One `[[adjustment]]` of a TOML file, or one row of a CSV file (the same names).
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Raw {
    #[serde(default)]
    student: Option<String>,
    #[serde(default)]
    id: Option<String>,
    item: String,
    #[serde(default)]
    points: Option<f64>,
    #[serde(default)]
    delta: Option<f64>,
    #[serde(default)]
    comment: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TomlFile {
    #[serde(default)]
    adjustment: Vec<Raw>,
}

/// What a submission is known by, before and after grading.
struct Who<'a> {
    name: &'a str,
    student: &'a str,
    id: &'a str,
}

impl Adjustments {
    /// Reads `FILE` (`.csv`: a header row naming the columns; anything else: TOML with
    /// `[[adjustment]]` tables) and checks each line against the rubric.
    pub fn load(file: &Path, spec: &Spec) -> Result<Adjustments, Error> {
        let fail = |what: String| Error::config(format!("{}: {what}", file.display()));
        let text = std::fs::read_to_string(file).map_err(|e| fail(format!("cannot read: {e}")))?;
        let is_csv = file
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("csv"));
        let raws = if is_csv {
            read_csv(&text).map_err(fail)?
        } else {
            read_toml(&text).map_err(fail)?
        };
        let mut entries: Vec<Entry> = Vec::with_capacity(raws.len());
        for (line, text, raw) in raws {
            let at = |what: String| fail(format!("line {line}: {what} ({text})"));
            let student = raw.student.filter(|s| !s.trim().is_empty());
            let id = raw.id.filter(|s| !s.trim().is_empty());
            if student.is_none() && id.is_none() {
                return Err(at("give the student or the id".into()));
            }
            let item = spec
                .item(&raw.item)
                .ok_or_else(|| at(format!("no item '{}' in the rubric", raw.item)))?;
            if item.manual {
                return Err(at(format!(
                    "item '{}' is graded by hand outside referee; adjustments change auto-graded items",
                    item.id
                )));
            }
            let change = match (raw.points, raw.delta) {
                (Some(points), None) if (0.0..=item.points).contains(&points) => {
                    Change::Points(points)
                }
                (Some(points), None) => {
                    return Err(at(format!(
                        "points {points}: item '{}' has 0 to {} points",
                        item.id, item.points
                    )))
                }
                (None, Some(delta)) if delta.is_finite() => Change::Delta(delta),
                _ => return Err(at("give either points or a delta (a number)".into())),
            };
            let entry = Entry {
                line,
                text: text.clone(),
                student,
                id,
                item: item.id.clone(),
                change,
                comment: raw.comment.trim().to_string(),
            };
            if let Some(first) = entries
                .iter()
                .find(|e| e.item == entry.item && e.student == entry.student && e.id == entry.id)
            {
                return Err(at(format!(
                    "this student's item '{}' is adjusted already on line {}",
                    entry.item, first.line
                )));
            }
            entries.push(entry);
        }
        Ok(Adjustments {
            file: file.to_path_buf(),
            entries,
        })
    }

    /// Each adjustment must name exactly one of the submissions to grade.
    pub fn check(&self, submissions: &[Submission]) -> Result<(), Error> {
        for entry in &self.entries {
            let found = submissions
                .iter()
                .filter(|s| {
                    entry.names(&Who {
                        name: &s.name,
                        student: &s.student,
                        id: &s.id,
                    })
                })
                .count();
            if found != 1 {
                let whom = match (&entry.student, &entry.id) {
                    (_, Some(id)) => format!("id '{id}'"),
                    (Some(student), None) => format!("student '{student}'"),
                    (None, None) => String::new(),
                };
                let problem = if found == 0 {
                    format!("no submission of {whom} is graded")
                } else {
                    format!("{found} submissions match {whom}: give the id")
                };
                return Err(Error::config(format!(
                    "{}: line {}: {problem} ({})",
                    self.file.display(),
                    entry.line,
                    entry.text
                )));
            }
        }
        Ok(())
    }
}

impl Entry {
    fn names(&self, who: &Who) -> bool {
        let id_matches = self.id.as_deref().is_none_or(|id| id == who.id);
        let student_matches = self
            .student
            .as_deref()
            .is_none_or(|student| student == who.student || student == who.name);
        id_matches && student_matches
    }
}

/// `[[adjustment]]` tables, each with the line of its header.
fn read_toml(text: &str) -> Result<Vec<(usize, String, Raw)>, String> {
    let parsed: TomlFile = toml::from_str(text).map_err(|e| e.message().trim_end().to_string())?;
    let headers: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, line)| line.trim() == "[[adjustment]]")
        .map(|(index, _)| index + 1)
        .collect();
    Ok(parsed
        .adjustment
        .into_iter()
        .enumerate()
        .map(|(index, raw)| {
            let line = headers.get(index).copied().unwrap_or(0);
            (line, format!("adjustment {}", index + 1), raw)
        })
        .collect())
}

/// A CSV file's rows by its header's names, each with its line and its text.
fn read_csv(text: &str) -> Result<Vec<(usize, String, Raw)>, String> {
    let mut reader = csv::ReaderBuilder::new()
        .trim(csv::Trim::All)
        .from_reader(text.as_bytes());
    let headers = reader.headers().map_err(|e| e.to_string())?.clone();
    let mut rows = Vec::new();
    for record in reader.records() {
        let record = record.map_err(|e| e.to_string())?;
        let line = record.position().map_or(0, |p| p.line() as usize);
        let written = record.iter().collect::<Vec<_>>().join(",");
        let raw: Raw = record
            .deserialize(Some(&headers))
            .map_err(|e| format!("line {line}: {e} ({written})"))?;
        rows.push((line, written, raw));
    }
    Ok(rows)
}

/// When a submission counts as late and what that costs.
#[derive(Debug, Clone)]
pub struct LateRule {
    pub policy: LatePolicy,
    pub due: Option<Moment>,
}

impl LateRule {
    /// How late a submission is: `None` when on time (or nothing says it is late),
    /// `Some(days)` when late, with the days when its time is known.
    fn lateness(
        &self,
        late_flag: bool,
        submitted: Option<&str>,
    ) -> Result<Option<Option<u32>>, String> {
        let days = match (submitted, self.due) {
            (Some(time), Some(due)) => Some(Moment::parse(time)?.days_after(due)),
            _ => None,
        };
        Ok(match days {
            Some(0) | None if !late_flag => None,
            Some(days) if days > 0 => Some(Some(days)),
            _ => Some(None),
        })
    }

    /// Each late submission must be priced: a per-day penalty needs the submission time
    /// (Gradescope's export has it; Canvas's download names say only "late") and the due
    /// date.
    pub fn check(&self, submissions: &[Submission]) -> Result<(), Error> {
        if self.policy.per_day && self.due.is_none() {
            return Err(Error::config(format!(
                "--late-penalty {}: a penalty per day needs the due date (--due 2026-10-01T23:59, or [deadline] due in the spec)",
                self.policy.text
            )));
        }
        for submission in submissions {
            let lateness = self
                .lateness(submission.late, submission.submitted.as_deref())
                .map_err(|problem| {
                    Error::config(format!(
                        "{}: its submission time: {problem}",
                        submission.path.display()
                    ))
                })?;
            if let Some(days) = lateness {
                if self.policy.share_for(days).is_none() {
                    return Err(Error::config(format!(
                        "{}: marked late, but the download does not say when it was submitted, so a penalty per day cannot be priced: use a flat share (--late-penalty 10%) or adjust it by hand",
                        submission.path.display()
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Applies the adjustments, then the late penalty, to every submission (given in the order
/// graded, with the submissions they were graded from). Each submission gets its `changes`
/// and its totals change; nothing happens without adjustments or a late rule.
pub fn apply(
    batch: &mut BatchReport,
    submissions: &[Submission],
    adjustments: Option<&Adjustments>,
    late: Option<&LateRule>,
) {
    if adjustments.is_none() && late.is_none() {
        return;
    }
    for (report, submission) in batch.submissions.iter_mut().zip(submissions) {
        let raw_score = report.score;
        let mut changes = Changes {
            raw_score,
            adjustments: Vec::new(),
            late_penalty: None,
        };
        for entry in adjustments.iter().flat_map(|a| &a.entries) {
            let who = Who {
                name: &report.name,
                student: &report.student,
                id: &report.id,
            };
            if entry.names(&who) {
                changes.adjustments.push(adjust_item(report, entry));
            }
        }
        if !changes.adjustments.is_empty() {
            report.score = round(report.items.iter().filter_map(|i| i.score).sum());
        }
        // Checked before grading; a time that no longer reads is left unpriced.
        let lateness = late.and_then(|rule| {
            let lateness = rule
                .lateness(submission.late, submission.submitted.as_deref())
                .ok()??;
            Some((rule, lateness))
        });
        if let Some((rule, days)) = lateness {
            report.late = true;
            if let Some(share) = rule.policy.share_for(days) {
                let points = round((share * report.max_score).min(report.score));
                report.score = round(report.score - points);
                changes.late_penalty = Some(LatePenalty {
                    policy: rule.policy.text.clone(),
                    days,
                    share,
                    points,
                });
            }
        }
        report.changes = Some(changes);
    }
}

/// Changes one item's score; the item stays between 0 and its points.
fn adjust_item(report: &mut SubmissionReport, entry: &Entry) -> Adjustment {
    let mut delta = 0.0;
    if let Some(item) = report.items.iter_mut().find(|i| i.id == entry.item) {
        let before = item.score.unwrap_or(0.0);
        let after = match entry.change {
            Change::Points(points) => points,
            Change::Delta(delta) => before + delta,
        }
        .clamp(0.0, item.max_score);
        delta = round(after - before);
        item.score = Some(round(after));
    }
    Adjustment {
        item: entry.item.clone(),
        delta,
        comment: entry.comment.clone(),
    }
}

fn round(points: f64) -> f64 {
    (points * 1000.0).round() / 1000.0
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::changes::lines;
    use crate::report::model::{BuildReport, ItemReport};

    fn spec() -> Spec {
        toml::from_str(
            r#"
            title = "t"
            submission = { layout = "single", file = "a.c" }
            [[item]]
            id = "board"
            points = 2
            [[item]]
            id = "move"
            points = 3
            [[item]]
            id = "style"
            points = 1
            manual = true
            "#,
        )
        .expect("the test spec parses")
    }

    fn load(name: &str, text: &str) -> Result<Adjustments, String> {
        let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let file = dir.path().join(name);
        std::fs::write(&file, text).map_err(|e| e.to_string())?;
        Adjustments::load(&file, &spec()).map_err(|e| e.to_string())
    }

    fn report(name: &str, board: f64, moves: f64) -> SubmissionReport {
        let item = |id: &str, score: f64, max_score: f64| ItemReport {
            id: id.into(),
            score: Some(score),
            max_score,
            manual: false,
        };
        SubmissionReport {
            name: name.into(),
            path: name.into(),
            score: board + moves,
            max_score: 5.0,
            build: BuildReport {
                ok: true,
                log: String::new(),
            },
            items: vec![item("board", board, 2.0), item("move", moves, 3.0)],
            facts: Default::default(),
            ignored: Vec::new(),
            notes: Vec::new(),
            student: name.into(),
            id: format!("id-{name}"),
            late: name == "bob",
            runs: Vec::new(),
            changes: None,
        }
    }

    fn submission(name: &str, late: bool, submitted: Option<&str>) -> Submission {
        Submission {
            name: name.into(),
            path: PathBuf::from(name),
            files: Vec::new(),
            problem: None,
            ignored: Vec::new(),
            notes: Vec::new(),
            student: name.into(),
            id: format!("id-{name}"),
            late,
            submitted: submitted.map(String::from),
        }
    }

    #[test]
    fn csv_and_toml_adjust_items_then_the_late_penalty_takes_a_share_of_the_points_possible() {
        let csv = load(
            "adjust.csv",
            "student,id,item,points,delta,comment\nann,,move,,+1,regrade request\n,id-bob,board,0.5,,\"copied, see notes\"\n",
        )
        .expect("the CSV loads");
        let toml = load(
            "adjust.toml",
            "[[adjustment]]\nstudent = \"ann\"\nitem = \"move\"\ndelta = 1\ncomment = \"regrade request\"\n\n[[adjustment]]\nid = \"id-bob\"\nitem = \"board\"\npoints = 0.5\ncomment = \"copied, see notes\"\n",
        )
        .expect("the TOML loads");
        let rule = LateRule {
            policy: LatePolicy::parse("10%").expect("a policy"),
            due: None,
        };
        let submissions = [
            submission("ann", false, None),
            submission("bob", true, None),
        ];
        let mut totals = Vec::new();
        for adjustments in [&csv, &toml] {
            adjustments
                .check(&submissions)
                .expect("every line names a submission");
            rule.check(&submissions)
                .expect("a flat share needs no times");
            let mut batch = BatchReport {
                game: "g".into(),
                sandbox: String::new(),
                data: String::new(),
                skipped: Vec::new(),
                submissions: vec![report("ann", 2.0, 1.5), report("bob", 2.0, 3.0)],
            };
            apply(&mut batch, &submissions, Some(adjustments), Some(&rule));
            totals.push(
                batch
                    .submissions
                    .iter()
                    .map(|s| (s.score, s.changes.clone()))
                    .collect::<Vec<_>>(),
            );
            let ann = &batch.submissions[0];
            assert_eq!(ann.score, 4.5);
            assert_eq!(ann.items[1].score, Some(2.5));
            assert_eq!(
                lines(ann),
                [
                    "adjusted by hand: move +1 (regrade request)",
                    "total: 4.5 / 5 (auto-graded 3.5, adjusted +1)"
                ]
            );
            let bob = &batch.submissions[1];
            assert_eq!(bob.score, 3.0);
            assert_eq!(
                lines(bob)[1],
                "late penalty: late, -0.5 (10% of the points possible, policy 10%)"
            );
        }
        assert_eq!(totals[0], totals[1]);
    }

    #[test]
    fn a_delta_keeps_the_item_within_its_points() {
        let adjustments = load(
            "a.toml",
            "[[adjustment]]\nstudent = \"ann\"\nitem = \"move\"\ndelta = 5\n",
        )
        .expect("loads");
        let mut batch = BatchReport {
            game: "g".into(),
            sandbox: String::new(),
            data: String::new(),
            skipped: Vec::new(),
            submissions: vec![report("ann", 2.0, 1.5)],
        };
        apply(
            &mut batch,
            &[submission("ann", false, None)],
            Some(&adjustments),
            None,
        );
        let ann = &batch.submissions[0];
        assert_eq!((ann.score, ann.items[1].score), (5.0, Some(3.0)));
        assert_eq!(
            ann.changes.as_ref().map(|c| c.adjustments[0].delta),
            Some(1.5)
        );
    }

    #[test]
    fn unknown_students_items_and_repeated_lines_name_the_line() {
        let adjustments =
            load("a.csv", "student,item,delta\nann,move,1\ncy,board,-1\n").expect("loads");
        let error = adjustments
            .check(&[submission("ann", false, None)])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(
            error.contains("line 3: no submission of student 'cy' is graded (cy,board,-1)"),
            "{error}"
        );
        let error = load("a.csv", "student,item,delta\nann,moves,1\n")
            .err()
            .unwrap_or_default();
        assert!(
            error.contains("line 2: no item 'moves' in the rubric (ann,moves,1)"),
            "{error}"
        );
        let error = load("a.csv", "student,item,delta\nann,style,1\n")
            .err()
            .unwrap_or_default();
        assert!(error.contains("graded by hand"), "{error}");
        let error = load("a.csv", "student,item,points\nann,move,4\n")
            .err()
            .unwrap_or_default();
        assert!(
            error.contains("points 4: item 'move' has 0 to 3 points"),
            "{error}"
        );
        let error = load("a.toml", "[[adjustment]]\nstudent = \"a\"\nitem = \"move\"\ndelta = 1\n\n[[adjustment]]\nstudent = \"a\"\nitem = \"move\"\npoints = 1\n")
            .err()
            .unwrap_or_default();
        assert!(
            error.contains("line 6: this student's item 'move' is adjusted already on line 1"),
            "{error}"
        );
        let error = load("a.csv", "student,item,delta,grade\nann,move,1,A\n")
            .err()
            .unwrap_or_default();
        assert!(error.contains("unknown field `grade`"), "{error}");
    }

    #[test]
    fn a_penalty_per_day_counts_days_from_the_submission_time_up_to_its_cap() {
        let rule = LateRule {
            policy: LatePolicy::parse("10%/day,cap=25%").expect("a policy"),
            due: Moment::parse("2026-10-01T23:59Z").ok(),
        };
        let on_time = submission("ann", false, Some("2026-10-01 23:00:00.0 +00:00"));
        let one_day = submission("bob", false, Some("2026-10-02 01:00:00.0 +00:00"));
        let five_days = submission("cy", false, Some("2026-10-06 12:00:00.0 +00:00"));
        let flagged = submission("dee", true, None);
        assert!(rule.check(&[on_time.clone(), one_day.clone()]).is_ok());
        let error = rule
            .check(&[flagged])
            .err()
            .map(|e| e.to_string())
            .unwrap_or_default();
        assert!(error.contains("use a flat share"), "{error}");
        let mut batch = BatchReport {
            game: "g".into(),
            sandbox: String::new(),
            data: String::new(),
            skipped: Vec::new(),
            submissions: vec![
                report("ann", 2.0, 3.0),
                report("bob", 2.0, 3.0),
                report("cy", 0.5, 0.0),
            ],
        };
        apply(
            &mut batch,
            &[on_time, one_day, five_days],
            None,
            Some(&rule),
        );
        let found: Vec<(f64, Option<Option<u32>>)> = batch
            .submissions
            .iter()
            .map(|s| {
                let days = s
                    .changes
                    .as_ref()
                    .and_then(|c| c.late_penalty.as_ref().map(|p| p.days));
                (s.score, days)
            })
            .collect();
        assert_eq!(
            found,
            [(5.0, None), (4.5, Some(Some(1))), (0.0, Some(Some(5)))]
        );
        assert!(batch.submissions[1].late);
    }
}
