use core::fmt;

use crate::dns::builder::{Compress, Writer};
use crate::dns::error::Result;
use crate::dns::name::Name;

use super::Fields;

/// The location of a service [RFC 2782].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Srv<'a> {
    /// Lower values are tried first.
    pub priority: u16,
    /// The relative share among targets of equal priority.
    pub weight: u16,
    /// The service's port.
    pub port: u16,
    /// The host. RFC 2782 forbids compressing it; a compressed one is still read.
    pub target: Name<'a>,
}

impl<'a> Srv<'a> {
    /// Reads the RDATA in `message[at..end]`.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        let srv = Srv {
            priority: fields.u16()?,
            weight: fields.u16()?,
            port: fields.u16()?,
            target: fields.name()?,
        };
        fields.finish()?;
        Ok(srv)
    }

    /// Writes the RDATA; the target is written in full.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_u16(self.priority)?;
        w.put_u16(self.weight)?;
        w.put_u16(self.port)?;
        w.put_name(&self.target, Compress::No)
    }
}

impl fmt::Display for Srv<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {}",
            self.priority, self.weight, self.port, self.target
        )
    }
}
