use core::fmt;

use crate::dns::builder::Writer;
use crate::dns::error::{Error, ErrorKind, Result};
use crate::dns::text::write_hex;

use super::Fields;

/// A TLS server certificate or public key association [RFC 6698 §2.1].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Tlsa<'a> {
    /// How the data constrains the server's certificate: 0 CA constraint,
    /// 1 service certificate constraint, 2 trust anchor assertion, 3 domain-issued certificate.
    pub usage: u8,
    /// What is matched: 0 the full certificate, 1 its SubjectPublicKeyInfo.
    pub selector: u8,
    /// How it is matched: 0 exactly, 1 by SHA-256, 2 by SHA-512.
    pub matching_type: u8,
    /// The certificate association data, never empty.
    pub data: &'a [u8],
}

impl<'a> Tlsa<'a> {
    /// Reads the RDATA in `message[at..end]`.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        let tlsa = Tlsa {
            usage: fields.u8()?,
            selector: fields.u8()?,
            matching_type: fields.u8()?,
            data: fields.rest(),
        };
        if tlsa.data.is_empty() {
            return Err(Error::new(ErrorKind::InvalidRdata, end));
        }
        Ok(tlsa)
    }

    /// Writes the RDATA.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_u8(self.usage)?;
        w.put_u8(self.selector)?;
        w.put_u8(self.matching_type)?;
        w.put(self.data)
    }
}

/// `3 1 1 0123...`, the data in base16.
impl fmt::Display for Tlsa<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} ",
            self.usage, self.selector, self.matching_type
        )?;
        write_hex(f, self.data)
    }
}
