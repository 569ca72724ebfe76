//! LUDO-CS end to end: the model C solution and the buggy submissions, checked by the trace
//! checker directly on seeded runs and graded by `referee grade`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::Command as BinCommand;
use referee::games::ludo::check::{check, verdicts, Report};
use referee::games::TraceRun;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles the C files of `dir` with the course flags into a fresh binary.
fn compile(dir: &Path, out: &Path) {
    let mut sources: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("submission folder exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c"))
        .collect();
    sources.sort();
    let status = Command::new("gcc")
        .args(["-std=gnu17", "-Wall", "-Wextra", "-O2", "-o"])
        .arg(out)
        .args(&sources)
        .status()
        .expect("gcc runs");
    assert!(status.success(), "{} compiles", dir.display());
}

/// The checker's reports of `runs` games of the program in `dir`, seeded 1..=runs.
fn reports(dir: &Path, runs: u32) -> Vec<Report> {
    let build = tempfile::tempdir().expect("temporary folder");
    let binary = build.path().join("ludo");
    compile(dir, &binary);
    (1..=runs)
        .map(|seed| {
            let out = Command::new(&binary)
                .arg(seed.to_string())
                .output()
                .expect("the program runs");
            check(&String::from_utf8_lossy(&out.stdout))
        })
        .collect()
}

#[test]
fn the_model_solution_passes_the_checker_in_20_runs() {
    for (run, report) in reports(&root().join("reference/ludo"), 20)
        .iter()
        .enumerate()
    {
        let violations: Vec<String> = report.violations.iter().map(|v| v.to_string()).collect();
        assert!(
            violations.is_empty(),
            "run {}: {}",
            run + 1,
            violations.join("\n")
        );
        assert!(
            report.unreadable.is_empty(),
            "run {}: {:?}",
            run + 1,
            report.unreadable
        );
        assert!(
            report.missing.is_empty(),
            "run {}: {:?}",
            run + 1,
            report.missing
        );
        assert!(report.winner.is_some(), "run {}: no winner", run + 1);
        for agreement in report.behaviour {
            assert!(agreement.decisions > 0);
            assert_eq!(agreement.agreed, agreement.decisions, "run {}", run + 1);
        }
    }
}

/// The items each submission in `tests/submissions/ludo` must lose (the others must keep full
/// marks; the third list is free where the bug changes which decisions arise).
/// `other-readings` is not buggy: it uses readings the ruling accepts and keeps everything.
/// The `style-*` programs are the model printing games in the wordings real programs use:
/// the checker reads them all, so only `messages` (the handout's wording) is lost.
const BUGGY: [(&str, &[&str], &[&str]); 22] = [
    ("style-l-squares", &["messages"], &[]),
    ("style-has-rolled", &["messages"], &[]),
    ("style-ansi-colours", &["messages"], &[]),
    ("style-possessive-moves", &["messages"], &[]),
    ("style-clock-wise", &["messages"], &[]),
    ("style-captured-wording", &["messages"], &[]),
    ("style-numbered-summary", &["messages"], &[]),
    ("style-first-round", &["messages"], &[]),
    ("style-entry-square", &["messages"], &[]),
    ("style-round-banners", &["messages"], &[]),
    ("style-count-of-pieces", &["messages"], &[]),
    ("style-home-straight-cells", &["messages"], &[]),
    ("style-home-from-one", &["messages"], &[]),
    ("style-places-table", &["messages"], &[]),
    ("style-player-letters", &["messages"], &[]),
    ("other-readings", &[], &[]),
    ("leaves-base-on-five", &["rules"], &["behaviour"]),
    ("count-includes-home", &["rules"], &[]),
    ("ignores-cs7", &["rules"], &["behaviour"]),
    ("misspelled-summary", &["messages"], &[]),
    ("red-ignores-captures", &["behaviour"], &[]),
    ("one-file", &["structure"], &[]),
];

fn sources(dir: &Path) -> Vec<(String, String)> {
    let mut files: Vec<(String, String)> = std::fs::read_dir(dir)
        .expect("submission folder exists")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "c" || x == "h"))
        .map(|p| {
            let name = p
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default();
            (name, std::fs::read_to_string(&p).expect("source is text"))
        })
        .collect();
    files.sort();
    files
}

