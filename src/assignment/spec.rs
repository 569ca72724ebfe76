//! A game's rubric and grading settings: `specs/<game>/spec.toml`.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::error::Error;

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Spec {
    pub title: String,
    pub submission: SubmissionSpec,
    #[serde(default)]
    pub build: BuildSpec,
    #[serde(default)]
    pub compare: CompareSpec,
    #[serde(default)]
    pub limits: Limits,
    #[serde(default)]
    pub facts: FactsSpec,
    #[serde(default)]
    pub deadline: DeadlineSpec,
    #[serde(default)]
    pub similar: SimilarSpec,
    #[serde(rename = "item")]
    pub items: Vec<Item>,
    /// The folder the spec was read from (`specs/<game>`), for the harness and provided files.
    #[serde(skip)]
    pub dir: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Layout {
    /// One `.c` file per submission (a batch folder holds files or one folder per student).
    Single,
    /// A folder of `.c` files per submission (a batch folder holds one folder per student).
    Multi,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SubmissionSpec {
    pub layout: Layout,
    /// The file name the handout asks for, shown in messages (e.g. `Lab6.c`).
    pub file: String,
    /// Files from the spec folder added to every build, replacing a student's copy
    /// (e.g. the course header).
    #[serde(default)]
    pub provided: Vec<String>,
    /// Files from the spec folder added only when the submission lacks a file of that name.
    #[serde(default)]
    pub provided_if_missing: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BuildSpec {
    /// Flags for every compile.
    pub flags: Vec<String>,
    /// Flags for the link step (e.g. `-lm`).
    pub link: Vec<String>,
    /// The unit-test harness in the spec folder, if the game has unit cases.
    pub harness: Option<String>,
    /// Extra flags for compiling the student's files into the harness build, to hide their
    /// `main` (e.g. `-Dmain=student_main`, or `-DTEST_MAIN` where the template has that guard).
    pub harness_student_flags: Vec<String>,
    /// Flags added to every compile and link with `--sanitize`.
    pub sanitize_flags: Vec<String>,
}

impl Default for BuildSpec {
    fn default() -> Self {
        Self {
            flags: ["-std=gnu17", "-Wall", "-Wextra"]
                .map(String::from)
                .to_vec(),
            link: vec!["-lm".into()],
            harness: None,
            harness_student_flags: vec!["-Dmain=student_main".into()],
            sanitize_flags: [
                "-fsanitize=address,undefined",
                "-fno-omit-frame-pointer",
                "-g",
            ]
            .map(String::from)
            .to_vec(),
        }
    }
}

/// How actual output is compared with the expected transcript.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, Default, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum CompareMode {
    /// Byte for byte, line endings included.
    #[default]
    Exact,
    /// Trailing blanks on each line and blank lines at the end are ignored.
    TrailingSpace,
    /// Runs of blanks are one blank; leading and trailing blanks are ignored.
    Whitespace,
}

#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct CompareSpec {
    pub mode: CompareMode,
}

/// Per-run limits. Flags on the command line override them.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct Limits {
    /// CPU seconds per run (the wall clock stops a run at 3 x this + 1 s).
    pub timeout: f64,
    /// CPU seconds per run.
    pub cpu_seconds: u64,
    /// Address space per process, MiB.
    pub memory_mb: u64,
    /// Bytes of stdout (and, separately, stderr) kept before the program is stopped.
    pub output_kb: u64,
    /// Largest file the program may write, KiB.
    pub file_size_kb: u64,
    /// Processes (threads included) the run may have at once.
    pub processes: u64,
    /// Wall-clock seconds for one compile.
    pub compile_timeout: f64,
    /// After this many timeouts in a row of one program, its next runs get a short time
    /// limit until one finishes in time, so a hanging submission cannot stall the batch.
    pub timeouts_in_a_row: usize,
    /// MiB a submission's build may write in its folder, all compiles and links together.
    pub build_scratch_mb: u64,
    /// Seconds a submission's runs may spend sleeping or blocked (wall-clock time neither
    /// running nor waiting for a CPU, which load does not change), all runs together; the
    /// cases after the one that spends it are not run.
    pub sleep_seconds: f64,
}

impl Default for Limits {
    fn default() -> Self {
        Self {
            timeout: 2.0,
            cpu_seconds: 2,
            memory_mb: 512,
            output_kb: 1024,
            file_size_kb: 1024,
            processes: 32,
            compile_timeout: 60.0,
            timeouts_in_a_row: 3,
            build_scratch_mb: 256,
            sleep_seconds: 60.0,
        }
    }
}

