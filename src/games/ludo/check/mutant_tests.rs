//! Tests of the checks that mutants of the model solution showed missing: each a short
//! hand-written game or an edited reference game, with a control that passes.

use super::super::board::*;
use super::super::sim::{single_move, Readings};
use super::tests::*;
use super::words::*;
use super::*;

/// R1 walks two squares `dir` from X, then two more onto a mystery cell that sends it to
/// Pita-Kotuwa, and the program says `last`.
fn pita_kotuwa_game(dir: Dir, last: &str) -> Vec<String> {
    let (word, one, two) = match dir {
        Dir::Clockwise => ("clockwise", 28, 30),
        Dir::CounterClockwise => ("counter-clockwise", 24, 22),
    };
    let mut lines: Vec<String> = RED_ENTERS.lines().map(String::from).collect();
    lines.push("Red player rolled 2.".into());
    lines.push(format!(
        "Red moves piece R1 from location 26 to {one} by 2 units in {word} direction."
    ));
    lines.extend(OTHERS_ROLL_ONE.map(String::from));
    lines.push(format!(
        "A mystery cell has spawned in location {two} and will be at this location for the next four rounds."
    ));
    lines.push("Red player rolled 2.".into());
    lines.push(format!(
        "Red moves piece R1 from location {one} to {two} by 2 units in {word} direction."
    ));
    lines.push("Red player lands on a mystery cell and is teleported to Pita-Kotuwa.".into());
    lines.push("Red piece R1 teleported to Pita-Kotuwa.".into());
    lines.push(last.into());
    lines
}

#[test]
fn pita_kotuwa_turns_clockwise_pieces_and_sends_the_others_to_kotuwa_cs14() {
    let turns =
        "The Red piece R1, which was moving clockwise, has changed to moving counterclockwise.";
    let to_kotuwa =
        "The Red piece R1 is moving in a counterclockwise direction. Teleporting to Kotuwa from Pita-Kotuwa.";
    for (dir, right, wrong) in [
        (Dir::Clockwise, turns, to_kotuwa),
        (Dir::CounterClockwise, to_kotuwa, turns),
    ] {
        let control = pita_kotuwa_game(dir, right);
        assert_eq!(check(&control.join("\n")).violations, vec![], "{dir:?}");
        let lines = pita_kotuwa_game(dir, wrong);
        let v = only_violation(&lines);
        assert_eq!((v.line, v.rule), (lines.len(), "CS-14"), "{dir:?}");
    }
}

#[test]
fn a_roll_that_moves_nothing_while_a_piece_could_move_disagrees_with_the_behaviour() {
    let mut lines: Vec<String> = RED_ENTERS.lines().map(String::from).collect();
    lines.push("Red player rolled 2.".into());
    lines.push(
        "Red moves piece R1 from location 26 to 28 by 2 units in clockwise direction.".into(),
    );
    lines.extend(OTHERS_ROLL_ONE.map(String::from));
    lines.push("Red player rolled 3.".into());
    let roll_line = lines.len();
    let moved = "Red moves piece R1 from location 28 to 31 by 3 units in clockwise direction.";
    lines.push(moved.into());
    lines.push("Green player rolled 1.".into());
    // Red's six brought R1 out (its behaviour); the others never could move.
    let control = check(&lines.join("\n"));
    let red = Colour::Red.index();
    assert_eq!(
        control.behaviour[red].agreed,
        control.behaviour[red].decisions
    );
    assert_eq!(control.behaviour[red].decisions, 1);
    lines.retain(|l| l != moved);
    let idle = check(&lines.join("\n"));
    assert_eq!(idle.violations, vec![]);
    assert_eq!(
        (idle.behaviour[red].agreed, idle.behaviour[red].decisions),
        (1, 2)
    );
    assert_eq!(idle.behaviour[red].first_disagreement, Some(roll_line));
    for c in [Colour::Green, Colour::Yellow, Colour::Blue] {
        assert_eq!(idle.behaviour[c.index()].decisions, 0, "{c:?}");
    }
}

