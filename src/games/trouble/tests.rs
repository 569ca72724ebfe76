use super::*;
use crate::games::{CaseKind, Expectation};

fn case(kind: CaseKind, fields: &str) -> CaseSpec {
    CaseSpec {
        name: "t".into(),
        kind,
        description: None,
        file: "test.toml".into(),
        fields: toml::from_str(fields).expect("test fields are TOML"),
    }
}

fn prepare(kind: CaseKind, fields: &str) -> (Prepared, Transcript) {
    let prepared = Trouble.prepare(&case(kind, fields)).expect("a valid case");
    let transcript = match &prepared.expect {
        Expectation::Transcript(t) => t.clone(),
        Expectation::Trace { .. } => unreachable!("trouble has no trace cases"),
    };
    (prepared, transcript)
}

/// What a terminal shows: the program's output with each answer echoed after its prompt.
fn echoed(output: &str, stdin: &str) -> String {
    let prompts = [play::SEED_PROMPT, play::PLAYERS_PROMPT, play::MOVE_PROMPT];
    let mut answers = stdin.lines();
    let mut screen = String::new();
    for ch in output.chars() {
        screen.push(ch);
        if prompts.iter().any(|p| screen.ends_with(p)) {
            if let Some(answer) = answers.next() {
                screen.push_str(answer);
                screen.push('\n');
            }
        }
    }
    screen
}

fn status(red: &str, yellow: &str) -> String {
    format!("   Red: {red}\n Green: H,H,H,H\nYellow: {yellow}\n  Blue: H,H,H,H\n")
}

/// One roll inside a turn: status, roll, the listed moves, and the answer (if any).
fn roll(red: &str, yellow: &str, rolled: u8, moves: &[&str], answer: Option<&str>) -> String {
    let mut s = status(red, yellow);
    s.push_str(&format!("You rolled {rolled}.\n"));
    if moves.is_empty() {
        s.push_str("You have no legal moves.\n");
    }
    for m in moves {
        s.push_str(m);
        s.push('\n');
    }
    if let Some(a) = answer {
        s.push_str(&format!("Enter position of piece to move: {a}\n"));
    }
    if rolled == 6 {
        s.push_str("You rolled 6, so you get to roll again.\n");
    }
    s
}

const HHHH: &str = "H,H,H,H";

/// The handout's appendix, as a terminal shows it, up to where the handout stops.
fn handout_sample_run() -> String {
    let red = "---- Red's turn\n";
    let yellow = "---- Yellow's turn\n";
    let mut s =
        String::from("Enter a random seed: 1234\nEnter the number of players (2, 3, 4): 2\n");
    s += red;
    s += &roll(HHHH, HHHH, 5, &[], None);
    s += yellow;
    s += &roll(HHHH, HHHH, 2, &[], None);
    s += red;
    s += &roll(HHHH, HHHH, 6, &["H to R5"], Some("H"));
    s += &roll("R5,H,H,H", HHHH, 5, &["R5 to G3"], Some("R5"));
    s += yellow;
    s += &roll("G3,H,H,H", HHHH, 3, &[], None);
    s += red;
    s += &roll("G3,H,H,H", HHHH, 1, &["G3 to G4"], Some("G3"));
    s += yellow;
    s += &roll("G4,H,H,H", HHHH, 4, &[], None);
    s += red;
    s += &roll("G4,H,H,H", HHHH, 4, &["G4 to Y1"], Some("G4"));
    s += yellow;
    s += &roll("Y1,H,H,H", HHHH, 5, &[], None);
    s += red;
    s += &roll("Y1,H,H,H", HHHH, 6, &["H to R5", "Y1 to Y7"], Some("H"));
    s += &roll("Y1,R5,H,H", HHHH, 1, &["Y1 to Y2", "R5 to R6"], Some("R5"));
    s += yellow;
    s += &roll("Y1,R6,H,H", HHHH, 2, &[], None);
    s += red;
    s += &roll("Y1,R6,H,H", HHHH, 3, &["Y1 to Y4", "R6 to G2"], Some("R6"));
    s += yellow;
    s += &roll("Y1,G2,H,H", HHHH, 6, &["H to Y5"], Some("H"));
    s += &roll("Y1,G2,H,H", "Y5,H,H,H", 1, &["Y5 to Y6"], Some("Y5"));
    s += red;
    s += &roll(
        "Y1,G2,H,H",
        "Y6,H,H,H",
        5,
        &["Y1 to Y6", "G2 to G7"],
        Some("Y1"),
    );
    s += yellow;
    s += &roll("Y6,G2,H,H", HHHH, 4, &[], None);
    s += red;
    s += &roll("Y6,G2,H,H", HHHH, 2, &["Y6 to B1", "G2 to G4"], Some("Y6"));
    s += yellow;
    s += &roll("B1,G2,H,H", HHHH, 1, &[], None);
    s += red;
    s += &roll("B1,G2,H,H", HHHH, 3, &["B1 to B4", "G2 to G5"], Some("B1"));
    s += yellow;
    s += &roll("B4,G2,H,H", HHHH, 3, &[], None);
    s += red;
    s += &roll("B4,G2,H,H", HHHH, 3, &["B4 to B7", "G2 to G5"], Some("B4"));
    s += yellow;
    s += &roll("B7,G2,H,H", HHHH, 5, &[], None);
    s += red;
    s += &roll("B7,G2,H,H", HHHH, 1, &["B7 to R1", "G2 to G3"], Some("B7"));
    s += yellow;
    s += &roll("R1,G2,H,H", HHHH, 3, &[], None);
    s += red;
    s += &roll("R1,G2,H,H", HHHH, 4, &["R1 to RF1", "G2 to G6"], Some("R1"));
    s += yellow;
    s += &roll("RF1,G2,H,H", HHHH, 2, &[], None);
    s += red;
    s += &roll("RF1,G2,H,H", HHHH, 5, &["G2 to G7"], Some("G2"));
    s += yellow;
    s += &roll("RF1,G7,H,H", HHHH, 6, &["H to Y5"], Some("H"));
    s += &roll("RF1,G7,H,H", "Y5,H,H,H", 4, &["Y5 to B2"], Some("Y5"));
    s += red;
    s += &roll(
        "RF1,G7,H,H",
        "B2,H,H,H",
        6,
        &["H to R5", "G7 to Y6"],
        Some("H"),
    );
    s += &status("RF1,G7,R5,H", "B2,H,H,H");
    s += "You rolled 1.\nRF1 to RF2\nG7 to Y1\nR5 to R6\nEnter position of piece to move: ";
    s
}

