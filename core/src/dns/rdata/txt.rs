use core::fmt::{self, Write};

use crate::dns::builder::Writer;
use crate::dns::error::{Error, ErrorKind, Result};
use crate::dns::text::write_quoted;

/// One or more `<character-string>`s, each at most 255 octets [RFC 1035 §3.3.14].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Txt<'a> {
    bytes: &'a [u8],
}

impl<'a> Txt<'a> {
    /// Reads the RDATA in `message[at..end]`.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let bytes = message
            .get(at..end)
            .ok_or(Error::new(ErrorKind::InvalidRdata, at))?;
        if bytes.is_empty() {
            return Err(Error::new(ErrorKind::InvalidRdata, at));
        }
        let mut pos = 0;
        while pos < bytes.len() {
            pos += 1 + usize::from(bytes[pos]);
            if pos > bytes.len() {
                return Err(Error::new(ErrorKind::InvalidRdata, at + bytes.len()));
            }
        }
        Ok(Txt { bytes })
    }

    /// Text RDATA over already-checked wire bytes (`len text len text ...`).
    pub fn from_wire(bytes: &'a [u8]) -> Result<Self> {
        Self::parse(bytes, 0, bytes.len())
    }

    /// The strings, each without its length octet.
    pub fn strings(&self) -> impl Iterator<Item = &'a [u8]> + 'a {
        let mut rest = self.bytes;
        core::iter::from_fn(move || {
            let (&len, tail) = rest.split_first()?;
            let (string, tail) = tail.split_at(usize::from(len).min(tail.len()));
            rest = tail;
            Some(string)
        })
    }

    /// Writes the RDATA.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put(self.bytes)
    }
}

impl fmt::Display for Txt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, string) in self.strings().enumerate() {
            if i > 0 {
                f.write_char(' ')?;
            }
            write_quoted(f, string)?;
        }
        Ok(())
    }
}
