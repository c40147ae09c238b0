//! Little-endian fields: a cursor over one complete token body, for the
//! tokens that carry their own length (once the reader has the whole body,
//! it is read once, here), and integers of any width up to 16 bytes.

use super::error::{Error, ErrorKind, Result, Site};
use super::ucs2::Ucs2Str;

/// Reads little-endian fields from a token body. Running past the end is
/// [`ErrorKind::LengthMismatch`]: the token's length field promised fewer
/// bytes than its fields need. Offsets are relative to the body.
pub(crate) struct Cur<'a> {
    bytes: &'a [u8],
    at: usize,
    site: Site,
}

impl<'a> Cur<'a> {
    pub(crate) fn new(bytes: &'a [u8], site: Site) -> Cur<'a> {
        Cur { bytes, at: 0, site }
    }

    pub(crate) fn at(&self) -> usize {
        self.at
    }

    pub(crate) fn rest(&self) -> &'a [u8] {
        &self.bytes[self.at..]
    }

    pub(crate) fn error(&self, kind: fn(Site) -> ErrorKind, at: usize) -> Error {
        Error::new(kind(self.site), at)
    }

    pub(crate) fn take(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&end| end <= self.bytes.len())
            .ok_or_else(|| self.error(ErrorKind::LengthMismatch, self.bytes.len()))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    pub(crate) fn array<const N: usize>(&mut self) -> Result<[u8; N]> {
        let bytes = self.take(N)?;
        let mut out = [0u8; N];
        out.copy_from_slice(bytes);
        Ok(out)
    }

    pub(crate) fn u8(&mut self) -> Result<u8> {
        Ok(self.array::<1>()?[0])
    }

    pub(crate) fn u16(&mut self) -> Result<u16> {
        self.array().map(u16::from_le_bytes)
    }

    pub(crate) fn u32(&mut self) -> Result<u32> {
        self.array().map(u32::from_le_bytes)
    }

    pub(crate) fn i32(&mut self) -> Result<i32> {
        self.array().map(i32::from_le_bytes)
    }

    /// `units` UCS-2 code units, checked.
    pub(crate) fn ucs2(&mut self, units: usize) -> Result<Ucs2Str<'a>> {
        let start = self.at;
        let bytes = self.take(units * 2)?;
        Ucs2Str::new(bytes).map_err(|at| self.error(ErrorKind::InvalidUcs2, start + at))
    }

    /// B_VARCHAR: a u8 character count and UCS-2 text.
    pub(crate) fn b_varchar(&mut self) -> Result<Ucs2Str<'a>> {
        let units = self.u8()?;
        self.ucs2(usize::from(units))
    }

    /// US_VARCHAR: a u16 character count and UCS-2 text.
    pub(crate) fn us_varchar(&mut self) -> Result<Ucs2Str<'a>> {
        let units = self.u16()?;
        self.ucs2(usize::from(units))
    }

    /// B_VARBYTE: a u8 length and bytes.
    pub(crate) fn b_varbyte(&mut self) -> Result<&'a [u8]> {
        let len = self.u8()?;
        self.take(usize::from(len))
    }

    /// The body must be used up exactly.
    pub(crate) fn end(&self) -> Result<()> {
        if self.at == self.bytes.len() {
            Ok(())
        } else {
            Err(self.error(ErrorKind::LengthMismatch, self.at))
        }
    }
}

/// A little-endian unsigned integer of at most 8 bytes (0 for none; the
/// first 8 of more). Each width is its own load, with no copy.
pub(crate) fn le_uint(bytes: &[u8]) -> u64 {
    match *bytes {
        [] => 0,
        [a] => u64::from(a),
        [a, b] => u64::from(u16::from_le_bytes([a, b])),
        [a, b, c] => u64::from(u32::from_le_bytes([a, b, c, 0])),
        [a, b, c, d] => u64::from(u32::from_le_bytes([a, b, c, d])),
        [a, b, c, d, e] => u64::from_le_bytes([a, b, c, d, e, 0, 0, 0]),
        [a, b, c, d, e, f] => u64::from_le_bytes([a, b, c, d, e, f, 0, 0]),
        [a, b, c, d, e, f, g] => u64::from_le_bytes([a, b, c, d, e, f, g, 0]),
        [a, b, c, d, e, f, g, h, ..] => u64::from_le_bytes([a, b, c, d, e, f, g, h]),
    }
}

/// A little-endian unsigned integer of at most 16 bytes (the first 16 of more).
pub(crate) fn le_u128(bytes: &[u8]) -> u128 {
    let (low, high) = bytes.split_at(bytes.len().min(8));
    u128::from(le_uint(low)) | u128::from(le_uint(high)) << 64
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tds::TokenType;

    #[test]
    fn fields_and_overruns() {
        let site = Site::token(TokenType::Info);
        let mut cur = Cur::new(&[1, 0x34, 0x12, 1, b'a', 0, 0xff], site);
        assert_eq!(cur.u8().unwrap(), 1);
        assert_eq!(cur.u16().unwrap(), 0x1234);
        assert!(cur.b_varchar().unwrap() == "a");
        assert_eq!(
            cur.end().unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(site), 6)
        );
        assert_eq!(
            cur.u32().unwrap_err(),
            Error::new(ErrorKind::LengthMismatch(site), 7)
        );
        assert_eq!(cur.rest(), [0xff]);
    }

    /// The little-endian value of the first `n` bytes of `bytes`.
    fn folded(bytes: &[u8], n: usize) -> u128 {
        bytes[..n.min(bytes.len())]
            .iter()
            .rev()
            .fold(0, |value, &b| value << 8 | u128::from(b))
    }

    #[test]
    fn integers_of_every_width() {
        let bytes: [u8; 18] = core::array::from_fn(|i| 0x11 * (i as u8 % 15 + 1));
        for n in 0..=bytes.len() {
            let slice = &bytes[..n];
            assert_eq!(u128::from(le_uint(slice)), folded(slice, 8), "{n} bytes");
            assert_eq!(le_u128(slice), folded(slice, 16), "{n} bytes");
        }
    }
}
