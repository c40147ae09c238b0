use core::fmt::{self, Write};
use core::net::{Ipv4Addr, Ipv6Addr};

use crate::dns::builder::Writer;
use crate::dns::error::{Error, ErrorKind, Result};
use crate::dns::text::{write_escaped, write_hex};

use super::Fields;

/// The options of an EDNS(0) OPT pseudo-record [RFC 6891 §6.1.2].
///
/// The record's other fields (payload size, extended RCODE, version, DO) are
/// not RDATA; see [`Edns`](crate::dns::Edns).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Opt<'a> {
    options: &'a [u8],
}

impl<'a> Opt<'a> {
    /// Reads and checks the options in `message[at..end]`.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let options = message
            .get(at..end)
            .ok_or(Error::new(ErrorKind::InvalidRdata, at))?;
        let mut pos = 0;
        while pos < options.len() {
            pos = EdnsOption::split(options, pos)
                .map_err(|e| e.shifted(at))?
                .1;
        }
        Ok(Opt { options })
    }

    /// The options, in wire order.
    pub fn options(&self) -> impl Iterator<Item = EdnsOption<'a>> + 'a {
        let options = self.options;
        let mut pos = 0;
        // Every option was checked by `parse`.
        core::iter::from_fn(move || {
            let (option, next) = EdnsOption::split(options, pos).ok()?;
            pos = next;
            Some(option)
        })
    }

    /// The options' wire bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.options
    }

    /// Writes the RDATA.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put(self.options)
    }
}

impl fmt::Display for Opt<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, option) in self.options().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{option}")?;
        }
        Ok(())
    }
}

/// One EDNS option [IANA "DNS EDNS0 Option Codes"].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum EdnsOption<'a> {
    /// Name server identifier [RFC 5001].
    Nsid(&'a [u8]),
    /// Client subnet [RFC 7871 §6].
    ClientSubnet {
        /// 1 for IPv4, 2 for IPv6.
        family: u16,
        /// The prefix length the client sent.
        source_prefix: u8,
        /// The prefix length the answer covers.
        scope_prefix: u8,
        /// The prefix's significant octets, `ceil(source_prefix / 8)` of them.
        address: &'a [u8],
    },
    /// A client cookie and, in responses, the server cookie [RFC 7873 §4].
    Cookie {
        /// 8 octets.
        client: &'a [u8],
        /// 8 to 32 octets, absent in a first query.
        server: Option<&'a [u8]>,
    },
    /// Padding octets, normally zero [RFC 7830].
    Padding(&'a [u8]),
    /// Extended DNS error [RFC 8914].
    ExtendedError {
        /// The INFO-CODE, such as 18 for "Prohibited".
        info_code: u16,
        /// Optional UTF-8 text for people.
        extra_text: &'a [u8],
    },
    /// Any other option.
    Unknown {
        /// The option code.
        code: u16,
        /// The option data.
        data: &'a [u8],
    },
}

impl<'a> EdnsOption<'a> {
    /// Reads the option at `pos` in `options`; returns it with the position after it.
    pub fn split(options: &'a [u8], pos: usize) -> Result<(Self, usize)> {
        let mut fields = Fields::new(options, pos, options.len());
        let code = fields.u16()?;
        let len = usize::from(fields.u16()?);
        let data_at = fields.pos();
        let data = fields.bytes(len)?;
        let invalid = Error::new(ErrorKind::InvalidRdata, data_at);
        let option = match code {
            3 => EdnsOption::Nsid(data),
            8 => {
                let (&[f0, f1, source_prefix, scope_prefix], address) =
                    data.split_first_chunk().ok_or(invalid)?;
                let family = u16::from_be_bytes([f0, f1]);
                let max = match family {
                    1 => 32,
                    2 => 128,
                    _ => return Err(invalid),
                };
                if source_prefix > max
                    || scope_prefix > max
                    || address.len() != usize::from(source_prefix).div_ceil(8)
                {
                    return Err(invalid);
                }
                EdnsOption::ClientSubnet {
                    family,
                    source_prefix,
                    scope_prefix,
                    address,
                }
            }
            10 => match data.len() {
                8 => EdnsOption::Cookie {
                    client: data,
                    server: None,
                },
                16..=40 => EdnsOption::Cookie {
                    client: &data[..8],
                    server: Some(&data[8..]),
                },
                _ => return Err(invalid),
            },
            12 => EdnsOption::Padding(data),
            15 => {
                let (info, extra_text) = data.split_first_chunk::<2>().ok_or(invalid)?;
                EdnsOption::ExtendedError {
                    info_code: u16::from_be_bytes(*info),
                    extra_text,
                }
            }
            _ => EdnsOption::Unknown { code, data },
        };
        Ok((option, fields.pos()))
    }

    /// The option code.
    pub fn code(&self) -> u16 {
        match self {
            EdnsOption::Nsid(_) => 3,
            EdnsOption::ClientSubnet { .. } => 8,
            EdnsOption::Cookie { .. } => 10,
            EdnsOption::Padding(_) => 12,
            EdnsOption::ExtendedError { .. } => 15,
            EdnsOption::Unknown { code, .. } => *code,
        }
    }

    /// The option's name as dig prints it, or `None` for an unknown code.
    pub fn name(&self) -> Option<&'static str> {
        match self {
            EdnsOption::Nsid(_) => Some("NSID"),
            EdnsOption::ClientSubnet { .. } => Some("CLIENT-SUBNET"),
            EdnsOption::Cookie { .. } => Some("COOKIE"),
            EdnsOption::Padding(_) => Some("PADDING"),
            EdnsOption::ExtendedError { .. } => Some("EDE"),
            EdnsOption::Unknown { .. } => None,
        }
    }

    /// The option's data length on the wire.
    pub fn data_len(&self) -> usize {
        match self {
            EdnsOption::Nsid(d) | EdnsOption::Padding(d) | EdnsOption::Unknown { data: d, .. } => {
                d.len()
            }
            EdnsOption::ClientSubnet { address, .. } => 4 + address.len(),
            EdnsOption::Cookie { client, server } => client.len() + server.map_or(0, |s| s.len()),
            EdnsOption::ExtendedError { extra_text, .. } => 2 + extra_text.len(),
        }
    }

    /// Writes the option, code and length included.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_u16(self.code())?;
        w.put_u16(
            u16::try_from(self.data_len())
                .map_err(|_| Error::new(ErrorKind::InvalidRdata, w.len()))?,
        )?;
        match self {
            EdnsOption::Nsid(d) | EdnsOption::Padding(d) | EdnsOption::Unknown { data: d, .. } => {
                w.put(d)
            }
            EdnsOption::ClientSubnet {
                family,
                source_prefix,
                scope_prefix,
                address,
            } => {
                w.put_u16(*family)?;
                w.put(&[*source_prefix, *scope_prefix])?;
                w.put(address)
            }
            EdnsOption::Cookie { client, server } => {
                w.put(client)?;
                w.put(server.unwrap_or_default())
            }
            EdnsOption::ExtendedError {
                info_code,
                extra_text,
            } => {
                w.put_u16(*info_code)?;
                w.put(extra_text)
            }
        }
    }
}

