use super::super::board::*;
use super::super::{BEHAVIOUR, FINISHES, MESSAGES, RULES, STRUCTURE};
use super::certainty::named_pieces;
use super::judge::*;
use super::read::*;
use super::replay::*;
use super::words::*;
use super::*;
use crate::games::ludo::sim::simulate;
use crate::games::TraceRun;

/// Problems the checker finds in the reference's own game for `seed`.
fn problems(seed: u64) -> Vec<String> {
    let report = check(&simulate(seed).text());
    let mut found: Vec<String> = report.violations.iter().map(|v| v.to_string()).collect();
    found.extend(
        report
            .unreadable
            .iter()
            .map(|(n, t)| format!("line {n}: unreadable: {t}")),
    );
    found.extend(report.missing.iter().cloned());
    if report.winner.is_none() {
        found.push("no winner".into());
    }
    for c in Colour::SEATING {
        let a = report.behaviour[c.index()];
        if a.agreed != a.decisions {
            found.push(format!(
                "{}: behaviour {}/{}",
                c.name(),
                a.agreed,
                a.decisions
            ));
        }
    }
    found
}

pub(super) fn game(seed: u64) -> Vec<String> {
    simulate(seed).text().lines().map(String::from).collect()
}

/// The replayed board after the first `n` lines.
fn board_before(lines: &[String], n: usize) -> Board {
    replay(&lines[..n].join("\n")).board
}

/// The single violation an edited game must yield.
pub(super) fn only_violation(lines: &[String]) -> Violation {
    let report = check(&lines.join("\n"));
    assert!(report.unreadable.is_empty(), "{:?}", report.unreadable);
    assert_eq!(
        report.violations.len(),
        1,
        "expected exactly one violation, got:\n{}",
        report
            .violations
            .iter()
            .map(|v| v.to_string())
            .collect::<Vec<_>>()
            .join("\n")
    );
    report.violations[0].clone()
}

/// The first (game, line index, data) over seeds where `pick` finds its pattern.
pub(super) fn find<T>(pick: impl Fn(&[String], usize) -> Option<T>) -> (Vec<String>, usize, T) {
    for seed in 0..300 {
        let lines = game(seed);
        for i in 1..lines.len().saturating_sub(4) {
            if let Some(found) = pick(&lines, i) {
                return (lines, i, found);
            }
        }
    }
    panic!("no reference game shows the pattern");
}

pub(super) fn msg(line: &str) -> Option<Msg> {
    parse(line)
}

#[test]
fn a_move_of_the_wrong_length_is_rule_1() {
    let (mut lines, i, (colour, roll, dest)) = find(|lines, i| {
        let Some(Msg::Rolled(c, r)) = msg(&lines[i]) else {
            return None;
        };
        let Some(Msg::Move {
            colour,
            id,
            from: Loc::Square(f),
            to: Loc::Square(t),
            units,
            dir,
        }) = msg(&lines[i + 1])
        else {
            return None;
        };
        let Some(Msg::Rolled(next, _)) = msg(&lines[i + 2]) else {
            return None;
        };
        if colour != c || next == c || r > 4 || units != r {
            return None;
        }
        let board = board_before(lines, i);
        if board.piece(id).aura.is_some() || board.count_at(c, f) != 1 {
            return None;
        }
        match board.walk(id, dir, r + 1, EnterPolicy::Strict, 1, true) {
            Walk::Reached {
                dest: Loc::Square(d),
                ..
            } if d != t => Some((c, r, d)),
            _ => None,
        }
    });
    lines[i] = format!("{} player rolled {}.", colour.name(), roll + 1);
    let v = only_violation(&lines);
    assert_eq!((v.line, v.rule), (i + 2, "Rule 1"));
    assert!(v.why.ends_with(&format!(" is {dest}")), "{v}");
}

#[test]
fn a_capture_of_an_empty_square_is_rule_6() {
    let (mut lines, i, inserted) = find(|lines, i| {
        let Some(Msg::Move {
            id,
            to: Loc::Square(t),
            ..
        }) = msg(&lines[i])
        else {
            return None;
        };
        let Some(Msg::Rolled(next, _)) = msg(&lines[i + 1]) else {
            return None;
        };
        let board = board_before(lines, i + 1);
        if next == id.colour
            || board.piece(id).captures == 0
            || board.piece(id).loc != Loc::Square(t)
        {
            return None;
        }
        let victim = Colour::SEATING
            .into_iter()
            .filter(|&c| c != id.colour)
            .flat_map(PieceId::all)
            .find(|&v| board.piece(v).loc == Loc::Base)?;
        Some(format!(
            "{} piece {id} lands on square {t}, captures {} piece {victim}, and returns it to the base.",
            id.colour.name(),
            victim.colour.name()
        ))
    });
    lines.insert(i + 1, inserted);
    let v = only_violation(&lines);
    assert_eq!((v.line, v.rule), (i + 2, "Rule 6"));
    assert!(v.why.contains("holds no"), "{v}");
}

#[test]
fn a_wrong_count_line_is_reported() {
    let (mut lines, i, (c, on_board, in_base)) = find(|lines, i| match msg(&lines[i]) {
        Some(Msg::Count(c, a, b)) => Some((c, a, b)),
        _ => None,
    });
    let wrong = if in_base < 4 {
        in_base + 1
    } else {
        in_base - 1
    };
    lines[i] = format!(
        "{} player now has {on_board}/4 on pieces on the board and {wrong}/4 pieces on the base.",
        c.name()
    );
    let v = only_violation(&lines);
    assert_eq!((v.line, v.rule), (i + 1, "count line"));
}

#[test]
fn leaving_base_without_a_six_is_rule_2() {
    // An entry that captures on X earns a bonus roll, so only the exit itself is wrong.
    let (mut lines, i, colour) = find(|lines, i| {
        let Some(Msg::Rolled(c, 6)) = msg(&lines[i]) else {
            return None;
        };
        let Some(Msg::Enter(e, id)) = msg(&lines[i + 1]) else {
            return None;
        };
        let Some(Msg::Count(..)) = msg(&lines[i + 2]) else {
            return None;
        };
        let Some(Msg::Capture { id: capturer, .. }) = msg(&lines[i + 3]) else {
            return None;
        };
        (e == c && capturer == id).then_some(c)
    });
    lines[i] = format!("{} player rolled 5.", colour.name());
    let v = only_violation(&lines);
    assert_eq!((v.line, v.rule), (i + 2, "Rule 2"));
}

