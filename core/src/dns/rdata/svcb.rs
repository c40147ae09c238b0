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
        /// TLS key exchange groups.
        TlsSupportedGroups = 9 => "tls-supported-groups",
    }
}

/// A service binding, the RDATA of both SVCB and HTTPS [RFC 9460 §2.2].
///
/// Parsing enforces §2.2 and §8: keys strictly ascending, each value well
/// formed for its key, a consistent `mandatory` list, `no-default-alpn` only
/// with `alpn`, and no parameters in AliasMode.
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
                    let mut items = 0;
                    let mut rest = value;
                    while let Some((&len, tail)) = rest.split_first() {
                        if len == 0 || usize::from(len) > tail.len() {
                            return Err(invalid);
                        }
                        rest = &tail[usize::from(len)..];
                        items += 1;
                    }
                    if items == 0 {
                        return Err(invalid);
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
                _ => {}
            }
            pos = next;
        }
        if no_default_alpn && !has_alpn {
            return Err(Error::new(ErrorKind::SvcbAlpnMissing, params_at));
        }
        for key in mandatory
            .chunks_exact(2)
            .map(|k| SvcParamKey::from(u16::from_be_bytes([k[0], k[1]])))
        {
            if !self.params().any(|p| p.key == key) {
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
