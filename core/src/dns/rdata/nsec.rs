use core::fmt;

use crate::dns::builder::{Compress, Writer};
use crate::dns::error::Result;
use crate::dns::name::Name;
use crate::dns::text::TypeBitmap;

use super::Fields;

/// The next name in a signed zone, and the types at this one [RFC 4034 §4].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Nsec<'a> {
    /// The next owner name in canonical order; never compressed.
    pub next_domain: Name<'a>,
    /// The types present at the owner name.
    pub types: TypeBitmap<'a>,
}

impl<'a> Nsec<'a> {
    /// Reads the RDATA in `message[at..end]`.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        let next_domain = fields.uncompressed_name()?;
        let bitmap_at = fields.pos();
        Ok(Nsec {
            next_domain,
            types: TypeBitmap::parse(fields.rest(), bitmap_at)?,
        })
    }

    /// Writes the RDATA.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_name(&self.next_domain, Compress::No)?;
        w.put(self.types.as_bytes())
    }
}

impl fmt::Display for Nsec<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.next_domain)?;
        if !self.types.as_bytes().is_empty() {
            write!(f, " {}", self.types)?;
        }
        Ok(())
    }
}