/// R1 enters and then moves one square a round for `rounds` rounds; a mystery cell spawns
/// after each round in `spawns` (on squares 5, 6, 7, ...).
fn rounds_of_r1(rounds: u32, spawns: &[u32]) -> Vec<String> {
    let mut lines: Vec<String> = RED_ENTERS.lines().map(String::from).collect();
    for round in 1..=rounds {
        let at = 26 + round;
        lines.push("Red player rolled 1.".into());
        lines.push(format!(
            "Red moves piece R1 from location {} to {at} by 1 units in clockwise direction.",
            at - 1
        ));
        lines.extend(OTHERS_ROLL_ONE.map(String::from));
        if let Some(k) = spawns.iter().position(|&r| r == round) {
            lines.push(format!(
                "A mystery cell has spawned in location {} and will be at this location for the next four rounds.",
                5 + k
            ));
        }
    }
    lines
}

#[test]
fn a_mystery_cell_that_never_appears_is_cs10() {
    // R1 is out from round 1: the roll starting the eleventh round ends ten such rounds.
    let lines = rounds_of_r1(12, &[]);
    let v = only_violation(&lines);
    let eleventh = RED_ENTERS.lines().count() + 10 * 5 + 1;
    assert_eq!((v.line, v.rule), (eleventh, "CS-10"));
    assert!(lines[eleventh - 1].starts_with("Red player rolled"));
    // A cell spawned late, after the ninth round, is a reading of "when", not a finding.
    let late = rounds_of_r1(12, &[9]);
    assert_eq!(check(&late.join("\n")).violations, vec![]);
    // Nine ended rounds are not enough to tell.
    assert_eq!(check(&rounds_of_r1(10, &[]).join("\n")).violations, vec![]);
}

#[test]
fn a_mystery_cell_moves_on_after_three_to_six_rounds() {
    let control = rounds_of_r1(12, &[1, 5, 9]);
    assert_eq!(check(&control.join("\n")).violations, vec![]);
    // Spawned after round 1 and again after round 2, with no landing between.
    let lines = rounds_of_r1(4, &[1, 2]);
    let v = only_violation(&lines);
    let second_spawn = RED_ENTERS.lines().count() + 5 + 1 + 5 + 1;
    assert_eq!((v.line, v.rule), (second_spawn, "CS-10"));
    assert!(lines[second_spawn - 1].contains("spawned in location 6"));
    // Spawned after round 1 and next after round 9: one spawning line may be missing
    // between, which costs coverage, not a finding.
    let report = check(&rounds_of_r1(12, &[1, 9]).join("\n"));
    assert_eq!(report.violations, vec![]);
    assert_eq!(report.missing_lines.len(), 1);
    // Spawned after round 1 and never again: still there when round 14 starts, which no
    // single missing line explains.
    let lines = rounds_of_r1(15, &[1]);
    let v = only_violation(&lines);
    let round_14 = RED_ENTERS.lines().count() + 5 + 1 + 5 * 12 + 1;
    assert_eq!((v.line, v.rule), (round_14, "CS-10"));
    assert_eq!(lines[round_14 - 1], "Red player rolled 1.");
}

#[test]
fn the_first_player_the_round_order_and_every_first_round_roll_are_required() {
    let full: Vec<String> = RED_ENTERS.lines().map(String::from).collect();
    assert_eq!(check(&full.join("\n")).missing, Vec::<String>::new());
    for (gone, missing) in [
        (
            "Blue rolls 1",
            "the blue player's roll for the first player",
        ),
        (
            "Red player has the highest roll and will begin the game.",
            "the first player (\"... has the highest roll\")",
        ),
        (
            "The order of a single round is Red, Green, Yellow, and Blue.",
            "the order of a round (\"The order of a single round is ...\")",
        ),
    ] {
        let lines: Vec<String> = full.iter().filter(|l| *l != gone).cloned().collect();
        assert_eq!(check(&lines.join("\n")).missing, vec![missing.to_string()]);
    }
}

