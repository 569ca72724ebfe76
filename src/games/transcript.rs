//! Expected output as tagged lines: every line carries the rubric item it demonstrates.

/// One expected line. `newline` is false only for a final line the program leaves open
/// (e.g. a prompt at end of input).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    pub text: String,
    pub item: &'static str,
    pub newline: bool,
}

/// Where one turn of a game starts in a transcript, so that a report can say at which turn a
/// program first went wrong and show the board the turn began with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Turn {
    /// Index of the turn's first line.
    pub first_line: usize,
    /// Who moves and with what, e.g. `turn 14, Red, rolled 5`.
    pub label: String,
    /// The board as the reference printed it before the turn.
    pub board: String,
}

/// A transcript built the way a program prints: `print` appends text; a line belongs to the
/// item that started it, so a prompt and the answer printed after it on the same line share
/// the prompt's item.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Transcript {
    lines: Vec<Line>,
    turns: Vec<Turn>,
}

impl Transcript {
    pub fn new() -> Self {
        Self::default()
    }

    /// Appends `text`, printed by the step that demonstrates rubric item `item`.
    pub fn print(&mut self, item: &'static str, text: &str) {
        let mut rest = text;
        while !rest.is_empty() {
            let open = matches!(self.lines.last(), Some(line) if !line.newline);
            if !open {
                self.lines.push(Line {
                    text: String::new(),
                    item,
                    newline: false,
                });
            }
            let line = self.lines.last_mut().expect("a line was just ensured");
            match rest.find('\n') {
                Some(at) => {
                    line.text.push_str(&rest[..at]);
                    line.newline = true;
                    rest = &rest[at + 1..];
                }
                None => {
                    line.text.push_str(rest);
                    rest = "";
                }
            }
        }
    }

    /// `print` with a newline appended.
    pub fn println(&mut self, item: &'static str, text: &str) {
        self.print(item, text);
        self.print(item, "\n");
    }

    pub fn lines(&self) -> &[Line] {
        &self.lines
    }

    /// Marks that a turn starts with the next text printed (or on the open line).
    pub fn begin_turn(&mut self, label: String, board: String) {
        let open = matches!(self.lines.last(), Some(line) if !line.newline);
        let first_line = self.lines.len() - usize::from(open);
        self.turns.push(Turn {
            first_line,
            label,
            board,
        });
    }

    /// The turn that line `index` belongs to (the last one started at or before it).
    pub fn turn_at(&self, index: usize) -> Option<&Turn> {
        self.turns.iter().rev().find(|t| t.first_line <= index)
    }

    /// The exact bytes the program should print.
    pub fn text(&self) -> String {
        let mut out = String::new();
        for line in &self.lines {
            out.push_str(&line.text);
            if line.newline {
                out.push('\n');
            }
        }
        out
    }

    /// The rubric items this transcript shows, in order of first appearance.
    pub fn items(&self) -> Vec<&'static str> {
        let mut items: Vec<&'static str> = Vec::new();
        for line in &self.lines {
            if !items.contains(&line.item) {
                items.push(line.item);
            }
        }
        items
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_belongs_to_the_item_that_started_it() {
        let mut t = Transcript::new();
        t.print("prompt", "Enter: ");
        t.println("answer", "ok");
        t.print("answer", "open");
        assert_eq!(t.text(), "Enter: ok\nopen");
        let items: Vec<_> = t.lines().iter().map(|l| (l.item, l.newline)).collect();
        assert_eq!(items, vec![("prompt", true), ("answer", false)]);
        assert_eq!(t.items(), vec!["prompt", "answer"]);
    }

    #[test]
    fn a_line_belongs_to_the_turn_started_at_or_before_it() {
        let mut t = Transcript::new();
        t.println("a", "board");
        t.begin_turn("turn 1, Red".into(), "board 1".into());
        t.print("a", "Red's move: ");
        t.begin_turn("turn 2, Blue".into(), "board 2".into());
        t.println("a", "ok");
        t.println("a", "Blue's move:");
        assert_eq!(t.turn_at(0), None);
        let label = |i| t.turn_at(i).map(|turn| turn.label.as_str());
        assert_eq!(
            label(1),
            Some("turn 2, Blue"),
            "the open line starts turn 2"
        );
        assert_eq!(label(2), Some("turn 2, Blue"));
    }

    #[test]
    fn empty_lines_are_kept() {
        let mut t = Transcript::new();
        t.print("a", "x\n\ny\n");
        assert_eq!(t.lines().len(), 3);
        assert_eq!(t.lines()[1].text, "");
        assert_eq!(t.text(), "x\n\ny\n");
    }
}
