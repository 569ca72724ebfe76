//! `--format html`: one self-contained page for the TA (inline CSS and a few lines of JS, no
//! network). A class summary (score histogram, pass rates per item and per case, the most
//! common failing cases, groups of identical wrong output) links to a section per student
//! with build log, item table and side-by-side diffs, each linking back. Everything a student
//! controls (names, output, logs) is escaped.

use std::collections::BTreeMap;
use std::fmt::Write;

use super::groups::{self, Group};
use super::{summary, BatchReport, CaseOutcome, Status, SubmissionReport};

/// Bars in the score histogram.
const HISTOGRAM_BINS: usize = 10;
/// Rows in "most common failing cases".
const TOP_FAILING: usize = 10;
/// Case names listed for a group of identical outputs.
const GROUP_CASES_SHOWN: usize = 8;

const STYLE: &str = r#"
:root { --bad: #c62828; --good: #2e7d32; --warn: #ef6c00; --line: #d0d7de; --muted: #57606a; }
* { box-sizing: border-box; }
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; color: #1f2328; background: #f6f8fa; }
header { background: #24292f; color: #fff; padding: 12px 24px; position: sticky; top: 0; z-index: 2; }
header h1 { margin: 0; font-size: 18px; }
header a { color: #9ecbff; margin-right: 16px; }
main { padding: 16px 24px; max-width: 1400px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 12px 20px; margin-bottom: 20px; }
h2 { margin-top: 4px; }
h3 { margin: 18px 0 6px; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid var(--line); padding: 3px 10px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
.stats { display: flex; gap: 12px; flex-wrap: wrap; margin: 0; }
.stats div { border: 1px solid var(--line); border-radius: 6px; padding: 6px 14px; min-width: 130px; }
.stats dt { color: var(--muted); font-size: 12px; }
.stats dd { margin: 0; font-size: 22px; font-weight: 600; }
.histogram { display: flex; align-items: flex-end; gap: 4px; height: 160px; border-bottom: 1px solid #888; padding-top: 18px; }
.histogram .bin { flex: 1; display: flex; flex-direction: column; justify-content: flex-end; align-items: center; height: 100%; }
.histogram .bar { width: 100%; background: #0969da; min-height: 1px; }
.histogram .count { font-size: 12px; }
.histogram-labels { display: flex; gap: 4px; }
.histogram-labels span { flex: 1; text-align: center; font-size: 11px; color: var(--muted); }
.rate { display: inline-block; width: 120px; height: 10px; background: #ffebe9; border-radius: 2px; vertical-align: middle; margin-right: 6px; }
.rate span { display: block; height: 100%; background: var(--good); border-radius: 2px; }
.status-ok, .pass { color: var(--good); }
.status-bad, .fail { color: var(--bad); font-weight: 600; }
.status-warn { color: var(--warn); font-weight: 600; }
pre { background: #f6f8fa; border: 1px solid var(--line); padding: 8px; overflow-x: auto; white-space: pre-wrap; margin: 4px 0; }
details.case { border: 1px solid var(--line); border-radius: 6px; margin: 8px 0; padding: 4px 10px; }
details.case summary { cursor: pointer; font-weight: 600; }
table.diff { width: 100%; table-layout: fixed; font: 12px/1.35 ui-monospace, monospace; margin: 6px 0; }
table.diff td { border: none; padding: 0 6px; white-space: pre-wrap; word-break: break-all; }
table.diff td.ln { width: 3.5em; color: var(--muted); text-align: right; user-select: none; }
table.diff th { font: 600 12px system-ui, sans-serif; }
table.diff td.del { background: #ffebe9; }
table.diff td.add { background: #dafbe1; }
table.diff td.empty { background: #f6f8fa; }
table.diff tr.hunk td { background: #ddf4ff; color: var(--muted); }
.muted { color: var(--muted); }
.back { float: right; font-size: 12px; }
/* A heading jumped to (#student-N) lands below the sticky header, not under it. */
html { scroll-padding-top: 96px; }
pre.summary { background: #fff; }
pre.summary .pass { font-weight: 600; }
p.why { font-weight: 600; }
"#;

const SCRIPT: &str = r#"
function setCases(open) {
  document.querySelectorAll('details.case').forEach(function (d) { d.open = open; });
}
"#;

pub fn render(batch: &BatchReport) -> String {
    let groups = groups::find(batch);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>referee · {game}</title>\n<style>{STYLE}</style>\n<script>{SCRIPT}</script>\n</head>\n<body>\n<header><h1>referee · {game} · {count} submission{plural}</h1>\
         <a href=\"#summary\">Summary</a><a href=\"#students\">Students</a><a href=\"#groups\">Identical outputs</a>\
         <a href=\"javascript:setCases(true)\">Expand all cases</a><a href=\"javascript:setCases(false)\">Collapse all</a></header>\n<main>\n",
        game = escape(&batch.game),
        count = batch.submissions.len(),
        plural = if batch.submissions.len() == 1 { "" } else { "s" },
    );
    render_summary(&mut out, batch, &groups);
    for (index, submission) in batch.submissions.iter().enumerate() {
        render_student(&mut out, index, submission, true);
    }
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

/// One student's page to hand back: their section only, with no class summary and no link to
/// one.
pub fn render_feedback(game: &str, submission: &SubmissionReport) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>referee · {game}</title>\n<style>{STYLE}</style>\n<script>{SCRIPT}</script>\n</head>\n<body>\n<header><h1>referee · {game}</h1>\
         <a href=\"javascript:setCases(true)\">Expand all cases</a><a href=\"javascript:setCases(false)\">Collapse all</a></header>\n<main>\n",
        game = escape(game),
    );
    render_student(&mut out, 0, submission, false);
    out.push_str("</main>\n</body>\n</html>\n");
    out
}

fn render_summary(out: &mut String, batch: &BatchReport, groups: &[Group]) {
    let count = batch.submissions.len();
    let max = batch.submissions.first().map_or(0.0, |s| s.max_score);
    let mut scores: Vec<f64> = batch.submissions.iter().map(|s| s.score).collect();
    scores.sort_by(f64::total_cmp);
    let mean = if count == 0 {
        0.0
    } else {
        scores.iter().sum::<f64>() / count as f64
    };
    let median = match count {
        0 => 0.0,
        n if n % 2 == 1 => scores[n / 2],
        n => (scores[n / 2 - 1] + scores[n / 2]) / 2.0,
    };
    let full = batch.submissions.iter().filter(|s| s.full_marks()).count();
    let failed_builds = batch.submissions.iter().filter(|s| !s.build.ok).count();
    out.push_str("<section id=\"summary\">\n<h2>Class summary</h2>\n<dl class=\"stats\">\n");
    for (id, label, value) in [
        ("stat-submissions", "Submissions", count.to_string()),
        ("stat-mean", "Mean score", format!("{mean:.2}")),
        ("stat-median", "Median score", format!("{median:.2}")),
        ("stat-max", "Auto-graded points", points(max)),
        ("stat-full", "Full marks", full.to_string()),
        (
            "stat-build-failed",
            "Failed to build",
            failed_builds.to_string(),
        ),
    ] {
        let _ = writeln!(
            out,
            "<div><dt>{label}</dt><dd id=\"{id}\">{}</dd></div>",
            escape(&value)
        );
    }
    out.push_str("</dl>\n");
    render_histogram(out, &scores, max);
    render_item_rates(out, batch);
    render_case_rates(out, batch);
    render_groups(out, batch, groups);
    render_student_list(out, batch);
    render_skipped(out, batch);
    out.push_str("</section>\n");
}

/// The batch entries that were not graded, with the reason.
fn render_skipped(out: &mut String, batch: &BatchReport) {
    let lines = super::skipped_lines(batch);
    if lines.is_empty() {
        return;
    }
    out.push_str("<h3 id=\"skipped\">Not graded</h3>\n<ul class=\"skipped\">\n");
    for line in lines {
        let _ = writeln!(out, "<li>{}</li>", escape(&line));
    }
    out.push_str("</ul>\n");
}

fn render_histogram(out: &mut String, scores: &[f64], max: f64) {
    let mut bins = [0usize; HISTOGRAM_BINS];
    for score in scores {
        let bin = if max > 0.0 {
            ((score / max) * HISTOGRAM_BINS as f64).floor() as usize
        } else {
            HISTOGRAM_BINS - 1
        };
        bins[bin.min(HISTOGRAM_BINS - 1)] += 1;
    }
    let tallest = bins.iter().copied().max().unwrap_or(0).max(1);
    out.push_str("<h3>Score histogram</h3>\n<div class=\"histogram\" id=\"histogram\">\n");
    for (index, count) in bins.iter().enumerate() {
        let (low, high) = bin_range(index, max);
        let _ = writeln!(
            out,
            "<div class=\"bin\" title=\"{count} with {low} to {high} points\"><span class=\"count\">{}</span><div class=\"bar\" data-count=\"{count}\" style=\"height: {:.1}%\"></div></div>",
            if *count > 0 { count.to_string() } else { String::new() },
            *count as f64 * 100.0 / tallest as f64
        );
    }
    out.push_str("</div>\n<div class=\"histogram-labels\">");
    for index in 0..HISTOGRAM_BINS {
        let (low, high) = bin_range(index, max);
        let _ = write!(out, "<span>{low}–{high}</span>");
    }
    out.push_str("</div>\n");
}

fn bin_range(index: usize, max: f64) -> (String, String) {
    let width = max / HISTOGRAM_BINS as f64;
    (
        points(width * index as f64),
        points(width * (index + 1) as f64),
    )
}

/// Share of (submission, case) pairs an item passes, over the whole batch.
fn render_item_rates(out: &mut String, batch: &BatchReport) {
    let Some(first) = batch.submissions.first() else {
        return;
    };
    out.push_str("<h3>Pass rate per item</h3>\n<table id=\"item-rates\">\n<tr><th>item</th><th class=\"num\">points</th><th class=\"num\">mean</th><th>cases passed (all submissions)</th></tr>\n");
    for item in &first.items {
        let reports: Vec<_> = batch
            .submissions
            .iter()
            .filter_map(|s| s.items.iter().find(|i| i.id == item.id))
            .collect();
        if item.manual {
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td class=\"num\">{}</td><td class=\"num\">–</td><td class=\"muted\">graded by hand</td></tr>",
                escape(&item.id),
                points(item.max_score)
            );
            continue;
        }
        let total: usize = batch
            .submissions
            .iter()
            .map(|s| s.item_cases(&item.id).count())
            .sum();
        let passed: usize = batch
            .submissions
            .iter()
            .map(|s| {
                s.item_cases(&item.id)
                    .filter(|c| c.status() == Status::Pass)
                    .count()
            })
            .sum();
        let mean = reports.iter().filter_map(|i| i.score).sum::<f64>() / reports.len() as f64;
        let _ = writeln!(
            out,
            "<tr><td>{id}</td><td class=\"num\">{}</td><td class=\"num\">{mean:.2}</td><td>{} <span id=\"item-rate-{id}\">{}</span> ({passed}/{total})</td></tr>",
            points(item.max_score),
            rate_bar(passed, total),
            percent(passed, total),
            id = escape(&item.id),
        );
    }
    out.push_str("</table>\n");
}

/// Per case: how many submissions fail it, with links to them. Submissions that did not
/// build are left out: they fail every case alike and would hide which cases are hard.
fn render_case_rates(out: &mut String, batch: &BatchReport) {
    let Some(first) = batch.submissions.first() else {
        return;
    };
    let mut failing: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
    let built: Vec<usize> = (0..batch.submissions.len())
        .filter(|&i| batch.submissions[i].build.ok)
        .collect();
    for &index in &built {
        for run in batch.submissions[index].runs.iter().filter(|r| !r.passed()) {
            failing.entry(run.name.as_str()).or_default().push(index);
        }
    }
    let count = built.len();
    let mut common: Vec<(&str, &Vec<usize>)> = failing.iter().map(|(k, v)| (*k, v)).collect();
    common.sort_by(|a, b| b.1.len().cmp(&a.1.len()).then(a.0.cmp(b.0)));
    out.push_str("<h3>Most common failing cases</h3>\n");
    let unbuilt = batch.submissions.len() - count;
    if unbuilt > 0 {
        let _ = writeln!(
            out,
            "<p class=\"muted\">Counted over the {count} submissions that built ({unbuilt} did not and fail every case).</p>"
        );
    }
    if common.is_empty() {
        out.push_str("<p>No case fails.</p>\n");
    } else {
        let class = super::class::class(batch);
        out.push_str("<table id=\"common-failures\">\n<tr><th>case</th><th>items</th><th class=\"num\">failing</th><th>submissions</th><th>same wrong output</th></tr>\n");
        for (case, members) in common.iter().take(TOP_FAILING) {
            let found = class.most_failed.iter().find(|c| c.case == *case);
            let items = found.map(|c| c.items.join(", ")).unwrap_or_default();
            let same = found
                .map(|c| c.commonest_wrong_output.as_slice())
                .filter(|names| !names.is_empty())
                .map(|names| format!("{}: {}", names.len(), names.join(", ")))
                .unwrap_or_else(|| "–".into());
            let links: Vec<String> = members
                .iter()
                .map(|&i| {
                    let case_index = batch.submissions[i]
                        .runs
                        .iter()
                        .position(|r| r.name == *case)
                        .unwrap_or(0);
                    format!(
                        "<a href=\"#student-{i}-case-{case_index}\">{}</a>",
                        escape(&super::safe_name(&batch.submissions[i].name))
                    )
                })
                .collect();
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}</td><td class=\"num\">{}/{count}</td><td>{}</td><td class=\"same-output\">{}</td></tr>",
                escape(case),
                escape(&items),
                members.len(),
                links.join(", "),
                escape(&same)
            );
        }
        out.push_str("</table>\n");
    }
    out.push_str("<details><summary>Pass rate per case</summary>\n<table id=\"case-rates\">\n<tr><th>case</th><th>items</th><th>submissions passing</th></tr>\n");
    for (case_index, run) in first.runs.iter().enumerate() {
        let fails = failing.get(run.name.as_str()).map_or(0, Vec::len);
        let items: Vec<&str> = run.items.iter().map(|i| i.item.as_str()).collect();
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{} <span id=\"case-rate-{case_index}\">{}</span> ({}/{count})</td></tr>",
            escape(&run.name),
            escape(&items.join(", ")),
            rate_bar(count - fails, count),
            percent(count - fails, count),
            count - fails
        );
    }
    out.push_str("</table>\n</details>\n");
}

fn render_groups(out: &mut String, batch: &BatchReport, groups: &[Group]) {
    out.push_str("<h3 id=\"groups\">Identical wrong outputs</h3>\n");
    if groups.is_empty() {
        out.push_str("<p>No two submissions fail with byte-identical output.</p>\n");
        return;
    }
    out.push_str("<p class=\"muted\">Submissions whose failing cases and everything they printed in them are byte-identical: grade each group once (and perhaps look twice).</p>\n<ul id=\"group-list\">\n");
    for group in groups {
        let links: Vec<String> = group
            .submissions
            .iter()
            .map(|name| {
                let index = batch
                    .submissions
                    .iter()
                    .position(|s| &s.name == name)
                    .unwrap_or(0);
                format!(
                    "<a href=\"#student-{index}\">{}</a>",
                    escape(&super::safe_name(name))
                )
            })
            .collect();
        let _ = writeln!(
            out,
            "<li class=\"group\">{} — {} failing case{}: {}</li>",
            links.join(", "),
            group.failing_cases.len(),
            if group.failing_cases.len() == 1 {
                ""
            } else {
                "s"
            },
            escape(&shortened_list(&group.failing_cases, GROUP_CASES_SHOWN))
        );
    }
    out.push_str("</ul>\n");
}

/// A fact in words: lists joined, `{"called": true, "defined": false}` as
/// "called, not defined", nested objects as `name (…)`.
fn fact_text(value: &serde_json::Value) -> String {
    use serde_json::Value;
    match value {
        Value::Array(list) if list.is_empty() => "none".into(),
        Value::Array(list) => list.iter().map(fact_text).collect::<Vec<_>>().join(", "),
        Value::Object(fields) if fields.values().all(Value::is_boolean) => fields
            .iter()
            .map(|(k, v)| match v {
                Value::Bool(true) => k.clone(),
                _ => format!("not {k}"),
            })
            .collect::<Vec<_>>()
            .join(", "),
        Value::Object(fields) => fields
            .iter()
            .map(|(k, v)| format!("{k} ({})", fact_text(v)))
            .collect::<Vec<_>>()
            .join(", "),
        Value::String(text) => text.clone(),
        Value::Bool(true) => "yes".into(),
        Value::Bool(false) => "no".into(),
        other => other.to_string(),
    }
}

/// The first `shown` names, then how many more.
fn shortened_list(names: &[String], shown: usize) -> String {
    let mut text = names
        .iter()
        .take(shown)
        .cloned()
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > shown {
        let _ = write!(text, " … and {} more", names.len() - shown);
    }
    text
}

fn render_student_list(out: &mut String, batch: &BatchReport) {
    out.push_str("<h3 id=\"students\">Students</h3>\n<table id=\"student-list\">\n<tr><th>submission</th><th class=\"num\">score</th><th>status</th><th class=\"num\">failing cases</th></tr>\n");
    for (index, s) in batch.submissions.iter().enumerate() {
        let status = super::csv::status(s);
        let _ = writeln!(
            out,
            "<tr><td><a href=\"#student-{index}\">{}</a></td><td class=\"num\">{} / {}</td><td class=\"{}\">{}</td><td class=\"num\">{}</td></tr>",
            escape(&super::student_label(s)),
            points(s.score),
            points(s.max_score),
            status_class(&status),
            escape(&status),
            s.runs.iter().filter(|r| !r.passed()).count()
        );
    }
    out.push_str("</table>\n");
}

fn status_class(status: &str) -> &'static str {
    match status {
        "ok" => "status-ok",
        "build failed" => "status-bad",
        _ => "status-warn",
    }
}

fn render_student(out: &mut String, index: usize, s: &SubmissionReport, back: bool) {
    let status = super::csv::status(s);
    let back = if back {
        "<a class=\"back\" href=\"#summary\">↑ summary</a>\n"
    } else {
        ""
    };
    let _ = writeln!(
        out,
        "<section id=\"student-{index}\" class=\"student\">\n{back}<h2>{}</h2>\n<p><span class=\"score\">{} / {}</span> auto-graded points · <span class=\"{}\">{}</span> · <span class=\"muted\">{}</span></p>",
        escape(&super::student_label(s)),
        points(s.score),
        points(s.max_score),
        status_class(&status),
        escape(&status),
        escape(&super::safe_name(&s.path))
    );
    if !s.build.ok || !s.build.log.trim().is_empty() {
        let _ = writeln!(
            out,
            "<h3>Build {}</h3>\n<pre class=\"build-log\">{}</pre>",
            if s.build.ok { "log" } else { "FAILED" },
            escape(&s.build.log)
        );
    }
    for line in super::reading_notes(s) {
        let _ = writeln!(out, "<p class=\"note\">Note: {}</p>", escape(&line));
    }
    if s.build.ok {
        render_case_summary(out, s);
    }
    out.push_str("<table class=\"items\">\n<tr><th>item</th><th class=\"num\">points</th><th>cases passed</th></tr>\n");
    for item in &s.items {
        let cases = s.item_cases(&item.id).count();
        let passed = s
            .item_cases(&item.id)
            .filter(|c| c.status() == Status::Pass)
            .count();
        let (score, cases) = match item.score {
            None => ("–".to_string(), "graded by hand".to_string()),
            Some(score) => (points(score), format!("{passed}/{cases}")),
        };
        let _ = writeln!(
            out,
            "<tr><td>{}</td><td class=\"num\">{score} / {}</td><td>{cases}</td></tr>",
            escape(&item.id),
            points(item.max_score)
        );
    }
    out.push_str("</table>\n");
    for line in super::changes::lines(s) {
        let _ = writeln!(out, "<p class=\"changes\">{}</p>", escape(&line));
    }
    if !s.facts.is_empty() {
        let facts: Vec<String> = s
            .facts
            .iter()
            .map(|(k, v)| format!("{k}: {}", fact_text(v)))
            .collect();
        let _ = writeln!(
            out,
            "<p class=\"muted facts\">{}</p>",
            escape(&facts.join(" · "))
        );
    }
    let failing: Vec<(usize, &CaseOutcome)> = s
        .runs
        .iter()
        .enumerate()
        .filter(|(_, r)| !r.passed())
        .collect();
    if failing.is_empty() {
        out.push_str("<p class=\"pass\">Every case passes.</p>\n");
    } else if !s.build.ok {
        let _ = writeln!(
            out,
            "<p class=\"fail\">No case could run ({} cases): the build failed.</p>",
            failing.len()
        );
    } else {
        let _ = writeln!(
            out,
            "<h3>Failing cases: {} of {}</h3>",
            failing.len(),
            s.runs.len()
        );
        for (case_index, run) in failing {
            render_case(out, index, case_index, run);
        }
    }
    out.push_str("</section>\n");
}

/// The text report's summary: handout samples, then each failing item's cases with a reason.
fn render_case_summary(out: &mut String, s: &SubmissionReport) {
    let lines = summary::plain_lines(&summary::summarize(s), "below");
    if lines.is_empty() {
        return;
    }
    out.push_str("<pre class=\"summary\">");
    for line in lines {
        let marked = if let Some(rest) = line.strip_prefix("  ✓") {
            format!("  <span class=\"pass\">✓</span>{}", escape(rest))
        } else if let Some(rest) = line.strip_prefix("  ✗") {
            format!("  <span class=\"fail\">✗</span>{}", escape(rest))
        } else if line.starts_with(' ') {
            escape(&line)
        } else {
            format!("<b>{}</b>", escape(&line))
        };
        out.push_str(&marked);
        out.push('\n');
    }
    out.push_str("</pre>\n");
}

fn render_case(out: &mut String, student: usize, case_index: usize, run: &CaseOutcome) {
    let statuses: Vec<String> = run
        .items
        .iter()
        .map(|i| format!("{} {}", i.item, i.status.as_str()))
        .collect();
    let _ = writeln!(
        out,
        "<details class=\"case\" id=\"student-{student}-case-{case_index}\" open>\n<summary><span class=\"fail\">✗</span> {} <span class=\"muted\">[{}]</span></summary>",
        escape(&run.name),
        escape(&statuses.join(", "))
    );
    if let Some(description) = &run.description {
        let _ = writeln!(out, "<p>What it tests: {}</p>", escape(description));
    }
    let _ = writeln!(out, "<p>Ended: {}</p>", escape(&run.ended));
    if !run.args.is_empty() {
        let _ = writeln!(
            out,
            "<p>Arguments: <code>{}</code></p>",
            escape(&format!("{:?}", run.args))
        );
    }
    if !run.stdin.is_empty() {
        let _ = writeln!(
            out,
            "<details><summary>Input</summary><pre class=\"stdin\">{}</pre></details>",
            escape(&run.stdin)
        );
    }
    let explanation = &run.explanation;
    if !explanation.reason.is_empty() {
        let _ = writeln!(
            out,
            "<p class=\"why\">Why: {}</p>",
            escape(&explanation.reason)
        );
    }
    for hint in &explanation.hints {
        let _ = writeln!(out, "<p class=\"hint\">Hint: {}</p>", escape(hint));
    }
    if let Some(divergence) = &explanation.divergence {
        let _ = writeln!(
            out,
            "<p>The reference's board before {}:</p>\n<pre class=\"board\">{}</pre>",
            escape(&divergence.turn),
            escape(&divergence.board)
        );
    }
    for note in &run.notes {
        let _ = writeln!(out, "<p class=\"note\">Note: {}</p>", escape(note));
    }
    if !run.diff.is_empty() {
        let _ = writeln!(out, "<p class=\"muted\">{}</p>", run.mismatch.describe());
        render_diff(out, &run.diff);
    }
    if !run.stderr.trim().is_empty() {
        let _ = writeln!(
            out,
            "<details><summary>Standard error</summary><pre class=\"stderr\">{}</pre></details>",
            escape(&run.stderr)
        );
    }
    out.push_str("<a class=\"back\" href=\"#summary\">↑ summary</a>\n</details>\n");
}

/// One row of the side-by-side view: (line number, text) on each side, either may be empty.
type Row = (Option<(usize, String)>, Option<(usize, String)>);

/// Turns the unified diff into a two-column table: expected on the left, the program's output
/// on the right, removed and added lines paired row by row.
fn render_diff(out: &mut String, diff: &str) {
    out.push_str("<table class=\"diff\">\n<colgroup><col style=\"width:3.5em\"><col><col style=\"width:3.5em\"><col></colgroup>\n<tr><th></th><th>expected</th><th></th><th>your output</th></tr>\n");
    let mut removed: Vec<(usize, String)> = Vec::new();
    let mut added: Vec<(usize, String)> = Vec::new();
    let (mut left, mut right) = (0usize, 0usize);
    let flush =
        |out: &mut String, removed: &mut Vec<(usize, String)>, added: &mut Vec<(usize, String)>| {
            let rows = removed.len().max(added.len());
            let mut removed = removed.drain(..);
            let mut added = added.drain(..);
            for _ in 0..rows {
                push_row(out, (removed.next(), added.next()), "del", "add");
            }
        };
    for line in diff.lines() {
        if line.starts_with("--- ") || line.starts_with("+++ ") {
            continue;
        }
        if let Some(header) = line.strip_prefix("@@ ") {
            flush(out, &mut removed, &mut added);
            (left, right) = hunk_starts(header);
            let _ = writeln!(
                out,
                "<tr class=\"hunk\"><td colspan=\"4\">@@ {}</td></tr>",
                escape(header)
            );
        } else if let Some(text) = line.strip_prefix('-') {
            removed.push((left, text.to_string()));
            left += 1;
        } else if let Some(text) = line.strip_prefix('+') {
            added.push((right, text.to_string()));
            right += 1;
        } else if let Some(text) = line.strip_prefix(' ') {
            flush(out, &mut removed, &mut added);
            push_row(
                out,
                (
                    Some((left, text.to_string())),
                    Some((right, text.to_string())),
                ),
                "",
                "",
            );
            left += 1;
            right += 1;
        } else if line.starts_with('\\') {
            // "no newline at end of line" belongs to the line just before it.
            let note = (0, line.to_string());
            match (added.is_empty(), removed.is_empty()) {
                (false, _) => added.push(note),
                (true, false) => removed.push(note),
                (true, true) => push_row(out, (Some(note.clone()), Some(note)), "", ""),
            }
        } else {
            flush(out, &mut removed, &mut added);
            let _ = writeln!(
                out,
                "<tr class=\"hunk\"><td colspan=\"4\">{}</td></tr>",
                escape(line)
            );
        }
    }
    flush(out, &mut removed, &mut added);
    out.push_str("</table>\n");
}

fn push_row(out: &mut String, (old, new): Row, old_class: &str, new_class: &str) {
    let cell = |side: Option<(usize, String)>, class: &str| match side {
        Some((number, text)) => format!(
            "<td class=\"ln\">{}</td><td class=\"{class}\">{}</td>",
            if number > 0 {
                number.to_string()
            } else {
                String::new()
            },
            escape(&text)
        ),
        None => "<td class=\"ln\"></td><td class=\"empty\"></td>".to_string(),
    };
    let _ = writeln!(
        out,
        "<tr>{}{}</tr>",
        cell(old, old_class),
        cell(new, new_class)
    );
}

/// First line numbers of a hunk header's body ("-21,18 +21,18 @@").
fn hunk_starts(header: &str) -> (usize, usize) {
    let number = |prefix: char| {
        header
            .split_whitespace()
            .find_map(|part| part.strip_prefix(prefix))
            .and_then(|range| range.split(',').next())
            .and_then(|start| start.parse::<usize>().ok())
            .unwrap_or(1)
            .max(1)
    };
    (number('-'), number('+'))
}

fn rate_bar(passed: usize, total: usize) -> String {
    let share = if total == 0 {
        0.0
    } else {
        passed as f64 * 100.0 / total as f64
    };
    format!("<span class=\"rate\"><span style=\"width: {share:.1}%\"></span></span>")
}

fn percent(passed: usize, total: usize) -> String {
    if total == 0 {
        "–".into()
    } else {
        format!("{:.1}%", passed as f64 * 100.0 / total as f64)
    }
}

fn points(value: f64) -> String {
    let text = format!("{value:.2}");
    text.trim_end_matches('0').trim_end_matches('.').to_string()
}

/// HTML text and attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for ch in text.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn facts_read_as_words() {
        let helpers = serde_json::json!({"isLegal": {"called": true, "defined": false}});
        assert_eq!(fact_text(&helpers), "isLegal (called, not defined)");
        assert_eq!(fact_text(&serde_json::json!([])), "none");
        assert_eq!(fact_text(&serde_json::json!(["a", "b"])), "a, b");
        assert_eq!(fact_text(&serde_json::json!(3)), "3");
    }

    #[test]
    fn long_case_lists_are_cut() {
        let names: Vec<String> = (1..=4).map(|i| format!("c{i}")).collect();
        assert_eq!(shortened_list(&names, 2), "c1, c2 … and 2 more");
        assert_eq!(shortened_list(&names, 4), "c1, c2, c3, c4");
    }

    #[test]
    fn student_text_cannot_open_tags() {
        assert_eq!(
            escape("<script>alert('x')</script>&\""),
            "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;&amp;&quot;"
        );
    }

    #[test]
    fn a_unified_diff_becomes_paired_rows() {
        let diff =
            "--- expected\n+++ your output\n@@ -2,3 +2,3 @@\n same\n-old <b>\n+new\n same2\n";
        let mut out = String::new();
        render_diff(&mut out, diff);
        assert!(out.contains("<td class=\"ln\">3</td><td class=\"del\">old &lt;b&gt;</td><td class=\"ln\">3</td><td class=\"add\">new</td>"), "{out}");
        assert!(
            out.contains("<td class=\"ln\">2</td><td class=\"\">same</td>"),
            "{out}"
        );
        assert!(
            out.contains("<td class=\"ln\">4</td><td class=\"\">same2</td>"),
            "{out}"
        );
        assert!(!out.contains("<b>"));
    }

    #[test]
    fn unpaired_lines_leave_the_other_side_empty() {
        let diff = "@@ -1,1 +1,2 @@\n a\n+extra\n";
        let mut out = String::new();
        render_diff(&mut out, diff);
        assert!(out.contains("<td class=\"ln\"></td><td class=\"empty\"></td><td class=\"ln\">2</td><td class=\"add\">extra</td>"), "{out}");
    }
}