#[test]
fn a_game_that_never_shows_a_count_line_lacks_the_status_message() {
    let full: Vec<String> = RED_ENTERS.lines().map(String::from).collect();
    let without: Vec<String> = full
        .iter()
        .filter(|l| !l.contains(" now has "))
        .cloned()
        .collect();
    assert_eq!(without.len() + 1, full.len());
    assert_eq!(
        check(&without.join("\n")).missing,
        vec![
            "the status after each round (\"... player now has a/4 on pieces on the board and b/4 pieces on the base.\"): no count line in the game"
                .to_string()
        ]
    );
}

/// Whether the last roll in `lines` is not a six and the first of its player's turn.
fn first_roll_of_turn_without_six(lines: &[String]) -> bool {
    let mut rolls = lines.iter().rev().filter_map(|l| match msg(l) {
        Some(Msg::Rolled(c, v)) => Some((c, v)),
        _ => None,
    });
    match (rolls.next(), rolls.next()) {
        (Some((c, v)), Some((before, _))) => v != 6 && before != c,
        _ => false,
    }
}

#[test]
fn a_capture_owes_its_bonus_roll_like_a_six() {
    // A capture roll (not a six) whose bonus roll did nothing: deleting that bonus roll line
    // leaves the next player rolling right after the capture.
    for seed in 0..300 {
        let lines = game(seed);
        let Some(i) = (1..lines.len() - 2).find(|&i| {
            matches!(msg(&lines[i]), Some(Msg::Capture { .. }))
                && matches!(msg(&lines[i + 1]), Some(Msg::Count(..)))
                && matches!(
                    (msg(&lines[i + 2]), msg(&lines[i + 3])),
                    (Some(Msg::Rolled(a, v)), Some(Msg::Rolled(b, _))) if a != b && v != 6
                )
                && first_roll_of_turn_without_six(&lines[..i])
        }) else {
            continue;
        };
        assert_eq!(check(&lines.join("\n")).missing_lines, Vec::<usize>::new());
        let mut edited = lines.clone();
        edited.remove(i + 2);
        let report = check(&edited.join("\n"));
        assert_eq!(report.violations, vec![]);
        assert_eq!(report.missing_lines, vec![i + 3]);
        return;
    }
    panic!("no reference game shows a capture whose bonus roll did nothing");
}

#[test]
fn a_winner_that_rolls_again_is_rule_11() {
    let mut lines = game(3);
    let Some(Msg::Wins(winner)) = lines.pop().and_then(|l| msg(&l)) else {
        panic!("the reference game ends with a winner");
    };
    let order = report_order(&lines);
    let at = order.iter().position(|&c| c == winner).unwrap_or(0);
    let control = lines.clone();
    for k in 1..=4 {
        lines.push(format!("{} player rolled 1.", order[(at + k) % 4].name()));
    }
    let v = only_violation(&lines);
    assert_eq!((v.line, v.rule), (lines.len(), "Rule 11"));
    assert_eq!(check(&control.join("\n")).violations, vec![]);
}

