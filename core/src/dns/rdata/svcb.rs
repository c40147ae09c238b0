use core::fmt::{self, Write};
use core::net::{Ipv4Addr, Ipv6Addr};

use crate::dns::builder::{Compress, Writer};
use crate::dns::code::registry;
use crate::dns::error::{Error, ErrorKind, Result};
use crate::dns::name::Name;
use crate::dns::text::write_base64;

use super::Fields;

registry! {
    /// A SVCB parameter key [RFC 9460 §14.3.2]. Unknown keys print as `key65000`.
    pub enum SvcParamKey: u16, unknown = "key" {
        /// Keys the client must understand to use the record.
        Mandatory = 0 => "mandatory",
        /// Application protocols (ALPN ids).
        Alpn = 1 => "alpn",
        /// The default ALPN id is not supported.
        NoDefaultAlpn = 2 => "no-default-alpn",
        /// The port to connect to.
        Port = 3 => "port",
        /// IPv4 address hints.
        Ipv4Hint = 4 => "ipv4hint",
        /// An encrypted ClientHello configuration list.
        Ech = 5 => "ech",
        /// IPv6 address hints.
        Ipv6Hint = 6 => "ipv6hint",
        /// A DNS-over-HTTPS URI template [RFC 9461].
        DohPath = 7 => "dohpath",
        /// Oblivious HTTP support [RFC 9540].
        Ohttp = 8 => "ohttp",
        /// TLS named groups, most preferred first
        /// [draft-ietf-tls-key-share-prediction §3].
        TlsSupportedGroups = 9 => "tls-supported-groups",
    }
}

/// A service binding, the RDATA of both SVCB and HTTPS [RFC 9460 §2.2].
///
/// Parsing enforces §2.2 and §8: keys strictly ascending, each value well
/// formed for its key, a consistent `mandatory` list, `no-default-alpn` only
/// with `alpn`, and no parameters in AliasMode. A `tls-supported-groups`
/// value is a non-empty list of 2-byte groups with no group twice.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Svcb<'a> {
    /// 0 for AliasMode; otherwise lower values are preferred.
    pub priority: u16,
    /// The alias or service host; `.` means the owner name. Never compressed.
    pub target: Name<'a>,
    params: &'a [u8],
}

/// One parameter of a [`Svcb`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct SvcParam<'a> {
    /// The key.
    pub key: SvcParamKey,
    /// The value's wire bytes.
    pub value: &'a [u8],
}

impl<'a> Svcb<'a> {
    /// Reads and checks the RDATA in `message[at..end]`.
    pub fn parse(message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        let mut fields = Fields::new(message, at, end);
        let priority = fields.u16()?;
        let target = fields.uncompressed_name()?;
        let params_at = fields.pos();
        let params = fields.rest();
        let svcb = Svcb {
            priority,
            target,
            params,
        };
        svcb.check(params_at)?;
        Ok(svcb)
    }

