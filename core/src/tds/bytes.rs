//! A cursor over one complete token body, for the tokens that carry their
//! own length: once the reader has the whole body, it is read once, here.

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
}
