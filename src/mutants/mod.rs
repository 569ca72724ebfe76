//! `referee mutants`: how many bugs does a game's case suite catch? Mutants of the model
//! solution in `reference/<game>/` are graded like submissions; a mutant that keeps full
//! marks survived, and every survivor is either listed as equivalent in
//! `specs/<game>/mutants.toml` or points at a missing case.

pub mod equivalents;
pub mod operators;

use std::time::Duration;

use serde::Serialize;

use crate::assignment::Assignment;
use crate::compare::Detail;
use crate::error::Error;
use crate::grade::intake::submission::Submission;
use crate::grade::{self, Grader, Settings};
use crate::report::model::Status;
use equivalents::Equivalents;
use operators::Mutant;

/// What became of one graded mutant.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    /// Some auto-graded item lost points.
    Killed,
    /// A run hit the time limit (the mutant loops).
    TimedOut,
    /// Full marks: no case tells it from the model.
    Survived,
    /// It did not compile; dropped from the score.
    DidNotBuild,
}

/// One graded mutant.
#[derive(Debug, Clone, Serialize)]
pub struct Outcome {
    /// The mutant's number among all mutants of the game (stable for a given reference).
    pub id: usize,
    #[serde(flatten)]
    pub mutant: Mutant,
    pub verdict: Verdict,
    /// The auto-graded items that lost points.
    pub lost: Vec<String>,
    /// For a survivor: the reason `mutants.toml` gives for it being equivalent.
    pub equivalent: Option<String>,
    /// For a survivor: the missing case `mutants.toml` lists for it.
    pub gap: Option<String>,
}

/// A whole `referee mutants` run.
#[derive(Debug, Clone, Serialize)]
pub struct MutantsReport {
    pub game: String,
    /// Mutants generated from the model solution.
    pub generated: usize,
    pub sample: Option<usize>,
    pub seed: u64,
    /// The mutants graded when `--only` named them (their ids), else none.
    pub only: Option<Vec<usize>>,
    /// The model's slowest run, and the time limit given to each mutant's runs.
    pub model_seconds: f64,
    pub timeout_seconds: f64,
    pub killed: usize,
    pub timed_out: usize,
    pub survived: usize,
    pub did_not_build: usize,
    /// (killed + timed out) / every mutant that built, in percent.
    pub score: f64,
    /// Survivors listed neither as equivalent: `--check` fails on them.
    pub unexplained: usize,
    pub mutants: Vec<Outcome>,
}

/// Every mutant of the model's `.c` files, in file and source order.
pub fn generate(model: &Submission, header_texts: &[String]) -> Vec<Mutant> {
    let texts: Vec<(String, String)> = model
        .files
        .iter()
        .map(|f| (f.name.clone(), f.text()))
        .collect();
    let mut all: Vec<&str> = texts.iter().map(|(_, t)| t.as_str()).collect();
    all.extend(header_texts.iter().map(String::as_str));
    let defined = operators::defined_names(&all);
    texts
        .iter()
        .filter(|(name, _)| name.ends_with(".c"))
        .flat_map(|(name, text)| operators::mutants_of(name, text, &defined))
        .collect()
}

/// `count` distinct indices below `total`, picked by `seed` (the same on every machine),
/// in increasing order.
pub fn sample_indices(total: usize, count: usize, seed: u64) -> Vec<usize> {
    let mut indices: Vec<usize> = (0..total).collect();
    let mut state = seed;
    let count = count.min(total);
    for i in 0..count {
        let pick = i + (splitmix64(&mut state) % (total - i) as u64) as usize;
        indices.swap(i, pick);
    }
    let mut picked = indices[..count].to_vec();
    picked.sort_unstable();
    picked
}

/// The indices of the mutants `ids` names (numbered from 1, as reports give them), in
/// increasing order and each once; an id past the last mutant is an error.
pub fn only_indices(ids: &[usize], total: usize, game: &str) -> Result<Vec<usize>, Error> {
    if let Some(&bad) = ids.iter().find(|&&id| id == 0 || id > total) {
        return Err(Error::config(format!(
            "--only: there is no mutant #{bad} of {game} (they are numbered 1 to {total})"
        )));
    }
    let mut picked: Vec<usize> = ids.iter().map(|id| id - 1).collect();
    picked.sort_unstable();
    picked.dedup();
    Ok(picked)
}