/// Games on which the checker once reported a false violation or disagreement (the program folder, the seed
/// and what went wrong). glibc's `rand()` makes each seed print the same game every time.
const ONCE_MISJUDGED: &[(&str, u32, &str)] = &[
    (
        "tests/submissions/ludo/other-readings",
        1_795_404_397,
        "a block of two pieces teleported to Bhawana before the layout was known, guessed on \
         the other layout's square, called a false CS-3 block",
    ),
    (
        "reference/ludo",
        640,
        "a clockwise piece that has captured, moving counter-clockwise with its block, made to \
         turn into its home straight at its Approach",
    ),
    (
        "tests/submissions/ludo/other-readings",
        241,
        "a capture with no move line by a piece teleported before the layout was known, read \
         under the guessed layout",
    ),
    (
        "tests/submissions/ludo/other-readings",
        2920,
        "two pieces teleported before the layout was known moving on as a block, called two \
         actions in one roll",
    ),
    (
        "tests/submissions/ludo/other-readings",
        3324,
        "a block completed by a piece teleported to Pita-Kotuwa before the layout was known, \
         called a false CS-3 block",
    ),
    (
        "tests/submissions/ludo/other-readings",
        9178,
        "a block made by a capture line standing for the move, not counted as Green making \
         a block, so Green's choice looked wrong",
    ),
];

#[test]
fn games_the_checker_once_misjudged_have_no_violation() {
    let mut binaries: BTreeMap<&str, (tempfile::TempDir, PathBuf)> = BTreeMap::new();
    for &(dir, seed, what) in ONCE_MISJUDGED {
        let (_, binary) = binaries.entry(dir).or_insert_with(|| {
            let build = tempfile::tempdir().expect("temporary folder");
            let binary = build.path().join("ludo");
            compile(&root().join(dir), &binary);
            (build, binary)
        });
        let out = Command::new(&*binary)
            .arg(seed.to_string())
            .output()
            .expect("the program runs");
        let report = check(&String::from_utf8_lossy(&out.stdout));
        let violations: Vec<String> = report.violations.iter().map(|v| v.to_string()).collect();
        assert!(
            violations.is_empty(),
            "{dir} seed {seed} ({what}):\n{}",
            violations.join("\n")
        );
        assert!(report.winner.is_some(), "{dir} seed {seed}: no winner");
        for agreement in report.behaviour {
            assert_eq!(
                agreement.agreed, agreement.decisions,
                "{dir} seed {seed} ({what}): behaviour"
            );
        }
    }
}

/// Each submission, over ten seeded runs judged by the checker itself, loses in its
/// items and keeps the others.
#[test]
fn buggy_submissions_lose_in_their_items_on_seeded_runs() {
    for (name, broken, free) in BUGGY {
        let dir = root().join("tests/submissions/ludo").join(name);
        let build = tempfile::tempdir().expect("temporary folder");
        let binary = build.path().join("ludo");
        compile(&dir, &binary);
        let files = sources(&dir);
        let mut totals: BTreeMap<&str, f64> = BTreeMap::new();
        let runs = 10;
        for seed in 1..=runs {
            let out = Command::new(&binary)
                .arg(seed.to_string())
                .output()
                .expect("the program runs");
            let output = String::from_utf8_lossy(&out.stdout);
            let run = TraceRun {
                output: &output,
                timed_out: false,
                sources: Some(&files),
            };
            for verdict in verdicts(&run) {
                *totals.entry(verdict.item).or_default() += verdict.fraction / f64::from(runs);
            }
        }
        for (item, share) in totals {
            if broken.contains(&item) {
                assert!(share < 1.0, "{name} must lose points in {item}");
            } else if !free.contains(&item) {
                assert!(share >= 1.0 - 1e-9, "{name} must keep {item}, got {share}");
            }
        }
    }
}

