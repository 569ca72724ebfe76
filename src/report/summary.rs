//! What a student reads first: one line per case in the style of a test runner (the
//! handout's sample runs first, then the failing cases by rubric item, each with a one-line
//! reason), and which case to show in full for each failing item. The text, HTML and
//! Gradescope reports all start with it.

use super::{CaseOutcome, Status, SubmissionReport};

/// Failing cases listed with their reason per item; the rest are named on a few lines.
pub const MAX_LISTED: usize = 5;
/// Lines of names of the other failing cases of an item; beyond them, a count.
const MAX_NAME_LINES: usize = 3;

/// One case in the summary.
#[derive(Debug, Clone)]
pub struct CaseLine<'a> {
    pub run: &'a CaseOutcome,
    /// Items the case fails, in spec order.
    pub failing_items: Vec<&'a str>,
}

impl CaseLine<'_> {
    pub fn passed(&self) -> bool {
        self.failing_items.is_empty()
    }

    /// The one-line reason for a failure.
    pub fn reason(&self) -> &str {
        let reason = self.run.explanation.reason.as_str();
        if reason.is_empty() {
            &self.run.ended
        } else {
            reason
        }
    }
}

/// The failing cases of one auto-graded item (a case is listed under the first item it
/// fails, in spec order).
#[derive(Debug, Clone)]
pub struct Group<'a> {
    pub item: &'a str,
    /// Failing cases listed under the item (handout samples are listed above the groups).
    pub failing: Vec<CaseLine<'a>>,
    /// The item's example candidates: the failing cases listed under it, and failing handout
    /// samples whose first failing item it is.
    candidates: Vec<&'a CaseOutcome>,
    /// Cases of the item that fail, counting those listed under an earlier item.
    pub failing_total: usize,
    pub cases_total: usize,
}

#[derive(Debug, Clone)]
pub struct Summary<'a> {
    /// The handout's sample runs, passing or not.
    pub samples: Vec<CaseLine<'a>>,
    /// One group per auto-graded item that loses points, in spec order.
    pub groups: Vec<Group<'a>>,
}

/// A case from the handout (its name has the word `handout`): a student knows these runs.
pub fn is_handout_sample(name: &str) -> bool {
    name.split(['-', '_']).any(|word| word == "handout")
}

pub fn summarize(s: &SubmissionReport) -> Summary<'_> {
    let item_order: Vec<&str> = s.items.iter().map(|i| i.id.as_str()).collect();
    let line = |run| line_of(run, &item_order);
    let samples = s
        .runs
        .iter()
        .filter(|r| is_handout_sample(&r.name))
        .map(line)
        .collect();
    let lines: Vec<CaseLine> = s.runs.iter().map(line).filter(|l| !l.passed()).collect();
    let groups = s
        .items
        .iter()
        .filter(|item| !item.manual)
        .filter_map(|item| {
            let failing_total = s
                .item_cases(&item.id)
                .filter(|c| c.status() != Status::Pass)
                .count();
            if failing_total == 0 {
                return None;
            }
            let first_fails_here: Vec<&CaseLine> = lines
                .iter()
                .filter(|l| l.failing_items.first() == Some(&item.id.as_str()))
                .collect();
            Some(Group {
                item: &item.id,
                failing: first_fails_here
                    .iter()
                    .filter(|l| !is_handout_sample(&l.run.name))
                    .map(|l| (*l).clone())
                    .collect(),
                candidates: first_fails_here.iter().map(|l| l.run).collect(),
                failing_total,
                cases_total: s.item_cases(&item.id).count(),
            })
        })
        .collect();
    Summary { samples, groups }
}

fn line_of<'a>(run: &'a CaseOutcome, item_order: &[&str]) -> CaseLine<'a> {
    let mut failing_items: Vec<&str> = run
        .items
        .iter()
        .filter(|verdict| verdict.status != Status::Pass)
        .map(|verdict| verdict.item.as_str())
        .collect();
    failing_items.sort_by_key(|item| item_order.iter().position(|i| i == item));
    CaseLine { run, failing_items }
}

