use core::fmt;

use crate::dns::builder::{Compress, Writer};
use crate::dns::error::Result;
use crate::dns::name::Name;

use super::Fields;

/// The person responsible for a domain [RFC 1183 §2.2].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Rp<'a> {
    /// The responsible person's mailbox, with `@` as the first `.`; the
    /// root when there is none.
    pub mbox: Name<'a>,
    /// A name with TXT records about the person; the root when there are none.
    pub txt: Name<'a>,
}

impl<'a> Rp<'a> {
    /// Reads the RDATA in `message[at..end]`. Senders may not compress the
    /// names, but receivers decompress them [RFC 3597 §4], so a compressed
    /// name is read.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        let rp = Rp {
            mbox: fields.name()?,
            txt: fields.name()?,
        };
        fields.finish()?;
        Ok(rp)
    }

    /// Writes the RDATA, both names in full [RFC 3597 §4].
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_name(&self.mbox, Compress::No)?;
        w.put_name(&self.txt, Compress::No)
    }
}

impl fmt::Display for Rp<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.mbox, self.txt)
    }
}