/// Four rolls in a row, each of another colour and none a six, so none moved a piece.
fn four_bare_rolls(lines: &[String], i: usize) -> Option<()> {
    let colours: Vec<Colour> = lines[i..i + 4]
        .iter()
        .map(|l| match msg(l) {
            Some(Msg::Rolled(c, v)) if v != 6 => Some(c),
            _ => None,
        })
        .collect::<Option<_>>()?;
    colours.windows(2).all(|w| w[0] != w[1]).then_some(())
}

#[test]
fn a_turn_out_of_order_is_reported() {
    // Two players' turns swapped: no single missing line explains the second.
    let (mut lines, i, ()) = find(four_bare_rolls);
    lines.swap(i + 1, i + 2);
    let v = only_violation(&lines);
    assert_eq!((v.line, v.rule), (i + 3, "turn order"));
}

#[test]
fn rolling_again_without_a_six_is_rule_4() {
    let (mut lines, i, ()) = find(four_bare_rolls);
    lines.insert(i + 1, lines[i].clone());
    let v = only_violation(&lines);
    assert_eq!((v.line, v.rule), (i + 2, "Rule 4"));
}

#[test]
fn a_missing_roll_line_is_coverage_not_a_finding() {
    let (lines, i, ()) = find(four_bare_rolls);
    let mut damaged = lines.clone();
    damaged.remove(i + 1);
    let report = check(&damaged.join("\n"));
    assert_eq!(report.violations, vec![]);
    assert_eq!(report.missing_lines, vec![i + 2]);
    assert_eq!(report.relevant, check(&lines.join("\n")).relevant);
}

/// The winner of a reference game and the lines of its moves Home, in order.
fn winner_and_home_moves(lines: &[String]) -> (Colour, Vec<usize>) {
    let Some(Msg::Wins(winner)) = lines.last().and_then(|l| msg(l)) else {
        panic!("the reference game ends with a winner");
    };
    let home_moves = (0..lines.len())
        .filter(
            |&i| matches!(msg(&lines[i]), Some(Msg::Move { colour, to: Loc::Home, .. }) if colour == winner),
        )
        .collect();
    (winner, home_moves)
}

#[test]
fn a_winner_with_a_piece_still_out_is_rule_11() {
    let mut lines = game(3);
    // Announced when its third piece gets home: one piece is still out.
    let (winner, home_moves) = winner_and_home_moves(&lines);
    let third = home_moves[home_moves.len() - 2];
    lines.truncate(third + 1);
    lines.push(format!("{} player wins!!!", winner.name()));
    let v = only_violation(&lines);
    assert_eq!((v.line, v.rule), (lines.len(), "Rule 11"));
}

/// A winner announced after a line the checker could not read, about the winner's last piece,
/// is taken as announced: the checker lost track of that piece, so it cannot say it is still
/// out (issue 29: programs whose winners were unread or unreplayable lost `finishes`).
#[test]
fn a_winner_announced_after_a_line_not_read_is_taken_as_announced() {
    let mut lines = game(3);
    let (winner, home_moves) = winner_and_home_moves(&lines);
    let Some(Msg::Move { id: last, .. }) = msg(&lines[home_moves[home_moves.len() - 1]]) else {
        unreachable!("found as a move")
    };
    // The game up to the third piece home, then a line about the last piece the checker
    // cannot read, then the win: that piece may be Home for all the checker knows.
    lines.truncate(home_moves[home_moves.len() - 2] + 1);
    lines.push(format!("{last} ~~ zooms off the board ~~"));
    lines.push(format!("{} player wins!!!", winner.name()));
    let report = check(&(lines.join("\n") + "\n"));
    assert_eq!(report.winner, Some(winner));
    assert!(
        report.violations.iter().all(|v| v.rule != "Rule 11"),
        "{:?}",
        report.violations
    );
    assert!(report
        .readings
        .iter()
        .any(|r| r.contains("lost track of its pieces is taken as announced")));
}

/// The start of the hand-written games: Red begins and brings R1 out to X (26).
pub(super) const RED_ENTERS: &str = "The red player has four (04) pieces named R1, R2, R3, and R4.
The green player has four (04) pieces named G1, G2, G3, and G4.
The yellow player has four (04) pieces named Y1, Y2, Y3, and Y4.
The blue player has four (04) pieces named B1, B2, B3, and B4.
Red rolls 6
Green rolls 2
Yellow rolls 3
Blue rolls 1
Red player has the highest roll and will begin the game.
The order of a single round is Red, Green, Yellow, and Blue.
Red player rolled 6.
Red player moves piece R1 to the starting point.
Red player now has 1/4 on pieces on the board and 3/4 pieces on the base.";

/// The three other players each roll a 1 (nothing of theirs is out).
pub(super) const OTHERS_ROLL_ONE: [&str; 3] = [
    "Green player rolled 1.",
    "Yellow player rolled 1.",
    "Blue player rolled 1.",
];

/// A short hand-written game: Red's R1 reaches its Approach by a teleport, then moves 3.
fn approach_game(last_move: &str) -> Vec<String> {
    let text = RED_ENTERS.to_string()
        + "
Red player rolled 2.
Red moves piece R1 from location 26 to 28 by 2 units in clockwise direction.
Green player rolled 1.
Yellow player rolled 1.
Blue player rolled 1.
A mystery cell has spawned in location 30 and will be at this location for the next four rounds.
Red player rolled 2.
Red moves piece R1 from location 28 to 30 by 2 units in clockwise direction.
Red player lands on a mystery cell and is teleported to Approach.
Red piece R1 teleported to Approach.
Green player rolled 1.
Yellow player rolled 1.
Blue player rolled 1.
Red player rolled 3.";
    let mut lines: Vec<String> = text.lines().map(String::from).collect();
    lines.push(last_move.to_string());
    lines
}

#[test]
fn a_home_straight_entry_without_a_capture_is_cs7() {
    let control = approach_game(
        "Red moves piece R1 from location 24 to 27 by 3 units in clockwise direction.",
    );
    assert_eq!(check(&control.join("\n")).violations, vec![]);
    let lines = approach_game(
        "Red moves piece R1 from location 24 to redhomepath2 by 3 units in clockwise direction.",
    );
    let v = only_violation(&lines);
    assert_eq!((v.line, v.rule), (lines.len(), "CS-7"));
}