fn grade_json(path: &str) -> serde_json::Value {
    let output = BinCommand::cargo_bin("referee")
        .expect("the referee binary")
        .current_dir(root())
        // --no-cache: every batch plays new games (kept runs would replay old ones).
        .args(["grade", "ludo", path, "--format", "json", "--no-cache"])
        .output()
        .expect("referee runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).expect("JSON report")
}

/// Clock-seeded: every run plays a new game.
#[test]
fn check_reference_gives_the_model_solution_full_marks() {
    BinCommand::cargo_bin("referee")
        .expect("the referee binary")
        .current_dir(root())
        .args(["check-reference", "ludo"])
        .assert()
        .success();
    let report = grade_json("reference/ludo");
    let submission = &report["submissions"][0];
    assert_eq!(submission["score"], submission["max_score"]);
    assert_eq!(submission["max_score"].as_f64(), Some(100.0));
}

/// `referee check-trace` judges saved games: the reference's own game passes, an edited move
/// is reported with its line number and rule, and bad files are one-line errors.
#[test]
fn check_trace_judges_saved_games_and_names_the_line() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let expected = BinCommand::cargo_bin("referee")
        .expect("the referee binary")
        .current_dir(root())
        .args(["expect", "ludo", "whole-games"])
        .output()
        .expect("referee runs");
    assert!(expected.status.success());
    let game = String::from_utf8(expected.stdout).expect("UTF-8 game");
    let good = dir.path().join("good.txt");
    std::fs::write(&good, &game).expect("write");

    // Say the first one-square move went two: the replay must catch exactly that line.
    let (index, line) = game
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(" moves piece ") && l.contains(" by 1 units"))
        .expect("a move by 1 in the example game");
    let edited_line = line.replace(" by 1 units", " by 2 units");
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, game.replacen(line, &edited_line, 1)).expect("write");

    let run = |files: &[&Path]| {
        BinCommand::cargo_bin("referee")
            .expect("the referee binary")
            .current_dir(root())
            .arg("check-trace")
            .arg("ludo")
            .args(files)
            .output()
            .expect("referee runs")
    };
    let accepted = run(&[&good]);
    assert_eq!(accepted.status.code(), Some(0), "{accepted:?}");
    let text = String::from_utf8_lossy(&accepted.stdout);
    assert!(text.contains("rules       100%"), "{text}");
    assert!(
        !text.contains("structure"),
        "no sources, no structure item: {text}"
    );

    let rejected = run(&[&good, &bad]);
    assert_eq!(rejected.status.code(), Some(1));
    let text = String::from_utf8_lossy(&rejected.stdout);
    assert!(
        text.contains(&format!("line {}: \"{edited_line}\"", index + 1)),
        "{text}"
    );

    let binary = dir.path().join("binary.txt");
    std::fs::write(&binary, [0u8, 159, 146, 150]).expect("write");
    let missing = dir.path().join("none.txt");
    for (file, needle) in [
        (&binary, "binary.txt: a binary file"),
        (&missing, "none.txt: cannot read"),
    ] {
        let out = run(&[file.as_path()]);
        assert_eq!(out.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
        assert!(stderr.contains(needle), "{stderr}");
    }
    let diffed = BinCommand::cargo_bin("referee")
        .expect("the referee binary")
        .current_dir(root())
        .args(["check-trace", "reversi"])
        .arg(&good)
        .output()
        .expect("referee runs");
    assert_eq!(diffed.status.code(), Some(2));
}

/// A TA ranks a correct program above one with a wording slip, and that above one whose
/// output cannot be read and that never ends.
#[test]
fn scores_order_programs_as_a_ta_would() {
    let folder = tempfile::tempdir().expect("temporary folder");
    let copy = |from: &str, to: &str| {
        let dest = folder.path().join(to);
        std::fs::create_dir(&dest).expect("submission folder");
        for (name, text) in sources(&root().join(from)) {
            std::fs::write(dest.join(name), text).expect("source copied");
        }
    };
    copy("reference/ludo", "a-correct");
    copy(
        "tests/submissions/ludo/misspelled-summary",
        "b-wording-slip",
    );
    let hanging = folder.path().join("c-unreadable-hanging");
    std::fs::create_dir(&hanging).expect("submission folder");
    std::fs::write(
        hanging.join("main.c"),
        "#include <stdio.h>\n#include <unistd.h>\nint main(void)\n{\n    for (int turn = 0;; turn++) {\n        printf(\"turn %d: R goes %d\\n\", turn, turn % 6 + 1);\n        fflush(stdout);\n        usleep(20000);\n    }\n}\n",
    )
    .expect("source written");
    let output = BinCommand::cargo_bin("referee")
        .expect("the referee binary")
        .current_dir(root())
        .args([
            "grade",
            "ludo",
            "--format",
            "json",
            "--no-cache",
            "--timeout",
            "0.3",
        ])
        .arg(folder.path())
        .output()
        .expect("referee runs");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON report");
    let mut totals: Vec<(String, f64)> = report["submissions"]
        .as_array()
        .expect("submissions")
        .iter()
        .map(|s| {
            (
                s["name"].as_str().unwrap_or_default().to_string(),
                s["score"].as_f64().unwrap_or(-1.0),
            )
        })
        .collect();
    totals.sort_by(|a, b| a.0.cmp(&b.0));
    assert_eq!(totals.len(), 3, "{totals:?}");
    assert!(
        totals[0].1 > totals[1].1 && totals[1].1 > totals[2].1,
        "{totals:?}"
    );
}

