use core::fmt;

use crate::dns::builder::Writer;
use crate::dns::error::Result;
use crate::dns::text::write_base64;

use super::Fields;

/// A zone's public key [RFC 4034 §2].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Dnskey<'a> {
    /// Bit 7 (256) marks a zone key, bit 15 (1) a secure entry point.
    pub flags: u16,
    /// Always 3.
    pub protocol: u8,
    /// The key's algorithm.
    pub algorithm: u8,
    /// The key material.
    pub public_key: &'a [u8],
}

impl<'a> Dnskey<'a> {
    /// Reads the RDATA in `message[at..end]`.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        Ok(Dnskey {
            flags: fields.u16()?,
            protocol: fields.u8()?,
            algorithm: fields.u8()?,
            public_key: fields.rest(),
        })
    }

    /// The key tag that RRSIG and DS records use to name this key [RFC 4034 Appendix B].
    pub fn key_tag(&self) -> u16 {
        let mut sum: u32 =
            u32::from(self.flags) + (u32::from(self.protocol) << 8 | u32::from(self.algorithm));
        for (i, &b) in self.public_key.iter().enumerate() {
            sum += if i % 2 == 0 {
                u32::from(b) << 8
            } else {
                u32::from(b)
            };
        }
        ((sum + (sum >> 16)) & 0xffff) as u16
    }

    /// Writes the RDATA.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_u16(self.flags)?;
        w.put_u8(self.protocol)?;
        w.put_u8(self.algorithm)?;
        w.put(self.public_key)
    }
}

impl fmt::Display for Dnskey<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {} ", self.flags, self.protocol, self.algorithm)?;
        write_base64(f, self.public_key)
    }
}
