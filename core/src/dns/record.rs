use core::fmt;

use super::class::Class;
use super::error::{Error, ErrorKind, Result};
use super::name::{Name, SeenNames};
use super::rdata::{RData, Unknown};
use super::rtype::Rtype;

/// A resource record in a message [RFC 1035 §4.1.3]: a view whose RDATA is
/// read into a typed value on demand, by [`data`](Self::data).
#[derive(Copy, Clone, Debug)]
pub struct Record<'a> {
    /// The owner name.
    pub name: Name<'a>,
    /// The type.
    pub rtype: Rtype,
    /// The class field as sent; OPT records carry the UDP payload size here.
    pub class: u16,
    /// Time to live in seconds; OPT records carry EDNS flags here.
    pub ttl: u32,
    message: &'a [u8],
    rdata_at: usize,
    rdata_end: usize,
}

impl<'a> Record<'a> {
    /// Reads the record at `offset`; returns it with the offset after it.
    /// The RDATA's bounds are checked, its contents are not.
    pub fn parse(message: &'a [u8], offset: usize) -> Result<(Self, usize)> {
        let (name, at) = Name::parse(message, offset)?;
        Self::after_name(message, name, at)
    }

    /// Checks the record at `offset` as [`parse`](Self::parse) does,
    /// skipping names that `seen` already checked; returns its TYPE as sent
    /// and the offset after it.
    pub(crate) fn skip_remembered(
        message: &'a [u8],
        offset: usize,
        seen: &mut SeenNames,
    ) -> Result<(u16, usize)> {
        let (_, at) = Name::parse_remembered(message, offset, seen)?;
        let fixed = Fixed::read(message, at)?;
        Ok((fixed.rtype, fixed.rdata_end))
    }

    /// [`parse`](Self::parse) in a message that [`Message::parse`](super::Message::parse) checked.
    pub(crate) fn parse_checked(message: &'a [u8], offset: usize) -> Result<(Self, usize)> {
        let (name, at) = Name::split_checked(message, offset);
        Self::after_name(message, name, at)
    }

    /// The record whose owner name ends at `at`.
    fn after_name(message: &'a [u8], name: Name<'a>, at: usize) -> Result<(Self, usize)> {
        let fixed = Fixed::read(message, at)?;
        let record = Record {
            name,
            rtype: Rtype::from(fixed.rtype),
            class: fixed.class,
            ttl: fixed.ttl,
            message,
            rdata_at: fixed.rdata_at,
            rdata_end: fixed.rdata_end,
        };
        Ok((record, fixed.rdata_end))
    }

    /// The class.
    pub fn class(&self) -> Class {
        Class::from(self.class)
    }

    /// The RDATA's wire bytes.
    pub fn rdata(&self) -> &'a [u8] {
        &self.message[self.rdata_at..self.rdata_end]
    }

    /// The RDATA's offset in the message.
    pub fn rdata_offset(&self) -> usize {
        self.rdata_at
    }

    /// The RDATA as a typed value. Fails if it is malformed for its type.
    #[inline]
    pub fn data(&self) -> Result<RData<'a>> {
        RData::parse(self.rtype, self.message, self.rdata_at, self.rdata_end)
    }

    /// The RDATA as text, as the last field of the record's own text: its
    /// presentation form, or the RFC 3597 form (`\# 4 C0000201`) where it is
    /// malformed for its type.
    pub fn data_text(&self) -> DataText<'_, 'a> {
        DataText(self)
    }
}

/// The fixed fields after an owner name, as sent, with the RDATA's bounds.
struct Fixed {
    rtype: u16,
    class: u16,
    ttl: u32,
    rdata_at: usize,
    rdata_end: usize,
}

impl Fixed {
    /// Reads the fields at `at`; the RDATA must end inside the message.
    #[inline]
    fn read(message: &[u8], at: usize) -> Result<Self> {
        let fixed = message
            .get(at..at + 10)
            .ok_or(Error::new(ErrorKind::ShortInput, message.len()))?;
        let be16 = |i: usize| u16::from_be_bytes([fixed[i], fixed[i + 1]]);
        let rdata_at = at + 10;
        let rdata_end = rdata_at + usize::from(be16(8));
        if rdata_end > message.len() {
            return Err(Error::new(ErrorKind::RdataOverrun, at + 8));
        }
        Ok(Fixed {
            rtype: be16(0),
            class: be16(2),
            ttl: u32::from_be_bytes([fixed[4], fixed[5], fixed[6], fixed[7]]),
            rdata_at,
            rdata_end,
        })
    }
}

/// `www.example.com. 300 IN A 192.0.2.1`, as dig and dnspython print a
/// record. RDATA that is malformed for its type prints in the RFC 3597 form.
impl fmt::Display for Record<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} {} {} {} {}",
            self.name,
            self.ttl,
            self.class(),
            self.rtype,
            self.data_text()
        )
    }
}

/// A record's RDATA in presentation form: see [`Record::data_text`].
#[derive(Copy, Clone, Debug)]
pub struct DataText<'r, 'a>(&'r Record<'a>);

impl fmt::Display for DataText<'_, '_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let record = self.0;
        match record.data() {
            Ok(data) => write!(f, "{data}"),
            Err(_) => write!(
                f,
                "{}",
                Unknown {
                    rtype: record.rtype,
                    data: record.rdata()
                }
            ),
        }
    }
}
