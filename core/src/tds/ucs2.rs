use core::fmt::{self, Write as _};

/// Text as TDS sends it: UCS-2 little-endian code units, checked when the
/// view is made (an even byte count, every surrogate paired) and decoded
/// only when printed or iterated.
///
/// Names, messages and NCHAR/NVARCHAR/NTEXT/XML values all come as this view,
/// borrowing the token stream, the caller's buffer or the arena.
///
/// ```
/// use leanwire_core::tds::Ucs2Str;
///
/// let text = Ucs2Str::new(&[0x68, 0, 0x69, 0, 0x3d, 0xd8, 0x00, 0xde])?;
/// assert_eq!(text.to_string(), "hi😀");
/// assert!(text == "hi😀");
/// assert_eq!(text.len_units(), 4);
/// assert!(!text.is_empty() && Ucs2Str::EMPTY.is_empty());
/// // A lone high surrogate, at byte 2.
/// assert_eq!(Ucs2Str::new(&[0x68, 0, 0x3d, 0xd8]).unwrap_err(), 2);
/// # Ok::<(), usize>(())
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Ucs2Str<'a> {
    bytes: &'a [u8],
}

impl<'a> Ucs2Str<'a> {
    /// The empty string.
    pub const EMPTY: Ucs2Str<'static> = Ucs2Str { bytes: &[] };

    /// Checks `bytes` as UCS-2LE; `Err` holds the offset of the first bad
    /// byte: a lone surrogate's first byte, or the last byte of an odd count.
    pub fn new(bytes: &'a [u8]) -> Result<Ucs2Str<'a>, usize> {
        // Most text has no surrogate: it is checked words at a time, and
        // only text that has one goes through the pairing check.
        if bytes.len().is_multiple_of(2) && !has_surrogates(bytes) {
            return Ok(Ucs2Str { bytes });
        }
        let mut check = Ucs2Check::default();
        check
            .feed(bytes, 0)
            .and_then(|()| check.finish())
            .map_err(|at| at as usize)?;
        Ok(Ucs2Str { bytes })
    }

    /// A view over bytes that were checked already, by [`Ucs2Str::new`] or
    /// by the reader as it read them.
    pub(crate) const fn from_checked(bytes: &'a [u8]) -> Ucs2Str<'a> {
        Ucs2Str { bytes }
    }

    /// The raw UCS-2LE bytes.
    pub const fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The number of UTF-16 code units (what TDS's character counts count).
    pub const fn len_units(&self) -> usize {
        self.bytes.len() / 2
    }

    /// Whether the string is empty.
    pub const fn is_empty(&self) -> bool {
        self.bytes.is_empty()
    }

    /// The UTF-16 code units.
    pub fn units(&self) -> impl Iterator<Item = u16> + 'a {
        self.bytes
            .chunks_exact(2)
            .map(|pair| u16::from_le_bytes([pair[0], pair[1]]))
    }

    /// The characters.
    pub fn chars(&self) -> impl Iterator<Item = char> + 'a {
        // The view was checked, so the replacement never shows.
        char::decode_utf16(self.units()).map(|c| c.unwrap_or(char::REPLACEMENT_CHARACTER))
    }

    /// The same text without trailing NUL characters (LOGINACK's program
    /// name carries two).
    pub fn trim_end_nuls(&self) -> Ucs2Str<'a> {
        let mut bytes = self.bytes;
        while let [rest @ .., 0, 0] = bytes {
            bytes = rest;
        }
        Ucs2Str { bytes }
    }
}

impl PartialEq<str> for Ucs2Str<'_> {
    fn eq(&self, other: &str) -> bool {
        self.units().eq(other.encode_utf16())
    }
}

impl PartialEq<&str> for Ucs2Str<'_> {
    fn eq(&self, other: &&str) -> bool {
        *self == **other
    }
}

impl fmt::Display for Ucs2Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for c in self.chars() {
            f.write_char(c)?;
        }
        Ok(())
    }
}

