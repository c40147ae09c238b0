use core::fmt;

use crate::dns::builder::Writer;
use crate::dns::error::{Error, ErrorKind, Result};
use crate::dns::text::{TypeBitmap, write_base32hex, write_hex};

use super::Fields;

/// Hashed authenticated denial of existence [RFC 5155 §3].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Nsec3<'a> {
    /// The hash algorithm; 1 is SHA-1.
    pub hash_algorithm: u8,
    /// Bit 0 (1) is opt-out.
    pub flags: u8,
    /// Extra hash iterations.
    pub iterations: u16,
    /// The salt, 0 to 255 octets.
    pub salt: &'a [u8],
    /// The next hashed owner name, 1 to 255 octets.
    pub next_hashed_owner: &'a [u8],
    /// The types present at the original owner name.
    pub types: TypeBitmap<'a>,
}

impl<'a> Nsec3<'a> {
    /// Reads the RDATA in `message[at..end]`.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        let hash_algorithm = fields.u8()?;
        let flags = fields.u8()?;
        let iterations = fields.u16()?;
        let salt = fields.char_string()?;
        let hash_at = fields.pos();
        let next_hashed_owner = fields.char_string()?;
        if next_hashed_owner.is_empty() {
            return Err(Error::new(ErrorKind::InvalidRdata, hash_at));
        }
        let bitmap_at = fields.pos();
        let types = TypeBitmap::parse(fields.rest(), bitmap_at)?;
        Ok(Nsec3 {
            hash_algorithm,
            flags,
            iterations,
            salt,
            next_hashed_owner,
            types,
        })
    }

    /// Writes the RDATA.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_u8(self.hash_algorithm)?;
        w.put_u8(self.flags)?;
        w.put_u16(self.iterations)?;
        w.put_u8(self.salt.len() as u8)?;
        w.put(self.salt)?;
        w.put_u8(self.next_hashed_owner.len() as u8)?;
        w.put(self.next_hashed_owner)?;
        w.put(self.types.as_bytes())
    }
}

/// `1 0 10 aabbccdd 2vptu5timamqttgl4luu9kg21e0aor3s A RRSIG`; an empty salt is `-`.
impl fmt::Display for Nsec3<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} ",
            self.hash_algorithm, self.flags, self.iterations
        )?;
        if self.salt.is_empty() {
            f.write_str("-")?;
        } else {
            write_hex(f, self.salt)?;
        }
        f.write_str(" ")?;
        write_base32hex(f, self.next_hashed_owner)?;
        if !self.types.as_bytes().is_empty() {
            write!(f, " {}", self.types)?;
        }
        Ok(())
    }
}
