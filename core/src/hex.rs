//! Hex text to bytes.
//!
//! [`decode`] reads hex digits two at a time, either case, and skips ASCII
//! whitespace anywhere, so `"12 34\nAB"` is three bytes. It allocates
//! nothing: [`Decode`] yields one byte or one [`Error`] at a time, and the
//! caller collects them where it wants them.
//!
//! There is no encoder: `write!(out, "{byte:02x}")` already writes hex.

use core::fmt;
use core::iter::FusedIterator;

/// What was wrong with hex text.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A character that is neither a hex digit nor ASCII whitespace.
    InvalidDigit(char),
    /// The text ends in a digit that has no pair; the offset is that digit's.
    OddDigits,
}

impl fmt::Display for ErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ErrorKind::InvalidDigit(c) => write!(f, "invalid hex digit {c:?}"),
            ErrorKind::OddDigits => f.write_str("odd number of hex digits: the last one"),
        }
    }
}

/// An error in hex text: what was wrong, and the byte offset in the text
/// of the character at fault.
///
/// ```
/// use leanwire_core::hex::{self, ErrorKind};
///
/// let err = hex::decode("12 3g").find_map(Result::err).unwrap();
/// assert_eq!((err.kind(), err.offset()), (ErrorKind::InvalidDigit('g'), 4));
/// assert_eq!(err.to_string(), "invalid hex digit 'g' at byte 4");
///
/// let err = hex::decode("12 3").find_map(Result::err).unwrap();
/// assert_eq!((err.kind(), err.offset()), (ErrorKind::OddDigits, 3));
/// assert_eq!(err.to_string(), "odd number of hex digits: the last one at byte 3");
/// ```
pub type Error = crate::error::Error<ErrorKind>;

/// The bytes that hex `text` spells, skipping ASCII whitespace.
///
/// The iterator stops after the first error, so collecting into
/// `Result<Vec<u8>, _>` gives the bytes or that error.
///
/// ```
/// use leanwire_core::hex;
///
/// let bytes: Result<Vec<u8>, _> = hex::decode("de AD\n be\tEF").collect();
/// assert_eq!(bytes.unwrap(), [0xde, 0xad, 0xbe, 0xef]);
///
/// // Reusing a buffer:
/// let mut out = Vec::new();
/// for byte in hex::decode("0a0b") {
///     out.push(byte?);
/// }
/// assert_eq!(out, [0x0a, 0x0b]);
/// # Ok::<(), hex::Error>(())
/// ```
pub fn decode(text: &str) -> Decode<'_> {
    Decode { text, at: 0 }
}

/// The iterator [`decode`] returns: a byte per pair of hex digits, or the
/// first error.
#[derive(Clone, Debug)]
pub struct Decode<'a> {
    text: &'a str,
    at: usize,
}

impl Decode<'_> {
    /// The next character that is not ASCII whitespace: its offset and, if it
    /// is a hex digit, its value; `None` at the end.
    fn digit(&mut self) -> Option<(usize, Option<u8>)> {
        let bytes = self.text.as_bytes();
        while let Some(&b) = bytes.get(self.at) {
            let at = self.at;
            self.at += 1;
            if !b.is_ascii_whitespace() {
                return Some((at, value(b)));
            }
        }
        None
    }

    /// Ends the iteration with the error of `kind` at `offset`.
    fn fail(&mut self, kind: ErrorKind, offset: usize) -> Option<Result<u8, Error>> {
        self.at = self.text.len();
        Some(Err(Error::new(kind, offset)))
    }

    /// The error for the character at `offset`, which is not a hex digit.
    fn invalid(&mut self, offset: usize) -> Option<Result<u8, Error>> {
        // Whitespace and digits are ASCII, so `offset` is a character boundary.
        let c = self.text.get(offset..).and_then(|rest| rest.chars().next());
        let c = c.unwrap_or(char::REPLACEMENT_CHARACTER);
        self.fail(ErrorKind::InvalidDigit(c), offset)
    }
}