    fn check(&self, params_at: usize) -> Result<()> {
        let mut pos = 0;
        let mut last_key = None;
        let mut mandatory: &[u8] = &[];
        let mut mandatory_at = 0;
        let (mut has_alpn, mut no_default_alpn) = (false, false);
        while pos < self.params.len() {
            let at = params_at + pos;
            if self.priority == 0 {
                return Err(Error::new(ErrorKind::SvcbAliasParams, at));
            }
            let (param, next) = split_param(self.params, pos).map_err(|e| e.shifted(params_at))?;
            let key = u16::from(param.key);
            if last_key.is_some_and(|last| key <= last) {
                return Err(Error::new(ErrorKind::SvcbKeyOrder, at));
            }
            last_key = Some(key);
            let value = param.value;
            let invalid = Error::new(ErrorKind::SvcbInvalidValue, at + 4);
            match param.key {
                SvcParamKey::Mandatory => {
                    let sorted = value
                        .chunks_exact(2)
                        .map(|k| u16::from_be_bytes([k[0], k[1]]));
                    let ascending = sorted
                        .clone()
                        .zip(sorted.clone().skip(1))
                        .all(|(a, b)| a < b);
                    if value.is_empty()
                        || value.len() % 2 != 0
                        || !ascending
                        || sorted.clone().any(|k| k == 0)
                    {
                        return Err(Error::new(ErrorKind::SvcbMandatory, at + 4));
                    }
                    mandatory = value;
                    mandatory_at = at + 4;
                }
                SvcParamKey::Alpn => {
                    if value.is_empty() {
                        return Err(invalid);
                    }
                    let mut rest = value;
                    while let Some((&len, tail)) = rest.split_first() {
                        if len == 0 || usize::from(len) > tail.len() {
                            return Err(invalid);
                        }
                        rest = &tail[usize::from(len)..];
                    }
                    has_alpn = true;
                }
                SvcParamKey::NoDefaultAlpn | SvcParamKey::Ohttp if !value.is_empty() => {
                    return Err(invalid);
                }
                SvcParamKey::NoDefaultAlpn => no_default_alpn = true,
                SvcParamKey::Port if value.len() != 2 => return Err(invalid),
                SvcParamKey::Ipv4Hint if value.is_empty() || value.len() % 4 != 0 => {
                    return Err(invalid);
                }
                SvcParamKey::Ipv6Hint if value.is_empty() || value.len() % 16 != 0 => {
                    return Err(invalid);
                }
                SvcParamKey::Ech | SvcParamKey::DohPath if value.is_empty() => return Err(invalid),
                SvcParamKey::DohPath if core::str::from_utf8(value).is_err() => {
                    return Err(invalid);
                }
                SvcParamKey::TlsSupportedGroups if value.is_empty() || value.len() % 2 != 0 => {
                    return Err(invalid);
                }
                SvcParamKey::TlsSupportedGroups => {
                    if let Some(repeat) = first_repeat(value) {
                        return Err(Error::new(ErrorKind::SvcbInvalidValue, at + 4 + repeat));
                    }
                }
                _ => {}
            }
            pos = next;
        }
        if no_default_alpn && !has_alpn {
            return Err(Error::new(ErrorKind::SvcbAlpnMissing, params_at));
        }
        // Both lists ascend, so one walk over the parameters finds every key.
        let mut keys = self.params().map(|p| p.key);
        for key in mandatory
            .chunks_exact(2)
            .map(|k| SvcParamKey::from(u16::from_be_bytes([k[0], k[1]])))
        {
            if !keys.any(|k| k == key) {
                return Err(Error::new(ErrorKind::SvcbMandatory, mandatory_at));
            }
        }
        Ok(())
    }

    /// Whether this record is in AliasMode (priority 0).
    pub fn is_alias(&self) -> bool {
        self.priority == 0
    }

    /// The parameters, in ascending key order.
    pub fn params(&self) -> impl Iterator<Item = SvcParam<'a>> + 'a {
        let params = self.params;
        let mut pos = 0;
        // Every parameter was checked by `parse`.
        core::iter::from_fn(move || {
            let (param, next) = split_param(params, pos).ok()?;
            pos = next;
            Some(param)
        })
    }

    /// Writes the RDATA.
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        w.put_u16(self.priority)?;
        w.put_name(&self.target, Compress::No)?;
        w.put(self.params)
    }
}

/// Where the first 2-byte item of `list` that repeats an earlier one starts.
fn first_repeat(list: &[u8]) -> Option<usize> {
    let mut seen = [0u64; 1024];
    list.chunks_exact(2)
        .position(|item| {
            let item = usize::from(u16::from_be_bytes([item[0], item[1]]));
            let (word, bit) = (&mut seen[item / 64], 1 << (item % 64));
            let repeat = *word & bit != 0;
            *word |= bit;
            repeat
        })
        .map(|i| 2 * i)
}

/// Reads the `key length value` at `pos`.
fn split_param(params: &[u8], pos: usize) -> Result<(SvcParam<'_>, usize)> {
    let mut fields = Fields::new(params, pos, params.len());
    let key = SvcParamKey::from(fields.u16()?);
    let len = usize::from(fields.u16()?);
    let value = fields.bytes(len)?;
    Ok((SvcParam { key, value }, fields.pos()))
}