/// An unfinished program (no captures, no blocks, no mystery cell, otherwise legal) is worth
/// less than a complete one with two rule bugs: each feature the model shows in most games and
/// the unfinished one never does costs its share of `rules`.
#[test]
fn an_unfinished_program_scores_below_a_complete_one_with_two_rule_bugs() {
    let folder = tempfile::tempdir().expect("temporary folder");
    for sample in ["complete-two-bugs", "unfinished"] {
        let dest = folder.path().join(sample);
        std::fs::create_dir(&dest).expect("submission folder");
        for (name, text) in sources(&root().join("tests/submissions/ludo").join(sample)) {
            std::fs::write(dest.join(name), text).expect("source copied");
        }
    }
    let output = BinCommand::cargo_bin("referee")
        .expect("the referee binary")
        .current_dir(root())
        .args(["grade", "ludo", "--format", "json", "--no-cache"])
        .arg(folder.path())
        .output()
        .expect("referee runs");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("JSON report");
    let submissions = report["submissions"].as_array().expect("submissions");
    let score = |name: &str| {
        submissions
            .iter()
            .find(|s| s["name"] == name)
            .and_then(|s| s["score"].as_f64())
            .unwrap_or(-1.0)
    };
    let (complete, unfinished) = (score("complete-two-bugs"), score("unfinished"));
    assert!(
        unfinished >= 0.0 && unfinished < complete,
        "unfinished {unfinished}, complete with two bugs {complete}"
    );
    let text = report.to_string();
    assert!(
        text.contains(
            "missing feature: in 100 games no piece was ever captured; the model captures in"
        ),
        "the unfinished program's findings name what it never shows"
    );
}

/// A program that hangs in every game: after its first timeout a case's later runs get the
/// shortened time limit, and once two of those time out too the trace case stops, its runs
/// left counted as the mean of those made; the other case stops within a few runs too. Graded
/// in seconds, not one time limit per game.
#[test]
fn a_program_hanging_in_every_game_stops_after_a_few_runs() {
    let started = std::time::Instant::now();
    let output = BinCommand::cargo_bin("referee")
        .expect("the referee binary")
        .current_dir(root())
        .args([
            "grade",
            "ludo",
            "tests/submissions/ludo/hangs-every-game",
            "--no-cache",
            "--all",
            "--timeout",
            "1",
        ])
        .output()
        .expect("referee runs");
    let elapsed = started.elapsed();
    let text = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{text}");
    assert!(
        !text.contains("run 1: run with a shortened time limit")
            && !text.contains("from run 1 on had a shortened time limit"),
        "the first run has the full limit:\n{text}"
    );
    assert!(
        text.contains("from run 2 on had a shortened time limit"),
        "later runs are shortened:\n{text}"
    );
    // The two cases run side by side and share the pacing: each stops within a few runs.
    for case_runs in [100, 25] {
        let stopped = (2..=8)
            .any(|first| text.contains(&format!("runs {first} to {case_runs} not run: the last")));
        assert!(stopped, "the case of {case_runs} runs stops early:\n{text}");
    }
    assert!(!text.contains("run 9:"), "{text}");
    // A few full limits of 1 s and shortened ones of 0.2 s, with the build.
    assert!(elapsed.as_secs() < 30, "{elapsed:?}");
}

/// A program that hangs in some of its games (sample `hangs-in-some-games`: every other day,
/// after its game): once one game of a case ran into the time limit, each later game of the
/// case runs under the shortened limit, so a hung game costs a fifth of the limit, not all of
/// it; games that finish in time are all played and judged (none is presumed).
#[test]
fn a_program_hanging_in_some_games_gets_the_shortened_limit_after_the_first() {
    let output = BinCommand::cargo_bin("referee")
        .expect("the referee binary")
        .current_dir(root())
        .args([
            "grade",
            "ludo",
            "tests/submissions/ludo/hangs-in-some-games",
            "--no-cache",
            "--timeout",
            "1",
            "--all",
        ])
        .output()
        .expect("referee runs");
    let text = String::from_utf8_lossy(&output.stdout);
    // Run 1 of `whole-games` reads 2024-01-02, an odd day: it hangs, and runs 2 to 100 get
    // the shortened limit; none is left unplayed, since the other games finish in time.
    assert!(
        text.contains("99 runs from run 2 on had a shortened time limit (at most 0.20 s): an earlier game of this case ran into the time limit"),
        "{text}"
    );
    assert!(!text.contains("not run"), "{text}");
    let finishes = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("finishes"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|points| points.parse::<f64>().ok())
        .expect("the finishes row");
    assert!(
        finishes > 2.0 && finishes < 8.0,
        "about half the games finish: {finishes}"
    );
}

