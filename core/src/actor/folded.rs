use core::cmp::Ordering;
use core::fmt::{self, Write as _};
use core::hash::{Hash, Hasher};

use super::lowercase::lowercase;

/// A borrowed string that reads as its lowercase form when Akka.NET would have
/// lower-cased it (`ToLowerInvariant` on the protocol and the host).
///
/// The input is never copied: a view keeps the original bytes and folds case
/// as it compares, hashes and prints. When the text has no uppercase letter,
/// [`as_str`](Self::as_str) gives it back as a plain `&str`.
#[derive(Copy, Clone, Debug)]
pub struct Folded<'a> {
    raw: &'a str,
    lower: bool,
}

impl<'a> Folded<'a> {
    /// `text` as it is, with no case folding.
    pub const fn verbatim(text: &'a str) -> Self {
        Folded {
            raw: text,
            lower: false,
        }
    }

    /// `text` read in lowercase. Folding is skipped when there is nothing to fold.
    pub fn lowercase(text: &'a str) -> Self {
        Folded {
            raw: text,
            lower: text.bytes().any(Self::would_fold),
        }
    }

    /// `text` read in lowercase when `folds`, which must be true when any
    /// byte of it [would fold](Self::would_fold).
    pub(crate) const fn folding_if(text: &'a str, folds: bool) -> Self {
        Folded {
            raw: text,
            lower: folds,
        }
    }

    /// Whether lowercasing might change this byte: an ASCII capital, or any
    /// byte of a non-ASCII character.
    pub(crate) const fn would_fold(b: u8) -> bool {
        b.is_ascii_uppercase() || !b.is_ascii()
    }

    /// The original text, as it appeared in the input.
    pub const fn raw(&self) -> &'a str {
        self.raw
    }

    /// Whether the text is read in lowercase: false when it reads as it is.
    pub(crate) const fn folds(&self) -> bool {
        self.lower
    }

    /// The text as it reads, when that is the original text unchanged.
    pub fn as_str(&self) -> Option<&'a str> {
        if !self.lower {
            return Some(self.raw);
        }
        // Up to the first byte that might fold, the text reads as it is.
        let Some(at) = self.raw.bytes().position(Self::would_fold) else {
            return Some(self.raw);
        };
        if self.raw.as_bytes()[at].is_ascii_uppercase() {
            return None;
        }
        // A non-ASCII character, which may or may not have a lowercase form
        // of its own; `at` is its first byte, so a char boundary.
        let rest = &self.raw[at..];
        Folded::folding_if(rest, true)
            .chars()
            .eq(rest.chars())
            .then_some(self.raw)
    }

    /// Whether the text reads as nothing at all.
    pub const fn is_empty(&self) -> bool {
        self.raw.is_empty()
    }

    /// The characters as the text reads.
    pub fn chars(&self) -> Chars<'a> {
        Chars {
            inner: self.raw.chars(),
            lower: self.lower,
            pending: None,
        }
    }

    /// Compares as Akka does, ordinally by UTF-16 code unit.
    pub fn cmp_ordinal(&self, other: &Folded<'_>) -> Ordering {
        if !self.lower && !other.lower {
            return cmp_utf16(self.raw, other.raw);
        }
        utf16_units(self.chars()).cmp(utf16_units(other.chars()))
    }
}

/// Ordinal string comparison by UTF-16 code unit, the order of .NET's
/// `string.CompareOrdinal` and Java's `String.compareTo`.
///
/// UTF-8 byte order agrees with it except when a character above U+FFFF meets
/// one in U+E000..=U+FFFF, so the bytes decide unless that happens.
pub fn cmp_utf16(a: &str, b: &str) -> Ordering {
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    let Some(i) = ab.iter().zip(bb).position(|(x, y)| x != y) else {
        return ab.len().cmp(&bb.len());
    };
    // Both strings agree up to `i`, so they share the char boundary before it.
    let start = (0..=i).rev().find(|&j| a.is_char_boundary(j)).unwrap_or(0);
    match (a[start..].chars().next(), b[start..].chars().next()) {
        (Some(x), Some(y)) => {
            let (mut ux, mut uy) = ([0u16; 2], [0u16; 2]);
            let (ux, uy): (&[u16], &[u16]) = (x.encode_utf16(&mut ux), y.encode_utf16(&mut uy));
            ux.cmp(uy)
        }
        _ => ab[i].cmp(&bb[i]),
    }
}

/// The UTF-16 code units of `chars`.
pub(crate) fn utf16_units(chars: impl Iterator<Item = char>) -> impl Iterator<Item = u16> {
    chars.flat_map(|c| {
        let mut buf = [0u16; 2];
        let n = c.encode_utf16(&mut buf).len();
        buf.into_iter().take(n)
    })
}

/// The characters of a [`Folded`] string, as it reads.
#[derive(Clone, Debug)]
pub struct Chars<'a> {
    inner: core::str::Chars<'a>,
    lower: bool,
    pending: Option<char>,
}

