//! The TA's side of an LMS: the `grade` options that read an LMS's download and write what
//! goes back (per-student feedback, the gradebook CSV), and the GitHub Classroom workflow.

use std::path::{Path, PathBuf};

use clap::Args;
use sha2::Digest;

use crate::assignment::spec::Item;
use crate::error::Error;
use crate::grade::intake::layout::Lms;
use crate::grade::intake::submission::Submission;
use crate::report::destination::{inside, refuse_overwrite};
use crate::report::feedback::{self, FeedbackFormat};
use crate::report::gradebook::{self, Gradebook};
use crate::report::BatchReport;

/// `referee grade` options for LMS downloads and what goes back to the LMS.
#[derive(Args, Debug, Clone)]
pub struct TaOptions {
    /// How the batch folder is laid out: auto recognises a Canvas, Moodle or Gradescope
    /// download and a folder of GitHub Classroom repositories, grouping each into one
    /// submission per student with their name and LMS id; plain takes each entry as one
    /// student's.
    #[arg(long, value_enum, default_value = "auto", value_name = "LAYOUT")]
    pub layout: Lms,
    /// Write one self-contained file per student into DIR, holding only their report, to
    /// hand back.
    #[arg(long, value_name = "DIR")]
    pub feedback: Option<PathBuf>,
    /// The feedback files' format.
    #[arg(
        long,
        value_enum,
        default_value = "html",
        value_name = "FORMAT",
        requires = "feedback"
    )]
    pub feedback_format: FeedbackFormat,
    /// Write the CSV the LMS's grade import reads (auto-graded totals), to --gradebook-file.
    #[arg(long, value_enum, value_name = "LMS")]
    pub gradebook: Option<Gradebook>,
    /// Where the gradebook CSV goes.
    #[arg(
        long,
        value_name = "FILE",
        default_value = "gradebook.csv",
        requires = "gradebook"
    )]
    pub gradebook_file: PathBuf,
    /// Canvas's assignment column, as its Gradebook export heads it: `Lab 6 (12345)`
    /// (default: the assignment's id).
    #[arg(long, value_name = "HEADER", requires = "gradebook")]
    pub gradebook_column: Option<String>,
}

impl TaOptions {
    /// Checks before grading that a gradebook can say whose score each row is.
    pub fn check(&self, submissions: &[Submission]) -> Result<(), Error> {
        if self.gradebook.is_none() {
            return Ok(());
        }
        match submissions.iter().find(|s| s.id.is_empty()) {
            Some(nameless) => Err(Error::config(format!(
                "{}: no LMS id, so --gradebook cannot say whose score it is (grade the LMS's \
                 download as it came, or name its layout with --layout)",
                nameless.path.display()
            ))),
            None => Ok(()),
        }
    }

    /// Checks before grading that the feedback folder and the gradebook file are none of the
    /// files being graded (`graded`: the paths on the command line), nor a C source.
    pub fn check_files(&self, graded: &[PathBuf]) -> Result<(), Error> {
        if self.gradebook.is_some() {
            refuse_overwrite(&self.gradebook_file, graded)?;
        }
        match &self.feedback {
            Some(dir) if inside(dir, graded) => Err(Error::config(format!(
                "{}: --feedback inside the submissions being graded: choose a folder outside them",
                dir.display()
            ))),
            _ => Ok(()),
        }
    }

    /// Writes the feedback files and the gradebook; returns the paths written.
    pub fn write(&self, batch: &BatchReport) -> Result<Vec<PathBuf>, Error> {
        let mut written = Vec::new();
        if let Some(dir) = &self.feedback {
            written.extend(feedback::write(batch, dir, self.feedback_format)?);
        }
        if let Some(lms) = self.gradebook {
            let column = self.gradebook_column.as_deref().unwrap_or(&batch.game);
            let text = gradebook::render(batch, lms, column)?;
            write_file(&self.gradebook_file, &text)?;
            written.push(self.gradebook_file.clone());
        }
        Ok(written)
    }
}

fn write_file(path: &Path, text: &str) -> Result<(), Error> {
    refuse_overwrite(path, &[])?;
    if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent)
            .map_err(|e| Error::config(format!("{}: cannot create: {e}", parent.display())))?;
    }
    std::fs::write(path, text)
        .map_err(|e| Error::config(format!("{}: cannot write: {e}", path.display())))
}

/// Where the workflow unpacks referee in the student's repository (hidden, so grading the
/// repository's folder does not read referee's own files).
pub const INSTALL: &str = ".referee";
/// The results file the workflow's grading step writes, read by one step per item.
pub const RESULTS: &str = ".referee-results.json";

/// The release archive (`tools/release.sh`) the workflow downloads: where from, its file
/// name, and its SHA-256, which the download step checks before unpacking.
pub struct Release {
    pub url: String,
    pub name: String,
    pub sha256: String,
}

