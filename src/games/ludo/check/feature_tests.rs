//! Features never shown: what a program's games show, compared with the model's.

use super::super::sim::simulate;
use super::*;
use crate::games::ludo::RULES;

/// The features each of the model's games for `seeds` shows, as the case's tally holds them.
fn model_games(seeds: std::ops::Range<u64>) -> Vec<Vec<&'static str>> {
    seeds
        .map(|seed| {
            check(&simulate(seed).text())
                .shown
                .into_iter()
                .map(Feature::key)
                .collect()
        })
        .collect()
}

/// The model's games with `features` taken out of every one: a program that never shows them.
fn without(games: &[Vec<&'static str>], features: &[Feature]) -> Vec<Vec<&'static str>> {
    games
        .iter()
        .map(|g| {
            g.iter()
                .copied()
                .filter(|k| !features.iter().any(|f| f.key() == *k))
                .collect()
        })
        .collect()
}

#[test]
fn the_model_shows_every_listed_feature_in_most_games() {
    let games = model_games(1..41);
    for f in Feature::ALL {
        let seen = games.iter().filter(|g| g.contains(&f.key())).count();
        assert!(2 * seen >= games.len(), "{}: {seen} of 40", f.key());
    }
}

#[test]
fn a_feature_no_game_shows_costs_its_share_of_rules_with_one_finding() {
    let model = model_games(1..21);
    let expected = Feature::ALL.len() as f64;
    assert_eq!(
        feature_charge(&model, &model).map(|c| c.fraction),
        Some(1.0)
    );

    let charge = feature_charge(&model, &without(&model, &[Feature::Capture]))
        .expect("a program that played games is charged");
    assert_eq!(charge.item, RULES);
    assert_eq!(charge.fraction, 1.0 - 1.0 / expected);
    let captures = model
        .iter()
        .filter(|g| g.contains(&Feature::Capture.key()))
        .count();
    assert_eq!(
        charge.notes,
        [format!(
            "missing feature: in 20 games no piece was ever captured; the model captures in {captures} of 20"
        )]
    );

    // An unfinished program: no captures (nor their bonus), no blocks, no mystery cell.
    let unfinished = [
        Feature::Capture,
        Feature::CaptureBonus,
        Feature::Block,
        Feature::MysteryCell,
        Feature::ToBhawana,
        Feature::ToKotuwa,
        Feature::ToPitaKotuwa,
        Feature::ToBase,
        Feature::ToX,
        Feature::ToApproach,
    ];
    let charge = feature_charge(&model, &without(&model, &unfinished)).map(|c| c.fraction);
    assert_eq!(charge, Some(1.0 - 10.0 / expected));
}

#[test]
fn a_feature_shown_once_or_rare_in_the_model_is_not_charged() {
    let model = model_games(1..21);
    // One game of twenty with a capture is enough.
    let mut once = without(&model, &[Feature::Capture]);
    once[7].push(Feature::Capture.key());
    assert_eq!(feature_charge(&model, &once).map(|c| c.fraction), Some(1.0));
    // A feature the model shows in fewer than half its games is not expected.
    let mut rare = model.clone();
    for game in rare.iter_mut().skip(9) {
        game.retain(|k| *k != Feature::ThirdSix.key());
    }
    let never = without(&model, &[Feature::ThirdSix]);
    assert_eq!(feature_charge(&rare, &never).map(|c| c.fraction), Some(1.0));
    // The program's games are compared with as many of the model's.
    assert_eq!(
        feature_charge(&model, &without(&model[..3], &[Feature::Capture])).map(|c| c.notes.len()),
        Some(1)
    );
    assert_eq!(feature_charge(&model, &[]), None);
}

#[test]
fn coverage_never_ranks_a_program_that_shows_less_above_one_that_shows_more() {
    let model = model_games(1..21);
    let mut missing = Vec::new();
    for f in Feature::ALL {
        let fewer: Vec<Feature> = missing.iter().copied().chain([f]).collect();
        let more_shown =
            feature_charge(&model, &without(&model, &missing)).map_or(0.0, |c| c.fraction);
        let less_shown =
            feature_charge(&model, &without(&model, &fewer)).map_or(0.0, |c| c.fraction);
        // The program showing more read as badly as can be, the other read in full.
        for tenth in 0..=10 {
            let coverage = f64::from(tenth) / 10.0;
            let more = coverage_factor(coverage) * more_shown;
            assert!(
                more >= less_shown - 1e-12,
                "{f:?} at coverage {coverage}: {more} < {less_shown}"
            );
        }
        missing.push(f);
    }
}

/// A feature printed in words the checker cannot read is still shown: the line costs
/// `messages` and coverage, and no "missing feature" finding follows from the checker's own
/// failure to read it (issue 29: captures, blocks and winners printed in other words were
/// reported missing in 30 of 36 sampled claims).
#[test]
fn a_feature_named_in_a_line_not_understood_is_shown() {
    let text = (1..200)
        .map(|seed| simulate(seed).text())
        .find(|t| t.lines().any(|l| l.contains("captures")))
        .expect("a model game with a capture");
    let reworded: String = text
        .lines()
        .map(|line| match line.find(" lands on square") {
            Some(at) if line.contains("captures") => {
                format!("{}: capture made, victim back to its yard\n", &line[..at])
            }
            _ => format!("{line}\n"),
        })
        .collect();
    let report = check(&reworded);
    assert!(
        !report.not_understood.is_empty(),
        "the reworded capture lines are not read"
    );
    assert!(report.shown.contains(&Feature::Capture));
    // The control: with the capture lines gone, nothing shows a capture.
    let deleted: String = text
        .lines()
        .filter(|line| !line.contains("captures"))
        .map(|line| format!("{line}\n"))
        .collect();
    assert!(!check(&deleted).shown.contains(&Feature::Capture));
}

/// What the model's games for `seeds` showed, features and judged choices.
fn model_showed(seeds: std::ops::Range<u64>) -> Vec<crate::games::Showed> {
    seeds
        .map(|seed| showed(&check(&simulate(seed).text())))
        .collect()
}

#[test]
fn the_model_has_every_colour_judged_often_enough_for_full_behaviour() {
    let model = model_showed(1..41);
    let charge = behaviour_charge(&model, &model).expect("games were played");
    assert_eq!(charge.fraction, 1.0, "{:?}", charge.notes);
    assert!(charge.notes.is_empty());
}

/// A colour whose choices were judged once in a game of ten gets a tenth of its share; one
/// never judged, nothing: one agreeing choice does not show a whole behaviour.
#[test]
fn a_colour_whose_choices_are_rarely_judged_is_credited_in_proportion() {
    let model = model_showed(1..11);
    let program: Vec<crate::games::Showed> = model
        .iter()
        .enumerate()
        .map(|(game, shown)| crate::games::Showed {
            features: shown.features.clone(),
            judged: shown
                .judged
                .iter()
                .map(|&(colour, n)| match colour {
                    "Red" => (colour, u32::from(game == 0)),
                    "Blue" => (colour, 0),
                    _ => (colour, n),
                })
                .collect(),
        })
        .collect();
    let charge = behaviour_charge(&model, &program).expect("games were played");
    assert!((charge.fraction - (0.1 + 0.0 + 1.0 + 1.0) / 4.0).abs() < 1e-12);
    assert_eq!(charge.item, super::super::BEHAVIOUR);
    assert_eq!(charge.notes.len(), 2);
    assert!(
        charge.notes[0].starts_with("Red: 1 choice judged in 10 games"),
        "{}",
        charge.notes[0]
    );
    assert!(behaviour_charge(&model, &[]).is_none());
}

/// A program that never captures cannot follow Red's or Yellow's capture priority: each loses
/// a third of its share; one with no block and no mystery cell either loses more.
#[test]
fn behaviour_points_about_a_feature_never_shown_are_not_credited() {
    let model = model_showed(1..21);
    let lacking = |features: &[Feature]| -> f64 {
        let features_left = without(
            &model.iter().map(|m| m.features.clone()).collect::<Vec<_>>(),
            features,
        );
        let program: Vec<crate::games::Showed> = model
            .iter()
            .zip(features_left)
            .map(|(m, features)| crate::games::Showed {
                features,
                judged: m.judged.clone(),
            })
            .collect();
        behaviour_charge(&model, &program)
            .expect("games were played")
            .fraction
    };
    let no_captures = lacking(&[Feature::Capture]);
    assert!((no_captures - (2.0 / 3.0 + 1.0 + 2.0 / 3.0 + 1.0) / 4.0).abs() < 1e-12);
    let unfinished = lacking(&[Feature::Capture, Feature::Block, Feature::MysteryCell]);
    assert!((unfinished - (1.0 / 3.0 + 1.0 / 3.0 + 2.0 / 3.0 + 1.0 / 3.0) / 4.0).abs() < 1e-12);
    let program: Vec<crate::games::Showed> = model
        .iter()
        .map(|m| crate::games::Showed {
            features: Vec::new(),
            judged: m.judged.clone(),
        })
        .collect();
    let notes = behaviour_charge(&model, &program)
        .expect("games were played")
        .notes;
    assert!(
        notes.contains(&"Red: 3 of the 3 points of its behaviour (section 2.1) are about captures and leaving base and blocks, which no game shows".to_string()),
        "{notes:?}"
    );
}
