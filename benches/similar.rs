//! What `referee similar` costs on a class: `STUDENTS` (default 1,000) generated C
//! submissions of about 300 lines, each file one student's, all starting from one 35-line
//! template (given with `--template`). A tenth of them are planted copies of another student's
//! program, disguised: every name changed, functions shuffled, one line in five rewritten.
//!
//! Runs the release binary end to end (reading the files, parsing, fingerprinting, ranking,
//! writing JSON) `RUNS` times (default 3) and prints the median wall time, the peak resident
//! memory of the runs, and the precision at k of the ranking (k = the planted copies: the
//! share of the k best pairs that are a copy and its source, or two copies of one source).
//!
//! `cargo bench --bench similar` (STUDENTS=200 RUNS=1 for a quick look)

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;
use std::time::Instant;

/// splitmix64: a small fixed generator, so every run writes the same class.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    fn below(&mut self, limit: usize) -> usize {
        (self.next() % limit as u64) as usize
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len())]
    }
}

const TEMPLATE: &str = "#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n\n#define SIZE 8\n#define EMPTY '.'\n\nstruct game {\n    char board[SIZE][SIZE];\n    int turn;\n    int scores[2];\n};\n\nvoid printBoard(struct game *g);\nint legalMove(struct game *g, int row, int col);\nint countPieces(struct game *g, char who);\n\nvoid printBoard(struct game *g)\n{\n    for (int r = 0; r < SIZE; r++) {\n        for (int c = 0; c < SIZE; c++) {\n            putchar(g->board[r][c]);\n        }\n        putchar('\\n');\n    }\n}\n\nint main(void)\n{\n    struct game g;\n    memset(&g, 0, sizeof g);\n    printBoard(&g);\n    return 0;\n}\n\n";

/// One student's names: the same program with other names is a renamed copy.
struct Names {
    vars: Vec<String>,
    functions: Vec<String>,
}

fn names(random: &mut Random, student: usize) -> Names {
    let stems = [
        "val", "tmp", "cnt", "idx", "acc", "pos", "lim", "off", "sum", "cur",
    ];
    let verbs = [
        "check", "count", "update", "scan", "apply", "find", "score", "move",
    ];
    Names {
        vars: (0..8)
            .map(|i| format!("{}{}_{student}", stems[random.below(stems.len())], i))
            .collect(),
        functions: (0..16)
            .map(|i| format!("{}{}_{student}", verbs[random.below(verbs.len())], i))
            .collect(),
    }
}

fn expression(random: &mut Random, vars: &[String], depth: usize) -> String {
    if depth == 0 || random.below(3) == 0 {
        return match random.below(4) {
            0 => random.below(100).to_string(),
            1 => format!(
                "g->board[{}][{}]",
                vars[random.below(vars.len())],
                random.below(8)
            ),
            _ => vars[random.below(vars.len())].clone(),
        };
    }
    let op = random.pick(&[
        "+", "-", "*", "/", "%", "<<", "&", "|", "^", "<", "==", "&&",
    ]);
    format!(
        "({} {op} {})",
        expression(random, vars, depth - 1),
        expression(random, vars, depth - 1)
    )
}

/// One statement (and, for blocks, what they hold), one per line.
fn statement(random: &mut Random, vars: &[String], indent: usize, out: &mut Vec<String>) {
    let pad = "    ".repeat(indent);
    let v = |random: &mut Random| vars[random.below(vars.len())].clone();
    match random.below(7) {
        0 if indent < 3 => {
            let i = v(random);
            out.push(format!("{pad}for ({i} = 0; {i} < SIZE; {i}++) {{"));
            for _ in 0..1 + random.below(3) {
                statement(random, vars, indent + 1, out);
            }
            out.push(format!("{pad}}}"));
        }
        1 if indent < 3 => {
            out.push(format!("{pad}if {} {{", expression(random, vars, 2)));
            statement(random, vars, indent + 1, out);
            out.push(format!("{pad}}} else {{"));
            statement(random, vars, indent + 1, out);
            out.push(format!("{pad}}}"));
        }
        2 if indent < 3 => {
            out.push(format!(
                "{pad}while ({} > {}) {{",
                v(random),
                random.below(9)
            ));
            out.push(format!("{pad}    {}--;", v(random)));
            out.push(format!("{pad}}}"));
        }
        3 => out.push(format!(
            "{pad}printf(\"%d %d\\n\", {}, {});",
            v(random),
            expression(random, vars, 1)
        )),
        4 => out.push(format!(
            "{pad}g->scores[{}] += {};",
            random.below(2),
            expression(random, vars, 2)
        )),
        _ => out.push(format!(
            "{pad}{} = {};",
            v(random),
            expression(random, vars, 3)
        )),
    }
}

