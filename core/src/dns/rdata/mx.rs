use core::fmt;

use crate::dns::builder::{Compress, Writer};
use crate::dns::error::Result;
use crate::dns::name::Name;

use super::{Fields, read_final_name};

/// A mail exchange and its preference, lower first [RFC 1035 §3.3.9].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Mx<'a> {
    /// Lower values are tried first.
    pub preference: u16,
    /// The mail server.
    pub exchange: Name<'a>,
}

impl<'a> Mx<'a> {
    /// Reads the RDATA in `message[at..end]`.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        let preference = fields.u16()?;
        Ok(Mx {
            preference,
            exchange: read_final_name(message, fields.pos(), end)?,
        })
    }

    /// Writes the RDATA, compressing the name [RFC 3597 §4].
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_u16(self.preference)?;
        w.put_name(&self.exchange, Compress::Yes)
    }
}

impl fmt::Display for Mx<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.preference, self.exchange)
    }
}
