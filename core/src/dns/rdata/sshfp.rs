use core::fmt;

use crate::dns::builder::Writer;
use crate::dns::error::{Error, ErrorKind, Result};
use crate::dns::text::write_hex;

use super::Fields;

/// The fingerprint of a host's SSH public key [RFC 4255 §3.1].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sshfp<'a> {
    /// The key's algorithm: 1 RSA, 2 DSA, 3 ECDSA, 4 Ed25519 [RFC 6594, RFC 7479].
    pub algorithm: u8,
    /// The hash: 1 SHA-1, 2 SHA-256 [RFC 6594].
    pub fingerprint_type: u8,
    /// The fingerprint, never empty.
    pub fingerprint: &'a [u8],
}

impl<'a> Sshfp<'a> {
    /// Reads the RDATA in `message[at..end]`.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        let sshfp = Sshfp {
            algorithm: fields.u8()?,
            fingerprint_type: fields.u8()?,
            fingerprint: fields.rest(),
        };
        if sshfp.fingerprint.is_empty() {
            return Err(Error::new(ErrorKind::InvalidRdata, end));
        }
        Ok(sshfp)
    }

    /// Writes the RDATA.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_u8(self.algorithm)?;
        w.put_u8(self.fingerprint_type)?;
        w.put(self.fingerprint)
    }
}

/// `2 1 123456789abcdef67890123456789abcdef67890`, the fingerprint in base16.
impl fmt::Display for Sshfp<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} ", self.algorithm, self.fingerprint_type)?;
        write_hex(f, self.fingerprint)
    }
}
