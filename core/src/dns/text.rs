//! Presentation-format pieces shared by the record types: character strings,
//! base64, base16 and base32hex, times and type bitmaps [RFC 1035 §5.1,
//! RFC 4648, RFC 4034 §3.2 and §4.1.2].

use core::fmt::{self, Write};

use super::error::{Error, ErrorKind, Result};
use super::rtype::Rtype;
use crate::calendar::civil_from_days;

/// Writes a `<character-string>` in quotes: `"` and `\` get a backslash and
/// bytes outside ` `..=`~` become `\DDD`.
pub(crate) fn write_quoted(f: &mut impl Write, bytes: &[u8]) -> fmt::Result {
    f.write_char('"')?;
    write_escaped(f, bytes, |b| matches!(b, b'"' | b'\\'))?;
    f.write_char('"')
}

/// Writes `bytes` as text, with `\` before each byte `special` picks and
/// `\DDD` for bytes outside ` `..=`~`.
pub(crate) fn write_escaped(
    f: &mut impl Write,
    bytes: &[u8],
    special: impl Fn(u8) -> bool,
) -> fmt::Result {
    let mut plain = 0;
    for (i, &b) in bytes.iter().enumerate() {
        let printable = (0x20..=0x7e).contains(&b);
        if special(b) || !printable {
            // Everything before `i` since the last escape is printable ASCII.
            f.write_str(core::str::from_utf8(&bytes[plain..i]).map_err(|_| fmt::Error)?)?;
            if printable {
                f.write_char('\\')?;
                f.write_char(char::from(b))?;
            } else {
                write!(f, "\\{b:03}")?;
            }
            plain = i + 1;
        }
    }
    f.write_str(core::str::from_utf8(&bytes[plain..]).map_err(|_| fmt::Error)?)
}

const BASE64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Writes `bytes` in base64 with padding, unbroken [RFC 4648 §4].
pub(crate) fn write_base64(f: &mut impl Write, bytes: &[u8]) -> fmt::Result {
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | u32::from(b) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                f.write_char(char::from(BASE64[(n >> (18 - 6 * i) & 0x3f) as usize]))?;
            } else {
                f.write_char('=')?;
            }
        }
    }
    Ok(())
}

/// Writes `bytes` in lowercase base16, unbroken [RFC 4648 §8].
pub(crate) fn write_hex(f: &mut impl Write, bytes: &[u8]) -> fmt::Result {
    bytes.iter().try_for_each(|b| write!(f, "{b:02x}"))
}

const BASE32HEX: &[u8; 32] = b"0123456789abcdefghijklmnopqrstuv";

/// Writes `bytes` in lowercase base32hex without padding, as NSEC3 prints
/// hashed owner names [RFC 4648 §7, RFC 5155 §3.3].
pub(crate) fn write_base32hex(f: &mut impl Write, bytes: &[u8]) -> fmt::Result {
    for chunk in bytes.chunks(5) {
        let mut n = 0u64;
        for (i, &b) in chunk.iter().enumerate() {
            n |= u64::from(b) << (32 - 8 * i);
        }
        let digits = (chunk.len() * 8).div_ceil(5);
        for i in 0..digits {
            f.write_char(char::from(BASE32HEX[(n >> (35 - 5 * i) & 0x1f) as usize]))?;
        }
    }
    Ok(())
}

/// Writes seconds since 1970 as `YYYYMMDDHHmmSS` in UTC [RFC 4034 §3.2].
pub(crate) fn write_time(f: &mut impl Write, seconds: u32) -> fmt::Result {
    let (year, month, day) = civil_from_days(i64::from(seconds / 86_400));
    let rest = seconds % 86_400;
    write!(
        f,
        "{year:04}{month:02}{day:02}{:02}{:02}{:02}",
        rest / 3600,
        rest / 60 % 60,
        rest % 60
    )
}

/// A checked type bitmap: windows of (number, length 1..=32, bits), in
/// ascending window order [RFC 4034 §4.1.2].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TypeBitmap<'a> {
    bytes: &'a [u8],
}

impl<'a> TypeBitmap<'a> {
    /// Checks `bytes` as a type bitmap; `at` is its offset in the message,
    /// for errors.
    pub(crate) fn parse(bytes: &'a [u8], at: usize) -> Result<Self> {
        let mut pos = 0;
        let mut last_window = None;
        while pos < bytes.len() {
            let (window, len) = match bytes.get(pos..pos + 2) {
                Some(&[w, l]) => (w, usize::from(l)),
                _ => return Err(Error::new(ErrorKind::InvalidRdata, at + pos)),
            };
            if last_window.is_some_and(|last| window <= last) || !(1..=32).contains(&len) {
                return Err(Error::new(ErrorKind::InvalidRdata, at + pos));
            }
            if pos + 2 + len > bytes.len() {
                return Err(Error::new(ErrorKind::InvalidRdata, at + bytes.len()));
            }
            last_window = Some(window);
            pos += 2 + len;
        }
        Ok(TypeBitmap { bytes })
    }

