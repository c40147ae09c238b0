use super::error::{Error, ErrorKind, Result};
use super::opcode::Opcode;

/// Byte offsets of the header fields [RFC 1035 §4.1.1].
mod field {
    pub const ID: usize = 0;
    pub const FLAGS: usize = 2;
    pub const QDCOUNT: usize = 4;
    pub const ANCOUNT: usize = 6;
    pub const NSCOUNT: usize = 8;
    pub const ARCOUNT: usize = 10;
}

/// The length of a header on the wire.
pub const HEADER_LEN: usize = 12;

/// A message header, as a value [RFC 1035 §4.1.1, RFC 2535 §6.1 for AD and CD].
///
/// ```text
///   0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15
/// |                      ID                       |
/// |QR|   Opcode  |AA|TC|RD|RA| Z|AD|CD|   RCODE   |
/// |                    QDCOUNT                    |
/// |                    ANCOUNT                    |
/// |                    NSCOUNT                    |
/// |                    ARCOUNT                    |
/// ```
///
/// ```
/// use leanwire_core::dns::{Header, Opcode};
///
/// let (header, rest) = Header::split(&[0x3c, 0x4d, 0x81, 0x80, 0, 1, 0, 2, 0, 0, 0, 0, 0xff])?;
/// assert_eq!((header.id, header.qr, header.rd, header.ra, header.ancount), (0x3c4d, true, true, true, 2));
/// assert_eq!(header.opcode, Opcode::Query);
/// assert_eq!(rest, [0xff]);
/// let mut out = [0xa5; 12];
/// header.emit(&mut out);
/// assert_eq!(out[..4], [0x3c, 0x4d, 0x81, 0x80]);
/// # Ok::<(), leanwire_core::dns::Error>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Header {
    /// Matches a response to its query.
    pub id: u16,
    /// A response (true) or a query.
    pub qr: bool,
    /// The kind of query.
    pub opcode: Opcode,
    /// Authoritative answer.
    pub aa: bool,
    /// Truncated: the answer did not fit, retry over TCP.
    pub tc: bool,
    /// Recursion desired.
    pub rd: bool,
    /// Recursion available.
    pub ra: bool,
    /// The reserved bit; zero in every current message.
    pub z: bool,
    /// Authentic data [RFC 4035 §3.2.3].
    pub ad: bool,
    /// Checking disabled [RFC 4035 §3.2.2].
    pub cd: bool,
    /// The low four bits of the response code; EDNS carries the rest.
    pub rcode: u8,
    /// Entries in the question section.
    pub qdcount: u16,
    /// Records in the answer section.
    pub ancount: u16,
    /// Records in the authority section.
    pub nscount: u16,
    /// Records in the additional section.
    pub arcount: u16,
}

/// A standard query with every flag clear, ID 0, and no entries.
impl Default for Header {
    fn default() -> Self {
        Header {
            id: 0,
            qr: false,
            opcode: Opcode::Query,
            aa: false,
            tc: false,
            rd: false,
            ra: false,
            z: false,
            ad: false,
            cd: false,
            rcode: 0,
            qdcount: 0,
            ancount: 0,
            nscount: 0,
            arcount: 0,
        }
    }
}

fn be16(b: &[u8], at: usize) -> u16 {
    u16::from_be_bytes([b[at], b[at + 1]])
}

impl Header {
    /// Reads a header and returns it with the bytes after it.
    pub fn split(bytes: &[u8]) -> Result<(Header, &[u8])> {
        let (head, rest) = bytes
            .split_first_chunk::<HEADER_LEN>()
            .ok_or(Error::new(ErrorKind::ShortInput, bytes.len()))?;
        Ok((Header::from_bytes(head), rest))
    }

    /// Reads a header from its wire bytes.
    pub fn from_bytes(bytes: &[u8; HEADER_LEN]) -> Header {
        let flags = be16(bytes, field::FLAGS);
        let bit = |n: u16| flags & (1 << n) != 0;
        let [qdcount, ancount, nscount, arcount] = Header::counts(bytes);
        Header {
            id: be16(bytes, field::ID),
            qr: bit(15),
            opcode: Opcode::from(((flags >> 11) & 0xf) as u8),
            aa: bit(10),
            tc: bit(9),
            rd: bit(8),
            ra: bit(7),
            z: bit(6),
            ad: bit(5),
            cd: bit(4),
            rcode: (flags & 0xf) as u8,
            qdcount,
            ancount,
            nscount,
            arcount,
        }
    }

    /// The section counts in a header's wire bytes: QDCOUNT, ANCOUNT,
    /// NSCOUNT and ARCOUNT, without the rest of the header.
    pub(crate) fn counts(bytes: &[u8; HEADER_LEN]) -> [u16; 4] {
        [
            be16(bytes, field::QDCOUNT),
            be16(bytes, field::ANCOUNT),
            be16(bytes, field::NSCOUNT),
            be16(bytes, field::ARCOUNT),
        ]
    }

    /// The 16 flag bits, from QR down to RCODE.
    pub fn flags(&self) -> u16 {
        let bit = |on: bool, n: u16| u16::from(on) << n;
        bit(self.qr, 15)
            | u16::from(u8::from(self.opcode) & 0xf) << 11
            | bit(self.aa, 10)
            | bit(self.tc, 9)
            | bit(self.rd, 8)
            | bit(self.ra, 7)
            | bit(self.z, 6)
            | bit(self.ad, 5)
            | bit(self.cd, 4)
            | u16::from(self.rcode & 0xf)
    }

    /// Writes the header into the first 12 bytes of `out`.
    pub fn emit(&self, out: &mut [u8; HEADER_LEN]) {
        for (at, value) in [
            (field::ID, self.id),
            (field::FLAGS, self.flags()),
            (field::QDCOUNT, self.qdcount),
            (field::ANCOUNT, self.ancount),
            (field::NSCOUNT, self.nscount),
            (field::ARCOUNT, self.arcount),
        ] {
            out[at..at + 2].copy_from_slice(&value.to_be_bytes());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_flag_round_trips() {
        for flags in [0u16, 0xffff, 0x8180, 0x0100, 0x7800, 0x0030] {
            let mut bytes = [0xa5; HEADER_LEN];
            bytes[2..4].copy_from_slice(&flags.to_be_bytes());
            let (header, _) = Header::split(&bytes).unwrap();
            assert_eq!(header.flags(), flags);
            let mut out = [0u8; HEADER_LEN];
            header.emit(&mut out);
            assert_eq!(out, bytes);
        }
    }

    #[test]
    fn short_header() {
        assert_eq!(
            Header::split(&[0; 11]).unwrap_err(),
            Error::new(ErrorKind::ShortInput, 11)
        );
    }
}
