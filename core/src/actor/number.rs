//! Decimal integers as Akka's two runtimes read them.

use super::scan::TOPS;

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
#[cfg_attr(not(target_family = "wasm"), inline(always))]
#[cfg_attr(target_family = "wasm", inline)]
pub(crate) fn parse_i32(bytes: &[u8], plus: bool) -> Result<i32, NumberError> {
    // Most numbers are unsigned and 4 to 10 digits long: no sign to read.
    if let Some(magnitude) = four_to_ten_digits(bytes) {
        return i32::try_from(magnitude).map_err(|_| NumberError::Overflow);
    }
    let (negative, digits_at) = match bytes.first() {
        Some(b'-') => (true, 1),
        Some(b'+') if plus => (false, 1),
        _ => (false, 0),
    };
    let digits = &bytes[digits_at..];
    if digits.is_empty() {
        return Err(NumberError::Invalid(digits_at.min(bytes.len())));
    }
    // Without a sign, these are the bytes the word above refused.
    let word = (digits_at == 1)
        .then(|| four_to_ten_digits(digits))
        .flatten();
    let magnitude = match word {
        Some(magnitude) => magnitude,
        None => digit_by_digit(bytes, digits_at)?,
    };
    let value = if negative {
        -(magnitude as i64)
    } else {
        magnitude as i64
    };
    i32::try_from(value).map_err(|_| NumberError::Overflow)
}

/// The magnitude of the digits in `bytes[from..]`, one digit at a time, up
/// to `2^31`. An error's offset is in `bytes`.
#[inline]
fn digit_by_digit(bytes: &[u8], from: usize) -> Result<u64, NumberError> {
    // |i32::MIN| = 2^31 bounds the magnitude; checking it after every digit
    // keeps the u64 far from overflowing however long the text is.
    const LIMIT: u64 = 1 << 31;
    let mut magnitude: u64 = 0;
    for (i, &b) in bytes.iter().enumerate().skip(from) {
        let d = b.wrapping_sub(b'0');
        if d > 9 {
            return Err(NumberError::Invalid(i));
        }
        magnitude = magnitude * 10 + u64::from(d);
        if magnitude > LIMIT {
            return Err(NumberError::Overflow);
        }
    }
    Ok(magnitude)
}

/// The value of `digits` if it is 4 to 10 ASCII digits, the length of most
/// ports and uids (Akka draws uids at random from the whole `i32` range);
/// `None` for anything else, which the digit-by-digit loop reads.
///
/// Up to the last eight digits are read at once, as one `u64`: checked for
/// digits and then summed in pairs, fours and eights by three
/// multiplications (the method of simdjson's `parse_eight_digits_unrolled`).
#[cfg_attr(not(target_family = "wasm"), inline(always))]
#[cfg_attr(target_family = "wasm", inline)]
fn four_to_ten_digits(digits: &[u8]) -> Option<u64> {
    const ZEROS: u64 = u64::from_le_bytes([b'0'; 8]);
    let n = digits.len();
    let (head, raw) = match n {
        8..=10 => {
            let (head, last) = digits.split_last_chunk::<8>()?;
            (head, u64::from_le_bytes(*last))
        }
        4..=7 => {
            // The first four and the last four bytes overlap in the same
            // bytes, which OR leaves as they are. The digits then move up,
            // above as many `0`s as the eight are short of.
            let first = u32::from_le_bytes(*digits.first_chunk::<4>()?);
            let last = u32::from_le_bytes(*digits.last_chunk::<4>()?);
            let joined = u64::from(first) | u64::from(last) << (8 * (n - 4));
            (&[][..], joined << (8 * (8 - n)) | ZEROS >> (8 * n))
        }
        _ => return None,
    };
    // A byte is a digit when taking `0` from it leaves 0..=9 and adding
    // 0x46 leaves at most 0x7f: both keep its top bit clear, and neither
    // borrows from or carries into the next byte. The lowest byte that is not
    // a digit sets its own top bit in one of them. For digits, `v` then holds
    // each digit's value in its byte.
    let v = raw.wrapping_sub(ZEROS);
    if (v | raw.wrapping_add(0x4646_4646_4646_4646)) & TOPS != 0 {
        return None;
    }
    // The first digit is the lowest byte. Each multiplication adds every
    // group, times 10, 100 or 10,000, to the less significant group after
    // it, in the upper half of a lane twice as wide, which the shift then
    // brings down.
    let v = v.wrapping_mul(10 << 8 | 1) >> 8;
    let v = (v & 0x00FF_00FF_00FF_00FF).wrapping_mul(100 << 16 | 1) >> 16;
    let low = (v & 0x0000_FFFF_0000_FFFF).wrapping_mul(10_000 << 32 | 1) >> 32;
    let digit = |b: u8| {
        let d = b.wrapping_sub(b'0');
        (d <= 9).then_some(u64::from(d))
    };
    let high = match *head {
        [] => return Some(low),
        [a] => digit(a)?,
        [a, b] => digit(a)? * 10 + digit(b)?,
        _ => return None,
    };
    Some(high * 100_000_000 + low)
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
        assert_eq!(parse_i32(b"2147483647", false), Ok(i32::MAX));
        assert_eq!(parse_i32(b"-2147483648", false), Ok(i32::MIN));
        assert_eq!(parse_i32(b"2147483648", false), Err(NumberError::Overflow));
        assert_eq!(parse_i32(b"-2147483649", false), Err(NumberError::Overflow));
        assert_eq!(parse_i32(b"007", false), Ok(7));
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
            assert_eq!(parse_i32(text.as_bytes(), false).ok(), std, "{text}");
        }
    }

    /// Calls `check` on `text` with each byte in turn replaced by every value.
    fn every_byte_in_every_place(text: &[u8], mut check: impl FnMut(&[u8])) {
        let mut text = text.to_vec();
        for place in 0..text.len() {
            let saved = text[place];
            for byte in 0..=u8::MAX {
                text[place] = byte;
                check(&text);
            }
            text[place] = saved;
        }
    }

    #[test]
    fn digits_agree_with_std_on_every_byte_in_every_place() {
        let text = b"-2147483647";
        for len in 1..=text.len() {
            every_byte_in_every_place(&text[text.len() - len..], |bytes| {
                if let Ok(text) = core::str::from_utf8(bytes) {
                    let std = text.parse::<i32>().ok().filter(|_| !text.starts_with('+'));
                    assert_eq!(parse_i32(bytes, false).ok(), std, "{text}");
                }
            });
        }
    }

    #[test]
    fn words_of_digits_are_read_only_when_every_byte_is_a_digit() {
        let text = b"2147483647";
        for len in 4..=text.len() {
            every_byte_in_every_place(&text[..len], |digits| {
                let want = digits
                    .iter()
                    .all(u8::is_ascii_digit)
                    .then(|| digits.iter().fold(0, |n, d| n * 10 + u64::from(d - b'0')));
                assert_eq!(four_to_ten_digits(digits), want, "{digits:x?}");
            });
        }
    }

    #[test]
    fn plus_only_when_allowed() {
        assert_eq!(parse_i32(b"+5", true), Ok(5));
        assert_eq!(parse_i32(b"+5", false), Err(NumberError::Invalid(0)));
    }

    #[test]
    fn empty_and_sign_only_are_invalid() {
        assert_eq!(parse_i32(b"", true), Err(NumberError::Invalid(0)));
        assert_eq!(parse_i32(b"-", true), Err(NumberError::Invalid(1)));
        assert_eq!(parse_i32(b"12a", true), Err(NumberError::Invalid(2)));
    }
}