/// R1 and R2 each come out and walk to 28 (a clockwise block), R3 and R4 come out on two
/// sixes, and a third six follows, then `after`.
fn blockade_game(after: &[&str]) -> Vec<String> {
    let mut lines: Vec<String> = RED_ENTERS.lines().map(String::from).collect();
    for piece in ["R1", "R2"] {
        if piece == "R2" {
            lines.push("Red player rolled 6.".into());
            lines.push("Red player moves piece R2 to the starting point.".into());
            lines.push(
                "Red player now has 2/4 on pieces on the board and 2/4 pieces on the base.".into(),
            );
        }
        lines.push("Red player rolled 2.".into());
        lines.push(format!(
            "Red moves piece {piece} from location 26 to 28 by 2 units in clockwise direction."
        ));
        lines.extend(OTHERS_ROLL_ONE.map(String::from));
    }
    for (piece, out) in [("R3", 3), ("R4", 4)] {
        lines.push("Red player rolled 6.".into());
        lines.push(format!(
            "Red player moves piece {piece} to the starting point."
        ));
        lines.push(format!(
            "Red player now has {out}/4 on pieces on the board and {}/4 pieces on the base.",
            4 - out
        ));
    }
    lines.push("Red player rolled 6.".into());
    lines.extend(after.iter().map(|l| l.to_string()));
    lines.push("Green player rolled 1.".into());
    lines
}

#[test]
fn a_third_six_that_leaves_a_free_blockade_standing_is_cs6() {
    let control = blockade_game(&[
        "Red moves piece R2 from location 28 to 34 by 6 units in clockwise direction.",
    ]);
    assert_eq!(check(&control.join("\n")).violations, vec![]);
    let lines = blockade_game(&[]);
    let v = only_violation(&lines);
    assert_eq!((v.line, v.rule), (lines.len(), "CS-6"));
}

#[test]
fn a_blocked_message_names_where_the_roll_would_go() {
    for seed in 0..300 {
        let lines = game(seed);
        let Some((i, from)) = lines.iter().enumerate().find_map(|(i, l)| match msg(l) {
            Some(Msg::Blocked { from, to, .. }) if from != to => Some((i, from)),
            _ => None,
        }) else {
            continue;
        };
        let Some(colour) = (match msg(&lines[i]) {
            Some(Msg::Blocked { id, .. }) => Some(id.colour),
            _ => None,
        }) else {
            continue;
        };
        // L2 said to be where the piece already stands.
        let (head, tail) = lines[i].split_at(lines[i].find(" by ").unwrap_or(0));
        let start = head.rfind(" to ").unwrap_or(0);
        let mut edited = lines.clone();
        edited[i] = format!("{} to {}{tail}", &head[..start], from.render(colour));
        let v = only_violation(&edited);
        assert_eq!((v.line, v.rule), (i + 1, "CS-3"));
        return;
    }
    panic!("no reference game shows a blocked piece");
}

/// Red brings R1 out and moves it, then Green brings G1 and G2 out onto its X (a block of
/// two whose directions are not known yet) and rolls a 2: `green` is what it does.
fn green_block_game(green: &[&str]) -> (Vec<String>, usize) {
    let mut lines: Vec<String> = RED_ENTERS.lines().map(String::from).collect();
    lines.push("Red player rolled 2.".into());
    lines.push(
        "Red moves piece R1 from location 26 to 28 by 2 units in clockwise direction.".into(),
    );
    for (piece, out) in [("G1", 1), ("G2", 2)] {
        lines.push("Green player rolled 6.".into());
        lines.push(format!(
            "Green player moves piece {piece} to the starting point."
        ));
        lines.push(format!(
            "Green player now has {out}/4 on pieces on the board and {}/4 pieces on the base.",
            4 - out
        ));
    }
    lines.push("Green player rolled 2.".into());
    let roll_line = lines.len();
    lines.extend(green.iter().map(|l| l.to_string()));
    lines.push("Yellow player rolled 1.".into());
    (lines, roll_line)
}