#[test]
fn golden_handout_sample_run() {
    let (prepared, t) = prepare(
        CaseKind::Program,
        r#"seed = 1234
players = 2
inputs = ["H", "R5", "G3", "G4", "H", "R5", "R6", "H", "Y5", "Y1", "Y6", "B1", "B4", "B7", "R1", "G2", "H", "Y5", "H", "Q"]"#,
    );
    // The handout stops at a prompt; the case answers it with Q, the handout's way to stop.
    assert_eq!(
        echoed(&t.text(), &prepared.stdin),
        format!("{}Q\n", handout_sample_run())
    );
    assert!(t.text().ends_with("Enter position of piece to move: "));
    assert_eq!(t.items(), vec![PLAYER_TURN]);
    assert_eq!(prepared.target, crate::games::Target::Program);
    assert_eq!(prepared.exit_code, Some(0));
}

#[test]
fn seed_minus_one_is_the_compiles_case() {
    let (prepared, t) = prepare(CaseKind::Program, "seed = -1");
    assert_eq!(prepared.stdin, "-1\n");
    assert_eq!(t.text(), "Enter a random seed: ");
    assert_eq!(t.items(), vec![COMPILES]);
    assert_eq!(prepared.extra_flags, vec!["-DNDEBUG".to_string()]);
    assert_eq!(prepared.exit_code, Some(0));
}

#[test]
fn the_player_prompt_is_asked_again_until_two_to_four() {
    let (prepared, t) = prepare(
        CaseKind::Program,
        "seed = 42\nplayers = 3\nrejected_players = [5, 1]\npolicy = \"first\"\nend = \"quit\"\nmoves = 0",
    );
    assert!(prepared.stdin.starts_with("42\n5\n1\n3\n"));
    assert!(t.text().starts_with(
        "Enter a random seed: Enter the number of players (2, 3, 4): \
Enter the number of players (2, 3, 4): Enter the number of players (2, 3, 4): ---- Red's turn\n"
    ));
    assert!(prepared.stdin.ends_with("Q\n"));
}

#[test]
fn three_and_four_players_take_turns_clockwise() {
    for (players, order) in [
        (3, ["Red", "Green", "Yellow", "Red"]),
        (4, ["Red", "Green", "Yellow", "Blue"]),
    ] {
        let (_, t) = prepare(
            CaseKind::Program,
            &format!(
                "seed = 7\nplayers = {players}\npolicy = \"first\"\nend = \"quit\"\nmoves = 5"
            ),
        );
        let text = t.text();
        let turns: Vec<&str> = text
            .lines()
            .filter_map(|l| l.split("---- ").nth(1))
            .filter_map(|l| l.strip_suffix("'s turn"))
            .take(4)
            .collect();
        assert_eq!(turns, order);
    }
}

