use core::fmt;

use crate::dns::builder::Writer;
use crate::dns::error::Result;
use crate::dns::text::write_quoted;

use super::{Fields, put_char_string};

/// The hardware and operating system of a host [RFC 1035 §3.3.2].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hinfo<'a> {
    /// The CPU type, such as `DEC-2060`.
    pub cpu: &'a [u8],
    /// The operating system, such as `TOPS20`.
    pub os: &'a [u8],
}

impl<'a> Hinfo<'a> {
    /// Reads the RDATA in `message[at..end]`: two `<character-string>`s and nothing after.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        let hinfo = Hinfo {
            cpu: fields.char_string()?,
            os: fields.char_string()?,
        };
        fields.finish()?;
        Ok(hinfo)
    }

    /// Writes the RDATA; fails with [`ErrorKind::InvalidRdata`](crate::dns::ErrorKind::InvalidRdata)
    /// if a string is longer than 255 octets.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        put_char_string(w, self.cpu)?;
        put_char_string(w, self.os)
    }
}

/// `"DEC-2060" "TOPS20"`.
impl fmt::Display for Hinfo<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_quoted(f, self.cpu)?;
        f.write_str(" ")?;
        write_quoted(f, self.os)
    }
}
