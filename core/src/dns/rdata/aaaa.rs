use core::fmt;
use core::net::Ipv6Addr;

use crate::dns::builder::Writer;
use crate::dns::error::{Error, ErrorKind, Result};

/// An IPv6 address [RFC 3596 §2.2], printed in RFC 5952 form.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Aaaa {
    /// The address.
    pub address: Ipv6Addr,
}

impl Aaaa {
    /// Reads the RDATA in `message[at..end]`.
    pub fn parse(message: &[u8], at: usize, end: usize) -> Result<Self> {
        let octets: [u8; 16] = message
            .get(at..end)
            .and_then(|b| b.try_into().ok())
            .ok_or(Error::new(ErrorKind::InvalidRdata, at))?;
        Ok(Aaaa {
            address: Ipv6Addr::from(octets),
        })
    }

    /// Writes the RDATA.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put(&self.address.octets())
    }
}

impl fmt::Display for Aaaa {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.address, f)
    }
}