impl Iterator for Decode<'_> {
    type Item = Result<u8, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let (high_at, high) = self.digit()?;
        let Some(high) = high else {
            return self.invalid(high_at);
        };
        match self.digit() {
            None => self.fail(ErrorKind::OddDigits, high_at),
            Some((low_at, None)) => self.invalid(low_at),
            Some((_, Some(low))) => Some(Ok(high << 4 | low)),
        }
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (0, Some(self.text.len().saturating_sub(self.at).div_ceil(2)))
    }
}

impl FusedIterator for Decode<'_> {}

/// The value of hex digit `b`, or `None` if it is not one.
const fn value(b: u8) -> Option<u8> {
    match b {
        b'0'..=b'9' => Some(b - b'0'),
        b'a'..=b'f' => Some(b - b'a' + 10),
        b'A'..=b'F' => Some(b - b'A' + 10),
        _ => None,
    }
}

/// The bytes of hex `text`, for tests' fixtures; panics on bad hex.
#[cfg(test)]
pub(crate) fn vec(text: &str) -> std::vec::Vec<u8> {
    decode(text).map(Result::unwrap).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;
    use std::vec::Vec;

    fn bytes(text: &str) -> Result<Vec<u8>, Error> {
        decode(text).collect()
    }

    #[test]
    fn empty_and_blank_text_is_no_bytes() {
        assert_eq!(bytes(""), Ok(Vec::new()));
        assert_eq!(bytes(" \t\r\n"), Ok(Vec::new()));
    }

    #[test]
    fn either_case() {
        assert_eq!(
            bytes("0123456789abcdefABCDEF"),
            Ok(std::vec![
                0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0xab, 0xcd, 0xef
            ])
        );
    }

    #[test]
    fn whitespace_between_and_inside_pairs() {
        assert_eq!(
            bytes("\n 1 2\t34\r\n5\x0c6 "),
            Ok(std::vec![0x12, 0x34, 0x56])
        );
    }

    #[test]
    fn odd_digit_count_names_the_last_digit() {
        let err = bytes("12 34 5  ").unwrap_err();
        assert_eq!((err.kind(), err.offset()), (ErrorKind::OddDigits, 6));
        assert_eq!(
            err.to_string(),
            "odd number of hex digits: the last one at byte 6"
        );
    }

    #[test]
    fn invalid_digit_in_either_half_of_a_pair() {
        let err = bytes("12 g4").unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::InvalidDigit('g'), 3)
        );
        let err = bytes("12 4g").unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::InvalidDigit('g'), 4)
        );
        assert_eq!(err.to_string(), "invalid hex digit 'g' at byte 4");
    }

    #[test]
    fn non_ascii_digit_is_reported_whole() {
        let err = bytes("ab é1").unwrap_err();
        assert_eq!(
            (err.kind(), err.offset()),
            (ErrorKind::InvalidDigit('é'), 3)
        );
        assert_eq!(err.to_string(), "invalid hex digit 'é' at byte 3");
    }

    #[test]
    fn invalid_digit_before_a_lone_last_digit_wins() {
        let err = bytes("1x").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidDigit('x'));
        let err = bytes("x").unwrap_err();
        assert_eq!(err.kind(), ErrorKind::InvalidDigit('x'));
    }

    #[test]
    fn stops_after_the_first_error() {
        let mut decode = decode("01 zz 02");
        assert_eq!(decode.next(), Some(Ok(1)));
        assert!(matches!(decode.next(), Some(Err(_))));
        assert_eq!(decode.next(), None);
        assert_eq!(decode.next(), None);
    }

    #[test]
    fn size_hint_bounds_the_byte_count() {
        for text in ["", "0", "01", "0 1", "01 02 03", "0102030"] {
            let (low, high) = decode(text).size_hint();
            let n = decode(text).count();
            assert!(low <= n && n <= high.unwrap(), "{text:?}");
        }
    }
}
