//! Writing messages: into a caller's `&mut [u8]`, or into a `bumpalo` vector
//! that grows in the caller's arena. Names are compressed [RFC 1035 §4.1.4]
//! through a fixed table of earlier label positions, so nothing touches the heap.

use bumpalo::Bump;
use bumpalo::collections::Vec as BumpVec;

use super::class::Class;
use super::error::{Error, ErrorKind, Result};
use super::header::{HEADER_LEN, Header};
use super::name::Name;
use super::rdata::{EdnsOption, RData};
use super::record::Record;
use super::rtype::Rtype;

/// How many earlier label positions the compressor remembers. Later names
/// are still written correctly, only less compactly.
const COMPRESSION_SLOTS: usize = 64;

/// Whether a name may be written as a pointer to an earlier one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Compress {
    /// Compress: the owner name, and names in RDATA of the RFC 1035 types.
    Yes,
    /// Write in full: names in RDATA of later types [RFC 3597 §4].
    No,
}

/// Where a [`Writer`] puts its bytes.
#[derive(Debug)]
enum Out<'a> {
    Slice { buf: &'a mut [u8], len: usize },
    Arena(BumpVec<'a, u8>),
}

/// Writes the wire form of a message, with name compression. The record
/// types' `emit` methods write through it.
#[derive(Debug)]
pub struct Writer<'a> {
    out: Out<'a>,
    /// Offsets of labels already written, targets for compression pointers.
    labels: [u16; COMPRESSION_SLOTS],
    label_count: usize,
}

impl<'a> Writer<'a> {
    fn new(out: Out<'a>) -> Self {
        Writer {
            out,
            labels: [0; COMPRESSION_SLOTS],
            label_count: 0,
        }
    }

    /// A writer into `buf`, for the record types' tests.
    #[cfg(test)]
    pub(crate) fn into_slice(buf: &'a mut [u8]) -> Self {
        Writer::new(Out::Slice { buf, len: 0 })
    }

    /// The bytes written so far.
    pub fn written(&self) -> &[u8] {
        match &self.out {
            Out::Slice { buf, len } => &buf[..*len],
            Out::Arena(vec) => vec,
        }
    }

    /// How many bytes are written.
    pub fn len(&self) -> usize {
        match &self.out {
            Out::Slice { len, .. } => *len,
            Out::Arena(vec) => vec.len(),
        }
    }

    /// Whether nothing is written yet.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends `n` bytes for the caller to fill in, or fails with
    /// [`ErrorKind::Truncated`] if they do not fit.
    ///
    /// This, [`put`](Self::put) and the `put_u*` are inlined natively, where
    /// building a query is a hot path; the npm package keeps one copy of
    /// each, for size.
    #[cfg_attr(not(target_family = "wasm"), inline)]
    fn extend(&mut self, n: usize) -> Result<&mut [u8]> {
        match &mut self.out {
            Out::Slice { buf, len } => {
                let at = *len;
                let dest = buf
                    .get_mut(at..at + n)
                    .ok_or(Error::new(ErrorKind::Truncated, at))?;
                *len = at + n;
                Ok(dest)
            }
            Out::Arena(vec) => {
                let at = vec.len();
                vec.resize(at + n, 0);
                Ok(&mut vec[at..])
            }
        }
    }

    /// Appends `bytes`, or fails with [`ErrorKind::Truncated`] if they do not fit.
    #[cfg_attr(not(target_family = "wasm"), inline)]
    pub fn put(&mut self, bytes: &[u8]) -> Result<()> {
        self.extend(bytes.len())?.copy_from_slice(bytes);
        Ok(())
    }

    /// Appends one octet.
    #[cfg_attr(not(target_family = "wasm"), inline)]
    pub fn put_u8(&mut self, value: u8) -> Result<()> {
        self.put(&[value])
    }

