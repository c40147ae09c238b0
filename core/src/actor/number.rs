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
    // Accumulate as a negative number so that i32::MIN fits.
    let mut value: i32 = 0;
    for (i, &b) in digits.iter().enumerate() {
        let d = match b {
            b'0'..=b'9' => i32::from(b - b'0'),
            _ => return Err(NumberError::Invalid(digits_at + i)),
        };
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_sub(d))
            .ok_or(NumberError::Overflow)?;
    }
    if negative {
        Ok(value)
    } else {
        value.checked_neg().ok_or(NumberError::Overflow)
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
    fn full_range() {
        assert_eq!(parse_i32("2147483647", false), Ok(i32::MAX));
        assert_eq!(parse_i32("-2147483648", false), Ok(i32::MIN));
        assert_eq!(parse_i32("2147483648", false), Err(NumberError::Overflow));
        assert_eq!(parse_i32("-2147483649", false), Err(NumberError::Overflow));
        assert_eq!(parse_i32("007", false), Ok(7));
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