/// `1 svc.example. alpn=h2,h3 port=8443 ipv4hint=192.0.2.1` [RFC 9460 §2.1, Appendix A].
///
/// A value is quoted when it needs escapes or holds a space; list items
/// escape `,` and `\` once more, inside the quoting [RFC 9460 Appendix A.1].
impl fmt::Display for Svcb<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.priority, self.target)?;
        for param in self.params() {
            write!(f, " {param}")?;
        }
        Ok(())
    }
}

impl fmt::Display for SvcParam<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.key)?;
        let value = self.value;
        match self.key {
            SvcParamKey::NoDefaultAlpn | SvcParamKey::Ohttp => Ok(()),
            SvcParamKey::Mandatory => {
                f.write_char('=')?;
                for (i, key) in value.chunks_exact(2).enumerate() {
                    let key = SvcParamKey::from(u16::from_be_bytes([key[0], key[1]]));
                    write!(f, "{}{key}", if i > 0 { "," } else { "" })?;
                }
                Ok(())
            }
            SvcParamKey::TlsSupportedGroups => {
                f.write_char('=')?;
                for (i, group) in value.chunks_exact(2).enumerate() {
                    let group = u16::from_be_bytes([group[0], group[1]]);
                    write!(f, "{}{group}", if i > 0 { "," } else { "" })?;
                }
                Ok(())
            }
            SvcParamKey::Port if value.len() == 2 => {
                write!(f, "={}", u16::from_be_bytes([value[0], value[1]]))
            }
            SvcParamKey::Ipv4Hint => {
                f.write_char('=')?;
                for (i, a) in value.chunks_exact(4).enumerate() {
                    let address = Ipv4Addr::new(a[0], a[1], a[2], a[3]);
                    write!(f, "{}{address}", if i > 0 { "," } else { "" })?;
                }
                Ok(())
            }
            SvcParamKey::Ipv6Hint => {
                f.write_char('=')?;
                for (i, a) in value.chunks_exact(16).enumerate() {
                    let octets: [u8; 16] = a.try_into().map_err(|_| fmt::Error)?;
                    write!(
                        f,
                        "{}{}",
                        if i > 0 { "," } else { "" },
                        Ipv6Addr::from(octets)
                    )?;
                }
                Ok(())
            }
            SvcParamKey::Ech => {
                f.write_char('=')?;
                write_base64(f, value)
            }
            SvcParamKey::Alpn => {
                let mut items = alpn_items(value);
                let quote = alpn_items(value)
                    .flatten()
                    .any(|&b| needs_quotes(b) || b == b',');
                f.write_str(if quote { "=\"" } else { "=" })?;
                if let Some(first) = items.next() {
                    write_value_text(f, first, true)?;
                }
                for item in items {
                    f.write_char(',')?;
                    write_value_text(f, item, true)?;
                }
                f.write_str(if quote { "\"" } else { "" })
            }
            _ => {
                let quote = value.iter().any(|&b| needs_quotes(b));
                f.write_str(if quote { "=\"" } else { "=" })?;
                write_value_text(f, value, false)?;
                f.write_str(if quote { "\"" } else { "" })
            }
        }
    }
}

/// The length-prefixed ALPN ids in an `alpn` value.
fn alpn_items(value: &[u8]) -> impl Iterator<Item = &[u8]> {
    let mut rest = value;
    core::iter::from_fn(move || {
        let (&len, tail) = rest.split_first()?;
        let (item, tail) = tail.split_at(usize::from(len).min(tail.len()));
        rest = tail;
        Some(item)
    })
}

/// Whether a value holding `b` must be quoted to print it.
fn needs_quotes(b: u8) -> bool {
    !(0x21..=0x7e).contains(&b) || matches!(b, b'"' | b'\\' | b';' | b'(' | b')')
}

