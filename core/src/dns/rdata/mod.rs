//! Typed RDATA: one file per record type.
//!
//! Each type is a checked view over a record's RDATA: `parse(message, at,
//! end)` reads `message[at..end]` (names inside may point elsewhere in the
//! message), `Display` prints the presentation format, and `emit` writes the
//! RDATA back through a [`Writer`], which compresses names where RFC 3597 §4
//! allows it.

mod a;
mod aaaa;
mod caa;
mod cname;
mod dname;
mod dnskey;
mod ds;
mod hinfo;
mod mx;
mod naptr;
mod ns;
mod nsec;
mod nsec3;
mod opt;
mod ptr;
mod rp;
mod rrsig;
mod soa;
mod srv;
mod sshfp;
mod svcb;
mod tlsa;
mod txt;
mod unknown;

use core::fmt;

pub use a::A;
pub use aaaa::Aaaa;
pub use caa::Caa;
pub use cname::Cname;
pub use dname::Dname;
pub use dnskey::Dnskey;
pub use ds::Ds;
pub use hinfo::Hinfo;
pub use mx::Mx;
pub use naptr::Naptr;
pub use ns::Ns;
pub use nsec::Nsec;
pub use nsec3::Nsec3;
pub use opt::{EdnsOption, Opt};
pub use ptr::Ptr;
pub use rp::Rp;
pub use rrsig::Rrsig;
pub use soa::Soa;
pub use srv::Srv;
pub use sshfp::Sshfp;
pub use svcb::{SvcParam, SvcParamKey, Svcb};
pub use tlsa::Tlsa;
pub use txt::Txt;
pub use unknown::Unknown;

use super::builder::Writer;
use super::error::{Error, ErrorKind, Result};
use super::name::Name;
use super::rtype::Rtype;