    /// Appends a big-endian `u16`.
    #[cfg_attr(not(target_family = "wasm"), inline)]
    pub fn put_u16(&mut self, value: u16) -> Result<()> {
        self.put(&value.to_be_bytes())
    }

    /// Appends a big-endian `u32`.
    #[cfg_attr(not(target_family = "wasm"), inline)]
    pub fn put_u32(&mut self, value: u32) -> Result<()> {
        self.put(&value.to_be_bytes())
    }

    /// Overwrites bytes at `at`, which must already be written.
    fn patch(&mut self, at: usize, bytes: &[u8]) {
        let dest = match &mut self.out {
            Out::Slice { buf, .. } => &mut buf[at..at + bytes.len()],
            Out::Arena(vec) => &mut vec[at..at + bytes.len()],
        };
        dest.copy_from_slice(bytes);
    }

    /// Drops everything after `len`, and the compression targets in it.
    fn truncate(&mut self, len: usize) {
        match &mut self.out {
            Out::Slice { len: written, .. } => *written = len,
            Out::Arena(vec) => vec.truncate(len),
        }
        let kept = self.labels[..self.label_count]
            .iter()
            .take_while(|&&at| usize::from(at) < len)
            .count();
        self.label_count = kept;
    }

    /// Writes `name`. With [`Compress::Yes`], its longest suffix that is
    /// already in the message, byte for byte, becomes a pointer.
    pub fn put_name(&mut self, name: &Name<'_>, compress: Compress) -> Result<()> {
        let pointer = match compress {
            Compress::Yes if self.label_count > 0 => {
                let labels = name.label_count();
                (0..labels).find_map(|skip| {
                    self.find_suffix(name.labels().skip(skip))
                        .map(|at| (skip, at))
                })
            }
            _ => None,
        };
        // The labels before the pointer, copied a run at a time.
        let mut left = pointer.map_or(usize::MAX, |(skip, _)| skip);
        let mut runs = name.runs();
        while left > 0
            && let Some(run) = runs.next()
        {
            let at = self.len();
            let mut end = 0;
            while left > 0
                && let Some(&len) = run.get(end)
            {
                self.remember(at + end);
                end += 1 + usize::from(len);
                left -= 1;
            }
            self.put(&run[..end])?;
        }
        match pointer {
            Some((_, at)) => self.put_u16(0xc000 | at),
            None => self.put_u8(0),
        }
    }

    /// Records a label written at `at` as a compression target, while the
    /// table has room and pointers can reach it.
    fn remember(&mut self, at: usize) {
        if at <= 0x3fff && self.label_count < COMPRESSION_SLOTS {
            self.labels[self.label_count] = at as u16;
            self.label_count += 1;
        }
    }

    /// An earlier position where exactly the labels of `suffix` are written.
    fn find_suffix<'l>(&self, suffix: impl Iterator<Item = &'l [u8]> + Clone) -> Option<u16> {
        let written = self.written();
        // Names already written are well formed, so a quick read finds them.
        let target = self.labels[..self.label_count].iter().find(|&&at| {
            Name::split_checked(written, usize::from(at))
                .0
                .labels()
                .eq(suffix.clone())
        });
        target.copied()
    }
}

/// The sections of a message, in the order they are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Section {
    /// The question section.
    Question,
    /// The answer section.
    Answer,
    /// The authority section.
    Authority,
    /// The additional section.
    Additional,
}

/// The EDNS(0) parameters to put in a message's OPT record [RFC 6891 §6.1.3].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EdnsParams<'o> {
    /// The largest UDP payload this side can take; 1232 is the common choice.
    pub payload_size: u16,
    /// The upper eight bits of the response code.
    pub extended_rcode: u8,
    /// The EDNS version, 0.
    pub version: u8,
    /// DNSSEC OK: ask for DNSSEC records [RFC 3225].
    pub dnssec_ok: bool,
    /// Options to send.
    pub options: &'o [EdnsOption<'o>],
}