/// Writes value text with `<char-string>` escapes; in a list item, `,` and
/// `\` are escaped once more first (`\,` and `\\`, each then escaped again).
fn write_value_text(f: &mut impl Write, bytes: &[u8], list_item: bool) -> fmt::Result {
    for &b in bytes {
        match b {
            b',' if list_item => f.write_str("\\\\,")?,
            b'\\' if list_item => f.write_str("\\\\\\\\")?,
            b'"' | b'\\' => {
                f.write_char('\\')?;
                f.write_char(char::from(b))?;
            }
            0x20..=0x7e => f.write_char(char::from(b))?,
            _ => write!(f, "\\{b:03}")?,
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;
    use std::vec::Vec;

    /// Where the RDATA starts in the test messages.
    const AT: usize = 10;
    /// Where its parameters start: after the priority and `svc.example.`.
    const PARAMS_AT: usize = AT + 2 + 13;

    /// A message holding ten other bytes, then the RDATA
    /// `priority svc.example. params`.
    fn message(priority: u16, params: &[(u16, &[u8])]) -> Vec<u8> {
        let mut bytes = std::vec![0xEE; AT];
        bytes.extend(priority.to_be_bytes());
        bytes.extend(b"\x03svc\x07example\x00");
        for (key, value) in params {
            bytes.extend(key.to_be_bytes());
            bytes.extend((value.len() as u16).to_be_bytes());
            bytes.extend(*value);
        }
        bytes
    }

    fn parse(bytes: &[u8]) -> Result<Svcb<'_>> {
        Svcb::parse(bytes, AT, bytes.len())
    }

    fn error(priority: u16, params: &[(u16, &[u8])]) -> (ErrorKind, usize) {
        let e = parse(&message(priority, params)).unwrap_err();
        (e.kind(), e.offset())
    }

    #[test]
    fn every_key_prints_and_writes_back() {
        let bytes = message(
            1,
            &[
                (0, &[0, 1, 0, 3]),
                (1, b"\x02h2\x02h3"),
                (2, b""),
                (3, &[0x20, 0xFB]),
                (4, &[192, 0, 2, 1, 192, 0, 2, 2]),
                (5, &[1, 2, 3]),
                (
                    6,
                    &[0x20, 1, 0x0d, 0xb8, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1],
                ),
                (7, b"/q{?dns}"),
                (8, b""),
                (9, &[0, 0x1d]),
                (65000, b"x"),
            ],
        );
        let svcb = parse(&bytes).unwrap();
        assert!(!svcb.is_alias());
        assert_eq!(svcb.priority, 1);
        assert_eq!(svcb.target.to_string(), "svc.example.");
        assert_eq!(
            svcb.to_string(),
            "1 svc.example. mandatory=alpn,port alpn=h2,h3 no-default-alpn port=8443 \
             ipv4hint=192.0.2.1,192.0.2.2 ech=AQID ipv6hint=2001:db8::1 dohpath=/q{?dns} \
             ohttp tls-supported-groups=29 key65000=x"
        );
        let keys: Vec<u16> = svcb.params().map(|p| u16::from(p.key)).collect();
        assert_eq!(keys, [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 65000]);
        let mut out = [0u8; 128];
        let mut w = Writer::into_slice(&mut out);
        svcb.emit(&mut w).unwrap();
        assert_eq!(w.written(), &bytes[AT..]);
    }

    #[test]
    fn alias_mode_has_no_parameters() {
        let alias = message(0, &[]);
        assert!(parse(&alias).unwrap().is_alias());
        assert_eq!(parse(&alias).unwrap().to_string(), "0 svc.example.");
        let with_port = [(3, &[0u8, 80][..])];
        assert_eq!(
            error(0, &with_port),
            (ErrorKind::SvcbAliasParams, PARAMS_AT)
        );
    }

    #[test]
    fn values_are_quoted_and_escaped_as_rfc_9460_appendix_a_prints_them() {
        // A.1: an ALPN id holding a comma and a backslash, in a list.
        let alpn = message(16, &[(1, b"\x08f\\oo,bar\x02h2")]);
        assert_eq!(
            parse(&alpn).unwrap().to_string(),
            r#"16 svc.example. alpn="f\\\\oo\\,bar,h2""#
        );
        // Outside a list, a space or a quote makes the value quoted, and
        // bytes outside the printable range are escaped as \DDD.
        let spaced = message(1, &[(65000, b"a b"), (65001, b"q\"\\\x01")]);
        assert_eq!(
            parse(&spaced).unwrap().to_string(),
            r#"1 svc.example. key65000="a b" key65001="q\"\\\001""#
        );
        let plain = message(1, &[(1, b"\x02h2"), (65000, b"a,b")]);
        assert_eq!(
            parse(&plain).unwrap().to_string(),
            "1 svc.example. alpn=h2 key65000=a,b"
        );
    }

    #[test]
    fn a_parameter_made_by_hand_prints_even_when_malformed() {
        // `parse` refuses these; a `SvcParam` built by hand prints its
        // bytes in the generic form instead.
        let port = SvcParam {
            key: SvcParamKey::Port,
            value: &[1],
        };
        assert_eq!(port.to_string(), r#"port="\001""#);
        let hints = SvcParam {
            key: SvcParamKey::Ipv4Hint,
            value: &[192, 0, 2, 1, 9],
        };
        assert_eq!(hints.to_string(), "ipv4hint=192.0.2.1");
    }

    #[test]
    fn keys_must_ascend() {
        let port: &[u8] = &[0, 80];
        let alpn: &[u8] = b"\x02h2";
        let second = PARAMS_AT + 6;
        assert_eq!(
            error(1, &[(3, port), (1, alpn)]),
            (ErrorKind::SvcbKeyOrder, second)
        );
        assert_eq!(
            error(1, &[(3, port), (3, port)]),
            (ErrorKind::SvcbKeyOrder, second)
        );
    }

    #[test]
    fn each_bad_value_is_refused_at_its_value() {
        // Each bad value follows a good `port`, so its value starts 10 bytes
        // into the parameters.
        let value_at = PARAMS_AT + 6 + 4;
        let invalid = (ErrorKind::SvcbInvalidValue, value_at);
        let port: &[u8] = &[0, 80];
        let cases: [(u16, &[u8]); 13] = [
            (4, b""),
            (4, &[192, 0, 2]),
            (4, &[192, 0, 2, 1, 192]),
            (5, b""),
            (6, b""),
            (6, &[0; 15]),
            (6, &[0; 17]),
            (7, b""),
            (7, b"\xff"),
            (8, b"x"),
            (9, b""),
            (9, &[0]),
            (9, &[0, 29, 0]),
        ];
        for (key, value) in cases {
            assert_eq!(error(1, &[(3, port), (key, value)]), invalid, "key {key}");
        }
        // The empty value of an unknown key is allowed.
        assert!(parse(&message(1, &[(3, port), (9999, b"")])).is_ok());
        // ALPN: no ids, an empty id, an id past the value's end.
        for alpn in [&b""[..], b"\x00", b"\x02h2\x00", b"\x03h2"] {
            let first = (ErrorKind::SvcbInvalidValue, PARAMS_AT + 4);
            assert_eq!(error(1, &[(1, alpn)]), first, "{alpn:?}");
        }
        // `no-default-alpn` and `port` only after a good `alpn`.
        let alpn_value = PARAMS_AT + 7 + 4;
        for (key, value) in [(2, &b"x"[..]), (3, b"\x01"), (3, b"\x00\x01\x02")] {
            let params = [(1, &b"\x02h2"[..]), (key, value)];
            assert_eq!(
                error(1, &params),
                (ErrorKind::SvcbInvalidValue, alpn_value),
                "key {key}"
            );
        }
    }

    #[test]
    fn tls_supported_groups_as_the_draft_writes_them() {
        // draft-ietf-tls-key-share-prediction §3.1: x25519, then secp256r1.
        let groups = message(3, &[(9, &[0x00, 0x1d, 0x00, 0x17])]);
        assert_eq!(
            parse(&groups).unwrap().to_string(),
            "3 svc.example. tls-supported-groups=29,23"
        );
        // A group named twice is refused where it is named again.
        let groups_at = PARAMS_AT + 4;
        for (list, repeat) in [
            (&[0, 29, 0, 29][..], 2),
            (&[0, 29, 0, 23, 1, 29, 0, 23][..], 6),
            (&[255, 255, 0, 0, 255, 255][..], 4),
        ] {
            assert_eq!(
                error(1, &[(9, list)]),
                (ErrorKind::SvcbInvalidValue, groups_at + repeat),
                "{list:?}"
            );
        }
        // The largest value a parameter can hold: the top 32,767 groups, once each.
        let mut bytes = std::vec![0xEE; AT];
        bytes.extend(b"\x00\x01\x00\x00\x09\xff\xfe");
        bytes.extend((0x8001..=u16::MAX).flat_map(u16::to_be_bytes));
        let svcb = parse(&bytes).unwrap();
        assert_eq!(svcb.params().next().unwrap().value.len(), 0xfffe);
    }

    #[test]
    fn no_default_alpn_needs_alpn() {
        assert_eq!(
            error(1, &[(2, b"")]),
            (ErrorKind::SvcbAlpnMissing, PARAMS_AT)
        );
        assert!(parse(&message(1, &[(1, b"\x02h2"), (2, b"")])).is_ok());
    }

    #[test]
    fn the_mandatory_list() {
        let bad = (ErrorKind::SvcbMandatory, PARAMS_AT + 4);
        let port: &[u8] = &[0, 80];
        for list in [
            &b""[..],
            &[0, 3, 0],
            &[0, 4, 0, 3],
            &[0, 3, 0, 3],
            &[0, 0, 0, 3],
        ] {
            assert_eq!(
                error(1, &[(0, list), (3, port), (4, &[1, 2, 3, 4])]),
                bad,
                "{list:?}"
            );
        }
        // A key the list names must be there, wherever it falls among the others.
        assert_eq!(error(1, &[(0, &[0, 3, 0, 4]), (3, port)]), bad);
        let hint: &[u8] = &[1, 2, 3, 4];
        assert_eq!(
            error(1, &[(0, &[0, 3, 0, 4, 0, 5]), (3, port), (5, hint)]),
            bad
        );
        assert_eq!(error(1, &[(0, &[0, 3, 0, 4]), (4, hint)]), bad);
        let both = message(1, &[(0, &[0, 3, 0, 4]), (3, port), (4, &[1, 2, 3, 4])]);
        assert_eq!(
            parse(&both).unwrap().to_string(),
            "1 svc.example. mandatory=port,ipv4hint port=80 ipv4hint=1.2.3.4"
        );
    }

    #[test]
    fn a_parameter_cut_short_is_refused_where_it_runs_out() {
        let mut bytes = message(1, &[(3, &[0, 80])]);
        bytes.extend([0, 4, 0]);
        let e = parse(&bytes).unwrap_err();
        let length_at = PARAMS_AT + 6 + 2;
        assert_eq!((e.kind(), e.offset()), (ErrorKind::InvalidRdata, length_at));
        let mut bytes = message(1, &[(3, &[0, 80])]);
        bytes.extend([0, 4, 0, 8, 1, 2, 3, 4]);
        let e = parse(&bytes).unwrap_err();
        let value_at = PARAMS_AT + 6 + 4;
        assert_eq!((e.kind(), e.offset()), (ErrorKind::InvalidRdata, value_at));
    }

    #[test]
    fn the_target_is_never_compressed() {
        // `svc.` at the message's start, then a target that points to it.
        let mut bytes = b"\x03svc\x00".to_vec();
        bytes.resize(AT, 0xEE);
        bytes.extend([0, 1, 0xC0, 0x00]);
        let e = parse(&bytes).unwrap_err();
        assert_eq!(
            (e.kind(), e.offset()),
            (ErrorKind::UnexpectedPointer, AT + 2)
        );
    }
}