/// What the grader reports about the source, without scoring it.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct FactsSpec {
    /// Required functions: reported as defined and called from elsewhere, or not.
    pub helpers: Vec<String>,
    /// Report global variables; those named in `template_globals` are not listed.
    pub globals: bool,
    pub template_globals: Vec<String>,
    /// Words whose use is reported (e.g. `goto`, `struct`, `malloc`).
    pub keywords: Vec<String>,
    /// Helpers the handout requires the student to use: one that is defined but never called
    /// from the student's own code fails its unit cases.
    pub must_be_called: Vec<String>,
}

/// When the assignment is due and what lateness costs; `--due` and `--late-penalty`
/// override each (`deadline::Moment`, `deadline::LatePolicy` give the forms).
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct DeadlineSpec {
    /// `2026-10-01T23:59` (the machine's local time) or with an offset (`-04:00`, `Z`).
    pub due: Option<String>,
    /// `10%/day`, `10%/day,cap=50%` or a flat share `25%`, of the points possible.
    pub late_penalty: Option<String>,
}

/// The course's own code, which `referee similar` takes out before comparing submissions.
#[derive(Debug, Clone, Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
pub struct SimilarSpec {
    /// Files of the spec folder the students start from (a template, given files).
    pub template: Vec<String>,
    /// Code the handout prints rather than gives as a file (e.g. the prototypes to write).
    pub template_text: String,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Item {
    pub id: String,
    pub points: f64,
    #[serde(default)]
    pub manual: bool,
    #[serde(default)]
    pub description: String,
}

impl Spec {
    /// Reads and checks `dir/spec.toml`.
    pub fn load(dir: &Path) -> Result<Self, Error> {
        let file = dir.join("spec.toml");
        let text = std::fs::read_to_string(&file)
            .map_err(|e| Error::config(format!("{}: cannot read: {e}", file.display())))?;
        let mut spec: Spec = toml::from_str(&text).map_err(|e| {
            Error::config(format!("{}: {}", file.display(), e.message().trim_end()))
        })?;
        spec.dir = dir.to_path_buf();
        let limits = &spec.limits;
        for (name, seconds) in [
            ("timeout", limits.timeout),
            ("compile_timeout", limits.compile_timeout),
        ] {
            if !(seconds.is_finite() && seconds > 0.0 && seconds <= 3600.0) {
                return Err(Error::config(format!(
                    "{}: limits.{name} = {seconds}: it must be more than 0 and at most 3600 seconds",
                    file.display()
                )));
            }
        }
        let deadline = &spec.deadline;
        let checks = [
            deadline
                .due
                .as_deref()
                .map(|due| super::deadline::Moment::parse(due).map(drop)),
            deadline
                .late_penalty
                .as_deref()
                .map(|penalty| super::deadline::LatePolicy::parse(penalty).map(drop)),
        ];
        if let Some(problem) = checks.into_iter().flatten().find_map(Result::err) {
            return Err(Error::config(format!(
                "{}: [deadline] {problem}",
                file.display()
            )));
        }
        if limits.cpu_seconds == 0 {
            return Err(Error::config(format!(
                "{}: limits.cpu_seconds = 0: a run needs at least 1 second",
                file.display()
            )));
        }
        for (i, item) in spec.items.iter().enumerate() {
            if spec.items[..i].iter().any(|other| other.id == item.id) {
                return Err(Error::config(format!(
                    "{}: item '{}' is listed twice",
                    file.display(),
                    item.id
                )));
            }
            if !(item.points.is_finite() && item.points >= 0.0) {
                return Err(Error::config(format!(
                    "{}: item '{}' has invalid points {}",
                    file.display(),
                    item.id,
                    item.points
                )));
            }
        }
        Ok(spec)
    }

    pub fn item(&self, id: &str) -> Option<&Item> {
        self.items.iter().find(|item| item.id == id)
    }

    /// Points of the auto-graded items.
    pub fn auto_points(&self) -> f64 {
        self.items
            .iter()
            .filter(|item| !item.manual)
            .map(|item| item.points)
            .sum()
    }

    /// Checks that the files a game's spec names (unit harness, provided files) are there: a
    /// missing one is referee's configuration error, never a student's failed build.
    pub fn check_files(&self) -> Result<(), Error> {
        let named = self
            .build
            .harness
            .iter()
            .map(|name| (name, "the unit-test harness"))
            .chain(
                self.submission
                    .provided
                    .iter()
                    .map(|n| (n, "a provided file")),
            )
            .chain(
                self.submission
                    .provided_if_missing
                    .iter()
                    .map(|n| (n, "a provided file")),
            )
            .chain(
                self.similar
                    .template
                    .iter()
                    .map(|n| (n, "a template file of [similar]")),
            );
        for (name, what) in named {
            let path = self.dir.join(name);
            if !path.is_file() {
                return Err(Error::config(format!(
                    "{}: missing ({what} named in spec.toml)",
                    path.display()
                )));
            }
        }
        Ok(())
    }
}