#[test]
fn green_breaking_a_block_that_could_move_as_one_disagrees() {
    let green = Colour::Green.index();
    let (control, _) = green_block_game(&[
        "Green moves piece G1 from location 39 to 40 by 1 units in clockwise direction.",
        "Green moves piece G2 from location 39 to 40 by 1 units in clockwise direction.",
    ]);
    let report = check(&control.join("\n"));
    assert_eq!(report.violations, vec![]);
    assert_eq!(
        (
            report.behaviour[green].agreed,
            report.behaviour[green].decisions
        ),
        (3, 3)
    );
    let (lines, roll_line) = green_block_game(&[
        "Green moves piece G1 from location 39 to 41 by 2 units in clockwise direction.",
    ]);
    let report = check(&lines.join("\n"));
    assert_eq!(report.violations, vec![]);
    assert_eq!(
        (
            report.behaviour[green].agreed,
            report.behaviour[green].decisions
        ),
        (2, 3)
    );
    assert_eq!(report.behaviour[green].first_disagreement, Some(roll_line));
}

/// Red's R1 (clockwise) on 28 and R2 (clockwise) on 27 roll 1, and the program says `last`;
/// with the roll line's number.
fn red_pair_game(last: &str) -> (Vec<String>, usize) {
    let mut lines: Vec<String> = RED_ENTERS.lines().map(String::from).collect();
    lines.push("Red player rolled 2.".into());
    lines.push(
        "Red moves piece R1 from location 26 to 28 by 2 units in clockwise direction.".into(),
    );
    lines.extend(OTHERS_ROLL_ONE.map(String::from));
    lines.push("Red player rolled 6.".into());
    lines.push("Red player moves piece R2 to the starting point.".into());
    lines.push("Red player now has 2/4 on pieces on the board and 2/4 pieces on the base.".into());
    lines.push("Red player rolled 1.".into());
    lines.push(
        "Red moves piece R2 from location 26 to 27 by 1 units in clockwise direction.".into(),
    );
    lines.extend(OTHERS_ROLL_ONE.map(String::from));
    lines.push("Red player rolled 1.".into());
    let roll_line = lines.len();
    lines.push(last.into());
    lines.push("Green player rolled 1.".into());
    (lines, roll_line)
}

#[test]
fn red_making_a_block_it_could_avoid_disagrees() {
    let red = Colour::Red.index();
    let game = red_pair_game;
    let (control, _) =
        game("Red moves piece R1 from location 28 to 29 by 1 units in clockwise direction.");
    let report = check(&control.join("\n"));
    assert_eq!(report.violations, vec![]);
    assert_eq!(
        report.behaviour[red].agreed,
        report.behaviour[red].decisions
    );
    let (lines, roll_line) =
        game("Red moves piece R2 from location 27 to 28 by 1 units in clockwise direction.");
    let report = check(&lines.join("\n"));
    assert_eq!(report.violations, vec![]);
    assert_eq!(report.behaviour[red].first_disagreement, Some(roll_line));
    assert_eq!(
        report.behaviour[red].decisions,
        report.behaviour[red].agreed + 1
    );
}

/// Red rolls 1 with two captures open: R1 (clockwise, on 40) onto Yellow's Y2 on 41, or R4
/// (counter-clockwise, on 38) onto Blue's B3 on 37; `yellow_dir` is Y2's direction.
fn red_two_captures(yellow_dir: Dir, taken: PieceId) -> state::Roll {
    let mut board = Board::new();
    let place = |board: &mut Board, id: PieceId, square: u8, dir: Dir, passes: u32| {
        let piece = board.piece_mut(id);
        piece.loc = Loc::Square(square);
        piece.dir = Some(dir);
        piece.passes = passes;
    };
    let [r1, _, _, r4] = PieceId::all(Colour::Red);
    place(&mut board, r1, 40, Dir::Clockwise, 0);
    place(&mut board, r4, 38, Dir::CounterClockwise, 0);
    // Y2 left Yellow's X (0); counter-clockwise it has passed its Approach (50) once.
    let y2 = PieceId::all(Colour::Yellow)[1];
    let y2_passes = u32::from(yellow_dir == Dir::CounterClockwise);
    place(&mut board, y2, 41, yellow_dir, y2_passes);
    place(
        &mut board,
        PieceId::all(Colour::Blue)[2],
        37,
        Dir::Clockwise,
        0,
    );
    let mut roll = one_move_roll(Colour::Red, 1, 9, board, taken);
    roll.captured = true;
    roll.judgeable = true;
    roll
}