/// The case shown in full for a group: a failing handout sample if there is one, else the
/// failure that is quickest to read (fewest input and diff lines).
pub fn example<'a>(group: &Group<'a>) -> Option<&'a CaseOutcome> {
    let shown = group
        .candidates
        .iter()
        .copied()
        .filter(|run| !run.concealed);
    shown.min_by_key(|run| {
        let size = run.stdin.lines().count() + run.diff.lines().count();
        (!is_handout_sample(&run.name), size)
    })
}

/// The summary as plain lines (no colour), for the HTML and Gradescope reports; `more` says
/// where the cases left unnamed are shown.
pub fn plain_lines(summary: &Summary, more: &str) -> Vec<String> {
    let mut out = Vec::new();
    if !summary.samples.is_empty() {
        out.push("handout samples:".to_string());
        for line in &summary.samples {
            out.push(case_line(line, None));
        }
    }
    for group in &summary.groups {
        out.push(group_heading(group));
        out.extend(group_lines(group, more));
    }
    out
}

/// "move: 22 of 53 cases fail".
pub fn group_heading(group: &Group) -> String {
    format!(
        "{}: {} of {} case{} fail{}",
        group.item,
        group.failing_total,
        group.cases_total,
        if group.cases_total == 1 { "" } else { "s" },
        if group.failing_total == 1 { "s" } else { "" }
    )
}

/// One line per listed failure, then the other failures by name (wrapped); `more` says where
/// the cases left unnamed are shown.
pub fn group_lines(group: &Group, more: &str) -> Vec<String> {
    // Hidden cases are never named: each says how it fails, or, when many do, one line.
    let (hidden, named): (Vec<&CaseLine>, Vec<&CaseLine>) =
        group.failing.iter().partition(|l| l.run.concealed);
    let mut out: Vec<String> = named
        .iter()
        .take(MAX_LISTED)
        .map(|line| case_line(line, Some(group.item)))
        .collect();
    if hidden.len() <= MAX_LISTED {
        out.extend(hidden.iter().map(|line| case_line(line, Some(group.item))));
    } else {
        let mut hows: Vec<&str> = hidden
            .iter()
            .filter_map(|l| {
                l.reason()
                    .rsplit_once('(')
                    .map(|(_, how)| how.trim_end_matches(')'))
            })
            .collect();
        hows.sort_unstable();
        hows.dedup();
        out.push(format!(
            "  ✗ {} hidden cases of item {} fail ({})",
            hidden.len(),
            group.item,
            hows.join(", ")
        ));
    }
    let rest: Vec<&str> = named
        .iter()
        .skip(MAX_LISTED)
        .map(|l| l.run.name.as_str())
        .collect();
    if !rest.is_empty() {
        out.extend(wrap_names(
            &format!("  ✗ {} more: ", rest.len()),
            &rest,
            "    ",
            MAX_NAME_LINES,
            more,
        ));
    }
    let listed_elsewhere = group.failing_total - group.failing.len();
    if listed_elsewhere > 0 {
        out.push(if group.failing.is_empty() {
            format!(
                "  ✗ all {listed_elsewhere} are listed above (a handout sample or an earlier item)"
            )
        } else {
            format!(
                "  ✗ {listed_elsewhere} more listed above (a handout sample or an earlier item)"
            )
        });
    }
    out
}

/// Lines of names are wrapped at this width.
const WRAP_WIDTH: usize = 100;

/// `✓ name` or `✗ name  reason` (with the failing items when they are not just `item`).
pub fn case_line(line: &CaseLine, item: Option<&str>) -> String {
    if line.passed() {
        return format!("  ✓ {}", line.run.name);
    }
    if line.run.concealed {
        return format!("  ✗ {}", super::safe_name(line.reason()));
    }
    let items = if item.is_some() && line.failing_items.len() == 1 {
        String::new()
    } else {
        format!(" [{}]", line.failing_items.join(", "))
    };
    // The reason quotes what the program printed: terminal controls in it (ESC, C1 CSI,
    // bidirectional overrides) are written out, as in names, never sent to the terminal.
    format!(
        "  ✗ {}{items}  {}",
        super::safe_name(&line.run.name),
        super::safe_name(line.reason())
    )
}