#[test]
fn spacing_case_and_spellings_are_tolerated() {
    let text = simulate(11)
        .text()
        .replace("counter-clockwise", "coun-terclockwise")
        .replace(" by ", "  by ")
        .to_uppercase();
    let report = check(&text);
    assert!(
        report.unreadable.is_empty(),
        "{:?}",
        &report.unreadable[..report.unreadable.len().min(3)]
    );
    assert_eq!(report.violations, vec![]);
    assert!(report.winner.is_some());
}

/// Many programs print the capture message instead of the move, or before it.
#[test]
fn a_capture_line_may_stand_for_its_move() {
    for seed in 0..20 {
        let lines = game(seed);
        let mut without_move = Vec::new();
        let mut move_after = Vec::new();
        let mut held: Option<String> = None;
        for (i, line) in lines.iter().enumerate() {
            let capture = matches!(msg(line), Some(Msg::Capture { .. }));
            let capturing_move = match (msg(line), lines.get(i + 1).and_then(|l| msg(l))) {
                (Some(Msg::Move { id, .. }), Some(Msg::Capture { id: capturer, .. })) => {
                    id == capturer
                }
                _ => false,
            };
            if capturing_move {
                held = Some(line.clone());
                continue;
            }
            without_move.push(line.clone());
            let count = matches!(msg(line), Some(Msg::Count(..)));
            let next_is_capture_block = lines
                .get(i + 1)
                .and_then(|l| msg(l))
                .is_some_and(|m| matches!(m, Msg::Capture { .. } | Msg::Count(..)));
            move_after.push(line.clone());
            if (capture || count) && !next_is_capture_block {
                move_after.extend(held.take());
            }
        }
        assert_ne!(without_move, lines, "seed {seed} has a capture");
        for variant in [without_move, move_after] {
            let report = check(&variant.join("\n"));
            assert!(report.unreadable.is_empty());
            assert_eq!(report.violations, vec![], "seed {seed}");
            assert!(report
                .readings
                .contains("a capture line may stand for the capturing move"));
        }
    }
}

#[test]
fn structure_wants_three_files_a_types_header_a_separate_main_and_structs() {
    let three = [
        (
            "types.h".to_string(),
            "struct piece { int at; };".to_string(),
        ),
        (
            "logic.c".to_string(),
            "int domain(void) { return 0; }".to_string(),
        ),
        (
            "main.c".to_string(),
            "int main (void) { return 0; }".to_string(),
        ),
    ];
    assert_eq!(structure(&three).fraction, 1.0);
    let one = [(
        "main.c".to_string(),
        "struct p { int a; };\nint main(void) {}".to_string(),
    )];
    assert_eq!(structure(&one).fraction, 0.25);
    // Seen in a real program: the logic as function bodies in a header of its own.
    let mut logic_header = three.clone();
    logic_header[1].0 = "logic.h".to_string();
    assert_eq!(structure(&logic_header).fraction, 1.0);
    // A second header of types only is no logic apart from main.
    let mut types_only = three.clone();
    types_only[1] = ("board.h".to_string(), "typedef int cell;".to_string());
    assert_eq!(structure(&types_only).fraction, 0.75);
}

#[test]
fn an_empty_run_earns_nothing_but_structure() {
    let sources = [(
        "main.c".to_string(),
        "int main(void) { return 0; }".to_string(),
    )];
    let run = TraceRun {
        output: "",
        timed_out: false,
        sources: Some(&sources),
    };
    for verdict in verdicts(&run) {
        if verdict.item != STRUCTURE {
            assert_eq!(verdict.fraction, 0.0, "{}", verdict.item);
        }
    }
}

#[test]
fn a_timed_out_run_loses_finishes_only() {
    let text = simulate(4).text();
    let run = TraceRun {
        output: &text,
        timed_out: true,
        sources: Some(&[]),
    };
    let shares: Vec<(&str, f64)> = verdicts(&run)
        .iter()
        .map(|v| (v.item, v.fraction))
        .collect();
    assert_eq!(
        shares,
        vec![
            (MESSAGES, 1.0),
            (RULES, 1.0),
            (FINISHES, 0.0),
            (BEHAVIOUR, 1.0),
            (STRUCTURE, 0.0)
        ]
    );
}

#[test]
fn a_misspelled_roll_or_move_costs_messages_but_is_still_replayed() {
    let text = simulate(8)
        .text()
        .replace(" player rolled ", " rolled ")
        .replace(" from location ", " from ");
    let report = check(&text);
    assert!(report.unreadable.len() > 100);
    assert_eq!(report.violations, vec![]);
    assert!(report.winner.is_some());
}

#[test]
fn an_unreadable_line_is_reported_and_skipped() {
    let mut lines = game(5);
    lines.insert(20, "Red player does a little dance.".into());
    let report = check(&lines.join("\n"));
    assert_eq!(
        report.unreadable,
        vec![(21, "Red player does a little dance.".to_string())]
    );
    assert_eq!(report.violations, vec![]);
    assert!(report.winner.is_some());
}

#[test]
fn the_checker_accepts_1000_reference_games() {
    use rayon::prelude::*;
    let failures: Vec<String> = (0..1000u64)
        .into_par_iter()
        .filter_map(|seed| {
            let found = problems(seed);
            (!found.is_empty())
                .then(|| format!("seed {seed}: {}", found[..found.len().min(3)].join(" | ")))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} failing seeds:\n{}",
        failures.len(),
        failures[..failures.len().min(15)].join("\n")
    );
}

#[test]
fn a_capture_roll_then_two_sixes_may_end_the_turn() {
    // The three-roll limit may count the capture's bonus roll: capture, six, six, next player.
    let (lines, i, colour) = find(|lines, i| {
        let Some(Msg::Capture { id, .. }) = parse(&lines[i]) else {
            return None;
        };
        let roll = lines[..i].iter().rev().find_map(|l| match parse(l) {
            Some(Msg::Rolled(c, v)) => Some((c, v)),
            _ => None,
        });
        (roll == Some((id.colour, roll?.1)) && roll?.1 != 6).then_some(id.colour)
    });
    // The game up to the capture's last line, then two sixes that move nothing, then the
    // next player.
    let mut edited: Vec<String> = lines[..=i]
        .iter()
        .chain(
            lines[i + 1..]
                .iter()
                .take_while(|l| !matches!(parse(l), Some(Msg::Rolled(..)))),
        )
        .cloned()
        .collect();
    edited.push(format!("{} player rolled 6.", colour.name()));
    edited.push(format!("{} player rolled 6.", colour.name()));
    let report = check(&edited.join("\n"));
    let order = report_order(&edited);
    let next = order[(order.iter().position(|&c| c == colour).unwrap_or(0) + 1) % 4];
    edited.push(format!("{} player rolled 1.", next.name()));
    let report_after = check(&edited.join("\n"));
    assert_eq!(report.violations, vec![]);
    assert_eq!(report_after.violations, vec![]);
    assert!(report_after
        .readings
        .iter()
        .any(|r| r.contains("three-roll limit")));
}