/// A roll of `value` in `round` on `board` in which `mover` alone moved, from where it stands.
fn one_move_roll(
    colour: Colour,
    value: u32,
    round: u32,
    board: Board,
    mover: PieceId,
) -> state::Roll {
    let from = board.piece(mover).loc;
    let mut roll = state::Roll::start(colour, value, 0, round, board, 1, 1);
    roll.moved = vec![(mover, from)];
    roll
}

/// Red's victim: a capture whose victim every reading of "closest to its home" finds farther
/// than another open capture disagrees; where the readings differ either capture agrees.
#[test]
fn red_capturing_a_victim_every_reading_finds_farther_disagrees() {
    let [r1, _, _, r4] = PieceId::all(Colour::Red);
    // Y2 counter-clockwise on 41: 43 squares from its Approach, B3 26 from Blue's; to Red's
    // Approach (24) B3 is nearer too.
    assert_eq!(
        judge::judge_red(
            &red_two_captures(Dir::CounterClockwise, r1),
            &Readings::MODEL
        ),
        Some(false)
    );
    assert_eq!(
        judge::judge_red(
            &red_two_captures(Dir::CounterClockwise, r4),
            &Readings::MODEL
        ),
        Some(true)
    );
    // Y2 clockwise on 41 is 9 squares from its own home, B3 nearer Red's: either is a reading.
    assert_eq!(
        judge::judge_red(&red_two_captures(Dir::Clockwise, r1), &Readings::MODEL),
        Some(true)
    );
    assert_eq!(
        judge::judge_red(&red_two_captures(Dir::Clockwise, r4), &Readings::MODEL),
        Some(true)
    );
}

/// Yellow rolls 5 in round 20 with Y3 on yellowhomepath0 (5 from Home) and Y4 clockwise on
/// its Approach (50), having captured, and moves `mover`.
fn yellow_near_home(mover: PieceId) -> state::Roll {
    let mut board = Board::new();
    let [_, _, y3, y4] = PieceId::all(Colour::Yellow);
    board.piece_mut(y3).loc = Loc::HomePath(0);
    board.piece_mut(y3).dir = Some(Dir::Clockwise);
    let piece = board.piece_mut(y4);
    piece.loc = Loc::Square(50);
    piece.dir = Some(Dir::Clockwise);
    piece.passes = 1;
    piece.captures = 1;
    let mut roll = one_move_roll(Colour::Yellow, 5, 20, board, mover);
    roll.known = true;
    roll
}

/// Yellow moving another piece while one in its home straight could go Home on the roll is
/// wrong under every reading (mutants #127 and #130 of distance_home); where the replay is
/// unsure of that piece, or the roll would not take it exactly Home, it is not.
#[test]
fn yellow_passing_over_a_piece_that_could_go_home_is_wrong_under_every_reading() {
    let [_, _, y3, y4] = PieceId::all(Colour::Yellow);
    let none = BTreeSet::new();
    assert!(judge::against_every_reading(&yellow_near_home(y4), &none));
    assert!(!judge::against_every_reading(&yellow_near_home(y3), &none));
    assert!(!judge::against_every_reading(
        &yellow_near_home(y4),
        &BTreeSet::from([y3])
    ));
    let mut unknown = yellow_near_home(y4);
    unknown.known = false;
    assert!(!judge::against_every_reading(&unknown, &none));
    // On yellowhomepath1 a 5 overshoots Home: some readings of Rule 10 move no piece there.
    let mut overshoot = yellow_near_home(y4);
    overshoot.before.piece_mut(y3).loc = Loc::HomePath(1);
    assert!(!judge::against_every_reading(&overshoot, &none));
    // Bhawana's aura from round 15 may still double Y3's move in round 20; from round 14 not.
    for (since, wrong) in [(15, false), (14, true)] {
        let mut aura = yellow_near_home(y4);
        aura.before.piece_mut(y3).aura = Some((Aura::Energised, since));
        assert_eq!(
            judge::against_every_reading(&aura, &none),
            wrong,
            "aura since {since}"
        );
    }
    let mut captured = yellow_near_home(y4);
    captured.captured = true;
    assert!(!judge::against_every_reading(&captured, &none));
}