#[test]
fn policy_games_to_a_win_end_with_a_finished_colour() {
    let (prepared, t) = prepare(
        CaseKind::Program,
        "seed = 99\nplayers = 2\npolicy = \"random\"\npolicy_seed = 3\ninvalid_every = 4\nbad_tokens = true",
    );
    let text = t.text();
    assert!(text.contains("Illegal move, try again.\n"));
    assert!(!prepared.stdin.contains('Q'));
    // The last move was accepted and won: the transcript ends after an answered prompt.
    assert!(text.ends_with(play::MOVE_PROMPT));
    let illegal = text.matches("Illegal move").count();
    let prompts = text.matches(play::MOVE_PROMPT).count();
    assert_eq!(prompts, prepared.stdin.lines().count() - 2);
    assert!(illegal > 0 && illegal < prompts);
}

#[test]
fn quit_ends_the_game_at_the_next_prompt() {
    let (quit, t) = prepare(
        CaseKind::Program,
        "seed = 5\nplayers = 4\npolicy = \"last\"\nend = \"quit\"\nmoves = 12",
    );
    assert_eq!(quit.stdin.lines().count(), 2 + 12 + 1);
    assert!(quit.stdin.ends_with("Q\n"));
    assert!(t.text().ends_with(play::MOVE_PROMPT));
}

#[test]
fn no_game_may_end_by_running_out_of_input() {
    for fields in [
        "seed = 1234\nplayers = 2\ninputs = [\"H\", \"R5\"]",
        "seed = 5\nplayers = 4\npolicy = \"last\"\nend = \"eof\"\nmoves = 12",
    ] {
        assert!(
            Trouble.prepare(&case(CaseKind::Program, fields)).is_err(),
            "{fields}"
        );
    }
    // The reference refuses such a game and `every_case_file_prepares_and_the_suite_has_its_size`
    // prepares every case: so every game of the suite ends with Q or a win.
}

#[test]
fn bad_program_cases_are_errors() {
    for fields in [
        "seed = 3\nplayers = 5\npolicy = \"first\"",
        "seed = 3\nplayers = 2",
        "seed = 0\nplayers = 2\npolicy = \"first\"",
        "seed = 3\nplayers = 2\npolicy = \"first\"\nend = \"quit\"",
        "seed = 3\nplayers = 2\npolicy = \"first\"\nrejected_players = [3]",
        "seed = 3\nplayers = 2\ninputs = []\npolicy = \"first\"",
        "seed = 3\nplayers = 2\npolicy = \"sideways\"",
        "seed = -1\nplayers = 2",
        "seed = 3\nplayers = 2\ninputs = [\"H\"]\nbad_tokens = true",
    ] {
        assert!(
            Trouble.prepare(&case(CaseKind::Program, fields)).is_err(),
            "{fields}"
        );
    }
}

fn unit(fields: &str) -> (String, String) {
    let (prepared, t) = prepare(CaseKind::Unit, fields);
    (prepared.stdin, t.text())
}

#[test]
fn unit_move_piece_captures_and_reports_the_arrays() {
    let (script, text) = unit(
        "function = \"movePiece\"\npieces = { 0 = \"R1\", 9 = \"R3\" }\nplayer = 0\nfrom = \"R1\"\nspaces = 2",
    );
    assert!(script.starts_with("movePiece 0 0 2\ngPieces: 0 -1 -1 -1 -1 -1 -1 -1 -1 2 "));
    assert!(text.starts_with(
        "call movePiece 0 0 2\nreturn 1\ngPieces: 2 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n\
gHome: 3 4 4 4\ngRing: -1 -1 0 -1 "
    ));
    let (_, text) = unit(
        "function = \"movePiece\"\npieces = { 0 = \"R1\" }\nplayer = 0\nfrom = \"R1\"\nspaces = 4",
    );
    assert!(text.contains("return 1\ngPieces: 100 "));
    assert!(text.ends_with("gFinish: 0 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"));
    let (_, text) = unit(
        "function = \"movePiece\"\npieces = { 0 = \"R4\" }\nplayer = 0\nfrom = \"R4\"\nspaces = 5",
    );
    assert!(
        text.contains("return 0\ngPieces: 3 "),
        "overshoot is refused"
    );
}

