use core::fmt;

use crate::dns::builder::Writer;
use crate::dns::error::{Error, ErrorKind, Result};
use crate::dns::text::write_quoted;

use super::Fields;

/// Certification authority authorization [RFC 8659 §4.1].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Caa<'a> {
    /// Bit 7 (128) is the issuer-critical flag.
    pub flags: u8,
    /// The property: 1 to 15 ASCII letters and digits, such as `issue`.
    pub tag: &'a [u8],
    /// The property's value.
    pub value: &'a [u8],
}

impl<'a> Caa<'a> {
    /// Reads the RDATA in `message[at..end]`.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        let flags = fields.u8()?;
        let tag_at = fields.pos();
        let tag = fields.char_string()?;
        if tag.is_empty() || tag.len() > 15 || !tag.iter().all(u8::is_ascii_alphanumeric) {
            return Err(Error::new(ErrorKind::InvalidRdata, tag_at));
        }
        Ok(Caa {
            flags,
            tag,
            value: fields.rest(),
        })
    }

    /// Writes the RDATA.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_u8(self.flags)?;
        w.put_u8(self.tag.len() as u8)?;
        w.put(self.tag)?;
        w.put(self.value)
    }
}

impl fmt::Display for Caa<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ", self.flags)?;
        // The tag was checked to be ASCII letters and digits.
        f.write_str(core::str::from_utf8(self.tag).map_err(|_| fmt::Error)?)?;
        f.write_str(" ")?;
        write_quoted(f, self.value)
    }
}
