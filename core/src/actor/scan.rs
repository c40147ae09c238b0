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
    if bytes.len() < SHORT {
        bytes.iter().position(|&b| b == needle)
    } else {
        memchr::memchr(needle, bytes)
    }
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