impl Iterator for Chars<'_> {
    type Item = char;

    fn next(&mut self) -> Option<char> {
        if let Some(c) = self.pending.take() {
            return Some(c);
        }
        let c = self.inner.next()?;
        if !self.lower {
            return Some(c);
        }
        let (first, second) = lowercase(c);
        self.pending = second;
        Some(first)
    }
}

impl PartialEq for Folded<'_> {
    fn eq(&self, other: &Self) -> bool {
        if !self.lower && !other.lower {
            self.raw == other.raw
        } else {
            self.chars().eq(other.chars())
        }
    }
}

impl Eq for Folded<'_> {}

impl PartialEq<str> for Folded<'_> {
    fn eq(&self, other: &str) -> bool {
        if self.lower {
            self.chars().eq(other.chars())
        } else {
            self.raw == other
        }
    }
}

impl PartialEq<&str> for Folded<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl Hash for Folded<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for c in self.chars() {
            state.write_u32(c as u32);
        }
        state.write_u8(0xff);
    }
}

impl PartialOrd for Folded<'_> {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Folded<'_> {
    fn cmp(&self, other: &Self) -> Ordering {
        self.cmp_ordinal(other)
    }
}

impl fmt::Display for Folded<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.lower {
            return f.write_str(self.raw);
        }
        self.chars().try_for_each(|c| f.write_char(c))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowercase_reads_folded() {
        let f = Folded::lowercase("AkKa.TCP");
        assert_eq!(f.raw(), "AkKa.TCP");
        assert_eq!(f.as_str(), None);
        assert!(f == "akka.tcp");
        assert_eq!(f, Folded::verbatim("akka.tcp"));
    }

    #[test]
    fn lowercase_without_uppercase_is_plain() {
        assert_eq!(Folded::lowercase("akka").as_str(), Some("akka"));
        assert_eq!(Folded::lowercase("héllo").as_str(), Some("héllo"));
    }

    #[test]
    fn as_str_is_the_text_when_folding_changes_nothing() {
        for text in [
            "",
            "host",
            "HOST",
            "hOst",
            "héllo",
            "hÉllo",
            "héLlo",
            "ÄÖ",
            "ß",
            "İ",
            "a\u{1f600}B",
        ] {
            for folds in [false, true] {
                let f = Folded::folding_if(text, folds || text.bytes().any(Folded::would_fold));
                let unchanged = f.chars().eq(text.chars());
                assert_eq!(f.as_str(), unchanged.then_some(text), "{text:?}");
            }
        }
    }

    #[test]
    fn folded_and_verbatim_compare_as_they_read() {
        let folded = Folded::lowercase("Host");
        let verbatim = Folded::verbatim("host");
        let capital = Folded::verbatim("Host");
        // Each pair both ways round: the folding one left and right.
        for (a, b) in [(folded, verbatim), (verbatim, folded)] {
            assert_eq!(a, b);
            assert_eq!(a.cmp(&b), Ordering::Equal);
        }
        for (a, b) in [(folded, capital), (capital, folded)] {
            assert_ne!(a, b);
        }
        // "host" > "Host" ordinally, and "host" < "hosu".
        assert!(folded > capital);
        assert_eq!(capital.cmp(&folded), Ordering::Less);
        assert_eq!(folded.partial_cmp(&capital), Some(Ordering::Greater));
        assert!(folded < Folded::verbatim("hosu"));
        assert_eq!(Folded::verbatim("hosu").cmp(&folded), Ordering::Greater);
        assert!(folded == "host" && folded == *"host");
        assert!(folded != "Host" && capital != "host" && capital != *"host");
    }

    #[test]
    fn non_ascii_folds() {
        assert!(Folded::lowercase("ÄÖ") == "äö");
    }

    #[test]
    fn chars_read_as_each_char_lowercased() {
        // `İ` lowercases to two characters; `Ǆ` (U+01C4) skips its titlecase
        // form; the fullwidth and Deseret capitals lie in runs of their own.
        for text in [
            "İstanbul",
            "ΑΒΓ ΣΑΣ",
            "Ǆ ǅ ǆ",
            "ÀÉÎ",
            "ＡＢＣ",
            "\u{10400}x",
            "a\u{1f600}B",
        ] {
            let expected = text.chars().flat_map(char::to_lowercase);
            assert!(Folded::lowercase(text).chars().eq(expected), "{text:?}");
        }
    }

    #[test]
    fn utf16_order_differs_from_utf8_above_bmp() {
        // U+FF61 is one UTF-16 unit (0xFF61); U+1F600 starts with 0xD83D.
        assert_eq!(cmp_utf16("\u{ff61}", "\u{1f600}"), Ordering::Greater);
        assert_eq!("\u{ff61}".cmp("\u{1f600}"), Ordering::Less);
        assert_eq!(cmp_utf16("ab", "abc"), Ordering::Less);
        assert_eq!(cmp_utf16("b", "abc"), Ordering::Greater);
        assert_eq!(cmp_utf16("é", "é"), Ordering::Equal);
    }
}