#[test]
fn unit_cases_check_their_positions() {
    for fields in [
        "function = \"movePiece\"\npieces = { 9 = \"RF1\" }\nplayer = 0\nfrom = \"R1\"\nspaces = 4",
        "function = \"checkWin\"\npieces = { 0 = \"R1\", 1 = \"R1\" }\nplayer = 0",
        "function = \"checkWin\"\npieces = { 16 = \"R1\" }\nplayer = 0",
        "function = \"printMoves\"\nplayer = 0\nroll = 7",
        "function = \"printMoves\"\nplayer = 4\nroll = 6",
        "function = \"printStatus\"\npieces = { 0 = \"R9\" }",
        "function = \"printStatus\"\nplayer = 1",
        "function = \"initializeBoard\"\njunk = 3\npieces = { 0 = \"R1\" }",
    ] {
        assert!(
            Trouble.prepare(&case(CaseKind::Unit, fields)).is_err(),
            "{fields}"
        );
    }
}

#[test]
fn unit_initialize_board_from_junk() {
    let (script, text) = unit("function = \"initializeBoard\"\njunk = 7");
    assert!(script.starts_with("initializeBoard\ngPieces: 7 7 "));
    assert!(text.starts_with("call initializeBoard\nreturn\ngPieces: -1 "));
    assert!(text.contains("gHome: 4 4 4 4\n"));
}

#[test]
fn unit_print_moves_lists_and_counts() {
    let (prepared, t) = prepare(
        CaseKind::Unit,
        "function = \"printMoves\"\npieces = { 0 = \"Y1\", 8 = \"R5\" }\nplayer = 0\nroll = 6",
    );
    let ring = {
        let mut r = vec!["-1"; 28];
        r[4] = "8";
        r[14] = "0";
        r.join(" ")
    };
    let before = format!(
        "gPieces: 14 -1 -1 -1 -1 -1 -1 -1 4 -1 -1 -1 -1 -1 -1 -1\ngHome: 3 4 3 4\ngRing: {ring}\n\
gFinish: -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1\n"
    );
    assert_eq!(prepared.stdin, format!("printMoves 0 6\n{before}"));
    assert_eq!(
        t.text(),
        "call printMoves 0 6\nH to R5\nY1 to Y7\nreturn 2\n",
        "the arrays are graded only for initializeBoard and movePiece"
    );
    assert_eq!(t.items(), vec![PRINT_MOVES]);
    assert_eq!(prepared.target, crate::games::Target::Harness);
}

#[test]
fn every_case_file_prepares_and_the_suite_has_its_size() {
    let cases = crate::assignment::cases::load_dir(std::path::Path::new("cases/trouble"))
        .expect("cases load");
    let (mut units, mut games) = (0, 0);
    for case in &cases {
        let prepared = Trouble.prepare(case).unwrap_or_else(|e| panic!("{e}"));
        match case.kind {
            CaseKind::Unit => units += 1,
            CaseKind::Program
                if case.fields.get("seed").and_then(toml::Value::as_integer) != Some(-1) =>
            {
                games += 1;
                // Keep each game small enough that the suite grades in seconds.
                assert!(prepared.stdin.len() < 4000, "{}: stdin too long", case.name);
                let Expectation::Transcript(expected) = &prepared.expect else {
                    panic!("{}: a program case compares a transcript", case.name);
                };
                assert!(
                    expected.text().len() < 64_000,
                    "{}: transcript too long",
                    case.name
                );
            }
            _ => {}
        }
    }
    assert!(units >= 150, "{units} unit cases");
    assert!(games >= 20, "{games} games");
}

#[test]
fn the_rubric_has_the_handout_points() {
    let spec = crate::assignment::spec::Spec::load(std::path::Path::new("specs/trouble"))
        .expect("spec loads");
    let auto: Vec<(&str, f64)> = spec
        .items
        .iter()
        .filter(|i| !i.manual)
        .map(|i| (i.id.as_str(), i.points))
        .collect();
    assert_eq!(
        auto,
        vec![
            (COMPILES, 15.0),
            (INITIALIZE_BOARD, 8.0),
            (PRINT_STATUS, 10.0),
            (PRINT_MOVES, 8.0),
            (CHECK_WIN, 10.0),
            (MOVE_PIECE, 14.0),
            (PLAYER_TURN, 15.0)
        ]
    );
    assert_eq!(spec.auto_points(), 80.0);
    assert_eq!(spec.items.len(), 9);
}