/// As dig prints options: `NSID: 6e7331 ("ns1")`, `COOKIE: 0102…`,
/// `CLIENT-SUBNET: 192.0.2.0/24/0`, `PADDING: 12 bytes`, `EDE: 18 (extra)`,
/// and `OPT=65001: 0a0b` for unknown codes.
impl fmt::Display for EdnsOption<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EdnsOption::Nsid(data) => {
                f.write_str("NSID: ")?;
                write_hex(f, data)?;
                f.write_str(" (\"")?;
                write_escaped(f, data, |b| b == b'"' || b == b'\\')?;
                f.write_str("\")")
            }
            EdnsOption::ClientSubnet {
                family,
                source_prefix,
                scope_prefix,
                address,
            } => {
                f.write_str("CLIENT-SUBNET: ")?;
                if *family == 1 {
                    let mut octets = [0u8; 4];
                    octets[..address.len()].copy_from_slice(address);
                    write!(f, "{}", Ipv4Addr::from(octets))?;
                } else {
                    let mut octets = [0u8; 16];
                    octets[..address.len()].copy_from_slice(address);
                    write!(f, "{}", Ipv6Addr::from(octets))?;
                }
                write!(f, "/{source_prefix}/{scope_prefix}")
            }
            EdnsOption::Cookie { client, server } => {
                f.write_str("COOKIE: ")?;
                write_hex(f, client)?;
                if let Some(server) = server {
                    f.write_char(' ')?;
                    write_hex(f, server)?;
                }
                Ok(())
            }
            EdnsOption::Padding(data) => write!(f, "PADDING: {} bytes", data.len()),
            EdnsOption::ExtendedError {
                info_code,
                extra_text,
            } => {
                write!(f, "EDE: {info_code}")?;
                if !extra_text.is_empty() {
                    f.write_str(" (")?;
                    write_escaped(f, extra_text, |b| b == b'\\')?;
                    f.write_char(')')?;
                }
                Ok(())
            }
            EdnsOption::Unknown { code, data } => {
                write!(f, "OPT={code}: ")?;
                write_hex(f, data)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dns::{EdnsParams, MessageBuilder};
    use std::string::ToString;
    use std::vec::Vec;

    /// One option's wire form: code, length, data.
    fn option(code: u16, data: &[u8]) -> Vec<u8> {
        let len = u16::try_from(data.len()).unwrap();
        [&code.to_be_bytes()[..], &len.to_be_bytes(), data].concat()
    }

    #[test]
    fn each_option_reads_prints_and_writes_back() {
        let server: Vec<u8> = (0x11..0x31).collect();
        let cookie = [&[1, 2, 3, 4, 5, 6, 7, 8][..], &server].concat();
        let cases = [
            (option(3, b"ns1"), "NSID: 6e7331 (\"ns1\")", Some("NSID")),
            (
                option(3, b"a\"b\\"),
                "NSID: 6122625c (\"a\\\"b\\\\\")",
                Some("NSID"),
            ),
            (
                option(8, &[0, 1, 24, 0, 192, 0, 2]),
                "CLIENT-SUBNET: 192.0.2.0/24/0",
                Some("CLIENT-SUBNET"),
            ),
            (
                option(8, &[0, 1, 32, 32, 192, 0, 2, 1]),
                "CLIENT-SUBNET: 192.0.2.1/32/32",
                Some("CLIENT-SUBNET"),
            ),
            (
                option(8, &[0, 2, 40, 48, 0x20, 0x01, 0x0d, 0xb8, 0x01]),
                "CLIENT-SUBNET: 2001:db8:100::/40/48",
                Some("CLIENT-SUBNET"),
            ),
            (
                option(10, &cookie[..8]),
                "COOKIE: 0102030405060708",
                Some("COOKIE"),
            ),
            (
                option(10, &cookie[..16]),
                "COOKIE: 0102030405060708 1112131415161718",
                Some("COOKIE"),
            ),
            (
                option(10, &cookie),
                "COOKIE: 0102030405060708 \
                 1112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f30",
                Some("COOKIE"),
            ),
            (option(12, &[0; 12]), "PADDING: 12 bytes", Some("PADDING")),
            (option(15, &[0, 18]), "EDE: 18", Some("EDE")),
            (option(15, &[0, 18, b'x']), "EDE: 18 (x)", Some("EDE")),
            (option(65_001, &[0x0a, 0x0b]), "OPT=65001: 0a0b", None),
        ];
        for (wire, text, name) in cases {
            let (read, next) = EdnsOption::split(&wire, 0).unwrap();
            assert_eq!(next, wire.len(), "{text}");
            assert_eq!(read.to_string(), text);
            assert_eq!(read.name(), name, "{text}");
            assert_eq!(read.code(), u16::from_be_bytes([wire[0], wire[1]]));
            assert_eq!(read.data_len(), wire.len() - 4, "{text}");
            // Written back, as the only option of an OPT record: 12 bytes
            // of header, 11 of OPT fields, then the option.
            let mut buf = [0u8; 128];
            let mut b = MessageBuilder::new(&mut buf).unwrap();
            b.push_edns(&EdnsParams {
                options: &[read],
                ..EdnsParams::default()
            })
            .unwrap();
            assert_eq!(b.finish().unwrap()[23..], wire[..], "{text}");
        }
    }

    #[test]
    fn malformed_options_point_at_their_data() {
        let cases = [
            // Client subnet: an unknown family; prefixes past the family's
            // width; an address longer or shorter than the source prefix.
            option(8, &[0, 3, 0, 0]),
            option(8, &[0, 1, 33, 0, 192, 0, 2, 1, 0]),
            option(8, &[0, 1, 24, 33, 192, 0, 2]),
            option(8, &[0, 2, 129, 0]),
            option(8, &[0, 1, 24, 0, 192, 0, 2, 1]),
            option(8, &[0, 1, 24, 0, 192, 0]),
            option(8, &[0, 1, 24]),
            // Cookies of 9 and 41 octets.
            option(10, &[7; 9]),
            option(10, &[7; 41]),
            // An extended error without its code.
            option(15, &[0]),
        ];
        for wire in cases {
            let err = EdnsOption::split(&wire, 0).unwrap_err();
            assert_eq!(
                (err.kind(), err.offset()),
                (ErrorKind::InvalidRdata, 4),
                "{wire:02x?}"
            );
            // In a record, after a good option, the offset is the message's.
            let rdata = [option(3, b"ns1"), wire].concat();
            let message = [&[0xff; 5][..], &rdata].concat();
            let err = Opt::parse(&message, 5, message.len()).unwrap_err();
            assert_eq!(
                (err.kind(), err.offset()),
                (ErrorKind::InvalidRdata, 5 + 7 + 4)
            );
        }
    }

    #[test]
    fn a_record_of_options_prints_them_in_order() {
        let rdata = [option(3, b"ns1"), option(12, &[0; 2])].concat();
        let opt = Opt::parse(&rdata, 0, rdata.len()).unwrap();
        assert_eq!(opt.to_string(), "NSID: 6e7331 (\"ns1\"); PADDING: 2 bytes");
        assert_eq!(opt.options().count(), 2);
        assert_eq!(Opt::parse(&rdata, 0, 0).unwrap().to_string(), "");
    }
}