fn splitmix64(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The per-run limit for mutants: twenty times the model's slowest run, at least a second,
/// never above the spec's own limit (a mutant that loops is stopped early, a slow machine
/// does not turn correct mutants into timeouts).
pub fn mutant_timeout(model_seconds: f64, spec_timeout: f64) -> f64 {
    (model_seconds * 20.0).max(1.0).min(spec_timeout)
}

/// What to grade and how.
pub struct Plan<'a> {
    pub assignment: &'a Assignment,
    pub model: &'a Submission,
    /// Header texts beside the model (e.g. a spec-provided header) for the return flips.
    pub headers: Vec<String>,
    pub sample: Option<usize>,
    pub seed: u64,
    /// Grade only these mutants (ids as reports give them), e.g. to look again at survivors.
    pub only: Option<Vec<usize>>,
    pub equivalents: &'a Equivalents,
}

/// Grades the model (it must get full marks), then the mutants with a time limit tied to
/// the model's runs.
pub fn run(plan: &Plan, grader: &Grader) -> Result<MutantsReport, Error> {
    let game = plan.assignment.game.id();
    // Picked first: an --only id that names no mutant fails before anything is graded.
    let all = generate(plan.model, &plan.headers);
    let picked: Vec<usize> = match (&plan.only, plan.sample) {
        (Some(ids), _) => only_indices(ids, all.len(), game)?,
        (None, Some(count)) => sample_indices(all.len(), count, plan.seed),
        (None, None) => (0..all.len()).collect(),
    };
    let model_report = grade::grade(plan.assignment, std::slice::from_ref(plan.model), grader)?;
    let Some(model_graded) = model_report.submissions.first() else {
        return Err(Error::config(format!(
            "reference/{game}: nothing was graded"
        )));
    };
    if !model_graded.full_marks() {
        return Err(Error::config(format!(
            "reference/{game}: the model solution does not get full marks ({} of {}); run `referee check-reference {game}`",
            model_graded.score, model_graded.max_score
        )));
    }
    let model_seconds = model_graded
        .runs
        .iter()
        .map(|r| r.elapsed.as_secs_f64())
        .fold(0.0, f64::max);
    let timeout = mutant_timeout(model_seconds, grader.settings.limits.timeout.as_secs_f64());
    let mut settings: Settings = grader.settings.clone();
    settings.limits.timeout = Duration::from_secs_f64(timeout);
    // Only which items lost points is reported, so no diffs or hints are worked out.
    settings.detail = Detail::ItemsOnly;
    settings.stop_trace_at_first_loss = true;
    let mutant_grader = Grader {
        settings: &settings,
        ..*grader
    };

    let submissions: Vec<Submission> = picked
        .iter()
        .map(|&index| mutant_submission(plan.model, &all[index], index + 1))
        .collect();
    let batch = grade::grade(plan.assignment, &submissions, &mutant_grader)?;

    let mut outcomes = Vec::with_capacity(picked.len());
    for (&index, graded) in picked.iter().zip(&batch.submissions) {
        let timed_out = graded
            .runs
            .iter()
            .flat_map(|r| &r.items)
            .any(|v| v.status == Status::Timeout);
        let verdict = if !graded.build.ok {
            Verdict::DidNotBuild
        } else if timed_out {
            Verdict::TimedOut
        } else if graded.full_marks() {
            Verdict::Survived
        } else {
            Verdict::Killed
        };
        let lost = graded
            .items
            .iter()
            .filter(|i| !i.manual && i.score.is_some_and(|s| s + 1e-9 < i.max_score))
            .map(|i| i.id.clone())
            .collect();
        let mutant = all[index].clone();
        let (equivalent, gap) = if verdict == Verdict::Survived {
            (
                plan.equivalents.equivalent_reason(&mutant),
                plan.equivalents.gap_case(&mutant),
            )
        } else {
            (None, None)
        };
        outcomes.push(Outcome {
            id: index + 1,
            mutant,
            verdict,
            lost,
            equivalent,
            gap,
        });
    }
    let count = |v: Verdict| outcomes.iter().filter(|o| o.verdict == v).count();
    let (killed, timed_out, survived, did_not_build) = (
        count(Verdict::Killed),
        count(Verdict::TimedOut),
        count(Verdict::Survived),
        count(Verdict::DidNotBuild),
    );
    let built = killed + timed_out + survived;
    let score = if built == 0 {
        100.0
    } else {
        100.0 * (killed + timed_out) as f64 / built as f64
    };
    let unexplained = outcomes
        .iter()
        .filter(|o| o.verdict == Verdict::Survived && o.equivalent.is_none())
        .count();
    Ok(MutantsReport {
        game: game.to_string(),
        generated: all.len(),
        sample: plan.sample,
        seed: plan.seed,
        only: plan
            .only
            .as_ref()
            .map(|_| picked.iter().map(|i| i + 1).collect()),
        model_seconds,
        timeout_seconds: timeout,
        killed,
        timed_out,
        survived,
        did_not_build,
        score,
        unexplained,
        mutants: outcomes,
    })
}

