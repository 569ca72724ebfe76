//! Where reports go: the formats, their files (`-o`), the checks made before grading, and
//! the progress bar.

use super::*;

#[derive(Clone, Copy, PartialEq, Eq, ValueEnum)]
pub(super) enum Format {
    Text,
    Json,
    Csv,
    Junit,
    Gradescope,
    Html,
}

impl Format {
    /// The file name ending when several formats share a folder or stem.
    fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Json => "json",
            Format::Csv => "csv",
            Format::Junit => "junit.xml",
            Format::Gradescope => "gradescope.json",
            Format::Html => "html",
        }
    }
}

/// Each requested format (once, in the order given) with its file, or `None` for stdout.
pub(super) fn destinations(
    formats: &[Format],
    output: Option<&Path>,
) -> Result<Vec<(Format, Option<PathBuf>)>, Error> {
    let mut unique: Vec<Format> = Vec::new();
    for format in formats {
        if !unique.contains(format) {
            unique.push(*format);
        }
    }
    let Some(output) = output else {
        if unique.len() > 1 {
            return Err(Error::config(
                "several formats need -o: a folder (-o out/) or a file stem (-o out/grades)",
            ));
        }
        return Ok(unique.into_iter().map(|f| (f, None)).collect());
    };
    let is_folder = output.is_dir() || output.as_os_str().to_string_lossy().ends_with('/');
    if !is_folder && unique.len() == 1 {
        return Ok(vec![(unique[0], Some(output.to_path_buf()))]);
    }
    let stem = if is_folder {
        std::fs::create_dir_all(output).map_err(|e| {
            Error::config(format!(
                "{}: cannot create the folder: {e}",
                output.display()
            ))
        })?;
        output.join("report")
    } else {
        let text = output.to_string_lossy();
        let known = [
            Format::Text,
            Format::Json,
            Format::Csv,
            Format::Junit,
            Format::Gradescope,
            Format::Html,
        ];
        let stripped = known
            .iter()
            .filter_map(|f| text.strip_suffix(&format!(".{}", f.extension())))
            .min_by_key(|rest| rest.len())
            .unwrap_or(&text);
        PathBuf::from(stripped)
    };
    Ok(unique
        .into_iter()
        .map(|format| {
            let mut name = stem.as_os_str().to_owned();
            name.push(".");
            name.push(format.extension());
            (format, Some(PathBuf::from(name)))
        })
        .collect())
}

/// Checks before anything is graded that each report file can be written: it is no file that
/// matters (`report::destination::refuse_overwrite`: a C source, a file being graded in `graded`), its
/// folder exists or can be made, and the file opens for writing (one made for the check is
/// removed again).
pub(super) fn check_writable(
    destinations: &[(Format, Option<PathBuf>)],
    graded: &[PathBuf],
) -> Result<(), Error> {
    for path in destinations.iter().filter_map(|(_, path)| path.as_deref()) {
        crate::report::destination::refuse_overwrite(path, graded)?;
        if path.is_dir() {
            return Err(Error::config(format!(
                "{}: a folder, not a report file",
                path.display()
            )));
        }
        if let Some(parent) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
            std::fs::create_dir_all(parent).map_err(|e| {
                Error::config(format!(
                    "{}: cannot create the folder for the report: {e}",
                    parent.display()
                ))
            })?;
        }
        let existed = path.exists();
        std::fs::OpenOptions::new()
            .append(true)
            .create(true)
            .open(path)
            .map_err(|e| {
                Error::config(format!("{}: cannot write the report: {e}", path.display()))
            })?;
        if !existed {
            // Only made for the check; the report replaces it when grading is done.
            let _ = std::fs::remove_file(path);
        }
    }
    Ok(())
}

/// A progress bar on stderr for a batch, or nothing when stderr is not a terminal.
pub(super) fn progress_bar(submissions: usize) -> Option<ProgressBar> {
    if submissions < 2 || !std::io::stderr().is_terminal() {
        return None;
    }
    let bar = ProgressBar::with_draw_target(Some(submissions as u64), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "grading {bar:30.cyan/blue} {pos}/{len} submissions · {elapsed} · ETA {eta} · {msg}",
    )
    .map(|style| style.progress_chars("█▉▊▋▌▍▎▏ "));
    if let Ok(style) = style {
        bar.set_style(style);
    }
    Some(bar)
}

pub(super) fn emit(text: &str, path: Option<&Path>) -> Result<(), Error> {
    match path {
        Some(path) => std::fs::write(path, text).map_err(|e| {
            Error::config(format!("{}: cannot write the report: {e}", path.display()))
        }),
        None => {
            let mut stdout = std::io::stdout().lock();
            // A closed pipe (`| head`) is not an error worth reporting.
            let _ = stdout.write_all(text.as_bytes());
            let _ = stdout.flush();
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(found: &[(Format, Option<PathBuf>)]) -> Vec<Option<String>> {
        found
            .iter()
            .map(|(_, path)| path.as_ref().map(|p| p.display().to_string()))
            .collect()
    }

    #[test]
    fn one_format_goes_to_stdout_or_the_file_given() {
        let found = destinations(&[Format::Json], None).map_err(|e| e.to_string());
        assert_eq!(found.map(|f| names(&f)), Ok(vec![None]));
        let found = destinations(&[Format::Csv], Some(Path::new("marks.txt")));
        let found = found.map_err(|e| e.to_string());
        assert_eq!(found.map(|f| names(&f)), Ok(vec![Some("marks.txt".into())]));
    }

    #[test]
    fn several_formats_share_a_stem_without_its_extension_and_appear_once() {
        let found = destinations(
            &[Format::Json, Format::Junit, Format::Json],
            Some(Path::new("out/grades.json")),
        )
        .map_err(|e| e.to_string());
        assert_eq!(
            found.map(|f| names(&f)),
            Ok(vec![
                Some("out/grades.json".into()),
                Some("out/grades.junit.xml".into())
            ])
        );
    }

    #[test]
    fn several_formats_without_a_destination_are_refused() {
        assert!(destinations(&[Format::Json, Format::Csv], None).is_err());
    }
}
