//! The handout's features a printed game may show, and the words that name them. A feature
//! counts as shown when the replay saw it happen or when any line of the game names it: a
//! line the checker cannot read still tells a TA that the program captures, forms blocks or
//! teleports, and a feature is charged as missing only when no line of any game shows it
//! (the checker never reports what follows from its own loss of track).

/// A feature of the handout's game that a printed game may show: counted over a case's runs
/// and compared with the model's games for the same clocks, a feature the model shows in
/// most games and the program in none costs its share of `rules` (see `feature_charge`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Feature {
    LeaveBase,
    Capture,
    CaptureBonus,
    Block,
    HomeStraight,
    Home,
    ThirdSix,
    MysteryCell,
    ToBhawana,
    ToKotuwa,
    ToPitaKotuwa,
    ToBase,
    ToX,
    ToApproach,
    Winner,
}

impl Feature {
    pub const ALL: [Feature; 15] = [
        Feature::LeaveBase,
        Feature::Capture,
        Feature::CaptureBonus,
        Feature::Block,
        Feature::HomeStraight,
        Feature::Home,
        Feature::ThirdSix,
        Feature::MysteryCell,
        Feature::ToBhawana,
        Feature::ToKotuwa,
        Feature::ToPitaKotuwa,
        Feature::ToBase,
        Feature::ToX,
        Feature::ToApproach,
        Feature::Winner,
    ];

    /// The feature's key in a case's tally of features shown.
    pub fn key(self) -> &'static str {
        match self {
            Feature::LeaveBase => "leaving base",
            Feature::Capture => "captures",
            Feature::CaptureBonus => "a capture's bonus roll",
            Feature::Block => "blocks",
            Feature::HomeStraight => "the home straight",
            Feature::Home => "the exact roll Home",
            Feature::ThirdSix => "the third six",
            Feature::MysteryCell => "the mystery cell",
            Feature::ToBhawana => "the mystery cell's teleport to Bhawana",
            Feature::ToKotuwa => "the mystery cell's teleport to Kotuwa",
            Feature::ToPitaKotuwa => "the mystery cell's teleport to Pita-Kotuwa",
            Feature::ToBase => "the mystery cell's teleport to base",
            Feature::ToX => "the mystery cell's teleport to X",
            Feature::ToApproach => "the mystery cell's teleport to the Approach",
            Feature::Winner => "the winner",
        }
    }

    /// What a run that never shows the feature never did, and what the model's games do.
    pub(super) fn absence(self) -> (&'static str, &'static str) {
        match self {
            Feature::LeaveBase => ("no piece ever left base", "leaves base"),
            Feature::Capture => ("no piece was ever captured", "captures"),
            Feature::CaptureBonus => (
                "no capture was followed by its bonus roll",
                "rolls again after a capture",
            ),
            Feature::Block => ("no block was ever formed", "forms a block"),
            Feature::HomeStraight => (
                "no piece ever entered its home straight",
                "enters a home straight",
            ),
            Feature::Home => ("no piece ever reached Home", "brings a piece Home"),
            Feature::ThirdSix => (
                "no player ever rolled a third six in a row",
                "rolls a third six",
            ),
            Feature::MysteryCell => ("no mystery cell ever appeared", "spawns a mystery cell"),
            Feature::ToBhawana => (
                "no piece was ever teleported to Bhawana",
                "teleports to Bhawana",
            ),
            Feature::ToKotuwa => (
                "no piece was ever teleported to Kotuwa",
                "teleports to Kotuwa",
            ),
            Feature::ToPitaKotuwa => (
                "no piece was ever teleported to Pita-Kotuwa",
                "teleports to Pita-Kotuwa",
            ),
            Feature::ToBase => ("no piece was ever teleported to base", "teleports to base"),
            Feature::ToX => ("no piece was ever teleported to X", "teleports to X"),
            Feature::ToApproach => (
                "no piece was ever teleported to its Approach",
                "teleports to an Approach",
            ),
            Feature::Winner => ("no winner was ever announced", "announces a winner"),
        }
    }
}