/// A student's program: functions of about 17 lines each until about 270 lines.
fn program(random: &mut Random, names: &Names) -> Vec<Vec<String>> {
    let mut functions = Vec::new();
    let mut lines = 0;
    let mut at = 0;
    while lines < 270 && at < names.functions.len() {
        let mut body = vec![
            format!(
                "int {}(struct game *g, int {})",
                names.functions[at], names.vars[0]
            ),
            "{".to_string(),
        ];
        body.push(format!("    int {};", names.vars[1..].join(", ")));
        while body.len() < 16 {
            statement(random, &names.vars, 1, &mut body);
        }
        body.push(format!(
            "    return {};",
            expression(random, &names.vars, 2)
        ));
        body.push("}".to_string());
        lines += body.len() + 1;
        functions.push(body);
        at += 1;
    }
    functions
}

/// The copy of `source`: other names, functions shuffled, one line in five rewritten.
fn disguise(
    random: &mut Random,
    source: &[Vec<String>],
    from: &Names,
    to: &Names,
) -> Vec<Vec<String>> {
    let mut functions: Vec<Vec<String>> = source
        .iter()
        .map(|body| {
            body.iter()
                .map(|line| {
                    let mut line = line.clone();
                    for (old, new) in from
                        .vars
                        .iter()
                        .zip(&to.vars)
                        .chain(from.functions.iter().zip(&to.functions))
                    {
                        line = line.replace(old.as_str(), new);
                    }
                    line
                })
                .collect()
        })
        .collect();
    for body in &mut functions {
        for at in 3..body.len().saturating_sub(2) {
            if random.below(5) == 0 {
                body[at] = format!(
                    "    {} = {};",
                    to.vars[random.below(to.vars.len())],
                    expression(random, &to.vars, 2)
                );
            }
        }
    }
    for at in (1..functions.len()).rev() {
        functions.swap(at, random.below(at + 1));
    }
    functions
}

fn text(functions: &[Vec<String>]) -> String {
    let mut out = String::from(TEMPLATE);
    for body in functions {
        for line in body {
            let _ = writeln!(out, "{line}");
        }
        out.push('\n');
    }
    out
}

/// Writes the class; returns the planted pairs (copy, source) by student name and the mean lines.
fn write_class(dir: &Path, students: usize) -> (BTreeSet<(String, String)>, usize) {
    let mut random = Random(2026);
    let copies = students / 10;
    let mut programs: Vec<(Names, Vec<Vec<String>>)> = Vec::new();
    let mut planted = BTreeSet::new();
    let mut lines = 0;
    for student in 0..students {
        let own = names(&mut random, student);
        let functions = if student >= students - copies {
            let source = random.below(students - copies);
            planted.insert((format!("s{student:04}"), format!("s{source:04}")));
            disguise(&mut random, &programs[source].1, &programs[source].0, &own)
        } else {
            program(&mut random, &own)
        };
        let body = text(&functions);
        lines += body.lines().count();
        std::fs::write(dir.join(format!("s{student:04}.c")), body).expect("write a submission");
        programs.push((own, functions));
    }
    (planted, lines / students)
}

fn main() {
    let env = |name: &str, default: usize| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    let students = env("STUDENTS", 1000);
    let runs = env("RUNS", 3);
    let scratch = tempfile::tempdir().expect("a scratch folder");
    let class = scratch.path().join("class");
    std::fs::create_dir_all(&class).expect("mkdir");
    let template = scratch.path().join("template.c");
    std::fs::write(&template, TEMPLATE).expect("write the template");
    let (planted, mean_lines) = write_class(&class, students);
    let report = scratch.path().join("similar.json");
    let mut seconds = Vec::new();
    for _ in 0..runs {
        let _ = std::fs::remove_file(&report);
        let start = Instant::now();
        let status = Command::new(env!("CARGO_BIN_EXE_referee"))
            .args(["similar", "othello"])
            .arg(&class)
            .arg("--template")
            .arg(&template)
            .args(["--top", "500", "--format", "json", "-o"])
            .arg(&report)
            .status()
            .expect("referee runs");
        seconds.push(start.elapsed().as_secs_f64());
        assert!(status.success(), "referee similar failed");
    }
    // The largest resident set of any child so far: the runs above.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: getrusage writes into the zeroed struct it is given.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut usage) };
    let peak_mb = usage.ru_maxrss as f64 / 1024.0;
    seconds.sort_by(f64::total_cmp);
    let median = seconds[seconds.len() / 2];
    let json: serde_json::Value =
        serde_json::from_slice(&std::fs::read(&report).expect("the report")).expect("JSON");
    let pairs = json["pairs"].as_array().cloned().unwrap_or_default();
    let k = planted.len();
    // Two copies of one program are a copy pair too: each student maps to the original.
    let original = |name: &str| {
        planted
            .iter()
            .find(|(copy, _)| copy == name)
            .map_or(name.to_string(), |(_, source)| source.clone())
    };
    let hits = pairs
        .iter()
        .take(k)
        .filter(|p| {
            let (a, b) = (p["a"].as_str().unwrap_or(""), p["b"].as_str().unwrap_or(""));
            original(a) == original(b)
        })
        .count();
    println!(
        "| students | lines each | cores | median s (of {runs}) | peak MB | precision at {k} |"
    );
    println!("|---|---|---|---|---|---|");
    println!(
        "| {students} | {mean_lines} | {} | {median:.2} | {peak_mb:.0} | {hits}/{k} = {:.3} |",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        hits as f64 / k.max(1) as f64
    );
}
