use core::fmt;

use crate::dns::builder::{Compress, Writer};
use crate::dns::error::Result;
use crate::dns::name::Name;

use super::read_final_name;

/// The redirection of a whole subtree to another name [RFC 6672 §2.1].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Dname<'a> {
    /// The name that replaces the owner name as a suffix.
    pub target: Name<'a>,
}

impl<'a> Dname<'a> {
    /// Reads the RDATA in `message[at..end]`; the name may be compressed,
    /// since receivers decompress it [RFC 3597 §4].
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        Ok(Dname {
            target: read_final_name(message, at, end)?,
        })
    }

    /// Writes the RDATA, the target in full [RFC 6672 §2.5].
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_name(&self.target, Compress::No)
    }
}

impl fmt::Display for Dname<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.target, f)
    }
}
