use core::fmt;

use crate::dns::builder::{Compress, Writer};
use crate::dns::error::Result;
use crate::dns::name::Name;
use crate::dns::rtype::Rtype;
use crate::dns::text::{write_base64, write_time};

use super::Fields;

/// A signature over a record set [RFC 4034 §3].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rrsig<'a> {
    /// The type of the records signed.
    pub type_covered: Rtype,
    /// The signing algorithm.
    pub algorithm: u8,
    /// The number of labels in the original owner name, wildcard not counted.
    pub labels: u8,
    /// The TTL of the records as the zone holds them.
    pub original_ttl: u32,
    /// The end of the validity period, in seconds since 1970 (serial arithmetic).
    pub expiration: u32,
    /// The start of the validity period.
    pub inception: u32,
    /// The key tag of the signing DNSKEY.
    pub key_tag: u16,
    /// The zone that signed; never compressed.
    pub signer_name: Name<'a>,
    /// The signature.
    pub signature: &'a [u8],
}

impl<'a> Rrsig<'a> {
    /// Reads the RDATA in `message[at..end]`.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        Ok(Rrsig {
            type_covered: Rtype::from(fields.u16()?),
            algorithm: fields.u8()?,
            labels: fields.u8()?,
            original_ttl: fields.u32()?,
            expiration: fields.u32()?,
            inception: fields.u32()?,
            key_tag: fields.u16()?,
            signer_name: fields.uncompressed_name()?,
            signature: fields.rest(),
        })
    }

    /// Writes the RDATA.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_u16(self.type_covered.into())?;
        w.put_u8(self.algorithm)?;
        w.put_u8(self.labels)?;
        w.put_u32(self.original_ttl)?;
        w.put_u32(self.expiration)?;
        w.put_u32(self.inception)?;
        w.put_u16(self.key_tag)?;
        w.put_name(&self.signer_name, Compress::No)?;
        w.put(self.signature)
    }
}

impl fmt::Display for Rrsig<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} ",
            self.type_covered, self.algorithm, self.labels, self.original_ttl
        )?;
        write_time(f, self.expiration)?;
        f.write_str(" ")?;
        write_time(f, self.inception)?;
        write!(f, " {} {} ", self.key_tag, self.signer_name)?;
        write_base64(f, self.signature)
    }
}