/// `first` then the names, comma-separated, wrapped at `WRAP_WIDTH` onto lines starting with
/// `indent`; past `max_lines` lines, the rest is counted and `more` says where they are.
pub fn wrap_names(
    first: &str,
    names: &[&str],
    indent: &str,
    max_lines: usize,
    more: &str,
) -> Vec<String> {
    let mut lines = Vec::new();
    let mut current = first.to_string();
    let mut on_line = 0;
    for (index, name) in names.iter().enumerate() {
        let piece = if index + 1 < names.len() {
            format!("{name}, ")
        } else {
            name.to_string()
        };
        if on_line > 0 && current.chars().count() + piece.chars().count() > WRAP_WIDTH {
            if lines.len() + 1 == max_lines {
                current.push_str(&format!("… and {} more ({more})", names.len() - index));
                lines.push(current);
                return lines;
            }
            lines.push(current.trim_end().to_string());
            current = indent.to_string();
            on_line = 0;
        }
        current.push_str(&piece);
        on_line += 1;
    }
    lines.push(current.trim_end().to_string());
    lines
}

/// Whether `name` matches a `--case` pattern: `*` stands for any text, `?` for one character.
pub fn matches_pattern(pattern: &str, name: &str) -> bool {
    fn here(pattern: &[char], name: &[char]) -> bool {
        match pattern.split_first() {
            None => name.is_empty(),
            Some(('*', rest)) => (0..=name.len()).any(|skip| here(rest, &name[skip..])),
            Some(('?', rest)) => !name.is_empty() && here(rest, &name[1..]),
            Some((ch, rest)) => name.first() == Some(ch) && here(rest, &name[1..]),
        }
    }
    let pattern: Vec<char> = pattern.chars().collect();
    let name: Vec<char> = name.chars().collect();
    here(&pattern, &name)
}

/// The command that reruns one case with the sanitizers, to find the line that crashed.
pub fn sanitize_command(game: &str, path: &str, case: &str) -> String {
    format!(
        "referee grade {game} {} --sanitize --case {}",
        shell_word(path),
        shell_word(case)
    )
}

fn shell_word(text: &str) -> String {
    let plain = !text.is_empty()
        && text
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "-_./+=:,@".contains(c));
    if plain {
        text.to_string()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn case_patterns_are_globs() {
        assert!(matches_pattern("start-12", "start-12"));
        assert!(!matches_pattern("start-1", "start-12"));
        assert!(matches_pattern("start-*", "start-12"));
        assert!(matches_pattern("*-1?", "start-12"));
        assert!(matches_pattern("*", ""));
        assert!(!matches_pattern("edge-*", "start-12"));
    }

    #[test]
    fn handout_samples_are_named_so() {
        assert!(is_handout_sample("handout-sample-4x4"));
        assert!(is_handout_sample("off-red-handout-23"));
        assert!(!is_handout_sample("handouts"));
    }

    #[test]
    fn names_wrap_under_the_width_and_the_rest_is_counted() {
        let long = "n".repeat(45);
        let names = [long.as_str(); 7];
        let lines = wrap_names("x: ", &names, "   ", 3, "--all");
        assert_eq!(lines.len(), 3);
        assert!(lines.iter().all(|l| l.chars().count() <= WRAP_WIDTH + 25));
        assert!(lines[2].ends_with("… and 1 more (--all)"), "{lines:?}");
        assert_eq!(
            wrap_names("x: ", &["a", "b"], " ", 3, "--all"),
            vec!["x: a, b"]
        );
    }

    #[test]
    fn the_sanitize_command_is_quoted_for_a_shell() {
        assert_eq!(
            sanitize_command("reversi", "my lab/Lab6.c", "start-12"),
            "referee grade reversi 'my lab/Lab6.c' --sanitize --case start-12"
        );
    }
}
