//! referee copied alone into an empty folder grades with the data compiled into it: no
//! checkout, no `--root`, the current folder empty but for the binary and the student's file.

use std::path::Path;
use std::process::Command;

use serde_json::Value;

fn alone(folder: &Path) -> Command {
    let mut command = Command::new(folder.join("referee"));
    command
        .current_dir(folder)
        .env_remove("REFEREE_ROOT")
        .env_remove("REFEREE_PRIVATE")
        .env_remove("XDG_CACHE_HOME")
        .env("HOME", folder.join("home"))
        .env("REFEREE_CACHE", folder.join("cache"));
    command
}

#[test]
fn a_binary_copied_alone_grades_every_game_with_its_own_data() {
    let folder = tempfile::tempdir().expect("tempdir");
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(folder.path(), std::fs::Permissions::from_mode(0o755))
            .expect("chmod");
    }
    std::fs::copy(
        assert_cmd::cargo::cargo_bin("referee"),
        folder.path().join("referee"),
    )
    .expect("copy");
    let version = alone(folder.path())
        .arg("--version")
        .output()
        .expect("runs");
    let version = String::from_utf8_lossy(&version.stdout).into_owned();
    let data = version
        .split("(data ")
        .nth(1)
        .and_then(|rest| rest.strip_suffix(")\n"))
        .unwrap_or_else(|| panic!("no data version in {version:?}"))
        .to_string();

    // Every game's model solution, from the data inside the binary, to full marks.
    let check = alone(folder.path())
        .arg("check-reference")
        .output()
        .expect("runs");
    assert_eq!(
        check.status.code(),
        Some(0),
        "{}{}",
        String::from_utf8_lossy(&check.stdout),
        String::from_utf8_lossy(&check.stderr)
    );

    // A student's file in the empty folder, and the report names the data it was graded with.
    std::fs::write(
        folder.path().join("Lab6.c"),
        include_str!("../reference/reversi/Lab6.c"),
    )
    .expect("write");
    let output = alone(folder.path())
        .args(["grade", "reversi", "Lab6.c", "--format", "json"])
        .output()
        .expect("runs");
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let report: Value = serde_json::from_slice(&output.stdout).expect("JSON");
    assert_eq!(report["data"], Value::String(data.clone()));
    let submission = &report["submissions"][0];
    assert_eq!(submission["score"], submission["max_score"]);
    assert!(folder
        .path()
        .join("cache/data")
        .join(&data)
        .join("specs/reversi/spec.toml")
        .is_file());
}
