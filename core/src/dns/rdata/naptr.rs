use core::fmt;

use crate::dns::builder::{Compress, Writer};
use crate::dns::error::Result;
use crate::dns::name::Name;
use crate::dns::text::write_quoted;

use super::{Fields, put_char_string};

/// A naming authority pointer: one rewrite rule of a Dynamic Delegation
/// Discovery System [RFC 3403 §4.1].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Naptr<'a> {
    /// Rules are applied in ascending order.
    pub order: u16,
    /// Among rules of equal order, lower values are preferred.
    pub preference: u16,
    /// Flags for the application, such as `S`, `A`, `U` or `P`.
    pub flags: &'a [u8],
    /// The services available down this path, such as `E2U+sip`.
    pub services: &'a [u8],
    /// A substitution expression applied to the application's string.
    pub regexp: &'a [u8],
    /// The next name to look up; the root when `regexp` is used. Written in full.
    pub replacement: Name<'a>,
}

impl<'a> Naptr<'a> {
    /// Reads the RDATA in `message[at..end]`. Senders must not compress the
    /// replacement, but receivers decompress it [RFC 3597 §4].
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        let naptr = Naptr {
            order: fields.u16()?,
            preference: fields.u16()?,
            flags: fields.char_string()?,
            services: fields.char_string()?,
            regexp: fields.char_string()?,
            replacement: fields.name()?,
        };
        fields.finish()?;
        Ok(naptr)
    }

    /// Writes the RDATA, the replacement in full; fails with
    /// [`ErrorKind::InvalidRdata`](crate::dns::ErrorKind::InvalidRdata) if a
    /// string is longer than 255 octets.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_u16(self.order)?;
        w.put_u16(self.preference)?;
        put_char_string(w, self.flags)?;
        put_char_string(w, self.services)?;
        put_char_string(w, self.regexp)?;
        w.put_name(&self.replacement, Compress::No)
    }
}

/// `100 10 "S" "SIP+D2U" "" _sip._udp.example.com.`
impl fmt::Display for Naptr<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ", self.order, self.preference)?;
        for string in [self.flags, self.services, self.regexp] {
            write_quoted(f, string)?;
            f.write_str(" ")?;
        }
        fmt::Display::fmt(&self.replacement, f)
    }
}