/// The features a line of the game names, read from its words: lenient on purpose, since a
/// feature named is a feature the program has (whether it follows the rules there is the
/// replay's question, and a line not read already costs `messages` and coverage).
pub fn named_in(line: &str) -> Vec<Feature> {
    let lower = line.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| !w.is_empty())
        .collect();
    let has = |w: &str| words.contains(&w);
    let starts = |prefix: &str| words.iter().any(|w| w.starts_with(prefix));
    let phrase = |parts: &[&str]| words.windows(parts.len()).any(|w| w == parts);
    let pair = |a: &str, b: &str| phrase(&[a, b]);
    let pita = starts("pita");
    let teleport = starts("teleport") || has("mystery");
    let mut named = Vec::new();
    let mut add = |yes: bool, feature: Feature| {
        if yes {
            named.push(feature);
        }
    };
    add(
        pair("starting", "point")
            || pair("starting", "square")
            || pair("starting", "position")
            || pair("starting", "cell")
            || ["from", "of", "leaves", "left", "leave", "leaving"]
                .iter()
                .any(|w| pair(w, "base") || phrase(&[w, "the", "base"])),
        Feature::LeaveBase,
    );
    let capture = starts("captur") || starts("kill");
    add(capture, Feature::Capture);
    add(starts("block"), Feature::Block);
    add(
        words.iter().any(|w| w.contains("homepath"))
            || starts("homestraight")
            || pair("home", "straight")
            || pair("home", "path")
            || pair("home", "stretch")
            || words.iter().any(|w| {
                w.strip_prefix("hs")
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            })
            // `H-3`: an `h` then the cell's number.
            || words
                .windows(2)
                .any(|w| w[0] == "h" && w[1].bytes().all(|b| b.is_ascii_digit())),
        Feature::HomeStraight,
    );
    add(
        words.iter().enumerate().any(|(k, w)| {
            *w == "home"
                && !words
                    .get(k + 1)
                    .is_some_and(|next| ["straight", "path", "stretch", "column"].contains(next))
        }),
        Feature::Home,
    );
    add(
        ["third", "three", "thrice", "3rd"].iter().any(|w| has(w))
            && ["six", "sixes", "6", "6s"].iter().any(|w| has(w)),
        Feature::ThirdSix,
    );
    add(has("mystery"), Feature::MysteryCell);
    add(teleport && has("bhawana"), Feature::ToBhawana);
    add(teleport && starts("kotuwa") && !pita, Feature::ToKotuwa);
    add(teleport && pita, Feature::ToPitaKotuwa);
    add(teleport && has("base"), Feature::ToBase);
    add(teleport && (has("x") || has("starting")), Feature::ToX);
    add(teleport && has("approach"), Feature::ToApproach);
    add(
        ["win", "wins", "won", "winner"].iter().any(|w| has(w))
            || pair("1st", "place")
            || pair("first", "place")
            || pair("place", "1")
            || pair("1", "place"),
        Feature::Winner,
    );
    add(has("bonus") && capture, Feature::CaptureBonus);
    named
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_name_the_features_they_show() {
        let cases: &[(&str, &[Feature])] = &[
            (
                "Red-2 knocked out: captured by Green-3!",
                &[Feature::Capture],
            ),
            (
                "Green player moves G1 to starting point",
                &[Feature::LeaveBase],
            ),
            (
                "Blue piece B2 moves from Base to L41",
                &[Feature::LeaveBase],
            ),
            (
                "Yellow: Y3 is now at Blue homepath 1",
                &[Feature::HomeStraight],
            ),
            ("G2 is at HOME", &[Feature::Home]),
            ("Y1 moved to Home Straight Cell 5", &[Feature::HomeStraight]),
            ("R4 HS5 -> HOME", &[Feature::HomeStraight, Feature::Home]),
            (
                "Red rolled a 6 three times: turn passes",
                &[Feature::ThirdSix],
            ),
            (
                "creates a block by moving B2 piece and B4 piece",
                &[Feature::Block],
            ),
            ("Mystery cell is :21", &[Feature::MysteryCell]),
            (
                "B3 landed on the mystery cell, teleporting to Pita Kotuwa",
                &[Feature::MysteryCell, Feature::ToPitaKotuwa],
            ),
            ("R1 teleported to Kotuwa", &[Feature::ToKotuwa]),
            ("G4 teleported to X", &[Feature::ToX]),
            ("*** Red player has won the game! ***", &[Feature::Winner]),
            ("Player Blue Wins !!!", &[Feature::Winner]),
            ("1st place: Yellow", &[Feature::Winner]),
            ("Player Green Wins !!!", &[Feature::Winner]),
            (" Green Player : Place 1", &[Feature::Winner]),
            (
                "Blue player finished the game and got the 1 place.",
                &[Feature::Winner],
            ),
            ("B3 ----> BlueHomePath[2]", &[Feature::HomeStraight]),
            ("Location of Yellow-3 is H-5", &[Feature::HomeStraight]),
            // A second place is no winner; a square is no home-straight cell.
            (" Red Player : Place 2", &[]),
            ("Location of Red-4 is L-32", &[]),
            (
                "Red gets a bonus roll for capturing",
                &[Feature::Capture, Feature::CaptureBonus],
            ),
            // No feature: a roll, a count line, an introduction, the first player.
            ("Red player rolled 3.", &[]),
            (
                "Red player now has 1/4 on pieces on the board and 3/4 pieces on the base.",
                &[],
            ),
            (
                "The red player has four (04) pieces named R1, R2, R3, and R4.",
                &[],
            ),
            (
                "Blue player has the highest roll and will begin the game.",
                &[],
            ),
            (
                "Red moves piece R1 from location 3 to 9 by 6 units in clockwise direction.",
                &[],
            ),
        ];
        for (line, expected) in cases {
            let mut named = named_in(line);
            named.sort();
            let mut expected = expected.to_vec();
            expected.sort();
            assert_eq!(named, expected, "{line}");
        }
    }
}
