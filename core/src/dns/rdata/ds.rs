use core::fmt;

use crate::dns::builder::Writer;
use crate::dns::error::{Error, ErrorKind, Result};
use crate::dns::text::write_hex;

use super::Fields;

/// A delegation signer: the digest of a child zone's key [RFC 4034 §5].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ds<'a> {
    /// The key tag of the DNSKEY the digest is of.
    pub key_tag: u16,
    /// The key's algorithm.
    pub algorithm: u8,
    /// The digest algorithm: 1 SHA-1, 2 SHA-256, 4 SHA-384.
    pub digest_type: u8,
    /// The digest.
    pub digest: &'a [u8],
}

impl<'a> Ds<'a> {
    /// Reads the RDATA in `message[at..end]`.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        let ds = Ds {
            key_tag: fields.u16()?,
            algorithm: fields.u8()?,
            digest_type: fields.u8()?,
            digest: fields.rest(),
        };
        if ds.digest.is_empty() {
            return Err(Error::new(ErrorKind::InvalidRdata, end));
        }
        Ok(ds)
    }

    /// Writes the RDATA.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_u16(self.key_tag)?;
        w.put_u8(self.algorithm)?;
        w.put_u8(self.digest_type)?;
        w.put(self.digest)
    }
}

impl fmt::Display for Ds<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} ",
            self.key_tag, self.algorithm, self.digest_type
        )?;
        write_hex(f, self.digest)
    }
}
