use super::rdata::{EdnsOption, Opt};
use super::record::Record;

/// The EDNS(0) parameters of a message, read from its OPT record [RFC 6891 §6.1.3].
///
/// ```text
/// CLASS = requestor's UDP payload size
/// TTL   = EXTENDED-RCODE(8) VERSION(8) DO(1) Z(15)
/// RDATA = options
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Edns<'a> {
    /// The largest UDP payload the sender can take.
    pub payload_size: u16,
    /// The upper eight bits of the 12-bit response code.
    pub extended_rcode: u8,
    /// The EDNS version; 0 today.
    pub version: u8,
    /// DNSSEC OK: the sender wants DNSSEC records [RFC 3225].
    pub dnssec_ok: bool,
    /// The other 15 flag bits; zero today.
    pub z: u16,
    opt: Opt<'a>,
}

impl<'a> Edns<'a> {
    /// The parameters of an OPT record whose RDATA is `opt`.
    pub(crate) fn new(record: &Record<'a>, opt: Opt<'a>) -> Self {
        Edns {
            payload_size: record.class,
            extended_rcode: (record.ttl >> 24) as u8,
            version: (record.ttl >> 16) as u8,
            dnssec_ok: record.ttl & 0x8000 != 0,
            z: (record.ttl & 0x7fff) as u16,
            opt,
        }
    }

    /// The options, in wire order.
    pub fn options(&self) -> impl Iterator<Item = EdnsOption<'a>> + 'a {
        self.opt.options()
    }

    /// The OPT RDATA.
    pub fn opt(&self) -> Opt<'a> {
        self.opt
    }
}