impl Default for EdnsParams<'_> {
    fn default() -> Self {
        EdnsParams {
            payload_size: 1232,
            extended_rcode: 0,
            version: 0,
            dnssec_ok: false,
            options: &[],
        }
    }
}

/// Builds a message section by section.
///
/// ```
/// use leanwire_core::dns::{Class, EdnsParams, Message, MessageBuilder, NameBuf, Rtype};
///
/// let mut buf = [0u8; 512];
/// let mut builder = MessageBuilder::new(&mut buf)?;
/// builder.header_mut().id = 0xbeef;
/// builder.header_mut().rd = true;
/// let name = NameBuf::from_text("www.example.com")?;
/// builder.push_question(&name.as_name(), Rtype::A, Class::In)?;
/// builder.push_edns(&EdnsParams::default())?;
/// let query = builder.finish()?;
/// assert_eq!(query.len(), 44);
///
/// let message = Message::parse(query)?;
/// assert_eq!(message.questions().next().unwrap().to_string(), "www.example.com. IN A");
/// assert_eq!(message.edns().unwrap().payload_size, 1232);
/// # Ok::<(), leanwire_core::dns::Error>(())
/// ```
#[derive(Debug)]
pub struct MessageBuilder<'a> {
    writer: Writer<'a>,
    header: Header,
    section: Section,
    /// Entries written per section, in [`Section`] order.
    counts: [u16; 4],
}

impl<'a> MessageBuilder<'a> {
    /// A builder that writes into `buf`, which must hold at least the header.
    pub fn new(buf: &'a mut [u8]) -> Result<Self> {
        Self::start(Out::Slice { buf, len: 0 })
    }

    /// A builder that writes into a vector in `bump`, which grows as needed.
    pub fn new_in(bump: &'a Bump) -> Self {
        let vec = BumpVec::with_capacity_in(512, bump);
        // A vector cannot run out of room for the header.
        let mut writer = Writer::new(Out::Arena(vec));
        let _ = writer.put(&[0; HEADER_LEN]);
        MessageBuilder {
            writer,
            header: Header::default(),
            section: Section::Question,
            counts: [0; 4],
        }
    }

    fn start(out: Out<'a>) -> Result<Self> {
        let mut writer = Writer::new(out);
        writer.put(&[0; HEADER_LEN])?;
        Ok(MessageBuilder {
            writer,
            header: Header::default(),
            section: Section::Question,
            counts: [0; 4],
        })
    }

    /// The header to send. Its four counts are ignored: [`finish`](Self::finish)
    /// sets them from what was written.
    pub fn header_mut(&mut self) -> &mut Header {
        &mut self.header
    }

    /// Moves to `section`, which may not come before the current one.
    fn enter(&mut self, section: Section) -> Result<()> {
        if section < self.section {
            return Err(Error::new(ErrorKind::SectionOrder, self.writer.len()));
        }
        self.section = section;
        Ok(())
    }

