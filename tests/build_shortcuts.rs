//! The shortcuts past the compiler's driver (grade/build/shortcuts.rs: the linker run directly,
//! `-lm` left out where libm is not used, `-pipe`) make the same bytes as the driver given the
//! same files: every game's model solution and samples, program and harness, with and without
//! the sanitizers, build to byte-identical binaries with the same build log either way.

mod common;

use std::path::PathBuf;
use std::time::Duration;

use common::root;
use rayon::prelude::*;
use referee::assignment::{Assignment, Project};
use referee::games::Target;
use referee::grade::build::built::Built;
use referee::grade::build::compile::Workspace;
use referee::grade::build::compiler::Compiler;
use referee::grade::intake::submission::{self, Submission};
use referee::grade::run::sandbox::Sandbox;

const GAMES: [&str; 5] = ["reversi", "othello", "backgammon", "trouble", "ludo"];

fn submissions(assignment: &Assignment, folders: &[PathBuf]) -> Vec<Submission> {
    submission::discover(folders, &assignment.spec.submission)
        .expect("the submissions")
        .submissions
}

/// Builds `target` of `submission` through the driver, then with the shortcuts, in one
/// workspace (so the sources' paths, which debug information records, are the same), and
/// checks that both give the same bytes and the same log; returns the shortcut build.
fn build_both_ways(
    assignment: &Assignment,
    submission: &Submission,
    sandbox: &Sandbox,
    compiler: &Compiler,
    target: &Target,
    extra: &[String],
) -> Built {
    let spec = &assignment.spec;
    let workspace = Workspace::create(submission, spec, sandbox).expect("the workspace");
    let timeout = Duration::from_secs(60);
    let bytes = |built: &Built| {
        built
            .binary
            .as_ref()
            .map(|b| std::fs::read(b).expect("read"))
    };
    let plain = compiler.without_shortcuts();
    let through_driver = workspace
        .build(&plain, spec, target, extra, timeout, None)
        .expect("the driver's build");
    let driver_bytes = bytes(&through_driver);
    let shortcut = workspace
        .build(compiler, spec, target, extra, timeout, None)
        .expect("the shortcut build");
    let what = format!("{} {target:?} {extra:?}", submission.name);
    // The shortcut build's objects (compiled with -pipe) are the workspace's second set.
    let log = shortcut.log.replace("/objects-1/", "/objects-0/");
    assert_eq!(log, through_driver.log, "{what}");
    assert!(
        bytes(&shortcut) == driver_bytes,
        "{what}: the binaries differ"
    );
    shortcut
}

#[test]
fn every_sample_builds_to_the_same_bytes_with_the_shortcuts() {
    let project = Project::locate(Some(&root())).expect("the project");
    let compiler = Compiler::find().expect("a C compiler");
    let sandbox = Sandbox::new(vec![root()]).expect("the sandbox");
    let assignments: Vec<Assignment> = GAMES
        .iter()
        .map(|game| Assignment::load(&project, game).expect("the assignment"))
        .collect();
    // Every build to compare: (assignment, submission, target, extra flags).
    let mut builds = Vec::new();
    for (game, assignment) in GAMES.iter().zip(&assignments) {
        let folders = [
            root().join("reference").join(game),
            root().join("tests/submissions").join(game),
        ];
        let sanitize = &assignment.spec.build.sanitize_flags;
        for submission in submissions(assignment, &folders) {
            for target in [Target::Program, Target::Harness] {
                if target == Target::Harness && assignment.spec.build.harness.is_none() {
                    continue;
                }
                let sanitized_too = if sanitize.is_empty() { 1 } else { 2 };
                for extra in [&[][..], sanitize].into_iter().take(sanitized_too) {
                    builds.push((assignment, submission.clone(), target.clone(), extra));
                }
            }
        }
    }
    // The builds are independent: both cores compare them at once.
    // Builds that linked: all of them, and those without the sanitizers.
    let (linked, linked_unsanitized) = builds
        .par_iter()
        .map(|(assignment, submission, target, extra)| {
            let built = build_both_ways(assignment, submission, &sandbox, &compiler, target, extra);
            match built.binary {
                Some(_) => (1, usize::from(extra.is_empty())),
                None => (0, 0),
            }
        })
        .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1 + b.1));
    let shortcuts = compiler.shortcuts().expect("shortcuts are on");
    // Every link was made by the linker itself, and those without the sanitizers without
    // libm (no sample uses it; the sanitizers' link keeps every library it names).
    assert!(linked_unsanitized > 100, "{linked_unsanitized}");
    assert!(linked > linked_unsanitized + 50, "{linked}");
    assert!(
        shortcuts.direct_links() >= linked,
        "{shortcuts:?}: {linked} linked"
    );
    assert!(
        shortcuts.libm_left_out() >= linked_unsanitized,
        "{shortcuts:?}: {linked_unsanitized} linked without the sanitizers"
    );
}

#[test]
fn a_link_that_uses_libm_or_fails_gives_the_driver_s_bytes_and_words() {
    let project = Project::locate(Some(&root())).expect("the project");
    let assignment = Assignment::load(&project, "reversi").expect("the assignment");
    let compiler = Compiler::find().expect("a C compiler");
    let sandbox = Sandbox::new(vec![root()]).expect("the sandbox");
    let model = std::fs::read_to_string(root().join("reference/reversi/Lab6.c")).expect("read");
    let dir = tempfile::tempdir().expect("tempdir");
    let shortcuts = compiler.shortcuts().expect("shortcuts are on");
    for (tail, links) in [
        // sqrt is libm's: -lm stays.
        (
            "#include <math.h>\ndouble root(double x) { return sqrt(x); }\n",
            true,
        ),
        // An undefined function: the linker fails, and the log is the driver's.
        (
            "int helper(int);\nint twice(int x) { return helper(x) * 2; }\n",
            false,
        ),
    ] {
        let file = dir.path().join("Lab6.c");
        std::fs::write(&file, format!("{model}{tail}")).expect("write");
        let submission = submissions(&assignment, &[file]).remove(0);
        let (direct, without_libm) = (shortcuts.direct_links(), shortcuts.libm_left_out());
        let built = build_both_ways(
            &assignment,
            &submission,
            &sandbox,
            &compiler,
            &Target::Program,
            &[],
        );
        assert_eq!(built.binary.is_some(), links, "{}", built.log);
        assert_eq!(shortcuts.direct_links(), direct + 1, "{tail}");
        assert_eq!(
            shortcuts.libm_left_out(),
            without_libm + usize::from(!links)
        );
        if !links {
            assert!(
                built.log.contains("undefined reference to `helper'")
                    && built
                        .log
                        .contains("collect2: error: ld returned 1 exit status"),
                "{}",
                built.log
            );
        }
    }
}