/// `--save-runs DIR` writes every run of each trace case, one file per run, and a saved run
/// replays with `check-trace` to the finding the grade counted; a folder that holds files
/// already is refused before grading.
#[test]
fn saved_runs_replay_with_check_trace() {
    let out = tempfile::tempdir().expect("tempdir");
    let saved = out.path().join("runs");
    let buggy = root().join("tests/submissions/ludo/red-ignores-captures");
    let report = BinCommand::cargo_bin("referee")
        .expect("binary")
        .args(["grade", "ludo"])
        .arg(&buggy)
        .arg("--save-runs")
        .arg(&saved)
        .args(["--format", "json", "--no-cache"])
        .output()
        .expect("runs");
    let report: serde_json::Value = serde_json::from_slice(&report.stdout).expect("JSON");
    assert!(
        report["submissions"][0]["score"].as_f64() < report["submissions"][0]["max_score"].as_f64()
    );
    let cases: toml::Value = toml::from_str(
        &std::fs::read_to_string(root().join("cases/ludo/games.toml")).expect("cases"),
    )
    .expect("TOML");
    let mut losing = 0;
    for case in cases["case"].as_array().expect("cases") {
        let runs = case
            .get("runs")
            .and_then(toml::Value::as_integer)
            .map(|n| n as usize)
            .or_else(|| case.get("clocks").and_then(|c| c.as_array()).map(Vec::len))
            .expect("runs or clocks");
        let folder = saved
            .join("red-ignores-captures")
            .join(case["name"].as_str().expect("name"));
        let files: Vec<PathBuf> = (1..=runs)
            .map(|run| folder.join(format!("run-{run:03}.txt")))
            .collect();
        assert!(
            files.iter().all(|f| f.is_file()),
            "{runs} runs in {}",
            folder.display()
        );
        assert_eq!(std::fs::read_dir(&folder).expect("folder").count(), runs);
        let status = BinCommand::cargo_bin("referee")
            .expect("binary")
            .args(["check-trace", "ludo"])
            .args(&files)
            .output()
            .expect("runs")
            .status;
        assert!(matches!(status.code(), Some(0 | 1)));
        losing += usize::from(status.code() == Some(1));
    }
    assert!(
        losing > 0,
        "the red player's missed captures show in the saved runs"
    );

    let again = BinCommand::cargo_bin("referee")
        .expect("binary")
        .args(["grade", "ludo"])
        .arg(&buggy)
        .arg("--save-runs")
        .arg(&saved)
        .output()
        .expect("runs");
    assert_eq!(again.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(
        stderr.contains("--save-runs") && stderr.contains("not empty"),
        "{stderr}"
    );
    assert_eq!(stderr.trim().lines().count(), 1, "{stderr}");
}

/// Winners announced in other words or decorated are read as the handout's announcement: a
/// correct game so announced keeps every item but `messages`, which counts the one line in
/// another wording than the handout's.
#[test]
fn winners_in_other_words_are_announcements() {
    let expected = BinCommand::cargo_bin("referee")
        .expect("binary")
        .args(["expect", "ludo", "whole-games"])
        .output()
        .expect("runs");
    let game = String::from_utf8(expected.stdout).expect("UTF-8");
    let winner = game
        .lines()
        .find(|l| l.ends_with(" player wins!!!"))
        .expect("the model announces its winner");
    let colour = winner.trim_end_matches(" player wins!!!");
    for line in [
        format!("**** {colour} player wins!!! ****"),
        format!("Winner: {colour}"),
        format!("{colour} player is the winner!"),
        format!("Player {colour} Won the game!!!!!!"),
        format!("Player {colour} Wins !!!"),
        format!("*** {colour} player has won the game! ***"),
        format!("{colour} player has won!!!"),
    ] {
        let output = game.replace(winner, &line);
        let report = check(&output);
        let run = TraceRun {
            output: &output,
            timed_out: false,
            sources: None,
        };
        for verdict in verdicts(&run) {
            if verdict.item == "messages" {
                assert!(verdict.fraction > 0.99, "{line}: {verdict:?}");
            } else {
                assert!(verdict.fraction >= 1.0 - 1e-9, "{line}: {verdict:?}");
            }
        }
        assert!(report.winner.is_some(), "{line}: no winner read");
        assert!(
            report.not_understood.is_empty(),
            "{line}: {:?}",
            report.not_understood
        );
        assert!(report.missing.is_empty(), "{line}: {:?}", report.missing);
    }
}
