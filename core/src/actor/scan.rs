//! Byte searches. Every needle is ASCII, so a match is always a char boundary.
//!
//! Most parts of an actor path are a few bytes long. Below [`SHORT`] bytes
//! a search looks at a word (eight bytes, as one `u64`) at once where the
//! caller's hot path pays for it, and a byte at a time otherwise;
//! `memchr`'s vector search pays for its dispatch only on longer haystacks.

use super::folded::Folded;

/// Below this length `memchr`'s dispatch costs more than the search.
const SHORT: usize = 16;

/// The offset of the first `needle` in `hay`.
#[inline]
pub(crate) fn find(hay: &str, needle: u8) -> Option<usize> {
    let bytes = hay.as_bytes();
    if bytes.len() >= SHORT {
        return memchr::memchr(needle, bytes);
    }
    let Some(first) = bytes.first_chunk::<8>() else {
        return bytes.iter().position(|&b| b == needle);
    };
    match first_match(u64::from_le_bytes(*first), needle) {
        Some(at) => Some(at),
        None => bytes[8..]
            .iter()
            .position(|&b| b == needle)
            .map(|at| at + 8),
    }
}

/// The offset of the first `needle` in `hay`, and whether lowercasing might
/// change a byte before it (see [`Folded::would_fold`]); `None` and whether
/// it might change any byte, if there is no `needle`.
#[inline]
pub(crate) fn find_noting_folds(hay: &str, needle: u8) -> (Option<usize>, bool) {
    let bytes = hay.as_bytes();
    let (words, tail) = bytes.as_chunks::<8>();
    let mut folds = 0;
    for (i, word) in words.iter().enumerate() {
        let word = u64::from_le_bytes(*word);
        let matches = match_bits(word, needle);
        if matches != 0 {
            // The bits below the first match's top bit: the bytes before it.
            let before = (matches & matches.wrapping_neg()) - 1;
            let at = i * 8 + matches.trailing_zeros() as usize / 8;
            return (Some(at), folds | fold_bits(word) & before != 0);
        }
        folds |= fold_bits(word);
    }
    let at = tail.iter().position(|&b| b == needle);
    let before = &tail[..at.unwrap_or(tail.len())];
    let folds = folds != 0 || before.iter().any(|&b| Folded::would_fold(b));
    (at.map(|at| bytes.len() - tail.len() + at), folds)
}

/// The top bit of each byte of `word` that lowercasing might change: an
/// ASCII capital or a non-ASCII byte.
#[inline]
pub(crate) fn fold_bits(word: u64) -> u64 {
    range_bits(word, b'A', b'Z') | word & TOPS
}

/// The top bit of each ASCII byte of `word` in `low..=high` (both ASCII).
#[inline]
pub(crate) fn range_bits(word: u64, low: u8, high: u8) -> u64 {
    // With each byte's top bit cleared no sum carries into the next byte; a
    // sum's top bit then says whether the byte is at least `low`, or past
    // `high`.
    let ascii = word & !TOPS;
    let from_low = ascii + ONES * u64::from(0x80 - low);
    let past_high = ascii + ONES * u64::from(0x7f - high);
    from_low & !past_high & !word & TOPS
}

/// Every byte of `word` equal to `needle` has its top bit set in the result,
/// as may a byte after one of them; the lowest set bit is always a match.
///
/// A byte that is zero after the XOR borrows when 1 is subtracted from it,
/// and sets its top bit where it had none; a borrow can only mark bytes
/// above a match, never below the first one.
#[inline]
pub(crate) fn match_bits(word: u64, needle: u8) -> u64 {
    let x = word ^ (ONES * u64::from(needle));
    x.wrapping_sub(ONES) & !x & TOPS
}

/// The index of the first byte of `word` (little-endian) equal to `needle`.
#[inline]
fn first_match(word: u64, needle: u8) -> Option<usize> {
    let matches = match_bits(word, needle);
    (matches != 0).then(|| matches.trailing_zeros() as usize / 8)
}

/// 0x01 in every byte of a word.
const ONES: u64 = u64::from_le_bytes([0x01; 8]);
/// 0x80 in every byte of a word.
pub(crate) const TOPS: u64 = u64::from_le_bytes([0x80; 8]);

/// The offset of the last `needle` in `hay`, and of the first `mark` after
/// it (or in the whole of `hay`, if there is no `needle`).
///
/// The words are taken from the end, so a search stops at the last
/// `needle` however long the text before it.
#[inline]
pub(crate) fn rfind_then_find(hay: &str, needle: u8, mark: u8) -> (Option<usize>, Option<usize>) {
    let bytes = hay.as_bytes();
    let mut first_mark = None;
    let mut end = bytes.len();
    while let Some(word) = bytes[..end].last_chunk::<8>() {
        let word = u64::from_le_bytes(*word);
        end -= 8;
        let needles = exact_match_bits(word, needle);
        let mut marks = exact_match_bits(word, mark);
        if needles | marks == 0 {
            continue;
        }
        if needles != 0 {
            // The last needle's top bit, and the bits of the bytes above it.
            let top = 63 - needles.leading_zeros();
            marks &= u64::MAX << top << 1;
            if marks != 0 {
                first_mark = Some(end + marks.trailing_zeros() as usize / 8);
            }
            return (Some(end + top as usize / 8), first_mark);
        }
        first_mark = Some(end + marks.trailing_zeros() as usize / 8);
    }
    for at in (0..end).rev() {
        if bytes[at] == needle {
            return (Some(at), first_mark);
        }
        if bytes[at] == mark {
            first_mark = Some(at);
        }
    }
    (None, first_mark)
}

