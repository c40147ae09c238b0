use core::fmt;

use crate::dns::builder::{Compress, Writer};
use crate::dns::error::Result;
use crate::dns::name::Name;

use super::read_final_name;

/// A name that a reverse-lookup name points to [RFC 1035 §3.3.12].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Ptr<'a> {
    /// The name.
    pub ptrdname: Name<'a>,
}

impl<'a> Ptr<'a> {
    /// Reads the RDATA in `message[at..end]`; the name may be compressed.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        Ok(Ptr {
            ptrdname: read_final_name(message, at, end)?,
        })
    }

    /// Writes the RDATA, compressing the name [RFC 3597 §4].
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_name(&self.ptrdname, Compress::Yes)
    }
}

impl fmt::Display for Ptr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.ptrdname, f)
    }
}
