use core::iter::FusedIterator;

use super::edns::Edns;
use super::error::{Error, ErrorKind, Result};
use super::header::{HEADER_LEN, Header};
use super::name::SeenNames;
use super::question::Question;
use super::rcode::Rcode;
use super::rdata::Opt;
use super::record::Record;
use super::rtype::Rtype;

/// A DNS message: a checked view over its bytes [RFC 1035 §4.1].
///
/// [`parse`](Self::parse) walks the message once: it reads every name, checks
/// that each section holds as many entries as the header says and that every
/// RDLENGTH stays inside the message, and finds the (single, root-owned) OPT
/// record. After that the section iterators cannot fail; each record's typed
/// RDATA is read, and checked, by [`Record::data`]. Nothing is allocated.
///
/// ```
/// use leanwire_core::dns::{Message, RData, Rtype};
///
/// let bytes = b"\x3c\x4d\x81\x80\x00\x01\x00\x01\x00\x00\x00\x00\
///               \x03www\x07example\x03com\x00\x00\x01\x00\x01\
///               \xc0\x0c\x00\x01\x00\x01\x00\x00\x0e\x10\x00\x04\xc0\x00\x02\x01";
/// let message = Message::parse(bytes)?;
/// assert_eq!(message.header().id, 0x3c4d);
/// let question = message.questions().next().unwrap();
/// assert_eq!(question.to_string(), "www.example.com. IN A");
/// let answer = message.answers().next().unwrap();
/// assert_eq!(answer.to_string(), "www.example.com. 3600 IN A 192.0.2.1");
/// assert!(matches!(answer.data()?, RData::A(a) if a.address.octets() == [192, 0, 2, 1]));
/// # Ok::<(), leanwire_core::dns::Error>(())
/// ```
#[derive(Copy, Clone, Debug)]
pub struct Message<'a> {
    bytes: &'a [u8],
    /// The header's wire bytes, read into a [`Header`] only when asked for.
    head: [u8; HEADER_LEN],
    answer_at: usize,
    authority_at: usize,
    additional_at: usize,
    edns: Option<Edns<'a>>,
}

impl<'a> Message<'a> {
    /// Checks `bytes` as a whole message; trailing bytes are an error.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let head = *bytes
            .first_chunk::<HEADER_LEN>()
            .ok_or(Error::new(ErrorKind::ShortInput, bytes.len()))?;
        let [qdcount, ancount, nscount, arcount] = Header::counts(&head);
        let mut pos = HEADER_LEN;
        let mut seen = SeenNames::default();
        for _ in 0..qdcount {
            pos = Question::parse_remembered(bytes, pos, &mut seen)?.1;
        }
        let answer_at = pos;
        let mut edns = None;
        let mut sections = [(ancount, 0), (nscount, 0), (arcount, 0)];
        for (index, (count, start)) in sections.iter_mut().enumerate() {
            *start = pos;
            for _ in 0..*count {
                let record_at = pos;
                let (rtype, next) = Record::skip_remembered(bytes, pos, &mut seen)?;
                if rtype == u16::from(Rtype::Opt) {
                    let (record, _) = Record::parse_checked(bytes, record_at)?;
                    // One OPT, owned by the root, in the additional section [RFC 6891 §6.1.1].
                    if index != 2 || edns.is_some() || !record.name.is_root() {
                        return Err(Error::new(ErrorKind::InvalidOpt, record_at));
                    }
                    let options = Opt::parse(bytes, record.rdata_offset(), next)?;
                    edns = Some(Edns::new(&record, options));
                }
                pos = next;
            }
        }
        if pos != bytes.len() {
            return Err(Error::new(ErrorKind::TrailingData, pos));
        }
        let [_, (_, authority_at), (_, additional_at)] = sections;
        Ok(Message {
            bytes,
            head,
            answer_at,
            authority_at,
            additional_at,
            edns,
        })
    }

    /// The header.
    pub fn header(&self) -> Header {
        Header::from_bytes(&self.head)
    }

    /// The number of entries in each section: questions, answers,
    /// authority and additional records.
    fn counts(&self) -> [u16; 4] {
        Header::counts(&self.head)
    }

    /// The message's bytes.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The full response code: the header's four bits, extended by EDNS.
    pub fn rcode(&self) -> Rcode {
        let high = self.edns().map_or(0, |e| u16::from(e.extended_rcode));
        Rcode::from(high << 4 | u16::from(self.header().rcode))
    }

    /// The question section.
    pub fn questions(&self) -> Questions<'a> {
        Questions {
            bytes: self.bytes,
            pos: HEADER_LEN,
            remaining: self.counts()[0],
        }
    }

    /// The answer section.
    pub fn answers(&self) -> Records<'a> {
        Records {
            bytes: self.bytes,
            pos: self.answer_at,
            remaining: self.counts()[1],
        }
    }

    /// The authority section.
    pub fn authority(&self) -> Records<'a> {
        Records {
            bytes: self.bytes,
            pos: self.authority_at,
            remaining: self.counts()[2],
        }
    }

    /// The additional section, the OPT record included.
    pub fn additional(&self) -> Records<'a> {
        Records {
            bytes: self.bytes,
            pos: self.additional_at,
            remaining: self.counts()[3],
        }
    }

    /// The EDNS parameters, if the message has an OPT record.
    pub fn edns(&self) -> Option<Edns<'a>> {
        self.edns
    }
}

