use core::fmt;

use crate::dns::builder::Writer;
use crate::dns::error::Result;
use crate::dns::rtype::Rtype;
use crate::dns::text::write_hex;

/// RDATA of a type without a typed view, kept as bytes [RFC 3597].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Unknown<'a> {
    /// The record's type.
    pub rtype: Rtype,
    /// The RDATA, as it was on the wire.
    pub data: &'a [u8],
}

impl Unknown<'_> {
    /// Writes the RDATA.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put(self.data)
    }
}

/// The generic form, `\# 4 0a000001` [RFC 3597 §5].
impl fmt::Display for Unknown<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "\\# {}", self.data.len())?;
        if !self.data.is_empty() {
            f.write_str(" ")?;
            write_hex(f, self.data)?;
        }
        Ok(())
    }
}
