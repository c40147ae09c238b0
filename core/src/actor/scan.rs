//! Byte searches. Every needle is ASCII, so a match is always a char boundary.
//!
//! Most parts of an actor path are a few bytes long, where a plain loop wins;
//! `memchr`'s vector search pays for its dispatch only on longer haystacks.

/// Below this length a plain loop is faster than `memchr`.
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

/// The index of the first byte of `word` (little-endian) equal to `needle`.
///
/// A byte that is zero after the XOR borrows when 1 is subtracted from it, and
/// sets its top bit where it had none; a borrow can only mark bytes above the
/// first match, never below it.
#[inline]
fn first_match(word: u64, needle: u8) -> Option<usize> {
    const ONES: u64 = u64::from_le_bytes([0x01; 8]);
    const TOPS: u64 = u64::from_le_bytes([0x80; 8]);
    let x = word ^ (ONES * u64::from(needle));
    let matches = x.wrapping_sub(ONES) & !x & TOPS;
    (matches != 0).then(|| matches.trailing_zeros() as usize / 8)
}

/// The offset of the last `needle` in `hay`.
#[inline]
pub(crate) fn rfind(hay: &str, needle: u8) -> Option<usize> {
    let bytes = hay.as_bytes();
    if bytes.len() < SHORT {
        bytes.iter().rposition(|&b| b == needle)
    } else {
        memchr::memrchr(needle, bytes)
    }
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
    fn find_agrees_with_a_plain_search_at_every_length() {
        let text = "ab#é/c@d#\u{80}:e]fgh#ijklmnopqrs#tuvwxyz";
        for end in (0..=text.len()).filter(|&end| text.is_char_boundary(end)) {
            for start in (0..=end).filter(|&start| text.is_char_boundary(start)) {
                let hay = &text[start..end];
                for needle in [b'#', b'/', b'@', b':', b']', b'z'] {
                    assert_eq!(find(hay, needle), hay.bytes().position(|b| b == needle));
                    assert_eq!(rfind(hay, needle), hay.bytes().rposition(|b| b == needle));
                }
            }
        }
    }
}