/// A colour at 95% agreement gets full marks unless a choice was wrong under every reading.
#[test]
fn the_agreement_margin_does_not_cover_a_choice_wrong_under_every_reading() {
    let slip = Agreement {
        decisions: 100,
        agreed: 99,
        first_disagreement: Some(7),
        ..Agreement::default()
    };
    assert_eq!(judge::colour_share(&slip), 1.0);
    let wrong = Agreement {
        against_every_reading: 1,
        first_against_every_reading: Some(7),
        ..slip
    };
    assert_eq!(judge::colour_share(&wrong), 0.99);
}

/// A reference game edited where Yellow takes a piece Home on the exact roll: moving a piece
/// on the squares instead is reported in the behaviour notes and costs `behaviour`.
#[test]
fn a_yellow_move_past_a_piece_that_could_go_home_costs_behaviour_in_a_whole_game() {
    let (lines, i, edited) = find(|lines, i| {
        let Some(Msg::Move {
            colour: Colour::Yellow,
            from: Loc::HomePath(_),
            to: Loc::Home,
            units,
            ..
        }) = msg(&lines[i])
        else {
            return None;
        };
        let replayed = replay::replay(&lines[..i].join("\n"));
        let (board, round) = (&replayed.board, replayed.round);
        PieceId::all(Colour::Yellow).into_iter().find_map(|id| {
            let piece = board.piece(id);
            let Loc::Square(from) = piece.loc else {
                return None;
            };
            let to = single_move(board, id, units, round)?.ok()?.dest.square()?;
            let empty = Colour::SEATING.iter().all(|&c| board.count_at(c, to) == 0);
            (empty && replayed.mystery != Some(to) && piece.aura.is_none()).then(|| {
                format!(
                    "Yellow moves piece {id} from location {from} to {to} by {units} units in {} direction.",
                    piece.dir.map_or("clockwise", |d| d.word())
                )
            })
        })
    });
    let yellow = Colour::Yellow.index();
    let prefix = &lines[..i];
    let control = check(&[prefix, &lines[i..=i]].concat().join("\n"));
    assert_eq!(control.behaviour[yellow].against_every_reading, 0);
    let report = check(&[prefix, &[edited]].concat().join("\n"));
    assert_eq!(report.behaviour[yellow].against_every_reading, 1);
    // Line numbers count from 1: the roll line is the line before the edited move.
    assert_eq!(
        report.behaviour[yellow].first_against_every_reading,
        Some(i)
    );
}

/// A roll whose move broke a rule is charged under that rule only: R1 turning back onto R2
/// (CS-1) makes a block Red could avoid, but that choice is not judged again as behaviour.
#[test]
fn a_move_that_broke_a_rule_is_not_judged_again_as_behaviour() {
    let red = Colour::Red.index();
    let (lines, roll_line) = red_pair_game(
        "Red moves piece R1 from location 28 to 27 by 1 units in counter-clockwise direction.",
    );
    let v = only_violation(&lines);
    assert_eq!((v.line, v.rule), (roll_line + 1, "CS-1"));
    let report = check(&lines.join("\n"));
    let (control, _) = red_pair_game(
        "Red moves piece R1 from location 28 to 29 by 1 units in clockwise direction.",
    );
    let judged = check(&control.join("\n")).behaviour[red].decisions;
    assert_eq!(report.behaviour[red].decisions, judged - 1);
    assert_eq!(report.behaviour[red].first_disagreement, None);
}