impl fmt::Debug for Ucs2Str<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for c in self.chars() {
            for e in c.escape_debug() {
                f.write_char(e)?;
            }
        }
        f.write_char('"')
    }
}

/// An incremental UCS-2 check for text that arrives in pieces (a value split
/// across chunks, or PLP chunks that split a code unit or a surrogate pair).
/// Errors are stream offsets of the offending code unit.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Ucs2Check {
    /// The first byte of a code unit, and its offset.
    odd: Option<(u8, u64)>,
    /// The offset of a high surrogate waiting for its low half.
    high_at: Option<u64>,
}

impl Ucs2Check {
    /// Checks `bytes`, the first of which sits at stream offset `at`.
    pub(crate) fn feed(&mut self, bytes: &[u8], at: u64) -> Result<(), u64> {
        if let [byte] = *bytes {
            return self.feed_byte(byte, at);
        }
        let mut rest = bytes;
        let mut pos = at;
        if let Some((first, first_at)) = self.odd {
            let Some((&second, tail)) = rest.split_first() else {
                return Ok(());
            };
            self.odd = None;
            self.unit(u16::from_le_bytes([first, second]), first_at)?;
            rest = tail;
            pos += 1;
        }
        if self.high_at.is_none() {
            let plain = plain_units(rest);
            rest = &rest[plain..];
            pos += plain as u64;
        }
        let mut pairs = rest.chunks_exact(2);
        for pair in &mut pairs {
            let unit = u16::from_le_bytes([pair[0], pair[1]]);
            if !(0xD800..0xE000).contains(&unit) && self.high_at.is_none() {
                pos += 2;
                continue;
            }
            self.unit(unit, pos)?;
            pos += 2;
        }
        if let [last] = pairs.remainder() {
            self.odd = Some((*last, pos));
        }
        Ok(())
    }

    /// [`feed`](Self::feed) of one byte, at stream offset `at`: text fed a
    /// byte at a time is half a code unit, then the other half.
    #[inline]
    pub(crate) fn feed_byte(&mut self, byte: u8, at: u64) -> Result<(), u64> {
        match self.odd.take() {
            None => {
                self.odd = Some((byte, at));
                Ok(())
            }
            // A code unit that is no surrogate, with none pending.
            Some(_) if self.high_at.is_none() && !is_surrogate_high_byte(byte) => Ok(()),
            Some((first, first_at)) => self.unit(u16::from_le_bytes([first, byte]), first_at),
        }
    }

    fn unit(&mut self, unit: u16, at: u64) -> Result<(), u64> {
        let high = (0xD800..0xDC00).contains(&unit);
        let low = (0xDC00..0xE000).contains(&unit);
        match self.high_at {
            Some(high_at) if !low => Err(high_at),
            Some(_) => {
                self.high_at = None;
                Ok(())
            }
            None if low => Err(at),
            None => {
                if high {
                    self.high_at = Some(at);
                }
                Ok(())
            }
        }
    }

    /// The text ended: a dangling byte or high surrogate is an error.
    pub(crate) fn finish(&mut self) -> Result<(), u64> {
        let result = match (self.odd, self.high_at) {
            (_, Some(high_at)) => Err(high_at),
            (Some((_, at)), None) => Err(at),
            (None, None) => Ok(()),
        };
        *self = Ucs2Check::default();
        result
    }
}

/// Whether a code unit whose high byte is `byte` is a surrogate.
const fn is_surrogate_high_byte(byte: u8) -> bool {
    byte & 0xF8 == 0xD8
}