/// The RDATA of a record, typed by the record's type.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RData<'a> {
    /// [`A`]
    A(A),
    /// [`Aaaa`]
    Aaaa(Aaaa),
    /// [`Ns`]
    Ns(Ns<'a>),
    /// [`Cname`]
    Cname(Cname<'a>),
    /// [`Ptr`]
    Ptr(Ptr<'a>),
    /// [`Mx`]
    Mx(Mx<'a>),
    /// [`Txt`]
    Txt(Txt<'a>),
    /// [`Soa`]
    Soa(Soa<'a>),
    /// [`Srv`]
    Srv(Srv<'a>),
    /// [`Caa`]
    Caa(Caa<'a>),
    /// [`Opt`]
    Opt(Opt<'a>),
    /// [`Ds`]
    Ds(Ds<'a>),
    /// [`Dnskey`]
    Dnskey(Dnskey<'a>),
    /// [`Rrsig`]
    Rrsig(Rrsig<'a>),
    /// [`Nsec`]
    Nsec(Nsec<'a>),
    /// [`Nsec3`]
    Nsec3(Nsec3<'a>),
    /// [`Svcb`] of an SVCB record.
    Svcb(Svcb<'a>),
    /// [`Svcb`] of an HTTPS record.
    Https(Svcb<'a>),
    /// [`Hinfo`]
    Hinfo(Hinfo<'a>),
    /// [`Rp`]
    Rp(Rp<'a>),
    /// [`Sshfp`]
    Sshfp(Sshfp<'a>),
    /// [`Naptr`]
    Naptr(Naptr<'a>),
    /// [`Tlsa`]
    Tlsa(Tlsa<'a>),
    /// [`Dname`]
    Dname(Dname<'a>),
    /// Any other type, as bytes.
    Unknown(Unknown<'a>),
}

impl<'a> RData<'a> {
    /// Reads `message[at..end]` as the RDATA of a record of type `rtype`.
    // Inlined into each of its few callers (a hint alone is dropped once a
    // program has two), so that a caller's `match` on the value meets the
    // dispatch that built it and the value is never written out whole; that
    // takes a sixth off the instructions of a walk over a message.
    // WebAssembly keeps one copy: there the package's size counts more.
    #[cfg_attr(not(target_family = "wasm"), inline(always))]
    #[cfg_attr(target_family = "wasm", inline(never))]
    pub fn parse(rtype: Rtype, message: &'a [u8], at: usize, end: usize) -> Result<Self> {
        if end > message.len() || at > end {
            return Err(Error::new(ErrorKind::RdataOverrun, message.len()));
        }
        Ok(match rtype {
            Rtype::A => RData::A(A::parse(message, at, end)?),
            Rtype::Aaaa => RData::Aaaa(Aaaa::parse(message, at, end)?),
            Rtype::Ns => RData::Ns(Ns::parse(message, at, end)?),
            Rtype::Cname => RData::Cname(Cname::parse(message, at, end)?),
            Rtype::Ptr => RData::Ptr(Ptr::parse(message, at, end)?),
            Rtype::Mx => RData::Mx(Mx::parse(message, at, end)?),
            Rtype::Txt => RData::Txt(Txt::parse(message, at, end)?),
            Rtype::Soa => RData::Soa(Soa::parse(message, at, end)?),
            Rtype::Srv => RData::Srv(Srv::parse(message, at, end)?),
            Rtype::Caa => RData::Caa(Caa::parse(message, at, end)?),
            Rtype::Opt => RData::Opt(Opt::parse(message, at, end)?),
            Rtype::Ds => RData::Ds(Ds::parse(message, at, end)?),
            Rtype::Dnskey => RData::Dnskey(Dnskey::parse(message, at, end)?),
            Rtype::Rrsig => RData::Rrsig(Rrsig::parse(message, at, end)?),
            Rtype::Nsec => RData::Nsec(Nsec::parse(message, at, end)?),
            Rtype::Nsec3 => RData::Nsec3(Nsec3::parse(message, at, end)?),
            Rtype::Svcb => RData::Svcb(Svcb::parse(message, at, end)?),
            Rtype::Https => RData::Https(Svcb::parse(message, at, end)?),
            Rtype::Hinfo => RData::Hinfo(Hinfo::parse(message, at, end)?),
            Rtype::Rp => RData::Rp(Rp::parse(message, at, end)?),
            Rtype::Sshfp => RData::Sshfp(Sshfp::parse(message, at, end)?),
            Rtype::Naptr => RData::Naptr(Naptr::parse(message, at, end)?),
            Rtype::Tlsa => RData::Tlsa(Tlsa::parse(message, at, end)?),
            Rtype::Dname => RData::Dname(Dname::parse(message, at, end)?),
            other => RData::Unknown(Unknown {
                rtype: other,
                data: &message[at..end],
            }),
        })
    }

    /// The record type this RDATA belongs to.
    pub fn rtype(&self) -> Rtype {
        match self {
            RData::A(_) => Rtype::A,
            RData::Aaaa(_) => Rtype::Aaaa,
            RData::Ns(_) => Rtype::Ns,
            RData::Cname(_) => Rtype::Cname,
            RData::Ptr(_) => Rtype::Ptr,
            RData::Mx(_) => Rtype::Mx,
            RData::Txt(_) => Rtype::Txt,
            RData::Soa(_) => Rtype::Soa,
            RData::Srv(_) => Rtype::Srv,
            RData::Caa(_) => Rtype::Caa,
            RData::Opt(_) => Rtype::Opt,
            RData::Ds(_) => Rtype::Ds,
            RData::Dnskey(_) => Rtype::Dnskey,
            RData::Rrsig(_) => Rtype::Rrsig,
            RData::Nsec(_) => Rtype::Nsec,
            RData::Nsec3(_) => Rtype::Nsec3,
            RData::Svcb(_) => Rtype::Svcb,
            RData::Https(_) => Rtype::Https,
            RData::Hinfo(_) => Rtype::Hinfo,
            RData::Rp(_) => Rtype::Rp,
            RData::Sshfp(_) => Rtype::Sshfp,
            RData::Naptr(_) => Rtype::Naptr,
            RData::Tlsa(_) => Rtype::Tlsa,
            RData::Dname(_) => Rtype::Dname,
            RData::Unknown(u) => u.rtype,
        }
    }

    /// Writes the RDATA (without its RDLENGTH).
    pub fn emit(&self, w: &mut Writer<'_>) -> Result<()> {
        match self {
            RData::A(r) => r.emit(w),
            RData::Aaaa(r) => r.emit(w),
            RData::Ns(r) => r.emit(w),
            RData::Cname(r) => r.emit(w),
            RData::Ptr(r) => r.emit(w),
            RData::Mx(r) => r.emit(w),
            RData::Txt(r) => r.emit(w),
            RData::Soa(r) => r.emit(w),
            RData::Srv(r) => r.emit(w),
            RData::Caa(r) => r.emit(w),
            RData::Opt(r) => r.emit(w),
            RData::Ds(r) => r.emit(w),
            RData::Dnskey(r) => r.emit(w),
            RData::Rrsig(r) => r.emit(w),
            RData::Nsec(r) => r.emit(w),
            RData::Nsec3(r) => r.emit(w),
            RData::Svcb(r) | RData::Https(r) => r.emit(w),
            RData::Hinfo(r) => r.emit(w),
            RData::Rp(r) => r.emit(w),
            RData::Sshfp(r) => r.emit(w),
            RData::Naptr(r) => r.emit(w),
            RData::Tlsa(r) => r.emit(w),
            RData::Dname(r) => r.emit(w),
            RData::Unknown(r) => r.emit(w),
        }
    }
}

impl fmt::Display for RData<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RData::A(r) => r.fmt(f),
            RData::Aaaa(r) => r.fmt(f),
            RData::Ns(r) => r.fmt(f),
            RData::Cname(r) => r.fmt(f),
            RData::Ptr(r) => r.fmt(f),
            RData::Mx(r) => r.fmt(f),
            RData::Txt(r) => r.fmt(f),
            RData::Soa(r) => r.fmt(f),
            RData::Srv(r) => r.fmt(f),
            RData::Caa(r) => r.fmt(f),
            RData::Opt(r) => r.fmt(f),
            RData::Ds(r) => r.fmt(f),
            RData::Dnskey(r) => r.fmt(f),
            RData::Rrsig(r) => r.fmt(f),
            RData::Nsec(r) => r.fmt(f),
            RData::Nsec3(r) => r.fmt(f),
            RData::Svcb(r) | RData::Https(r) => r.fmt(f),
            RData::Hinfo(r) => r.fmt(f),
            RData::Rp(r) => r.fmt(f),
            RData::Sshfp(r) => r.fmt(f),
            RData::Naptr(r) => r.fmt(f),
            RData::Tlsa(r) => r.fmt(f),
            RData::Dname(r) => r.fmt(f),
            RData::Unknown(r) => r.fmt(f),
        }
    }
}

/// A cursor over the fields of one RDATA, `message[pos..end]`. Reading past
/// `end` is an [`ErrorKind::InvalidRdata`] at the field's offset.
pub(crate) struct Fields<'a> {
    message: &'a [u8],
    pos: usize,
    end: usize,
}

impl<'a> Fields<'a> {
    pub(crate) fn new(message: &'a [u8], at: usize, end: usize) -> Self {
        Fields {
            message,
            pos: at,
            end: end.min(message.len()),
        }
    }

    pub(crate) fn pos(&self) -> usize {
        self.pos
    }

    pub(crate) fn bytes(&mut self, n: usize) -> Result<&'a [u8]> {
        let end = self
            .pos
            .checked_add(n)
            .filter(|&e| e <= self.end)
            .ok_or(Error::new(ErrorKind::InvalidRdata, self.pos))?;
        let bytes = &self.message[self.pos..end];
        self.pos = end;
        Ok(bytes)
    }

    pub(crate) fn u8(&mut self) -> Result<u8> {
        Ok(self.bytes(1)?[0])
    }

    pub(crate) fn u16(&mut self) -> Result<u16> {
        let b = self.bytes(2)?;
        Ok(u16::from_be_bytes([b[0], b[1]]))
    }

    pub(crate) fn u32(&mut self) -> Result<u32> {
        let b = self.bytes(4)?;
        Ok(u32::from_be_bytes([b[0], b[1], b[2], b[3]]))
    }

    /// A length octet and that many octets.
    pub(crate) fn char_string(&mut self) -> Result<&'a [u8]> {
        let len = self.u8()?;
        self.bytes(usize::from(len))
    }

    /// Everything left.
    pub(crate) fn rest(&mut self) -> &'a [u8] {
        let rest = &self.message[self.pos..self.end];
        self.pos = self.end;
        rest
    }

    /// A name, possibly compressed, whose in-place part ends inside the RDATA.
    pub(crate) fn name(&mut self) -> Result<Name<'a>> {
        let (name, next) = Name::parse(&self.message[..self.end], self.pos)?;
        self.pos = next;
        Ok(name)
    }

    /// A name that must be written in full (RRSIG signer, NSEC next, SVCB
    /// target).
    pub(crate) fn uncompressed_name(&mut self) -> Result<Name<'a>> {
        let at = self.pos;
        let name = self.name()?;
        if self.pos - at != name.wire_len() {
            return Err(Error::new(ErrorKind::UnexpectedPointer, at));
        }
        Ok(name)
    }

    /// Fails unless every byte was read.
    pub(crate) fn finish(&self) -> Result<()> {
        if self.pos == self.end {
            Ok(())
        } else {
            Err(Error::new(ErrorKind::InvalidRdata, self.pos))
        }
    }
}

/// Reads a name that fills `message[at..end]` exactly.
pub(crate) fn read_final_name(message: &[u8], at: usize, end: usize) -> Result<Name<'_>> {
    let mut fields = Fields::new(message, at, end);
    let name = fields.name()?;
    fields.finish()?;
    Ok(name)
}

/// Writes a `<character-string>`: a length octet and the bytes. Bytes longer
/// than 255 octets are an [`ErrorKind::InvalidRdata`] at the length octet.
pub(crate) fn put_char_string(w: &mut Writer<'_>, bytes: &[u8]) -> Result<()> {
    let len =
        u8::try_from(bytes.len()).map_err(|_| Error::new(ErrorKind::InvalidRdata, w.len()))?;
    w.put_u8(len)?;
    w.put(bytes)
}
