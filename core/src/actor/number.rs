//! Decimal integers as Akka's two runtimes read them.

/// Why a number did not parse, with the offset of the defect in the text.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum NumberError {
    /// Not a number: no digits, or a stray character at this offset.
    Invalid(usize),
    /// Digits, but the value does not fit in an `i32`.
    Overflow,
}

/// Reads `[sign] digits` as an `i32`, rejecting anything else.
///
/// `plus` says whether a leading `+` is allowed (Java's `Integer.valueOf` and
/// .NET's `int.TryParse` allow it; Akka.NET's uid parser does not).
pub(crate) fn parse_i32(text: &str, plus: bool) -> Result<i32, NumberError> {
    let bytes = text.as_bytes();
    let (negative, digits_at) = match bytes.first() {
        Some(b'-') => (true, 1),
        Some(b'+') if plus => (false, 1),
        _ => (false, 0),
    };
    let digits = &bytes[digits_at..];
    if digits.is_empty() {
        return Err(NumberError::Invalid(digits_at.min(bytes.len())));
    }
    // |i32::MIN| = 2^31 bounds the magnitude; checking it after every digit
    // keeps the u64 far from overflowing however long the text is.
    const LIMIT: u64 = 1 << 31;
    let mut magnitude: u64 = 0;
    for (i, &b) in digits.iter().enumerate() {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return Err(NumberError::Invalid(digits_at + i));
        }
        magnitude = magnitude * 10 + u64::from(d);
        if magnitude > LIMIT {
            return Err(NumberError::Overflow);
        }
    }
    let value = if negative {
        -(magnitude as i64)
    } else {
        magnitude as i64
    };
    i32::try_from(value).map_err(|_| NumberError::Overflow)
}

/// An integer's decimal digits in a stack buffer, for printing without
/// `core::fmt`'s argument machinery.
#[derive(Copy, Clone)]
pub(crate) struct Decimal {
    buf: [u8; 20],
    start: usize,
}

impl Decimal {
    pub(crate) fn new(n: i64) -> Self {
        let mut buf = [0u8; 20];
        let mut start = buf.len();
        let mut magnitude = n.unsigned_abs();
        loop {
            start -= 1;
            buf[start] = b'0' + (magnitude % 10) as u8;
            magnitude /= 10;
            if magnitude == 0 {
                break;
            }
        }
        if n < 0 {
            start -= 1;
            buf[start] = b'-';
        }
        Decimal { buf, start }
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    /// The characters, by value, so the iterator owns its buffer.
    pub(crate) fn chars(self) -> impl Iterator<Item = char> {
        self.buf.into_iter().skip(self.start).map(char::from)
    }
}

impl core::fmt::Display for Decimal {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        // Only ASCII digits and '-' are ever written to the buffer.
        f.write_str(core::str::from_utf8(self.as_bytes()).map_err(|_| core::fmt::Error)?)
    }
}

/// .NET's `char.IsWhiteSpace` for the ASCII range, which `int.TryParse` trims.
pub(crate) const fn is_dotnet_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_prints_every_sign_and_width() {
        for n in [
            0,
            7,
            -7,
            10,
            i64::from(i32::MAX),
            i64::from(i32::MIN),
            i64::MIN,
            i64::MAX,
        ] {
            let text = Decimal::new(n);
            let text = core::str::from_utf8(text.as_bytes()).unwrap();
            assert_eq!(text.parse::<i64>(), Ok(n));
        }
    }

    #[test]
    fn full_range() {
        assert_eq!(parse_i32("2147483647", false), Ok(i32::MAX));
        assert_eq!(parse_i32("-2147483648", false), Ok(i32::MIN));
        assert_eq!(parse_i32("2147483648", false), Err(NumberError::Overflow));
        assert_eq!(parse_i32("-2147483649", false), Err(NumberError::Overflow));
        assert_eq!(parse_i32("007", false), Ok(7));
    }

    #[test]
    fn agrees_with_std() {
        for text in [
            "12345678",
            "123456789",
            "1234567890",
            "2147483647",
            "2147483648",
            "-2147483648",
            "-21474836480",
            "12345678x",
            "1234567x9",
            "00000000000000000001",
            "99999999999999999999",
        ] {
            let std = text.parse::<i32>().ok();
            assert_eq!(parse_i32(text, false).ok(), std, "{text}");
        }
    }

    #[test]
    fn plus_only_when_allowed() {
        assert_eq!(parse_i32("+5", true), Ok(5));
        assert_eq!(parse_i32("+5", false), Err(NumberError::Invalid(0)));
    }

    #[test]
    fn empty_and_sign_only_are_invalid() {
        assert_eq!(parse_i32("", true), Err(NumberError::Invalid(0)));
        assert_eq!(parse_i32("-", true), Err(NumberError::Invalid(1)));
        assert_eq!(parse_i32("12a", true), Err(NumberError::Invalid(2)));
    }
}