/// Whether a code unit of `bytes`, an even count, is a surrogate: looked
/// at two words of four units at a time, and the units after the last
/// whole word in one more word that ends with them.
fn has_surrogates(bytes: &[u8]) -> bool {
    let (words, rest) = bytes.as_chunks::<8>();
    if words.is_empty() {
        return rest
            .chunks_exact(2)
            .any(|unit| is_surrogate_high_byte(unit[1]));
    }
    let (pairs, odd) = words.as_chunks::<2>();
    for [low, high] in pairs {
        if has_surrogate(u64::from_le_bytes(*low)) | has_surrogate(u64::from_le_bytes(*high)) {
            return true;
        }
    }
    if odd
        .iter()
        .any(|word| has_surrogate(u64::from_le_bytes(*word)))
    {
        return true;
    }
    // Overlapping the words before is harmless, and an even count keeps
    // the last word on unit boundaries.
    match bytes.last_chunk::<8>() {
        Some(last) if !rest.is_empty() => has_surrogate(u64::from_le_bytes(*last)),
        _ => false,
    }
}

/// Whether one of the four UCS-2LE code units in `word` is a surrogate.
fn has_surrogate(word: u64) -> bool {
    const LANES: u64 = 0x0001_0001_0001_0001;
    // A surrogate is 0xD800..=0xDFFF, 0b11011 in its top five bits: its
    // lane becomes zero, and a zero lane keeps its top bit through
    // `(t - 1) & !t`, which no other lane below it can set.
    let t = (word & (LANES * 0xF800)) ^ (LANES * 0xD800);
    t.wrapping_sub(LANES) & !t & (LANES * 0x8000) != 0
}

