use core::fmt;

use crate::dns::builder::{Compress, Writer};
use crate::dns::error::Result;
use crate::dns::name::Name;

use super::Fields;

/// The start of a zone of authority [RFC 1035 §3.3.13].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Soa<'a> {
    /// The primary name server.
    pub mname: Name<'a>,
    /// The mailbox of the person responsible, with `@` as the first `.`.
    pub rname: Name<'a>,
    /// The zone's version.
    pub serial: u32,
    /// Seconds between refreshes.
    pub refresh: u32,
    /// Seconds before a failed refresh is retried.
    pub retry: u32,
    /// Seconds after which an unrefreshed zone stops being authoritative.
    pub expire: u32,
    /// The TTL of negative answers [RFC 2308 §4].
    pub minimum: u32,
}

impl<'a> Soa<'a> {
    /// Reads the RDATA in `message[at..end]`.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        let soa = Soa {
            mname: fields.name()?,
            rname: fields.name()?,
            serial: fields.u32()?,
            refresh: fields.u32()?,
            retry: fields.u32()?,
            expire: fields.u32()?,
            minimum: fields.u32()?,
        };
        fields.finish()?;
        Ok(soa)
    }

    /// Writes the RDATA, compressing both names [RFC 3597 §4].
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_name(&self.mname, Compress::Yes)?;
        w.put_name(&self.rname, Compress::Yes)?;
        for value in [
            self.serial,
            self.refresh,
            self.retry,
            self.expire,
            self.minimum,
        ] {
            w.put_u32(value)?;
        }
        Ok(())
    }
}

impl fmt::Display for Soa<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {} {} {}",
            self.mname,
            self.rname,
            self.serial,
            self.refresh,
            self.retry,
            self.expire,
            self.minimum
        )
    }
}