/// The entries of the question section.
#[derive(Clone, Debug)]
pub struct Questions<'a> {
    bytes: &'a [u8],
    pos: usize,
    remaining: u16,
}

impl<'a> Iterator for Questions<'a> {
    type Item = Question<'a>;

    fn next(&mut self) -> Option<Question<'a>> {
        self.remaining = self.remaining.checked_sub(1)?;
        // `Message::parse` read every question already.
        let (question, next) = Question::parse_checked(self.bytes, self.pos).ok()?;
        self.pos = next;
        Some(question)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (
            usize::from(self.remaining),
            Some(usize::from(self.remaining)),
        )
    }
}

impl ExactSizeIterator for Questions<'_> {}

impl FusedIterator for Questions<'_> {}

/// The records of one section.
#[derive(Clone, Debug)]
pub struct Records<'a> {
    bytes: &'a [u8],
    pos: usize,
    remaining: u16,
}

impl<'a> Iterator for Records<'a> {
    type Item = Record<'a>;

    fn next(&mut self) -> Option<Record<'a>> {
        self.remaining = self.remaining.checked_sub(1)?;
        // `Message::parse` read every record already.
        let (record, next) = Record::parse_checked(self.bytes, self.pos).ok()?;
        self.pos = next;
        Some(record)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (
            usize::from(self.remaining),
            Some(usize::from(self.remaining)),
        )
    }
}

impl ExactSizeIterator for Records<'_> {}

impl FusedIterator for Records<'_> {}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::hex;

    /// A response with one question (`a. IN A`), one answer and an OPT
    /// record whose TTL carries `extended` as the upper bits of the rcode.
    fn response(rcode: u8, extended: u8) -> std::vec::Vec<u8> {
        let mut bytes = hex::vec(
            "abcd 8180 0001 0001 0000 0001 \
             0161 00 0001 0001 \
             c00c 0001 0001 00000e10 0004 c0000201 \
             00 0029 04d0 00000000 0000",
        );
        bytes[3] |= rcode;
        // The first byte of the OPT record's TTL, six bytes from the end.
        let ttl = bytes.len() - 6;
        bytes[ttl] = extended;
        bytes
    }

    #[test]
    fn rcode_takes_its_upper_bits_from_the_opt_record() {
        let bytes = response(0, 1);
        assert_eq!(Message::parse(&bytes).unwrap().rcode(), Rcode::BadVers);
        let bytes = response(7, 1);
        assert_eq!(Message::parse(&bytes).unwrap().rcode(), Rcode::BadCookie);
        let bytes = response(3, 0);
        assert_eq!(Message::parse(&bytes).unwrap().rcode(), Rcode::NxDomain);
    }

    #[test]
    fn sections_know_how_many_entries_are_left() {
        let bytes = response(0, 0);
        let message = Message::parse(&bytes).unwrap();
        let mut questions = message.questions();
        assert_eq!(questions.len(), 1);
        assert!(questions.next().is_some());
        assert_eq!(questions.size_hint(), (0, Some(0)));
        assert!(questions.next().is_none());
        let mut additional = message.additional();
        assert_eq!(additional.len(), 1);
        assert_eq!(additional.next().map(|r| r.rtype), Some(Rtype::Opt));
        assert_eq!((additional.len(), message.answers().len()), (0, 1));
        assert_eq!(message.authority().size_hint(), (0, Some(0)));
    }
}
