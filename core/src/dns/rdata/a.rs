use core::fmt;
use core::net::Ipv4Addr;

use crate::dns::builder::Writer;
use crate::dns::error::{Error, ErrorKind, Result};

/// An IPv4 address [RFC 1035 §3.4.1].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct A {
    /// The address.
    pub address: Ipv4Addr,
}

impl A {
    /// Reads the RDATA in `message[at..end]`.
    pub fn parse(message: &[u8], at: usize, end: usize) -> Result<Self> {
        match message.get(at..end) {
            Some(&[a, b, c, d]) => Ok(A {
                address: Ipv4Addr::new(a, b, c, d),
            }),
            _ => Err(Error::new(ErrorKind::InvalidRdata, at)),
        }
    }

    /// Writes the RDATA.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put(&self.address.octets())
    }
}

impl fmt::Display for A {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.address, f)
    }
}
