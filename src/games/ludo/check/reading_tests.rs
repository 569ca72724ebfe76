//! Property tests of the accepted readings: a correct program that takes any reading the
//! handout allows (`sim::Readings`, each quoted in `specs/ludo/README.md`) loses nothing.
//! Each plays 1,000 seeded games of the simulation under one reading (and under all of them
//! together) and requires every item at 100% with no finding.

use super::super::sim::{simulate, simulate_with, Readings};
use super::judge::judge_run;
use super::*;
use crate::games::TraceRun;

/// What keeps one game from full marks: items below 100% and findings.
fn losses(text: &str) -> Vec<String> {
    let verdict = judge_run(&TraceRun {
        output: text,
        timed_out: false,
        sources: None,
    });
    let mut lost: Vec<String> = verdict
        .items
        .iter()
        .filter(|item| item.fraction < 1.0)
        .map(|item| {
            format!(
                "{} {:.3}: {}",
                item.item,
                item.fraction,
                item.notes.first().map_or("", String::as_str)
            )
        })
        .collect();
    lost.extend(
        verdict
            .findings
            .iter()
            .map(|(item, f)| format!("{item}: {f}")),
    );
    lost
}

/// A digest of a printed game, to tell games apart without keeping them.
fn digest(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// The digests of the model's games for seeds 0..1000, played once for every reading's test.
fn model_digests() -> &'static [u64] {
    use rayon::prelude::*;
    static DIGESTS: std::sync::OnceLock<Vec<u64>> = std::sync::OnceLock::new();
    DIGESTS.get_or_init(|| {
        (0..1000u64)
            .into_par_iter()
            .map(|seed| digest(&simulate(seed).text()))
            .collect()
    })
}

/// Plays seeds 0..1000 under `readings`: the games that lose anything, and how many games
/// the reading changed from the model's.
fn play(readings: &Readings) -> (Vec<String>, usize) {
    use rayon::prelude::*;
    let model = model_digests();
    let results: Vec<(Option<String>, bool)> = (0..1000u64)
        .into_par_iter()
        .map(|seed| {
            let text = simulate_with(seed, readings).text();
            let lost = losses(&text);
            let failure = (!lost.is_empty())
                .then(|| format!("seed {seed}: {}", lost[..lost.len().min(3)].join(" | ")));
            (failure, digest(&text) != model[seed as usize])
        })
        .collect();
    let changed = results.iter().filter(|r| r.1).count();
    (results.into_iter().filter_map(|r| r.0).collect(), changed)
}

/// Every game at full marks, and the reading changed at least `changed_at_least` of them
/// (so the test is about the reading, not the model's games again). Measured in November
/// 2026 over seeds 0..1000: strict Rule 10 changed 999 games, Blue's preference 758,
/// turning in after a capture 991, playing on 1000, a six's two rolls 997, first-roll ties
/// 318, the layout from square 0 969, Blue's cycle per round 1000 (without its acceptance in
/// the checker 836 of them lost behaviour), all together 1000; the bounds leave room below.
fn assert_full_marks(readings: &Readings, changed_at_least: usize) {
    let (failures, changed) = play(readings);
    assert!(
        failures.is_empty(),
        "{} of 1000 games lose marks:\n{}",
        failures.len(),
        failures[..failures.len().min(10)].join("\n")
    );
    assert!(
        changed >= changed_at_least,
        "the reading changed only {changed} of 1000 games"
    );
}

fn only(name: &str) -> Readings {
    Readings::each()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, r)| r)
        .unwrap_or_else(|| panic!("no reading {name}"))
}

#[test]
fn the_model_readings_are_the_model() {
    for seed in 0..20 {
        assert_eq!(
            simulate_with(seed, &Readings::MODEL).text(),
            simulate(seed).text()
        );
    }
    assert_eq!(Readings::default(), Readings::MODEL);
}

#[test]
fn exact_roll_home_only_keeps_full_marks_over_1000_games() {
    assert_full_marks(&only("exact roll home only"), 900);
}

#[test]
fn blue_mystery_preference_keeps_full_marks_over_1000_games() {
    assert_full_marks(&only("Blue's mystery-cell preference"), 600);
}

#[test]
fn turning_in_after_a_capture_keeps_full_marks_over_1000_games() {
    assert_full_marks(&only("turning in after a capture"), 900);
}

#[test]
fn playing_on_for_places_keeps_full_marks_over_1000_games() {
    assert_full_marks(&only("play on for places"), 990);
}

#[test]
fn a_six_that_captures_earning_two_rolls_keeps_full_marks_over_1000_games() {
    assert_full_marks(&only("a six that captures earns two rolls"), 900);
}

#[test]
fn first_roll_ties_rolled_again_keep_full_marks_over_1000_games() {
    assert_full_marks(&only("first-roll ties rolled again"), 250);
}

#[test]
fn the_layout_from_square_0_keeps_full_marks_over_1000_games() {
    assert_full_marks(&only("layout from square 0"), 900);
}

#[test]
fn blue_cycle_per_round_keeps_full_marks_over_1000_games() {
    assert_full_marks(&only("Blue's cycle per round"), 990);
}

#[test]
fn all_readings_together_keep_full_marks_over_1000_games() {
    assert_full_marks(&Readings::ALL, 990);
}

/// Seen in a real program: the game goes on for places, and a colour that brought its last
/// piece home after the winner is skipped without a line saying it finished.
#[test]
fn players_home_are_skipped_while_the_others_play_on_unannounced() {
    let readings = only("play on for places");
    for seed in 0..50 {
        let text = simulate_with(seed, &readings).text();
        let mut wins = 0;
        let unannounced: Vec<&str> = text
            .lines()
            .filter(|l| {
                wins += usize::from(l.ends_with("wins!!!"));
                !(l.ends_with("wins!!!") && wins > 1)
            })
            .collect();
        let report = check(&unannounced.join("\n"));
        assert_eq!(report.violations, [], "seed {seed}");
        // Nor is a finished colour's turn taken for a roll line missing.
        assert!(
            report.missing_lines.is_empty(),
            "seed {seed}: {:?}",
            report.missing_lines
        );
    }
}

#[test]
fn playing_on_for_places_announces_three_finishers_the_first_as_the_model_does() {
    let readings = only("play on for places");
    for seed in 0..50 {
        let text = simulate_with(seed, &readings).text();
        let finishers: Vec<&str> = text.lines().filter(|l| l.ends_with("wins!!!")).collect();
        assert_eq!(finishers.len(), 3, "seed {seed}");
        assert!(
            simulate(seed).text().trim_end().ends_with(finishers[0]),
            "seed {seed}"
        );
        let report = check(&text);
        assert!(
            report
                .readings
                .contains("the game goes on for second to fourth place"),
            "seed {seed}"
        );
    }
}