/// The round order a game announces.
pub(super) fn report_order(lines: &[String]) -> Vec<Colour> {
    lines
        .iter()
        .find_map(|l| match parse(l) {
            Some(Msg::Order(o)) => Some(o),
            _ => None,
        })
        .expect("the game announces its order")
}

fn violation_of(rule: &'static str, line: usize) -> Violation {
    Violation {
        line,
        text: String::new(),
        rule,
        why: String::new(),
    }
}

/// Sixteen rules checked 400 times each, as in a game read in full.
fn sixteen_rules() -> BTreeMap<&'static str, usize> {
    [
        "Rule 1",
        "Rule 2",
        "Rule 3",
        "Rule 4",
        "Rule 5",
        "Rule 6",
        "Rule 7",
        "Rule 8",
        "Rule 9",
        "Rule 10",
        "Rule 11",
        "CS-1",
        "CS-2",
        "CS-3",
        "CS-4",
        "count line",
    ]
    .into_iter()
    .map(|rule| (rule, 400))
    .collect()
}

#[test]
fn a_rule_broken_once_or_fifty_times_costs_the_same_share() {
    let decisions = sixteen_rules();
    let once = rule_share(&decisions, &[violation_of("count line", 7)]);
    let fifty: Vec<Violation> = (0..50).map(|k| violation_of("count line", k)).collect();
    assert_eq!(once, 15.0 / 16.0);
    assert_eq!(rule_share(&decisions, &fifty), once);
    assert_eq!(rule_share(&decisions, &[]), 1.0);
}

#[test]
fn two_broken_rules_cost_more_than_one() {
    let decisions = sixteen_rules();
    let one = rule_share(&decisions, &[violation_of("count line", 7)]);
    let two = rule_share(
        &decisions,
        &[violation_of("count line", 7), violation_of("Rule 2", 9)],
    );
    assert!(two < one, "{two} < {one}");
    // A violation under a rule with no other checked decision still counts that rule.
    let unlisted = rule_share(&decisions, &[violation_of("CS-7", 3)]);
    assert_eq!(unlisted, 16.0 / 17.0);
}

/// A game the checker could follow for only a few rules is credited for those, out of
/// `RULES_SEEN_FULL`: seeing less of a game never earns more, and each rule seen obeyed adds.
#[test]
fn a_game_with_few_rules_checked_earns_rules_in_proportion() {
    let all = sixteen_rules();
    let first = |n: usize| -> BTreeMap<&'static str, usize> {
        all.iter().take(n).map(|(&r, &k)| (r, k)).collect()
    };
    assert_eq!(rule_share(&first(0), &[]), 0.0);
    assert_eq!(rule_share(&first(3), &[]), 3.0 / RULES_SEEN_FULL as f64);
    assert_eq!(rule_share(&first(RULES_SEEN_FULL), &[]), 1.0);
    for n in 1..all.len() {
        assert!(rule_share(&first(n), &[]) <= rule_share(&first(n + 1), &[]));
    }
    // A bug seen in a game checked in part still costs its rule.
    let broken = [violation_of("CS-1", 5)];
    assert_eq!(rule_share(&first(4), &broken), 3.0 / RULES_SEEN_FULL as f64);
}

/// The `rules` share of one printed game.
fn rules_share(lines: &[String]) -> f64 {
    let text = lines.join("\n");
    verdicts(&TraceRun {
        output: &text,
        timed_out: false,
        sources: None,
    })
    .into_iter()
    .find(|v| v.item == RULES)
    .map_or(-1.0, |v| v.fraction)
}

#[test]
fn rules_charge_a_repeated_bug_once_and_each_broken_rule_apart() {
    let lines = game(14);
    let wrong_count =
        |line: &str| match parse(line) {
            Some(Msg::Count(c, on_board, in_base)) => Some(format!(
            "{} player now has {on_board}/4 on pieces on the board and {}/4 pieces on the base.",
            c.name(),
            if in_base < 4 { in_base + 1 } else { in_base - 1 }
        )),
            _ => None,
        };
    let counts: Vec<usize> = (0..lines.len())
        .filter(|&i| wrong_count(&lines[i]).is_some())
        .collect();
    assert!(counts.len() >= 10, "the game prints count lines");
    let mut once = lines.clone();
    once[counts[0]] = wrong_count(&lines[counts[0]]).unwrap_or_default();
    let mut every = lines.clone();
    for &i in &counts {
        every[i] = wrong_count(&lines[i]).unwrap_or_default();
    }
    let mut two_rules = once.clone();
    let (at, units) = (0..lines.len())
        .find_map(|i| match parse(&lines[i]) {
            Some(Msg::Move { units, .. }) => Some((i, units)),
            _ => None,
        })
        .expect("the game has a move");
    two_rules[at] = lines[at].replace(
        &format!(" by {units} units"),
        &format!(" by {} units", units + 7),
    );
    let rules_broken = |lines: &[String]| -> BTreeSet<&'static str> {
        check(&lines.join("\n"))
            .violations
            .iter()
            .map(|v| v.rule)
            .collect()
    };
    assert_eq!(rules_broken(&once), BTreeSet::from(["count line"]));
    assert_eq!(check(&every.join("\n")).violations.len(), counts.len());
    assert_eq!(
        rules_broken(&two_rules),
        BTreeSet::from(["count line", "Rule 1"])
    );
    let (whole, one, all, two) = (
        rules_share(&lines),
        rules_share(&once),
        rules_share(&every),
        rules_share(&two_rules),
    );
    assert_eq!(whole, 1.0);
    assert!(one < 1.0 && one > 0.8, "one wrong count line: {one}");
    assert_eq!(all, one, "every count line wrong costs what one does");
    assert!(
        two < one,
        "two rules broken ({two}) cost more than one ({one})"
    );
}