impl Release {
    /// The release of `archive` (a file `tools/release.sh` wrote), served at `url`.
    pub fn of_archive(archive: &Path, url: &str) -> Result<Release, Error> {
        let fail = |what: String| Error::config(format!("{}: {what}", archive.display()));
        let name = archive
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .filter(|n| n.starts_with("referee-") && n.ends_with("-x86_64-linux.tar.gz"))
            .ok_or_else(|| {
                fail("not a release archive (tools/release.sh names them referee-VERSION-x86_64-linux.tar.gz)".into())
            })?;
        let bytes = std::fs::read(archive).map_err(|e| fail(format!("cannot read: {e}")))?;
        let usable = |c: char| c.is_ascii_graphic() && !matches!(c, '\'' | '"' | '\\' | '`' | '$');
        if !(url.starts_with("https://")
            || url.starts_with("http://")
            || url.starts_with("file://"))
            || !url.chars().all(usable)
        {
            return Err(Error::config(format!(
                "--url {url}: an http(s) address of the archive, without quotes, spaces or `$`"
            )));
        }
        let sha256 = crate::grade::digest::hex(&sha2::Sha256::digest(&bytes));
        Ok(Release {
            url: url.to_string(),
            name,
            sha256,
        })
    }

    /// The download step's command: fetch the archive, check its SHA-256, unpack the binary
    /// into `INSTALL`.
    pub fn download_command(&self) -> String {
        let Release { url, name, sha256 } = self;
        format!(
            "mkdir -p {INSTALL} && curl -fsSL --retry 3 -o {INSTALL}/{name} {url} && \
             echo '{sha256}  {INSTALL}/{name}' | sha256sum -c - && \
             tar -xzf {INSTALL}/{name} -C {INSTALL} --strip-components=1 && rm {INSTALL}/{name}"
        )
    }
}

/// A GitHub Actions workflow for student repositories: downloads referee's release binary
/// (checked by its SHA-256, and cached by it, so a push downloads nothing once cached),
/// grades the repository once (Gradescope's results.json, one test per item), then gives each
/// auto-graded item to GitHub Classroom's command grader, all or nothing, and reports them.
///
/// Classroom's autograding actions, as its workflow template uses them (GitHub Docs, "Use
/// autograding"; classroom-resources/autograding-command-grader and
/// autograding-grading-reporter READMEs): the grader takes `test-name`, `command`, `timeout`
/// (minutes) and `max-score` and sets the `result` output; the reporter reads each runner's
/// result from the environment variable `<RUNNER ID>_RESULTS` and lists the runners in
/// `runners`. `actions/cache` restores `path` under `key` and sets `cache-hit`.
pub fn classroom_workflow(game: &str, items: &[Item], release: &Release) -> String {
    let auto: Vec<&Item> = items.iter().filter(|i| !i.manual).collect();
    let mut out = format!(
        "# Written by `referee classroom-workflow {game}`: grades the repository with referee on\n\
         # every push and reports one test per rubric item to GitHub Classroom.\n\
         name: Autograding Tests\n\
         'on':\n  - push\n  - repository_dispatch\n\
         permissions:\n  checks: write\n  actions: read\n  contents: read\n\
         jobs:\n  run-autograding-tests:\n    runs-on: ubuntu-latest\n\
         \x20   if: github.actor != 'github-classroom[bot]'\n    steps:\n\
         \x20     - name: Checkout code\n        uses: actions/checkout@v4\n\
         \x20     - name: Cache referee\n        id: referee_cache\n        uses: actions/cache@v4\n\
         \x20       with:\n          path: {INSTALL}\n          key: {key}\n\
         \x20     - name: Download referee\n\
         \x20       if: steps.referee_cache.outputs.cache-hit != 'true'\n        run: {download}\n\
         \x20     - name: Grade with referee\n        run: {grade}\n",
        key = quote(&format!("referee-{}", release.sha256)),
        download = quote(&release.download_command()),
        grade = quote(&grade_command(game)),
    );
    for item in &auto {
        let step = step_id(&item.id);
        out.push_str(&format!(
            "      - name: {name}\n        id: {step}\n        uses: classroom-resources/autograding-command-grader@v1\n        with:\n          test-name: {name}\n          command: {command}\n          timeout: 1\n          max-score: {points}\n",
            name = quote(&item.id),
            command = quote(&item_command(&item.id)),
            points = item.points,
        ));
    }
    out.push_str(
        "      - name: Autograding Reporter\n        uses: classroom-resources/autograding-grading-reporter@v1\n        env:\n",
    );
    for item in &auto {
        let step = step_id(&item.id);
        out.push_str(&format!(
            "          {}_RESULTS: \"${{{{steps.{step}.outputs.result}}}}\"\n",
            step.to_ascii_uppercase()
        ));
    }
    let runners: Vec<String> = auto.iter().map(|i| step_id(&i.id)).collect();
    out.push_str(&format!(
        "        with:\n          runners: {}\n",
        runners.join(",")
    ));
    out
}

/// The workflow's grading command, run in the student's repository.
pub fn grade_command(game: &str) -> String {
    format!(
        "{INSTALL}/referee grade {game} . --layout plain --format gradescope -o {RESULTS} \
         --no-cache"
    )
}

/// Succeeds when the item got full marks in the results file.
pub fn item_command(item: &str) -> String {
    format!("jq -e '.tests[] | select(.name == \"{item}\") | .score >= .max_score' {RESULTS}")
}

/// A step id and runner name GitHub accepts: letters, digits and `_`, starting with a letter.
fn step_id(item: &str) -> String {
    let id: String = item
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect();
    if id.starts_with(|c: char| c.is_ascii_alphabetic()) {
        id
    } else {
        format!("item_{id}")
    }
}

/// A YAML single-quoted scalar (quotes doubled): safe for `:`, `|`, `#` and `"`.
fn quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn step_ids_are_plain_words() {
        assert_eq!(step_id("bear-off"), "bear_off");
        assert_eq!(step_id("2x"), "item_2x");
    }
}
