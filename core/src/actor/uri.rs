//! The RFC 2396 character classes that `java.net.URI` enforces, for the Akka
//! JVM dialect. Akka.NET checks none of them.
//!
//! ```text
//! alphanum   = alpha | digit
//! mark       = "-" | "_" | "." | "!" | "~" | "*" | "'" | "(" | ")"
//! unreserved = alphanum | mark
//! reserved   = ";" | "/" | "?" | ":" | "@" | "&" | "=" | "+" | "$" | "," | "[" | "]"
//! userinfo   = *( unreserved | escaped | ";" | ":" | "&" | "=" | "+" | "$" | "," )
//! path       = *( unreserved | escaped | ":" | "@" | "&" | "=" | "+" | "$" | "," | ";" | "/" )
//! uric       = reserved | unreserved | escaped            (query and fragment)
//! ```
//!
//! `java.net.URI` also lets through non-ASCII characters that are not spaces or
//! controls ("other"); every non-ASCII byte is let through here.

use super::error::{Error, ErrorKind};

/// A set of bytes allowed in one URI component, as a bit in [`CLASSES`].
#[derive(Copy, Clone)]
pub(crate) struct Class(u8);

pub(crate) const USERINFO: Class = Class(1);
pub(crate) const PATH: Class = Class(2);
pub(crate) const URIC: Class = Class(4);
/// Characters of a scheme after its first letter.
pub(crate) const SCHEME: Class = Class(8);

const fn classes() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut b = 0usize;
    while b < 256 {
        let c = b as u8;
        let alnum = c.is_ascii_alphanumeric();
        let mark = matches!(
            c,
            b'-' | b'_' | b'.' | b'!' | b'~' | b'*' | b'\'' | b'(' | b')'
        );
        let unreserved = alnum || mark;
        let sub = matches!(c, b';' | b':' | b'&' | b'=' | b'+' | b'$' | b',');
        let reserved = sub || matches!(c, b'/' | b'?' | b'@' | b'[' | b']');
        let other = c >= 0x80;
        let mut bits = 0;
        if unreserved || sub || other {
            bits |= USERINFO.0;
        }
        if unreserved || sub || c == b'@' || c == b'/' || other {
            bits |= PATH.0;
        }
        if unreserved || reserved || other {
            bits |= URIC.0;
        }
        if alnum || matches!(c, b'+' | b'-' | b'.') {
            bits |= SCHEME.0;
        }
        t[b] = bits;
        b += 1;
    }
    t
}

static CLASSES: [u8; 256] = classes();

/// Whether `b` belongs to `class`.
pub(crate) fn is(class: Class, b: u8) -> bool {
    CLASSES[b as usize] & class.0 != 0
}

/// Checks that `text` holds only `class` bytes and well-formed `%XX` escapes.
/// An error's offset is relative to `text`.
pub(crate) fn check(text: &str, class: Class) -> Result<(), Error> {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = |j: usize| bytes.get(j).is_some_and(u8::is_ascii_hexdigit);
                if !(hex(i + 1) && hex(i + 2)) {
                    return Err(Error::new(ErrorKind::InvalidEscape, i));
                }
                i += 3;
            }
            b if is(class, b) => i += 1,
            _ => return Err(Error::new(ErrorKind::InvalidCharacter, i)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escape_needs_two_hex_digits() {
        assert!(check("a%2Fb", PATH).is_ok());
        assert_eq!(
            check("a%2", PATH),
            Err(Error::new(ErrorKind::InvalidEscape, 1))
        );
        assert_eq!(
            check("%zz", PATH),
            Err(Error::new(ErrorKind::InvalidEscape, 0))
        );
    }

    #[test]
    fn space_is_never_allowed() {
        for class in [USERINFO, PATH, URIC] {
            assert_eq!(
                check("a b", class),
                Err(Error::new(ErrorKind::InvalidCharacter, 1))
            );
        }
    }

    /// Every byte's membership in each class, against the grammar above
    /// spelled out as lists.
    #[test]
    fn classes_hold_exactly_their_grammar() {
        const ALPHANUM: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
        const MARK: &str = "-_.!~*'()";
        let member = |extra: &str, b: u8| {
            b >= 0x80
                || ALPHANUM.as_bytes().contains(&b)
                || MARK.as_bytes().contains(&b)
                || extra.as_bytes().contains(&b)
        };
        for b in 0..=255u8 {
            assert_eq!(is(USERINFO, b), member(";:&=+$,", b), "userinfo {b:#04x}");
            assert_eq!(is(PATH, b), member(":@&=+$,;/", b), "path {b:#04x}");
            assert_eq!(is(URIC, b), member(";/?:@&=+$,[]", b), "uric {b:#04x}");
            let scheme = ALPHANUM.as_bytes().contains(&b) || b"+-.".contains(&b);
            assert_eq!(is(SCHEME, b), scheme, "scheme {b:#04x}");
        }
    }

    #[test]
    fn userinfo_has_no_at_or_slash() {
        assert!(check("my_sys", USERINFO).is_ok());
        assert!(check("a@b", USERINFO).is_err());
        assert!(check("a/b", USERINFO).is_err());
    }
}