/// How many bytes at the start of `bytes` are whole code units that are not
/// surrogates, looked at four units at a time and rounded down to four.
fn plain_units(bytes: &[u8]) -> usize {
    let mut plain = 0;
    for &word in bytes.as_chunks::<8>().0 {
        if has_surrogate(u64::from_le_bytes(word)) {
            break;
        }
        plain += 8;
    }
    plain
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    #[test]
    fn pairs_and_lone_surrogates() {
        assert_eq!(
            Ucs2Str::new(&[0x3d, 0xd8, 0x00, 0xde]).unwrap().to_string(),
            "😀"
        );
        assert_eq!(Ucs2Str::new(&[0x00, 0xde]), Err(0));
        assert_eq!(Ucs2Str::new(&[0x41, 0, 0x3d, 0xd8, 0x41, 0]), Err(2));
        assert_eq!(Ucs2Str::new(&[0x41, 0, 0x41]), Err(2));
        assert_eq!(
            std::format!("{:?}", Ucs2Str::new(&[0x22, 0, 0x0a, 0]).unwrap()),
            r#""\"\n""#
        );
    }

    #[test]
    fn agrees_with_decode_utf16_at_every_length_and_place() {
        let units: [u16; 5] = [0x0041, 0xD83D, 0xDE00, 0xE000, 0xD7FF];
        for len in 0..=13 {
            for place in 0..len {
                for (a, b) in units
                    .iter()
                    .flat_map(|&a| units.iter().map(move |&b| (a, b)))
                {
                    let mut text = std::vec![0x0061u16; len];
                    text[place] = a;
                    text[len - 1 - place] = b;
                    let bytes: std::vec::Vec<u8> =
                        text.iter().flat_map(|u| u.to_le_bytes()).collect();
                    let valid = char::decode_utf16(text.iter().copied()).all(|c| c.is_ok());
                    assert_eq!(Ucs2Str::new(&bytes).is_ok(), valid, "{text:x?}");
                    assert!(Ucs2Str::new(&bytes[..bytes.len() - 1]).is_err());
                }
            }
        }
    }

    #[test]
    fn split_anywhere_gives_the_same_answer() {
        let cases: [&[u8]; 4] = [
            &[0x41, 0, 0x3d, 0xd8, 0x00, 0xde, 0x42, 0],
            &[0x41, 0, 0x3d, 0xd8, 0x41, 0],
            &[0x41, 0, 0x00, 0xdc],
            &[0x41, 0, 0x3d, 0xd8],
        ];
        for bytes in cases {
            let whole = Ucs2Str::new(bytes).map(|_| ()).map_err(|at| at as u64);
            for cut in 0..=bytes.len() {
                let mut check = Ucs2Check::default();
                let split = check
                    .feed(&bytes[..cut], 100)
                    .and_then(|()| check.feed(&bytes[cut..], 100 + cut as u64))
                    .and_then(|()| check.finish())
                    .map_err(|at| at - 100);
                assert_eq!(split, whole, "{bytes:?} cut at {cut}");
            }
            let mut check = Ucs2Check::default();
            let by_byte = bytes
                .iter()
                .enumerate()
                .try_for_each(|(i, &b)| check.feed(&[b], 100 + i as u64))
                .and_then(|()| check.finish())
                .map_err(|at| at - 100);
            assert_eq!(by_byte, whole, "{bytes:?} a byte at a time");
        }
    }

    /// The offset of the first bad byte, by `char::decode_utf16`.
    fn reference(bytes: &[u8]) -> Result<(), usize> {
        let units = bytes
            .chunks_exact(2)
            .map(|p| u16::from_le_bytes([p[0], p[1]]));
        let mut at = 0;
        for c in char::decode_utf16(units) {
            match c {
                Ok(c) => at += 2 * c.len_utf16(),
                Err(_) => return Err(at),
            }
        }
        if bytes.len() % 2 == 1 {
            return Err(bytes.len() - 1);
        }
        Ok(())
    }

    #[test]
    fn surrogates_are_found_at_every_place_past_the_fast_scan() {
        for len in 0..40 {
            for place in (0..len).step_by(2) {
                for unit in [0xD800u16, 0xDBFF, 0xDC00, 0xDFFF, 0xD7FF, 0xE000, 0x0041] {
                    for next in [0xDC00u16, 0x0041] {
                        let mut bytes = std::vec![0x41u8; len];
                        for i in (1..len).step_by(2) {
                            bytes[i] = 0;
                        }
                        bytes[place..place + 2.min(len - place)]
                            .copy_from_slice(&unit.to_le_bytes()[..2.min(len - place)]);
                        if place + 4 <= len {
                            bytes[place + 2..place + 4].copy_from_slice(&next.to_le_bytes());
                        }
                        let got = Ucs2Str::new(&bytes).map(|_| ());
                        assert_eq!(got, reference(&bytes), "{bytes:02x?}");
                    }
                }
            }
        }
    }

    #[test]
    fn len_units_counts_code_units_not_characters() {
        assert_eq!(Ucs2Str::EMPTY.len_units(), 0);
        assert_eq!(Ucs2Str::new(&[b'h', 0]).unwrap().len_units(), 1);
        assert_eq!(
            Ucs2Str::new(&[b'h', 0, b'i', 0, b'!', 0])
                .unwrap()
                .len_units(),
            3
        );
        // U+1F600 is one character in two units, a surrogate pair.
        let pair = Ucs2Str::new(&[0x3d, 0xd8, 0x00, 0xde]).unwrap();
        assert_eq!(pair.len_units(), 2);
    }

    #[test]
    fn the_scan_sees_exactly_the_surrogates() {
        // The scan only decides whether the exact check runs, so a scan
        // that saw surrogates everywhere would still give right answers,
        // slowly: it is checked on its own.
        for units in 1..=20 {
            for place in 0..units {
                for high in 0..=u8::MAX {
                    for low in [0x00, 0xff] {
                        let mut bytes = [0x41, 0].repeat(units);
                        bytes[2 * place..2 * place + 2].copy_from_slice(&[low, high]);
                        let surrogate = (0xd8..=0xdf).contains(&high);
                        assert_eq!(has_surrogates(&bytes), surrogate, "{bytes:02x?}");
                    }
                }
            }
        }
    }

    #[test]
    fn trims_trailing_nuls() {
        let text = Ucs2Str::new(&[0x41, 0, 0, 0, 0, 0]).unwrap();
        assert_eq!(text.trim_end_nuls(), "A");
    }
}