#[test]
fn a_landing_without_a_capture_is_rule_6_once_the_victim_is_seen_still_there() {
    let (lines, i, (victim, square)) = find(|lines, i| {
        let Some(Msg::Move {
            id,
            to: Loc::Square(t),
            ..
        }) = msg(&lines[i])
        else {
            return None;
        };
        match msg(&lines[i + 1]) {
            Some(Msg::Capture {
                id: capturer,
                victim,
                ..
            }) if capturer == id => {
                // The victim's next mention is the location summary (it does not enter again
                // first).
                let next = lines[i + 2..].iter().find_map(|l| {
                    let m = msg(l)?;
                    named_pieces(&m).contains(&victim).then_some(m)
                });
                matches!(next, Some(Msg::PieceAt(..))).then_some((victim, t))
            }
            _ => None,
        }
    });
    // The program moves onto the victim but does not capture it: no capture line, and its
    // count line and location summary still have the victim on the square.
    let mut edited: Vec<String> = lines[..=i].to_vec();
    let mut count_fixed = false;
    for line in &lines[i + 2..] {
        match msg(line) {
            Some(Msg::Count(c, on_board, in_base)) if c == victim.colour && !count_fixed => {
                count_fixed = true;
                edited.push(format!(
                    "{} player now has {}/4 on pieces on the board and {}/4 pieces on the base.",
                    c.name(),
                    on_board + 1,
                    in_base - 1
                ));
            }
            Some(Msg::PieceAt(id, _)) if id == victim => {
                edited.push(format!("Piece {victim} -> {square}"));
                break;
            }
            _ => edited.push(line.clone()),
        }
    }
    let v = only_violation(&edited);
    assert_eq!((v.line, v.rule), (i + 1, "Rule 6"));
    // Without the edits the capture line's deletion alone is no finding.
    let mut deleted = lines.clone();
    deleted.remove(i + 1);
    assert_eq!(check(&deleted.join("\n")).violations, vec![]);
}

/// A turn whose first roll is a six that `captures` (or not) and whose second roll is neither
/// a six nor a capture: the lines with a third roll of 1 by the same colour put before the
/// next player's roll, and the report of that game.
fn third_roll_after_a_six(captures: bool) -> Report {
    let rolls = |lines: &[String]| -> Vec<(usize, Colour, u32)> {
        lines
            .iter()
            .enumerate()
            .filter_map(|(n, l)| match msg(l) {
                Some(Msg::Rolled(c, v)) => Some((n, c, v)),
                _ => None,
            })
            .collect()
    };
    let captured = |lines: &[String], from: usize, to: usize| {
        lines[from..to]
            .iter()
            .any(|l| matches!(msg(l), Some(Msg::Capture { .. })))
    };
    for seed in 1..400 {
        let lines = game(seed);
        let found = rolls(&lines).windows(3).find_map(|w| {
            let [(a, ca, va), (b, cb, vb), (c, cc, _)] = *w else {
                return None;
            };
            (va == 6
                && cb == ca
                && vb != 6
                && cc != ca
                && captured(&lines, a, b) == captures
                && !captured(&lines, b, c))
            .then_some((c, ca))
        });
        if let Some((at, colour)) = found {
            let mut edited = lines.clone();
            edited.insert(at, format!("{} player rolled 1.", colour.name()));
            return check(&edited.join("\n"));
        }
    }
    panic!("no such turn in 400 games");
}

#[test]
fn a_six_that_also_captures_earns_two_extra_rolls() {
    let report = third_roll_after_a_six(true);
    assert_eq!(report.violations, []);
    assert!(report
        .readings
        .contains("a six that also captures earns two extra rolls"));
    // A six alone earns one.
    let report = third_roll_after_a_six(false);
    let rules: Vec<&str> = report.violations.iter().map(|v| v.rule).collect();
    assert_eq!(rules, ["Rule 4"]);
}

/// A model game whose first player is Yellow, its first-round rolls replaced by `rolls`
/// (with a re-roll note between each four).
fn first_round_of_yellow(rolls: &[&[(Colour, u32)]]) -> Report {
    first_round_of_yellow_worded(rolls, |c, v| format!("{} rolls {v}", c.name()))
}

/// `first_round_of_yellow` with each first-round roll printed by `worded`.
fn first_round_of_yellow_worded(
    rolls: &[&[(Colour, u32)]],
    worded: impl Fn(Colour, u32) -> String,
) -> Report {
    let lines = (1..200)
        .map(game)
        .find(|g| {
            g.iter()
                .any(|l| l.starts_with("Yellow player has the highest roll"))
        })
        .expect("a game Yellow begins");
    let mut edited: Vec<String> = Vec::new();
    let mut replaced = false;
    for line in lines {
        if matches!(msg(&line), Some(Msg::FirstRoll(..) | Msg::AnyRoll(..))) && edited.len() < 8 {
            if !replaced {
                let tries: Vec<String> = rolls
                    .iter()
                    .map(|round| {
                        round
                            .iter()
                            .map(|&(c, v)| worded(c, v))
                            .collect::<Vec<_>>()
                            .join("\n")
                    })
                    .collect();
                edited.push(tries.join("\nno unique max value, rolling again\n"));
                replaced = true;
            }
            continue;
        }
        edited.push(line);
    }
    check(&edited.join("\n"))
}

#[test]
fn a_tie_in_the_first_roll_may_be_rolled_again_by_every_player() {
    use Colour::*;
    let tie: &[(Colour, u32)] = &[(Red, 6), (Green, 6), (Yellow, 2), (Blue, 1)];
    let report = first_round_of_yellow(&[tie, &[(Red, 3), (Green, 2), (Yellow, 5), (Blue, 4)]]);
    assert_eq!(report.violations, []);
    assert!(report
        .readings
        .contains("a tie in the first roll is rolled again by every player"));
    assert!(report.not_understood.is_empty() && report.unreadable.len() == 1);
    // Yellow must still top the re-roll.
    let report = first_round_of_yellow(&[tie, &[(Red, 3), (Green, 2), (Yellow, 5), (Blue, 6)]]);
    let rules: Vec<&str> = report.violations.iter().map(|v| v.rule).collect();
    assert_eq!(rules, ["first player"]);
}