    /// Runs `write`; if it fails, the message is left as it was before.
    fn atomically(&mut self, write: impl FnOnce(&mut Writer<'a>) -> Result<()>) -> Result<()> {
        let len = self.writer.len();
        write(&mut self.writer).inspect_err(|_| self.writer.truncate(len))
    }

    fn count(&mut self, section: Section) -> Result<()> {
        let count = &mut self.counts[section as usize];
        *count = count
            .checked_add(1)
            .ok_or(Error::new(ErrorKind::TooManyRecords, self.writer.len()))?;
        Ok(())
    }

    /// Appends a question.
    pub fn push_question(&mut self, name: &Name<'_>, qtype: Rtype, qclass: Class) -> Result<()> {
        self.enter(Section::Question)?;
        let [type_hi, type_lo] = u16::from(qtype).to_be_bytes();
        let [class_hi, class_lo] = u16::from(qclass).to_be_bytes();
        self.atomically(|w| {
            w.put_name(name, Compress::Yes)?;
            w.put(&[type_hi, type_lo, class_hi, class_lo])
        })?;
        self.count(Section::Question)
    }

    /// Appends a record to `section` (not [`Section::Question`]).
    ///
    /// `class` is the raw class field, so that OPT records can carry their
    /// payload size in it; likewise `ttl`.
    pub fn push_record(
        &mut self,
        section: Section,
        name: &Name<'_>,
        class: u16,
        ttl: u32,
        data: &RData<'_>,
    ) -> Result<()> {
        if section == Section::Question {
            return Err(Error::new(ErrorKind::SectionOrder, self.writer.len()));
        }
        self.enter(section)?;
        self.atomically(|w| {
            w.put_name(name, Compress::Yes)?;
            w.put_u16(data.rtype().into())?;
            w.put_u16(class)?;
            w.put_u32(ttl)?;
            let length_at = w.len();
            w.put_u16(0)?;
            data.emit(w)?;
            let rdlength = w.len() - length_at - 2;
            let rdlength = u16::try_from(rdlength)
                .map_err(|_| Error::new(ErrorKind::InvalidRdata, length_at))?;
            w.patch(length_at, &rdlength.to_be_bytes());
            Ok(())
        })?;
        self.count(section)
    }

    /// Appends a copy of a decoded record, its RDATA re-encoded from its typed view.
    pub fn push(&mut self, section: Section, record: &Record<'_>) -> Result<()> {
        self.push_record(
            section,
            &record.name,
            record.class,
            record.ttl,
            &record.data()?,
        )
    }

    /// Appends an OPT record with `params` to the additional section.
    pub fn push_edns(&mut self, params: &EdnsParams<'_>) -> Result<()> {
        self.enter(Section::Additional)?;
        let ttl = u32::from(params.extended_rcode) << 24
            | u32::from(params.version) << 16
            | u32::from(params.dnssec_ok) << 15;
        let [opt_hi, opt_lo] = u16::from(Rtype::Opt).to_be_bytes();
        let [size_hi, size_lo] = params.payload_size.to_be_bytes();
        let [t0, t1, t2, t3] = ttl.to_be_bytes();
        self.atomically(|w| {
            // The root name, TYPE, CLASS, TTL, and an RDLENGTH filled in below.
            w.put(&[0, opt_hi, opt_lo, size_hi, size_lo, t0, t1, t2, t3, 0, 0])?;
            if params.options.is_empty() {
                return Ok(());
            }
            let length_at = w.len() - 2;
            for option in params.options {
                option.emit(w)?;
            }
            let rdlength = u16::try_from(w.len() - length_at - 2)
                .map_err(|_| Error::new(ErrorKind::InvalidRdata, length_at))?;
            w.patch(length_at, &rdlength.to_be_bytes());
            Ok(())
        })?;
        self.count(Section::Additional)
    }

    /// Writes the header and returns the message.
    #[inline]
    pub fn finish(mut self) -> Result<&'a [u8]> {
        let [qdcount, ancount, nscount, arcount] = self.counts;
        let header = Header {
            qdcount,
            ancount,
            nscount,
            arcount,
            ..self.header
        };
        let mut bytes = [0u8; HEADER_LEN];
        header.emit(&mut bytes);
        self.writer.patch(0, &bytes);
        Ok(match self.writer.out {
            Out::Slice { buf, len } => &buf[..len],
            Out::Arena(vec) => vec.into_bump_slice(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dns::name::NameBuf;
    use crate::dns::rdata::{A, Cname, Mx};
    use core::net::Ipv4Addr;

    fn name(text: &str) -> NameBuf {
        NameBuf::from_text(text).unwrap()
    }

    /// The RDATA of an A record for 192.0.2.1.
    const ADDRESS: RData<'static> = RData::A(A {
        address: Ipv4Addr::new(192, 0, 2, 1),
    });

    /// A builder over `buf` with one question, `www.example.com. IN A`,
    /// which ends at byte 33.
    fn www_question(buf: &mut [u8]) -> MessageBuilder<'_> {
        let mut b = MessageBuilder::new(buf).unwrap();
        b.push_question(&name("www.example.com").as_name(), Rtype::A, Class::In)
            .unwrap();
        b
    }

    /// The first answer of a finished message, as text.
    fn first_answer(out: &[u8]) -> std::string::String {
        let message = crate::dns::Message::parse(out).unwrap();
        std::format!("{}", message.answers().next().unwrap())
    }

    #[test]
    fn compresses_repeated_suffixes() {
        let mut buf = [0xa5u8; 512];
        let mut b = www_question(&mut buf);
        let www = name("www.example.com");
        b.push_record(Section::Answer, &www.as_name(), 1, 60, &ADDRESS)
            .unwrap();
        let mail = name("mail.example.com");
        let mx = RData::Mx(Mx {
            preference: 10,
            exchange: mail.as_name(),
        });
        b.push_record(Section::Answer, &name("example.com").as_name(), 1, 60, &mx)
            .unwrap();
        let out = b.finish().unwrap();
        // The answer's owner is a pointer to the question's name.
        assert_eq!(out[33..35], [0xc0, 12]);
        // "example.com" points into the question, "mail" + pointer after it.
        let message = crate::dns::Message::parse(out).unwrap();
        let texts: std::vec::Vec<std::string::String> =
            message.answers().map(|r| std::format!("{r}")).collect();
        assert_eq!(
            texts,
            [
                "www.example.com. 60 IN A 192.0.2.1",
                "example.com. 60 IN MX 10 mail.example.com."
            ]
        );
        assert!(out.len() < 12 + 21 + 16 + 2 + 10 + 2 + 4 + 6 + 2);
    }

    #[test]
    fn compression_keeps_case() {
        let mut buf = [0u8; 512];
        let mut b = MessageBuilder::new(&mut buf).unwrap();
        b.push_question(&name("Example.COM").as_name(), Rtype::Cname, Class::In)
            .unwrap();
        let target = name("www.example.com");
        let cname = RData::Cname(Cname {
            cname: target.as_name(),
        });
        b.push_record(
            Section::Answer,
            &name("Example.COM").as_name(),
            1,
            1,
            &cname,
        )
        .unwrap();
        assert_eq!(
            first_answer(b.finish().unwrap()),
            "Example.COM. 1 IN CNAME www.example.com."
        );
    }

    #[test]
    fn a_full_buffer_is_truncated_and_left_intact() {
        let mut buf = [0u8; 40];
        let mut b = www_question(&mut buf);
        let err = b.push_edns(&EdnsParams::default()).unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Truncated);
        let out = b.finish().unwrap();
        assert_eq!(out.len(), 33);
        assert_eq!(crate::dns::Message::parse(out).unwrap().header().arcount, 0);
    }

