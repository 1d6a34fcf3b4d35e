//! What a child process said on stderr, as one line for an attempt's error:
//! a Rust panic's message and place (never its backtrace), else its last
//! `error:` line (the solver's one-line message for bad input), else its
//! last line.

/// At most this many characters of a message are kept.
const MAX_CHARS: usize = 300;

/// `": MESSAGE"` from a child's stderr, or `""` when it said nothing.
pub(crate) fn tail(stderr: &[u8]) -> String {
    let text = String::from_utf8_lossy(stderr);
    let lines: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect();
    let said = if let Some(i) = lines.iter().position(|l| l.contains("panicked at")) {
        let place = lines[i]
            .split("panicked at")
            .nth(1)
            .unwrap_or("")
            .trim()
            .trim_end_matches(':');
        let message = lines
            .get(i + 1)
            .filter(|l| !l.starts_with("note:") && !l.starts_with("stack backtrace"))
            .copied()
            .unwrap_or("no message");
        format!("panicked: {message} (at {place})")
    } else if let Some(l) = lines.iter().rev().find(|l| l.starts_with("error:")) {
        l["error:".len()..].trim().to_string()
    } else if let Some(l) = lines.last() {
        l.to_string()
    } else {
        return String::new();
    };
    let mut short: String = said.chars().take(MAX_CHARS).collect();
    if short.len() < said.len() {
        short.push_str("...");
    }
    format!(": {short}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_is_its_message_and_place_without_the_backtrace() {
        let stderr = b"progress 10%\nthread 'main' panicked at solver/src/store/table.rs:88:9:\n\
            position keys wider than 4096 bits are not supported\nstack backtrace:\n   0: rust_begin_unwind\n\
            note: Some details are omitted\n";
        assert_eq!(
            tail(stderr),
            ": panicked: position keys wider than 4096 bits are not supported \
             (at solver/src/store/table.rs:88:9)"
        );
    }

    #[test]
    fn an_error_line_or_the_last_line_is_the_message() {
        assert_eq!(
            tail(b"progress\nerror: p.txt:3:1: unknown character U+0000\nhint\n"),
            ": p.txt:3:1: unknown character U+0000"
        );
        assert_eq!(tail(b"a\n\nb\n"), ": b");
        assert_eq!(tail(b"\n \n"), "");
        assert_eq!(tail("x".repeat(400).as_bytes()).len(), 2 + MAX_CHARS + 3);
    }
}