#[test]
fn a_single_piece_landing_on_a_block_is_charged_once_under_cs3() {
    for seed in 0..400 {
        let lines = game(seed);
        let found = lines.iter().enumerate().find_map(|(i, l)| match msg(l) {
            Some(Msg::Blocked { id, from, to, by }) => {
                let board = board_before(&lines, i);
                (board.piece(by).loc == to).then_some((i, id, from, to, board.piece(id).dir?))
            }
            _ => None,
        });
        let Some((i, id, from, to, dir)) = found else {
            continue;
        };
        let value = lines[..i]
            .iter()
            .rev()
            .find_map(|l| match msg(l) {
                Some(Msg::Rolled(_, v)) => Some(v),
                _ => None,
            })
            .expect("the roll before");
        let c = id.colour;
        let mut edited = lines.clone();
        // The piece lands on the block instead of stopping before it.
        edited[i] = format!(
            "{} moves piece {id} from location {} to {} by {value} units in {} direction.",
            c.name(),
            from.render(c),
            to.render(c),
            dir.word()
        );
        if matches!(
            edited.get(i + 1).and_then(|l| msg(l)),
            Some(Msg::MovedBefore(..))
        ) {
            edited.remove(i + 1);
        }
        let v = only_violation(&edited);
        assert_eq!((v.line, v.rule), (i + 1, "CS-3"));
        return;
    }
    panic!("no reference game shows a piece stopped in front of a block it would land on");
}

/// Seen in a real program: the first-round rolls in the turn wording, a tie, then every
/// player rolling again in the same wording before the first player is announced.
#[test]
fn a_tie_rolled_again_in_the_turn_wording_is_still_the_first_round() {
    use Colour::*;
    let tie: &[(Colour, u32)] = &[(Red, 5), (Green, 5), (Yellow, 2), (Blue, 1)];
    let again: &[(Colour, u32)] = &[(Red, 3), (Green, 2), (Yellow, 6), (Blue, 4)];
    let turn_wording = |c: Colour, v: u32| format!("{} player rolled {v}", c.name());
    let report = first_round_of_yellow_worded(&[tie, again], turn_wording);
    assert_eq!(report.violations, []);
    // Tied three times over (seen in the same program), then decided.
    let other_tie: &[(Colour, u32)] = &[(Red, 1), (Green, 6), (Yellow, 3), (Blue, 6)];
    let report = first_round_of_yellow_worded(&[tie, other_tie, tie, again], turn_wording);
    assert_eq!(report.violations, []);
    assert!(report
        .readings
        .contains("a tie in the first roll is rolled again by every player"));
    // Yellow must still top the re-roll.
    let lost: &[(Colour, u32)] = &[(Red, 3), (Green, 2), (Yellow, 5), (Blue, 6)];
    let report = first_round_of_yellow_worded(&[tie, lost], turn_wording);
    let rules: Vec<&str> = report.violations.iter().map(|v| v.rule).collect();
    assert_eq!(rules, ["first player"]);
}

/// Seen in a real program: a location summary that prints the first piece's name on every
/// line ("Y1 -> L38", "Y1 -> Base", "Y1 -> Base", ...). After the first line the summary says
/// nothing the checker can trust: no finding follows from it, in it or later.
#[test]
fn a_summary_naming_one_piece_on_every_line_is_passed_over_after_its_first() {
    let (lines, at, first) = find(|lines: &[String], i: usize| {
        let Some(Msg::LocationHeader(c)) = msg(&lines[i]) else {
            return None;
        };
        let pieces: Vec<(usize, PieceId, Loc)> = (i + 1..(i + 6).min(lines.len()))
            .filter_map(|k| match msg(&lines[k]) {
                Some(Msg::PieceAt(id, loc)) if id.colour == c => Some((k, id, loc)),
                _ => None,
            })
            .collect();
        let spread = pieces.iter().any(|p| p.2 != pieces[0].2);
        (pieces.len() == 4 && spread).then_some(pieces[0].1)
    });
    let mut edited = lines.clone();
    let mut renamed = 0;
    for line in edited.iter_mut().skip(at + 1).take(5) {
        if let Some(Msg::PieceAt(id, _)) = msg(line) {
            if id != first {
                *line = line.replacen(&id.to_string(), &first.to_string(), 1);
                renamed += 1;
            }
        }
    }
    assert_eq!(renamed, 3);
    let report = check(&edited.join("\n"));
    assert_eq!(report.violations, []);
    // Nor is a later line taken for a sign of one missing.
    assert_eq!(report.missing_lines, Vec::<usize>::new());
    assert_eq!(report.winner, check(&lines.join("\n")).winner);
}

/// Seen in a real program: a piece right before a block "moves" by 0 units to where it is;
/// that is the throw ignored (as the model's "Ignoring the throw" line says), not a move the
/// block stopped short.
#[test]
fn a_move_of_zero_units_is_the_throw_ignored() {
    let (lines, at, (id, from)) = find(|lines: &[String], i: usize| match msg(&lines[i]) {
        Some(Msg::Blocked { id, from, .. })
            if lines
                .get(i + 1)
                .is_some_and(|next| matches!(msg(next), Some(Msg::Ignoring(_)))) =>
        {
            Some((id, from))
        }
        _ => None,
    });
    let c = id.colour;
    let place = from.render(c);
    let mut edited = lines.clone();
    edited.splice(
        at..at + 2,
        [format!(
            "{} moves piece {id} from location {place} to {place} by 0 units in clockwise direction.",
            c.name()
        )],
    );
    let report = check(&edited.join("\n"));
    assert_eq!(report.violations, []);
    assert_eq!(report.missing_lines, Vec::<usize>::new());
    // A piece that could move, moved by 0 units, did not make the roll's move.
    let (mut lines, at, (id, from)) = find(|lines: &[String], i: usize| match msg(&lines[i]) {
        Some(Msg::Move {
            id,
            from: from @ Loc::Square(_),
            to: Loc::Square(_),
            ..
        }) => Some((id, from)),
        _ => None,
    });
    let place = from.render(id.colour);
    lines[at] = format!(
        "{} moves piece {id} from location {place} to {place} by 0 units in clockwise direction.",
        id.colour.name()
    );
    let rules: Vec<&str> = check(&lines.join("\n"))
        .violations
        .iter()
        .map(|v| v.rule)
        .collect();
    assert_eq!(rules.first(), Some(&"Rule 1"), "{rules:?}");
}

#[test]
fn first_round_rolls_in_the_turn_wording_are_not_turns() {
    let lines = game(11);
    let edited: Vec<String> = lines
        .iter()
        .map(|l| match msg(l) {
            Some(Msg::FirstRoll(c, v)) => format!("{} player rolled {v}.", c.name()),
            _ => l.clone(),
        })
        .collect();
    assert_ne!(edited, lines);
    let report = check(&edited.join("\n"));
    assert_eq!(report.violations, []);
    assert!(report
        .readings
        .contains("first-round rolls are printed in the turn wording"));
    assert_eq!(report.rolls, check(&lines.join("\n")).rolls);
}

