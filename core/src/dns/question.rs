use core::fmt;

use super::class::Class;
use super::error::{Error, ErrorKind, Result};
use super::name::{Name, SeenNames};
use super::rtype::Rtype;

/// An entry of the question section: a name, a type and a class [RFC 1035 §4.1.2].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Question<'a> {
    /// The name asked about.
    pub name: Name<'a>,
    /// The type asked for.
    pub qtype: Rtype,
    /// The class asked for.
    pub qclass: Class,
}

impl<'a> Question<'a> {
    /// Reads the question at `offset`; returns it with the offset after it.
    pub fn parse(message: &'a [u8], offset: usize) -> Result<(Self, usize)> {
        let (name, at) = Name::parse(message, offset)?;
        Self::after_name(message, name, at)
    }

    /// [`parse`](Self::parse), skipping names that `seen` already checked.
    pub(crate) fn parse_remembered(
        message: &'a [u8],
        offset: usize,
        seen: &mut SeenNames,
    ) -> Result<(Self, usize)> {
        let (name, at) = Name::parse_remembered(message, offset, seen)?;
        Self::after_name(message, name, at)
    }

    /// [`parse`](Self::parse) in a message that [`Message::parse`](super::Message::parse) checked.
    pub(crate) fn parse_checked(message: &'a [u8], offset: usize) -> Result<(Self, usize)> {
        let (name, at) = Name::split_checked(message, offset);
        Self::after_name(message, name, at)
    }

    /// The type and class after the name, which ends at `at`.
    fn after_name(message: &'a [u8], name: Name<'a>, at: usize) -> Result<(Self, usize)> {
        let fixed = message
            .get(at..at + 4)
            .ok_or(Error::new(ErrorKind::ShortInput, message.len()))?;
        let qtype = Rtype::from(u16::from_be_bytes([fixed[0], fixed[1]]));
        let qclass = Class::from(u16::from_be_bytes([fixed[2], fixed[3]]));
        Ok((
            Question {
                name,
                qtype,
                qclass,
            },
            at + 4,
        ))
    }
}

/// `www.example.com. IN A`, as dig and dnspython print a question.
impl fmt::Display for Question<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {} {}", self.name, self.qclass, self.qtype)
    }
}
