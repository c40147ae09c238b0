use super::lowercase::lowercase;

/// Akka.NET's `WildcardMatch.Like`, used by actor selections: the whole of
/// `text` must match `pattern`, where `*` matches any run of characters and
/// `?` any one character. Everything else is literal, compared without regard
/// to case.
///
/// Runs in O(text × pattern) time at worst, with no allocation.
///
/// ```
/// use leanwire_core::actor::wildcard_match;
///
/// assert!(wildcard_match("Worker-1", "work*-?"));
/// assert!(!wildcard_match("worker", "w.rker"));
/// ```
pub fn wildcard_match(text: &str, pattern: &str) -> bool {
    let (mut text_rest, mut pattern_rest) = (text, pattern);
    // After a mismatch, retry from the last `*` with one more character eaten.
    let mut retry: Option<(&str, &str)> = None;
    loop {
        let mut p = pattern_rest.chars();
        let mut t = text_rest.chars();
        match (p.next(), t.next()) {
            (Some('*'), _) => {
                pattern_rest = p.as_str();
                retry = Some((pattern_rest, text_rest));
                continue;
            }
            (None, None) => return true,
            (Some('?'), Some(_)) => {}
            (Some(a), Some(b)) if a == b || lowercase(a) == lowercase(b) => {}
            _ => {
                let Some((after_star, eaten)) = retry else {
                    return false;
                };
                let mut e = eaten.chars();
                if e.next().is_none() {
                    return false;
                }
                retry = Some((after_star, e.as_str()));
                pattern_rest = after_star;
                text_rest = e.as_str();
                continue;
            }
        }
        pattern_rest = p.as_str();
        text_rest = t.as_str();
    }
}

#[cfg(test)]
mod tests {
    use super::wildcard_match;

    #[test]
    fn star_matches_empty_and_runs() {
        assert!(wildcard_match("", "*"));
        assert!(wildcard_match("abc", "a*c"));
        assert!(wildcard_match("ac", "a*c"));
        assert!(!wildcard_match("ab", "a*c"));
    }

    #[test]
    fn backtracks_past_a_false_start() {
        assert!(wildcard_match("abcbcd", "a*bcd"));
    }

    #[test]
    fn ignores_case() {
        assert!(wildcard_match("WORKER", "work?r"));
    }

    #[test]
    fn regex_metacharacters_are_literal() {
        assert!(wildcard_match("w$r^k.", "w$r^k."));
        assert!(!wildcard_match("wxrk", "w.rk"));
    }
}