/// The model with one file mutated, named after the mutant.
fn mutant_submission(model: &Submission, mutant: &Mutant, id: usize) -> Submission {
    let mut submission = model.clone();
    submission.name = format!("mutant-{id}");
    submission.student = submission.name.clone();
    for file in &mut submission.files {
        if file.name == mutant.file {
            file.bytes = mutant.apply(&file.text()).into_bytes();
        }
    }
    submission
}

/// The text report: counts, score, then each survivor, timeout and kill.
pub fn render_text(report: &MutantsReport) -> String {
    let mut out = String::new();
    let graded = report.mutants.len();
    let sampled = match (&report.only, report.sample) {
        (Some(_), _) => format!(", {graded} graded (--only)"),
        (None, Some(_)) => format!(", {graded} graded (sample, seed {})", report.seed),
        (None, None) => String::new(),
    };
    out.push_str(&format!(
        "{}: {} mutants{sampled}; model's slowest run {:.2} s, mutant time limit {:.1} s\n",
        report.game, report.generated, report.model_seconds, report.timeout_seconds
    ));
    out.push_str(&format!(
        "killed {} · survived {} · timed out {} · did not build {}\n",
        report.killed, report.survived, report.timed_out, report.did_not_build
    ));
    out.push_str(&format!(
        "mutation score {:.1}% ({} of {} built mutants detected)\n",
        report.score,
        report.killed + report.timed_out,
        report.killed + report.timed_out + report.survived
    ));
    let section = |verdict: Verdict| report.mutants.iter().filter(move |o| o.verdict == verdict);
    let place = |o: &Outcome| {
        format!(
            "#{} {}:{} in {} [{}]",
            o.id,
            o.mutant.file,
            o.mutant.line,
            o.mutant.function.as_deref().unwrap_or("(file scope)"),
            o.mutant.operator.name()
        )
    };
    if report.survived > 0 {
        out.push_str("\nSurvivors:\n");
        for o in section(Verdict::Survived) {
            let note = match (&o.equivalent, &o.gap) {
                (Some(reason), _) => format!("equivalent: {reason}"),
                (None, Some(case)) => format!("NOT EQUIVALENT, missing case: {case}"),
                (None, None) => "NOT LISTED in mutants.toml".to_string(),
            };
            out.push_str(&format!("  {}  {note}\n", place(o)));
            out.push_str(&format!(
                "    - {}\n    + {}\n",
                o.mutant.original, o.mutant.mutated
            ));
        }
    }
    if report.timed_out > 0 {
        out.push_str("\nTimed out:\n");
        for o in section(Verdict::TimedOut) {
            out.push_str(&format!("  {}  + {}\n", place(o), o.mutant.mutated));
        }
    }
    if report.killed > 0 {
        out.push_str("\nKilled (items that lost points):\n");
        for o in section(Verdict::Killed) {
            out.push_str(&format!("  {}  {}\n", place(o), o.lost.join(", ")));
        }
    }
    if report.did_not_build > 0 {
        let ids: Vec<String> = section(Verdict::DidNotBuild)
            .map(|o| format!("#{}", o.id))
            .collect();
        out.push_str(&format!("\nDid not build: {}\n", ids.join(" ")));
    }
    out
}

/// The texts of the headers a game's spec folder provides (e.g. backgammon.h).
pub fn spec_headers(spec_dir: &std::path::Path) -> Vec<String> {
    let Ok(entries) = std::fs::read_dir(spec_dir) else {
        return Vec::new();
    };
    let mut paths: Vec<_> = entries
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "h"))
        .collect();
    paths.sort();
    paths
        .iter()
        .filter_map(|p| std::fs::read_to_string(p).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_takes_each_named_mutant_once_in_source_order() {
        let picked = only_indices(&[40, 3, 40, 1], 50, "ludo");
        assert_eq!(picked.ok(), Some(vec![0, 2, 39]));
    }

    #[test]
    fn only_rejects_ids_that_name_no_mutant() {
        for bad in [0, 51] {
            let error = only_indices(&[1, bad], 50, "ludo")
                .err()
                .map(|e| e.to_string());
            let expected = format!("no mutant #{bad} of ludo (they are numbered 1 to 50)");
            assert!(
                error.as_deref().is_some_and(|e| e.contains(&expected)),
                "{error:?}"
            );
        }
    }
}