    /// The bitmap's wire bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The types the bitmap lists, in ascending order.
    pub fn types(&self) -> impl Iterator<Item = Rtype> + 'a {
        let mut windows = self.bytes;
        core::iter::from_fn(move || {
            let (&window, rest) = windows.split_first()?;
            let (&len, rest) = rest.split_first()?;
            let (bits, rest) = rest.split_at(usize::from(len).min(rest.len()));
            windows = rest;
            Some((window, bits))
        })
        .flat_map(|(window, bits)| {
            bits.iter().enumerate().flat_map(move |(i, &byte)| {
                (0..8u16)
                    .filter(move |bit| byte & (0x80 >> bit) != 0)
                    .map(move |bit| Rtype::from(u16::from(window) << 8 | (i as u16) << 3 | bit))
            })
        })
    }
}

impl fmt::Display for TypeBitmap<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, rtype) in self.types().enumerate() {
            if i > 0 {
                f.write_char(' ')?;
            }
            write!(f, "{rtype}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::String;
    use std::string::ToString;

    fn text(write: impl FnOnce(&mut String) -> fmt::Result) -> String {
        let mut s = String::new();
        write(&mut s).unwrap();
        s
    }

    #[test]
    fn base64_rfc4648_vectors() {
        for (raw, coded) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(text(|s| write_base64(s, raw.as_bytes())), coded);
        }
    }

    #[test]
    fn base32hex_rfc4648_vectors() {
        for (raw, coded) in [
            ("", ""),
            ("f", "co"),
            ("fo", "cpng"),
            ("foo", "cpnmu"),
            ("fooba", "cpnmuoj1"),
            ("foobar", "cpnmuoj1e8"),
        ] {
            assert_eq!(text(|s| write_base32hex(s, raw.as_bytes())), coded);
        }
    }

    #[test]
    fn times() {
        assert_eq!(text(|s| write_time(s, 0)), "19700101000000");
        assert_eq!(text(|s| write_time(s, 2_082_758_400)), "20360101000000");
        assert_eq!(
            text(|s| write_time(s, 951_782_400 + 3_661)),
            "20000229010101"
        );
        assert_eq!(text(|s| write_time(s, u32::MAX)), "21060207062815");
    }

    #[test]
    fn quoted_strings_escape() {
        assert_eq!(
            text(|s| write_quoted(s, b"a \"b\" \\ \x00\x7f")),
            "\"a \\\"b\\\" \\\\ \\000\\127\""
        );
    }

    #[test]
    fn bitmap_lists_types_in_order() {
        // A NS SOA MX TXT AAAA RRSIG NSEC DNSKEY, then window 1: CAA (257).
        let bytes = [0, 7, 0x62, 0x01, 0x80, 0x08, 0x00, 0x03, 0x80, 1, 1, 0x40];
        let bitmap = TypeBitmap::parse(&bytes, 0).unwrap();
        assert_eq!(
            bitmap.to_string(),
            "A NS SOA MX TXT AAAA RRSIG NSEC DNSKEY CAA"
        );
    }

    #[test]
    fn bitmap_errors_are_at_the_offending_window() {
        let error_at = |bytes: &[u8]| TypeBitmap::parse(bytes, 100).unwrap_err().offset();
        // A second window cut short, out of order, empty, too long.
        assert_eq!(error_at(&[0, 1, 0x40, 1]), 103);
        assert_eq!(error_at(&[1, 1, 0x40, 0, 1, 0x40]), 103);
        assert_eq!(error_at(&[0, 1, 0x40, 0, 1, 0x40]), 103);
        assert_eq!(error_at(&[0, 1, 0x40, 1, 0]), 103);
        assert_eq!(error_at(&[0, 1, 0x40, 1, 33]), 103);
        // Bits past the end: the error is where the data ran out.
        assert_eq!(error_at(&[0, 1, 0x40, 1, 2, 0x40]), 106);
        let two = TypeBitmap::parse(&[0, 1, 0x40, 1, 1, 0x40], 100).unwrap();
        assert_eq!(two.to_string(), "A CAA");
    }

    #[test]
    fn bitmap_windows_must_ascend() {
        assert!(TypeBitmap::parse(&[1, 1, 0x40, 0, 1, 0x40], 0).is_err());
        assert!(TypeBitmap::parse(&[0, 0], 0).is_err());
        assert!(TypeBitmap::parse(&[0, 33], 0).is_err());
        assert!(TypeBitmap::parse(&[0, 2, 0x40], 0).is_err());
    }
}