/// The top bit of each byte of `word` equal to `needle`, and of no other:
/// the bytes that the XOR leaves zero.
#[inline]
fn exact_match_bits(word: u64, needle: u8) -> u64 {
    range_bits(word ^ (ONES * u64::from(needle)), 0, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_match_finds_the_first_of_any_byte() {
        // Bytes on both sides of each match: zero, the needle's neighbours,
        // and the high bytes a borrow could reach.
        let fillers = [0x00, 0x01, 0x22, 0x24, 0x7f, 0x80, 0x81, 0xa3, 0xff];
        for needle in [0x00, 0x23, 0x2f, 0x40, 0x80, 0xff] {
            for filler in fillers.into_iter().filter(|&f| f != needle) {
                let mut word = [filler; 8];
                assert_eq!(first_match(u64::from_le_bytes(word), needle), None);
                for at in (0..8).rev() {
                    word[at] = needle;
                    assert_eq!(
                        first_match(u64::from_le_bytes(word), needle),
                        Some(at),
                        "{needle:#x} in {word:x?}"
                    );
                }
            }
        }
    }

    #[test]
    fn fold_bits_marks_the_bytes_that_would_fold() {
        for b in 0..=255u8 {
            for at in 0..8 {
                let mut word = [b'a'; 8];
                word[at] = b;
                let want = if Folded::would_fold(b) {
                    0x80 << (8 * at)
                } else {
                    0
                };
                assert_eq!(fold_bits(u64::from_le_bytes(word)), want, "{b:#x} at {at}");
            }
        }
    }

    #[test]
    fn range_bits_marks_the_bytes_in_the_range() {
        for (low, high) in [(b'@', b']'), (b'A', b'Z'), (0, 0x7f), (b'0', b'0')] {
            for b in 0..=255u8 {
                let word = [b, b'a', 0, 0x7f, 0x80, b'@', b']', b'^'];
                let want = word.iter().enumerate().fold(0, |bits, (i, byte)| {
                    bits | u64::from((low..=high).contains(byte)) << (8 * i + 7)
                });
                let got = range_bits(u64::from_le_bytes(word), low, high);
                assert_eq!(got, want, "{word:x?} in {low:#x}..={high:#x}");
            }
        }
    }

    /// Every substring of `text` that starts and ends at a char boundary.
    fn substrings(text: &str) -> impl Iterator<Item = &str> {
        let boundaries = move || (0..=text.len()).filter(|&i| text.is_char_boundary(i));
        boundaries().flat_map(move |end| {
            boundaries()
                .take_while(move |&start| start <= end)
                .map(move |start| &text[start..end])
        })
    }

    #[test]
    fn find_noting_folds_agrees_with_a_plain_search() {
        for hay in substrings("aKka.tcp:Zé//x:y\u{80}@Q:aaaaaaaaZ:") {
            for needle in [b':', b'@', b'/'] {
                let at = hay.bytes().position(|b| b == needle);
                let before = &hay.as_bytes()[..at.unwrap_or(hay.len())];
                let folds = before.iter().any(|&b| Folded::would_fold(b));
                assert_eq!(find_noting_folds(hay, needle), (at, folds), "{hay:?}");
            }
        }
    }

    #[test]
    fn find_agrees_with_a_plain_search_at_every_length() {
        for hay in substrings("ab#é/c@d#\u{80}:e]fgh#ijklmnopqrs#tuvwxyz") {
            for needle in [b'#', b'/', b'@', b':', b']', b'z'] {
                assert_eq!(find(hay, needle), hay.bytes().position(|b| b == needle));
            }
        }
    }

    #[test]
    fn rfind_then_find_agrees_with_two_plain_searches() {
        for hay in substrings("a/b#c//d#é#/fgh/\u{80}j#k#lmnop/q#rstu#v/wxyz#/ü") {
            for (needle, mark) in [(b'/', b'#'), (b'#', b'/'), (b'z', b'#'), (b'/', b'!')] {
                let last = hay.bytes().rposition(|b| b == needle);
                let after = last.map_or(0, |at| at + 1);
                let mark_at = hay.as_bytes()[after..]
                    .iter()
                    .position(|&b| b == mark)
                    .map(|at| after + at);
                assert_eq!(
                    rfind_then_find(hay, needle, mark),
                    (last, mark_at),
                    "{hay:?}"
                );
            }
        }
    }

    #[test]
    fn exact_match_bits_marks_only_the_needle() {
        for needle in [0x00, 0x23, 0x2f, 0x7f, 0x80, 0xff] {
            for b in 0..=255u8 {
                for at in 0..8 {
                    let mut word = [needle ^ 0x01, needle, 0x00, 0x80, 0xff, needle, 0x7f, b];
                    word[at] = b;
                    let want = word.iter().enumerate().fold(0, |bits, (i, &byte)| {
                        bits | u64::from(byte == needle) << (8 * i + 7)
                    });
                    assert_eq!(exact_match_bits(u64::from_le_bytes(word), needle), want);
                }
            }
        }
    }
}