/// The reference game of `seed` with its home-straight cells printed 1 to 5 (`HS5` the last).
fn cells_from_one_game(seed: u64) -> Vec<String> {
    game(seed)
        .iter()
        .map(|line| {
            let mut s = line.clone();
            for c in Colour::SEATING {
                for k in (0..HOME_PATH_CELLS).rev() {
                    s = s.replace(
                        &format!("{}homepath{k}", c.lower()),
                        &format!("HS{}", k + 1),
                    );
                }
            }
            s
        })
        .collect()
}

/// The reading a game with its home-straight cells numbered 1 to 5 reports.
const CELLS_FROM_ONE: &str =
    "home straight cells numbered 1 to 5 (homepath5 is the last cell, not Home)";

#[test]
fn home_straight_cells_numbered_from_one_are_read_as_such() {
    const READING: &str = CELLS_FROM_ONE;
    let lines = cells_from_one_game(3);
    assert!(lines.iter().any(|l| l.contains("HS5")));
    let report = check(&lines.join("\n"));
    assert_eq!(report.violations, []);
    assert_eq!(report.not_understood, []);
    assert!(report.readings.contains(READING), "{:?}", report.readings);
    assert!(report.winner.is_some());
    for agreement in report.behaviour {
        assert_eq!(agreement.agreed, agreement.decisions);
    }
    // Numbered from 0 as the handout does, the same game is no such reading.
    let handout = check(&game(3).join("\n"));
    assert!(!handout.readings.contains(READING));
    assert_eq!(handout.violations, []);
}

#[test]
fn cells_numbered_from_one_are_renumbered_line_by_line() {
    // `HS5` then a move from it: the last cell, which a piece leaves for Home.
    assert_eq!(
        cells_from_one("Red moves piece R1 from location HS5 to Home").as_deref(),
        Some("red moves piece r1 from location hs4 to home")
    );
    assert_eq!(
        cells_from_one("Y1 -> Home Straight Cell 1").as_deref(),
        Some("y1 -> homepath0")
    );
    // A cell 0 is no cell when the cells are numbered from 1.
    assert_eq!(
        cells_from_one("Piece 2 -> redhomepath0").as_deref(),
        Some("piece 2 -> redhomepathx")
    );
    for line in [
        "Red player rolled 5.",
        "Piece 2 -> L16",
        "with2",
        "\u{1b}[0;31mRed",
    ] {
        assert_eq!(cells_from_one(line), None, "{line}");
    }
}

/// The reference game of `seed` with each line its message turns into `edit` rewritten.
fn edited_game(seed: u64, edit: impl Fn(&Msg) -> Option<Vec<String>>) -> Vec<String> {
    let lines = game(seed);
    let edited: Vec<String> = lines
        .iter()
        .flat_map(|l| msg(l).and_then(|m| edit(&m)).unwrap_or(vec![l.clone()]))
        .collect();
    assert_ne!(edited, lines);
    edited
}

/// Checks an edited game that must read in full with no finding; returns its report.
fn reads_in_full(lines: &[String]) -> Report {
    let report = check(&lines.join("\n"));
    assert_eq!(report.violations, []);
    assert_eq!(report.not_understood, []);
    assert_eq!(report.missing, Vec::<String>::new());
    assert!(report.winner.is_some());
    for agreement in report.behaviour {
        assert_eq!(agreement.agreed, agreement.decisions);
    }
    report
}

#[test]
fn introductions_with_digits_and_no_and_are_introductions() {
    let lines = edited_game(5, |m| match *m {
        Msg::Intro(c) => Some(vec![format!(
            "The {} player has 04 pieces named {}",
            c.lower(),
            PieceId::all(c).map(|id| id.to_string()).join(", ")
        )]),
        _ => None,
    });
    let report = reads_in_full(&lines);
    let forms: Vec<&str> = report.tolerated.iter().map(|t| t.1).collect();
    assert_eq!(forms, ["introduction"; 4]);
}

#[test]
fn a_first_player_named_by_its_letter_is_the_first_player() {
    for (seed, wording) in [
        (6, "{} Player has the highest roll"),
        (7, "{} has the highest roll, starts the game"),
    ] {
        let lines = edited_game(seed, |m| match *m {
            Msg::Highest(c) => {
                let name = if seed == 6 {
                    c.letter().to_string()
                } else {
                    c.name().to_string()
                };
                Some(vec![wording.replace("{}", &name)])
            }
            _ => None,
        });
        let report = reads_in_full(&lines);
        let forms: Vec<&str> = report.tolerated.iter().map(|t| t.1).collect();
        assert_eq!(forms, ["first player"], "{wording}");
    }
}

/// The reference game of `seed` announcing its winner as a table of places, the others in
/// `rest` order after it.
fn places_game(seed: u64, first: impl Fn(Colour) -> String) -> Vec<String> {
    edited_game(seed, |m| match *m {
        Msg::Wins(w) => {
            let mut table = vec!["Final Rankings:".to_string(), first(w)];
            let others = Colour::SEATING.into_iter().filter(|&c| c != w);
            table.extend(
                others
                    .enumerate()
                    .map(|(k, c)| format!("{}. {}", k + 2, c.name())),
            );
            Some(table)
        }
        _ => None,
    })
}

#[test]
fn a_table_of_places_announces_the_winner_and_reads_the_later_places() {
    let winner = check(&game(8).join("\n")).winner;
    let firsts: [fn(Colour) -> String; 2] = [
        |w| format!("1st place: {}", w.name()),
        |w| format!("1. {}", w.name()),
    ];
    for first in firsts {
        let report = reads_in_full(&places_game(8, first));
        assert_eq!(report.winner, winner);
        assert!(report.readings.contains("the places are listed at the end"));
    }
    // A table that puts another colour first announces a winner with pieces still out.
    let lines = edited_game(8, |m| match *m {
        Msg::Wins(w) => {
            let other = Colour::SEATING.into_iter().find(|&c| c != w).unwrap_or(w);
            Some(vec![
                "Final Rankings:".into(),
                format!("1. {}", other.name()),
            ])
        }
        _ => None,
    });
    let report = check(&lines.join("\n"));
    assert_eq!(report.winner, None);
    let rules: Vec<&str> = report.violations.iter().map(|v| v.rule).collect();
    assert_eq!(rules, ["Rule 11"]);
}

