//! The HTML report, one self-contained page: an index of pairs and the clusters, then a
//! side-by-side section per pair with the matched regions marked (`<mark class="match">`,
//! numbered alike on both sides) and the template's lines greyed (`<span class="template">`).
//! Every text from a submission is escaped.

use super::{cluster_names, matched_lines, percent, place};
use crate::report::html::escape;
use crate::similar::fingerprint::{K, WINDOW};
use crate::similar::{Compared, Comparison, Match};

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em;color:#222}\
table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left}\
.sides{display:flex;gap:1em}.side{flex:1;min-width:0}\
pre{background:#fafafa;border:1px solid #ddd;padding:.4em;overflow-x:auto;font-size:12px}\
.no{display:inline-block;width:3.5em;color:#999;user-select:none}\
mark.match{background:#ffe08a}mark.match[data-region]:hover{background:#ffb84d}\
.template{color:#aaa}.archived{font-style:italic}";

/// The page; `title` names the assignment.
pub fn render(comparison: &Comparison, title: &str) -> String {
    let documents = &comparison.documents;
    let mut out = String::new();
    out.push_str(&format!(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>Similar submissions: {}</title><style>{STYLE}</style></head><body>\n",
        escape(title)
    ));
    out.push_str(&format!(
        "<h1>Similar submissions: {}</h1>\n",
        escape(title)
    ));
    out.push_str(&format!(
        "<p>{} submissions ({} archived); pairs sharing code: {}, shown: {}. Fingerprints: runs of {K} normalised tokens, windows of {WINDOW}; the template's code and fingerprints in more than {} of the class ({} of them) are left out. Matched regions are <mark class=\"match\">marked</mark>; <span class=\"template\">grey</span> lines are the template's.</p>\n",
        documents.len(),
        documents.iter().filter(|d| d.archived).count(),
        comparison.pairs_sharing,
        comparison.pairs.len(),
        percent(comparison.options.common_share),
        comparison.common_fingerprints
    ));
    out.push_str(&format!(
        "<h2>Clusters (pairs at {} or more)</h2>\n",
        percent(comparison.options.threshold)
    ));
    if comparison.clusters.is_empty() {
        out.push_str("<p>None.</p>\n");
    } else {
        out.push_str("<ul class=\"clusters\">\n");
        for cluster in &comparison.clusters {
            let names: Vec<String> = cluster_names(comparison, cluster)
                .into_iter()
                .map(escape)
                .collect();
            out.push_str(&format!("<li>{}</li>\n", names.join(", ")));
        }
        out.push_str("</ul>\n");
    }
    out.push_str("<h2>Pairs</h2>\n<table class=\"pairs\"><tr><th>#</th><th>score</th><th>a</th><th>b</th><th>lines matched (a, b)</th></tr>\n");
    for (rank, pair) in comparison.pairs.iter().enumerate() {
        let (a_lines, b_lines) = matched_lines(&pair.matches);
        out.push_str(&format!(
            "<tr><td><a href=\"#pair-{n}\">{n}</a></td><td>{}</td><td>{}</td><td>{}</td><td>{a_lines}, {b_lines}</td></tr>\n",
            percent(pair.score),
            name_cell(&documents[pair.a]),
            name_cell(&documents[pair.b]),
            n = rank + 1
        ));
    }
    out.push_str("</table>\n");
    for (rank, pair) in comparison.pairs.iter().enumerate() {
        let (a, b) = (&documents[pair.a], &documents[pair.b]);
        out.push_str(&format!(
            "<section class=\"pair\" id=\"pair-{}\"><h2>{}. {} ~ {}: {}</h2>\n<ol class=\"regions\">\n",
            rank + 1,
            rank + 1,
            escape(&a.name),
            escape(&b.name),
            percent(pair.score)
        ));
        for m in &pair.matches {
            out.push_str(&format!(
                "<li>{} ~ {}</li>\n",
                escape(&place(a, m.a_file, m.a_lines)),
                escape(&place(b, m.b_file, m.b_lines))
            ));
        }
        out.push_str("</ol>\n<div class=\"sides\">\n");
        out.push_str(&side(a, &pair.matches, |m| (m.a_file, m.a_lines)));
        out.push_str(&side(b, &pair.matches, |m| (m.b_file, m.b_lines)));
        out.push_str("</div></section>\n");
    }
    out.push_str("</body></html>\n");
    out
}

fn name_cell(document: &Compared) -> String {
    if document.archived {
        format!(
            "<span class=\"archived\">{} (archived)</span>",
            escape(&document.name)
        )
    } else {
        escape(&document.name)
    }
}

/// One submission's files, each line marked with the region it belongs to or greyed as
/// template.
fn side(
    document: &Compared,
    matches: &[Match],
    place_of: impl Fn(&Match) -> (usize, (u32, u32)),
) -> String {
    let mut out = format!("<div class=\"side\"><h3>{}</h3>\n", escape(&document.name));
    for (at, file) in document.files.iter().enumerate() {
        let within = |line: u32, range: (u32, u32)| range.0 <= line && line <= range.1;
        out.push_str(&format!("<h4>{}</h4><pre>", escape(&file.name)));
        for (index, text) in file.text.lines().enumerate() {
            let line = u32::try_from(index + 1).unwrap_or(u32::MAX);
            let region = matches.iter().position(|m| {
                let (file_at, lines) = place_of(m);
                file_at == at && within(line, lines)
            });
            let template = file.template_lines.iter().any(|&r| within(line, r));
            let text = escape(text);
            // A match's first and last runs can reach into template lines: those stay grey.
            let body = match region {
                _ if template => format!("<span class=\"template\">{text}</span>"),
                Some(r) => format!(
                    "<mark class=\"match\" data-region=\"{}\">{text}</mark>",
                    r + 1
                ),
                None => text,
            };
            out.push_str(&format!("<span class=\"no\">{line}</span>{body}\n"));
        }
        out.push_str("</pre>\n");
    }
    out.push_str("</div>\n");
    out
}
