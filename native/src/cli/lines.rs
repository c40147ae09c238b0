//! Each input in turn, where `-` stands for the lines of stdin.

use std::io::{self, BufRead, Write};

/// Runs `report` on each of `inputs`, which writes its line (with
/// [`json_line`](super::json_line)); an input of `-` stands for each line
/// of `stdin` (without its `\n` or `\r\n`). Flushes `out` at the end.
pub fn each_input<W: Write>(
    inputs: &[String],
    mut stdin: impl BufRead,
    out: &mut W,
    mut report: impl FnMut(&mut W, &str) -> io::Result<()>,
) -> io::Result<()> {
    for input in inputs {
        if input != "-" {
            report(out, input)?;
            continue;
        }
        let mut line = String::new();
        while stdin.read_line(&mut line)? != 0 {
            let text = line.strip_suffix('\n').unwrap_or(&line);
            report(out, text.strip_suffix('\r').unwrap_or(text))?;
            line.clear();
        }
    }
    out.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dash_reads_each_line_of_stdin_in_its_place() {
        let inputs = ["a".to_string(), "-".to_string(), "z".to_string()];
        let mut out = Vec::new();
        each_input(&inputs, &b"b\r\nc\n\nd"[..], &mut out, |out, input| {
            writeln!(out, "[{input}]")
        })
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "[a]\n[b]\n[c]\n[]\n[d]\n[z]\n"
        );
    }
}