/// The forms of `tolerated` lines in a report, in order, without repeats.
fn forms_read(report: &Report) -> Vec<&'static str> {
    let mut forms: Vec<&'static str> = report.tolerated.iter().map(|t| t.1).collect();
    forms.sort();
    forms.dedup();
    forms
}

/// Rolls as `Player G rolled a 5` (the colour's letter after "Player") and the winner as
/// `Player Green Wins !!!` (issue 29: a program printing its rolls so was "never played").
#[test]
fn rolls_by_the_players_letter_and_its_winner_are_read() {
    let lines = edited_game(12, |m| match *m {
        Msg::Rolled(c, v) => Some(vec![format!("Player {} rolled a {v}", c.letter())]),
        Msg::Wins(c) => Some(vec![format!("Player {} Wins !!!", c.name())]),
        _ => None,
    });
    let report = reads_in_full(&lines);
    assert_eq!(report.winner, check(&game(12).join("\n")).winner);
    assert_eq!(report.rolls, check(&game(12).join("\n")).rolls);
    assert_eq!(forms_read(&report), ["roll", "winner"]);
}

/// The reference game of `seed` with every piece named by a bare number from 0 (`piece 0`
/// for R1 after its colour), as a program that indexes its pieces from 0 prints them.
fn pieces_from_zero_game(seed: u64) -> Vec<String> {
    game(seed)
        .iter()
        .map(|line| {
            let mut s = line.clone();
            for c in Colour::SEATING {
                for id in PieceId::all(c) {
                    for piece in ["piece", "Piece"] {
                        s = s.replace(&format!("{piece} {id}"), &format!("{piece} {}", id.index));
                    }
                }
            }
            s
        })
        .collect()
}

#[test]
fn pieces_numbered_from_zero_are_read_when_a_piece_0_appears() {
    let lines = pieces_from_zero_game(13);
    assert!(lines.iter().any(|l| l.contains("piece 0")));
    assert!(!lines.iter().any(|l| l.contains("piece 4")));
    let report = check(&lines.join("\n"));
    assert_eq!(report.violations, []);
    assert_eq!(report.not_understood, []);
    let model = check(&game(13).join("\n"));
    assert_eq!(report.winner, model.winner);
    assert_eq!(report.checked, model.checked);
    for agreement in report.behaviour {
        assert_eq!(agreement.agreed, agreement.decisions);
    }
    // With a `piece 4` in the game as well, the numbers are read from 1 (the handout's R1 to
    // R4): the pieces the game moves are then other pieces than it says, and the replay
    // does not follow it in full.
    let mut both = lines.clone();
    both.insert(0, "Red piece 4 is ready.".to_string());
    let mixed = check(&both.join("\n"));
    assert!(mixed.checked < report.checked);
}

/// Each colour's home-straight cells written `RedHomePath[1]` to `RedHomePath[5]`, and Home
/// in the location summary as `RedHomePath[6]`.
fn home_path_brackets_game(seed: u64) -> Vec<String> {
    game(seed)
        .iter()
        .map(|line| {
            let mut s = line.clone();
            for c in Colour::SEATING {
                for k in (0..HOME_PATH_CELLS).rev() {
                    s = s.replace(
                        &format!("{}homepath{k}", c.lower()),
                        &format!("{}HomePath[{}]", c.name(), k + 1),
                    );
                }
                for id in PieceId::all(c) {
                    s = s.replace(
                        &format!("Piece {id} -> Home"),
                        &format!("{id} ----> {}HomePath[6]", c.name()),
                    );
                }
            }
            s
        })
        .collect()
}

#[test]
fn home_path_cells_in_brackets_numbered_from_one_are_read() {
    let lines = home_path_brackets_game(3);
    assert!(lines.iter().any(|l| l.contains("HomePath[6]")));
    let report = reads_in_full(&lines);
    assert!(report.readings.contains(CELLS_FROM_ONE));
    assert_eq!(report.winner, check(&game(3).join("\n")).winner);
}

/// Home-straight cells as `H-1` to `H-5` and pieces as `Yellow-3` in the location summary
/// (`Location of Yellow-3 is H-5`, `Location of Red-1 is L-32`, `Piece Blue-2 is in the
/// Base`).
#[test]
fn location_lines_naming_pieces_by_colour_and_cells_by_h_are_read() {
    let lines: Vec<String> = game(3)
        .iter()
        .map(|line| {
            let mut s = line.clone();
            for c in Colour::SEATING {
                for k in (0..HOME_PATH_CELLS).rev() {
                    s = s.replace(
                        &format!("{}homepath{k}", c.lower()),
                        &format!("H-{}", k + 1),
                    );
                }
            }
            match msg(line) {
                Some(Msg::PieceAt(id, at)) => {
                    let named = format!("{}-{}", id.colour.name(), id.index + 1);
                    match at {
                        Loc::Base => format!("Piece {named} is in the Base"),
                        Loc::Home => format!("Piece {named} is in the Home"),
                        Loc::Square(n) => format!("Location of {named} is L-{n}"),
                        Loc::HomePath(k) => format!("Location of {named} is H-{}", k + 1),
                    }
                }
                _ => s,
            }
        })
        .collect();
    assert!(lines.iter().any(|l| l.contains("is H-5")));
    let report = reads_in_full(&lines);
    assert!(report.readings.contains(CELLS_FROM_ONE));
    assert_eq!(report.checked, check(&game(3).join("\n")).checked);
}

/// A table of places with no winner line (` Green Player : Place 1`, ...) and places in
/// words after a winner (`Player Red Won the Second Place`): place 1 is the announcement.
#[test]
fn places_in_other_words_announce_the_winner() {
    let winner = check(&game(8).join("\n")).winner;
    let tables: [fn(Colour, usize) -> String; 2] = [
        |c, k| format!(" {} Player : Place {k}", c.name()),
        |c, k| {
            const PLACES: [&str; 4] = ["game", "Second Place", "Third Place", "Fourth Place"];
            format!("Player {} Won the {}........", c.name(), PLACES[k - 1])
        },
    ];
    for table in tables {
        let lines = edited_game(8, |m| match *m {
            Msg::Wins(w) => {
                let others = Colour::SEATING.into_iter().filter(|&c| c != w);
                Some(
                    std::iter::once(w)
                        .chain(others)
                        .enumerate()
                        .map(|(k, c)| table(c, k + 1))
                        .collect(),
                )
            }
            _ => None,
        });
        let report = reads_in_full(&lines);
        assert_eq!(report.winner, winner);
        assert!(report.readings.contains("the places are listed at the end"));
    }
}