    #[test]
    fn a_record_that_does_not_fit_keeps_the_earlier_compression_targets() {
        let mut buf = [0u8; 60];
        let mut b = www_question(&mut buf);
        let www = name("www.example.com");
        // 18 bytes of name fit, the 14 after them do not.
        let err = b
            .push_record(
                Section::Answer,
                &name("mail.example.org").as_name(),
                1,
                60,
                &ADDRESS,
            )
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::Truncated);
        // In full the name would not fit either; as a pointer it does.
        b.push_record(Section::Answer, &www.as_name(), 1, 60, &ADDRESS)
            .unwrap();
        let out = b.finish().unwrap();
        assert_eq!(out.len(), 33 + 2 + 14);
        assert_eq!(out[33..35], [0xc0, 12]);
        assert_eq!(first_answer(out), "www.example.com. 60 IN A 192.0.2.1");
    }

    #[test]
    fn edns_fields_and_options_and_section_counts() {
        let mut buf = [0u8; 512];
        let mut b = MessageBuilder::new(&mut buf).unwrap();
        // The counts are the builder's, whatever the header says.
        b.header_mut().nscount = 7;
        b.push_record(
            Section::Authority,
            &name("example.com").as_name(),
            1,
            60,
            &ADDRESS,
        )
        .unwrap();
        let options = [
            EdnsOption::Nsid(b"ns1"),
            EdnsOption::Cookie {
                client: &[1, 2, 3, 4, 5, 6, 7, 8],
                server: None,
            },
        ];
        b.push_edns(&EdnsParams {
            payload_size: 4096,
            extended_rcode: 0xab,
            version: 1,
            dnssec_ok: true,
            options: &options,
        })
        .unwrap();
        let out = b.finish().unwrap();
        // TTL: extended rcode, version, the DO bit; RDLENGTH: 7 + 12 octets.
        assert_eq!(out[out.len() - 25..][..4], [0xab, 1, 0x80, 0]);
        assert_eq!(out[out.len() - 21..][..2], [0, 19]);
        let message = crate::dns::Message::parse(out).unwrap();
        let header = message.header();
        assert_eq!(
            (
                header.qdcount,
                header.ancount,
                header.nscount,
                header.arcount
            ),
            (0, 0, 1, 1)
        );
        let edns = message.edns().unwrap();
        assert_eq!(
            (
                edns.payload_size,
                edns.extended_rcode,
                edns.version,
                edns.dnssec_ok,
                edns.z
            ),
            (4096, 0xab, 1, true, 0)
        );
        assert!(edns.options().eq(options));
    }

    #[test]
    fn names_past_the_compression_table_are_written_in_full() {
        let bump = Bump::new();
        let mut b = MessageBuilder::new_in(&bump);
        let names: std::vec::Vec<NameBuf> = (0..80)
            .map(|i| name(&std::format!("n{i}.example")))
            .collect();
        for owner in &names {
            b.push_record(Section::Answer, &owner.as_name(), 1, 1, &ADDRESS)
                .unwrap();
        }
        let out = b.finish().unwrap();
        let message = crate::dns::Message::parse(out).unwrap();
        assert!(
            message
                .answers()
                .map(|r| r.name)
                .eq(names.iter().map(|n| n.as_name()))
        );
    }

    #[test]
    fn a_writer_counts_what_it_wrote() {
        let mut buf = [0u8; 4];
        let mut w = Writer::into_slice(&mut buf);
        assert!(w.is_empty());
        w.put_u16(0x0102).unwrap();
        assert!(!w.is_empty());
        assert_eq!((w.len(), w.written()), (2, &[1u8, 2][..]));
        assert_eq!(w.put_u32(0).unwrap_err().kind(), ErrorKind::Truncated);
        assert_eq!(w.len(), 2);
    }

    #[test]
    fn sections_go_in_order() {
        let mut buf = [0u8; 512];
        let mut b = MessageBuilder::new(&mut buf).unwrap();
        b.push_edns(&EdnsParams::default()).unwrap();
        let err = b
            .push_question(&Name::root(), Rtype::A, Class::In)
            .unwrap_err();
        assert_eq!(err.kind(), ErrorKind::SectionOrder);
    }

    #[test]
    fn a_buffer_too_small_for_the_header() {
        let mut buf = [0u8; 11];
        assert_eq!(
            MessageBuilder::new(&mut buf).unwrap_err().kind(),
            ErrorKind::Truncated
        );
    }

    #[test]
    fn arena_builder_grows() {
        let bump = Bump::new();
        let mut b = MessageBuilder::new_in(&bump);
        let big = name("a.example");
        for i in 0..100u8 {
            let a = RData::A(A {
                address: Ipv4Addr::new(10, 0, 0, i),
            });
            b.push_record(Section::Answer, &big.as_name(), 1, 1, &a)
                .unwrap();
        }
        let out = b.finish().unwrap();
        assert_eq!(
            crate::dns::Message::parse(out).unwrap().answers().count(),
            100
        );
        assert!(out.len() > 512);
    }
}
