//! Decoding in dns-packet's order of reads, so that a message decodes to the
//! same values, the same byte counts and the same errors.
//!
//! Every fixed-width read is bounds-checked the way Node checks
//! `buf.readUInt16BE(offset)`, and a failed one is reported with its offset
//! and width, from which JavaScript throws the very `RangeError` Node would.
//! Names follow dns-packet's rules for pointers and lengths, which differ
//! from `leanwire_core::dns::Name`'s (see [`Decoder::name`]).

use super::text;
use super::written::{Suffix, Written};
use crate::shared::Output;

/// Why a decode stopped.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A `readUInt8`/`readUInt16BE`/`readUInt32BE` of `width` bytes at `at`
    /// went past the end: Node throws `ERR_OUT_OF_RANGE`.
    Range {
        /// Where the read started.
        at: usize,
        /// 1, 2 or 4.
        width: usize,
    },
    /// `Header must be 12 bytes`.
    Header,
    /// `Cannot decode name (buffer overflow)`.
    NameOverflow,
    /// `Cannot decode name (name too long)`.
    NameTooLong,
    /// `Cannot decode name (bad pointer)`.
    NamePointer,
    /// `Cannot decode name (bad label)`.
    NameLabel,
    /// TXT's `Buffer overflow`.
    TxtOverflow,
    /// DNSKEY's `Protocol must be 3`.
    Protocol,
    /// Record data that runs past the end of the buffer where dns-packet
    /// would read `undefined` or a clamped slice and carry on.
    Overrun {
        /// Where dns-packet goes on reading after the record data, when that
        /// is a number (it is `NaN` after a length byte it read as `undefined`).
        next: Option<usize>,
    },
}

impl Fault {
    /// The failure's kind, its offset and its detail, as [`Output::fail`] takes them.
    pub fn parts(self) -> (&'static str, usize, usize) {
        match self {
            Fault::Range { at, width } => ("Range", at, width),
            Fault::Header => ("Header", 0, 0),
            Fault::NameOverflow => ("NameOverflow", 0, 0),
            Fault::NameTooLong => ("NameTooLong", 0, 0),
            Fault::NamePointer => ("NamePointer", 0, 0),
            Fault::NameLabel => ("NameLabel", 0, 0),
            Fault::TxtOverflow => ("TxtOverflow", 0, 0),
            Fault::Protocol => ("Protocol", 0, 0),
            Fault::Overrun { .. } => ("Overrun", 0, 0),
        }
    }
}

/// The outcome of one read.
pub type Read<T> = Result<T, Fault>;

/// The record types that dns-packet decodes by type; every other type is
/// `unknown`, its data the raw bytes.
pub mod rtype {
    /// A
    pub const A: u16 = 1;
    /// NS
    pub const NS: u16 = 2;
    /// CNAME
    pub const CNAME: u16 = 5;
    /// SOA
    pub const SOA: u16 = 6;
    /// NULL
    pub const NULL: u16 = 10;
    /// PTR
    pub const PTR: u16 = 12;
    /// HINFO
    pub const HINFO: u16 = 13;
    /// MX
    pub const MX: u16 = 15;
    /// TXT
    pub const TXT: u16 = 16;
    /// RP
    pub const RP: u16 = 17;
    /// AAAA
    pub const AAAA: u16 = 28;
    /// SRV
    pub const SRV: u16 = 33;
    /// NAPTR
    pub const NAPTR: u16 = 35;
    /// DNAME
    pub const DNAME: u16 = 39;
    /// OPT
    pub const OPT: u16 = 41;
    /// DS
    pub const DS: u16 = 43;
    /// SSHFP
    pub const SSHFP: u16 = 44;
    /// RRSIG
    pub const RRSIG: u16 = 46;
    /// NSEC
    pub const NSEC: u16 = 47;
    /// DNSKEY
    pub const DNSKEY: u16 = 48;
    /// NSEC3
    pub const NSEC3: u16 = 50;
    /// TLSA
    pub const TLSA: u16 = 52;
    /// CAA
    pub const CAA: u16 = 257;

    /// The record types dns-packet decodes by type, from RDLENGTH on; every
    /// other type's data is its bytes.
    pub const TYPED: [u16; 22] = [
        A, NS, CNAME, SOA, PTR, HINFO, MX, TXT, RP, AAAA, SRV, NAPTR, DNAME, OPT, DS, SSHFP, RRSIG,
        NSEC, DNSKEY, NSEC3, TLSA, CAA,
    ];
}

/// The EDNS options that dns-packet decodes into fields of their own.
pub mod option_code {
    /// CLIENT_SUBNET [RFC 7871].
    pub const CLIENT_SUBNET: u16 = 8;
    /// TCP_KEEPALIVE [RFC 7828].
    pub const TCP_KEEPALIVE: u16 = 11;
    /// KEY_TAG [RFC 8145].
    pub const KEY_TAG: u16 = 14;
}

/// A buffer being decoded and the tape the results go to.
pub struct Decoder<'a, 'o> {
    buf: &'a [u8],
    out: &'o mut Output,
    written: Written,
}

impl<'a, 'o> Decoder<'a, 'o> {
    /// A decoder of `buf` writing to `out`.
    pub fn new(buf: &'a [u8], out: &'o mut Output) -> Self {
        Decoder {
            buf,
            out,
            written: Written::default(),
        }
    }

    /// Appends a string to the text area with `write`, which writes ASCII
    /// (an address, hex digits), and pushes its `[start, end)`.
    pub(super) fn push_ascii(&mut self, write: impl FnOnce(&mut Vec<u8>)) {
        let from = self.out.text.len();
        write(&mut self.out.text);
        self.out.push_ascii_written(from);
    }

    /// Appends bytes decoded as UTF-8 (see [`text::lossy`]) to the text
    /// area and pushes their `[start, end)`.
    pub(super) fn push_text(&mut self, bytes: &[u8]) {
        let from = self.out.text.len();
        if text::lossy(&mut self.out.text, bytes) {
            self.out.push_ascii_written(from);
        } else {
            self.out.push_written(from);
        }
    }

    fn read<const N: usize>(&self, at: usize) -> Read<[u8; N]> {
        self.buf
            .get(at..at + N)
            .and_then(|bytes| bytes.try_into().ok())
            .ok_or(Fault::Range { at, width: N })
    }

    fn u8(&self, at: usize) -> Read<u32> {
        self.read::<1>(at).map(|[b]| u32::from(b))
    }

    fn u16(&self, at: usize) -> Read<u32> {
        self.read::<2>(at).map(|b| u32::from(u16::from_be_bytes(b)))
    }

    fn u32(&self, at: usize) -> Read<u32> {
        self.read::<4>(at).map(u32::from_be_bytes)
    }

    /// `buf[at]`, where dns-packet reads without a check.
    fn byte(&self, at: usize) -> Read<u32> {
        self.buf
            .get(at)
            .map(|&b| u32::from(b))
            .ok_or(Fault::Overrun { next: None })
    }

    /// Checks that `[start, end)` is inside the buffer, where dns-packet
    /// would take a clamped slice and go on at `next`.
    fn span(&self, end: usize, next: Option<usize>) -> Read<()> {
        if end > self.buf.len() {
            return Err(Fault::Overrun { next });
        }
        Ok(())
    }

    /// Appends one word.
    pub(super) fn push(&mut self, word: u32) {
        self.out.push(word);
    }

    /// Appends words.
    pub(super) fn push_all(&mut self, words: &[u32]) {
        self.out.push_all(words);
    }

    /// Appends a word to be set later by [`set`](Self::set); returns where it is.
    pub(super) fn push_slot(&mut self) -> usize {
        self.out.push(0);
        self.out.tape.len() - 1
    }

    /// Sets the word at `slot`.
    pub(super) fn set(&mut self, slot: usize, word: u32) {
        self.out.tape[slot] = word;
    }

    /// Pushes a byte range of the buffer, `[start, end)`.
    pub(super) fn push_bytes(&mut self, start: usize, end: usize) {
        self.out.push(start as u32);
        self.out.push(end as u32);
    }

    /// Reads and pushes a fixed-width field.
    fn field(&mut self, read: fn(&Self, usize) -> Read<u32>, at: usize) -> Read<u32> {
        let value = read(self, at)?;
        self.push(value);
        Ok(value)
    }

    /// Reads the name at `at` by dns-packet's rules and pushes its text;
    /// returns the bytes it took where it lies. A pointer must lead before
    /// the start of the labels being read (the name's start, or the last
    /// pointer's target), and the labels may add up to 254 bytes with their
    /// length bytes. A pointer to labels this decoder has read before takes
    /// their text as written (see [`Written`]).
    ///
    /// The labels are read a run at a time: the labels that lie one after
    /// another up to the root or a pointer are checked, then their text is
    /// written at once (see [`text::labels`]).
    pub fn name(&mut self, at: usize, mail: bool) -> Read<usize> {
        let buf = self.buf;
        let from = self.out.text.len();
        let (mut pos, mut segment, mut total) = (at, at, 0u32);
        // Where the name ends where it lies: past its first pointer, if any.
        let mut end = None;
        let mut ascii = true;
        // The first labels read: where each lies, where its text starts,
        // and the total before it, to remember once the name is whole.
        let mut labels = [(0u16, 0u32, 0u16); 4];
        let mut read = 0;
        loop {
            let run = pos;
            let text_at = self.out.text.len() + usize::from(self.out.text.len() > from);
            let len = loop {
                let len = usize::from(*buf.get(pos).ok_or(Fault::NameOverflow)?);
                if len == 0 || len & 0xc0 != 0 {
                    break len;
                }
                if pos + 1 + len > buf.len() {
                    return Err(Fault::NameOverflow);
                }
                // Only the first 16 KiB can be a pointer's target.
                if let (Some(slot), Ok(label_at @ ..0x4000)) =
                    (labels.get_mut(read), u16::try_from(pos))
                {
                    *slot = (label_at, (text_at + pos - run) as u32, total as u16);
                    read += 1;
                }
                total += len as u32 + 1;
                if total > 254 {
                    return Err(Fault::NameTooLong);
                }
                pos += 1 + len;
            };
            if pos > run {
                if self.out.text.len() > from {
                    self.out.text.push(b'.');
                }
                ascii &= text::labels(&mut self.out.text, &buf[run..pos], mail);
            }
            match len & 0xc0 {
                0x00 => {
                    pos += 1;
                    break;
                }
                0xc0 => {
                    let low = usize::from(*buf.get(pos + 1).ok_or(Fault::NameOverflow)?);
                    let target = (len & 0x3f) << 8 | low;
                    if target >= segment {
                        return Err(Fault::NamePointer);
                    }
                    let here = *end.get_or_insert(pos + 2);
                    (pos, segment) = (target, target);
                    // The labels from there on were read before, without
                    // a fault: only the total can fail now.
                    if let Some(suffix) = self.written.find(target).filter(|_| !mail) {
                        total += u32::from(suffix.total);
                        if total > 254 {
                            return Err(Fault::NameTooLong);
                        }
                        if self.out.text.len() == from {
                            self.out.push(suffix.unit);
                            self.out.push(suffix.unit + suffix.len);
                            return Ok(here - at);
                        }
                        self.out.text.push(b'.');
                        let start = suffix.byte as usize;
                        let end = start + suffix.len as usize;
                        self.out.text.extend_from_within(start..end);
                        break;
                    }
                }
                _ => return Err(Fault::NameLabel),
            }
        }
        let taken = end.unwrap_or(pos) - at;
        if self.out.text.len() == from {
            self.out.text.push(b'.');
        }
        if !ascii {
            self.out.push_written(from);
            return Ok(taken);
        }
        if !mail {
            // In ASCII, a byte is a code unit.
            let (units, end) = (self.out.units(), self.out.text.len() as u32);
            for &(at, byte, before) in &labels[..read] {
                self.written.remember(Suffix {
                    at,
                    total: total as u16 - before,
                    byte,
                    unit: units + byte - from as u32,
                    len: end - byte,
                });
            }
        }
        self.out.push_ascii_written(from);
        Ok(taken)
    }

    /// A `<character-string>` as dns-packet's `string.decode` reads it;
    /// returns the bytes it took. Where the string runs past the end,
    /// dns-packet takes a clamped slice and goes on after the length it read.
    fn string(&mut self, at: usize) -> Read<usize> {
        let len = self.byte(at)? as usize;
        self.span(at + 1 + len, Some(at + 1 + len))?;
        let bytes = &self.buf[at + 1..at + 1 + len];
        self.push_text(bytes);
        Ok(1 + len)
    }

    /// Decodes the header at `at`; the tape gets `id flags qdcount ancount
    /// nscount arcount`, and the counts are returned.
    pub fn header(&mut self, at: usize) -> Read<[u32; 4]> {
        if self.buf.len() < 12 {
            return Err(Fault::Header);
        }
        let flags = self.u16(at + 2)?;
        self.field(Self::u16, at)?;
        self.push(flags);
        let mut counts = [0; 4];
        for (i, count) in counts.iter_mut().enumerate() {
            *count = self.field(Self::u16, at + 4 + 2 * i)?;
        }
        Ok(counts)
    }

    /// A whole message at `at` (see [`super`] for its tape); returns its length.
    pub fn message(&mut self, at: usize) -> Read<usize> {
        let counts = self.header(at)?;
        let mut pos = at + 12;
        for _ in 0..counts[0] {
            pos += self.question(pos)?;
        }
        // After record data that ran past the end, dns-packet goes on with
        // what it read there; the decode goes on with it, to fail where
        // dns-packet fails, and fails anyway. Once its offset is `NaN`,
        // every later record is read at offset 0.
        let mut overrun = None;
        for _ in 0..counts[1..].iter().sum::<u32>() {
            if overrun == Some(None) {
                match self.answer(0) {
                    Ok(_) | Err(Fault::Overrun { .. }) => break,
                    Err(fault) => return Err(fault),
                }
            }
            match self.answer(pos) {
                Ok(taken) => pos += taken,
                Err(Fault::Overrun { next }) => {
                    overrun = Some(next);
                    pos = next.unwrap_or(0);
                }
                Err(fault) => return Err(fault),
            }
        }
        match overrun {
            Some(_) => Err(Fault::Overrun { next: None }),
            None => Ok(pos - at),
        }
    }

    /// A question: `name type class`.
    pub fn question(&mut self, at: usize) -> Read<usize> {
        let mut pos = at + self.name(at, false)?;
        self.field(Self::u16, pos)?;
        self.field(Self::u16, pos + 2)?;
        pos += 4;
        Ok(pos - at)
    }

    /// A record: `name type`, then `udpPayloadSize extendedRcode ednsVersion
    /// flags` and the options for OPT, else `class ttl` and the data.
    pub fn answer(&mut self, at: usize) -> Read<usize> {
        let pos = at + self.name(at, false)?;
        let rtype = self.field(Self::u16, pos)? as u16;
        if rtype == rtype::OPT {
            self.field(Self::u16, pos + 2)?;
            self.field(Self::u8, pos + 4)?;
            self.field(Self::u8, pos + 5)?;
            self.field(Self::u16, pos + 6)?;
        } else {
            self.field(Self::u16, pos + 2)?;
            self.field(Self::u32, pos + 4)?;
        }
        let data = self.data(rtype, pos + 8)?;
        Ok(pos + 8 + data - at)
    }

    /// Record data of type `rtype` whose RDLENGTH is at `at`; returns the
    /// bytes dns-packet's decoder for the type says it took.
    pub fn data(&mut self, rtype: u16, at: usize) -> Read<usize> {
        match rtype {
            rtype::A => self.a(at),
            rtype::AAAA => self.aaaa(at),
            rtype::NS => {
                let len = self.u16(at)? as usize;
                self.name(at + 2, false)?;
                Ok(len + 2)
            }
            rtype::PTR | rtype::CNAME | rtype::DNAME => Ok(self.name(at + 2, false)? + 2),
            rtype::SOA => self.soa(at),
            rtype::TXT => self.txt(at),
            rtype::HINFO => {
                // After a clamped CPU string the OS string's length byte is
                // past the end: dns-packet's offset becomes `NaN`.
                let cpu = self
                    .string(at + 2)
                    .map_err(|_| Fault::Overrun { next: None })?;
                let os = self.string(at + 2 + cpu)?;
                Ok(2 + cpu + os)
            }
            rtype::SRV => self.srv(at),
            rtype::CAA => self.caa(at),
            rtype::MX => {
                self.field(Self::u16, at + 2)?;
                Ok(4 + self.name(at + 4, false)?)
            }
            rtype::OPT => self.opt(at),
            rtype::DNSKEY => self.dnskey(at),
            rtype::RRSIG => self.rrsig(at),
            rtype::RP => {
                let mbox = self.name(at + 2, true)?;
                Ok(2 + mbox + self.name(at + 2 + mbox, false)?)
            }
            rtype::NSEC => {
                let length = self.u16(at)? as usize;
                let pos = at + 2 + self.name(at + 2, false)?;
                Ok(self.type_bitmap(pos, at + length)? - at)
            }
            rtype::NSEC3 => self.nsec3(at),
            rtype::DS => self.ds(at),
            rtype::SSHFP => self.sshfp(at),
            rtype::NAPTR => self.naptr(at),
            rtype::TLSA => self.tlsa(at),
            _ => {
                let len = self.u16(at)? as usize;
                self.span(at + 2 + len, Some(at + 2 + len))?;
                self.push_bytes(at + 2, at + 2 + len);
                Ok(len + 2)
            }
        }
    }

    fn a(&mut self, at: usize) -> Read<usize> {
        self.span(at + 6, Some(at + 6))?;
        let mut octets = [0; 4];
        octets.copy_from_slice(&self.buf[at + 2..at + 6]);
        self.push_ascii(|s| text::ipv4(s, octets));
        Ok(6)
    }

    fn aaaa(&mut self, at: usize) -> Read<usize> {
        self.span(at + 18, Some(at + 18))?;
        let mut octets = [0; 16];
        octets.copy_from_slice(&self.buf[at + 2..at + 18]);
        self.push_ascii(|s| text::ipv6(s, octets));
        Ok(18)
    }

    /// `mname rname serial refresh retry expire minimum`.
    fn soa(&mut self, at: usize) -> Read<usize> {
        let mut pos = at + 2;
        pos += self.name(pos, false)?;
        pos += self.name(pos, true)?;
        for _ in 0..5 {
            self.field(Self::u32, pos)?;
            pos += 4;
        }
        Ok(pos - at)
    }

    /// `count`, then each string's byte range.
    fn txt(&mut self, at: usize) -> Read<usize> {
        let mut remaining = self.u16(at)? as usize;
        let count_at = self.out.tape.len();
        self.push(0);
        let mut pos = at + 2;
        while remaining > 0 {
            let len = self.byte(pos)? as usize;
            pos += 1;
            remaining -= 1;
            if remaining < len {
                return Err(Fault::TxtOverflow);
            }
            // After a clamped slice dns-packet reads `undefined` lengths,
            // unless the data is used up.
            let next = (remaining == len).then_some(pos + len);
            self.span(pos + len, next)?;
            self.push_bytes(pos, pos + len);
            self.out.tape[count_at] += 1;
            pos += len;
            remaining -= len;
        }
        Ok(pos - at)
    }

    /// `priority weight port target`.
    fn srv(&mut self, at: usize) -> Read<usize> {
        let len = self.u16(at)? as usize;
        for i in 0..3 {
            self.field(Self::u16, at + 2 + 2 * i)?;
        }
        self.name(at + 8, false)?;
        Ok(len + 2)
    }

    /// `flags tag value`.
    fn caa(&mut self, at: usize) -> Read<usize> {
        let len = self.u16(at)? as usize;
        self.field(Self::u8, at + 2)?;
        let end = at + 2 + len;
        // dns-packet counts the RDLENGTH, whatever it read.
        let overrun = Fault::Overrun { next: Some(end) };
        let pos = at + 3 + self.string(at + 3).map_err(|_| overrun)?;
        self.span(end, Some(end))?;
        let value = self.buf.get(pos..end).unwrap_or(&[]);
        self.push_text(value);
        Ok(len + 2)
    }

    /// `count`, then each option (see [`super`]).
    fn opt(&mut self, at: usize) -> Read<usize> {
        let mut remaining = self.u16(at)? as isize;
        let count_at = self.out.tape.len();
        self.push(0);
        let mut pos = at + 2;
        while remaining > 0 {
            let taken = match self.option(pos) {
                Ok(taken) => taken,
                // Past a clamped option dns-packet reads the next one's code.
                Err(Fault::Overrun { next: Some(next) }) if remaining > (next - pos) as isize => {
                    return Err(Fault::Range { at: next, width: 2 });
                }
                Err(fault) => return Err(fault),
            };
            self.out.tape[count_at] += 1;
            pos += taken;
            remaining -= taken as isize;
        }
        Ok(pos - at)
    }

    /// One EDNS option: `code`, its data's byte range, then for
    /// CLIENT_SUBNET `family sourcePrefixLength scopePrefixLength ip`, for
    /// TCP_KEEPALIVE `hasTimeout timeout`, for KEY_TAG `count tags…`.
    pub fn option(&mut self, at: usize) -> Read<usize> {
        let code = self.field(Self::u16, at)?;
        let len = self.u16(at + 2)? as usize;
        let data = at + 4;
        self.push_bytes(data, data + len);
        match code as u16 {
            option_code::CLIENT_SUBNET => {
                let family = self.field(Self::u16, data)?;
                self.field(Self::u8, data + 2)?;
                self.field(Self::u8, data + 3)?;
                let mut padded = [0u8; 16];
                let size = if family == 1 { 4 } else { 16 };
                let copied = len
                    .saturating_sub(4)
                    .min(size)
                    .min(self.buf.len().saturating_sub(data + 4));
                padded[..copied].copy_from_slice(&self.buf[data + 4..data + 4 + copied]);
                if size == 4 {
                    self.push_ascii(|s| {
                        text::ipv4(s, [padded[0], padded[1], padded[2], padded[3]])
                    });
                } else {
                    self.push_ascii(|s| text::ipv6(s, padded));
                }
            }
            option_code::TCP_KEEPALIVE => {
                self.push(u32::from(len > 0));
                let timeout = if len > 0 { self.u16(data)? } else { 0 };
                self.push(timeout);
            }
            option_code::KEY_TAG => {
                self.push(len.div_ceil(2) as u32);
                for i in (0..len).step_by(2) {
                    self.field(Self::u16, data + i)?;
                }
            }
            _ => {}
        }
        self.span(data + len, Some(data + len))?;
        Ok(len + 4)
    }

    /// `flags algorithm key`.
    fn dnskey(&mut self, at: usize) -> Read<usize> {
        let length = self.u16(at)? as usize;
        self.field(Self::u16, at + 2)?;
        if self.u8(at + 4)? != 3 {
            return Err(Fault::Protocol);
        }
        self.field(Self::u8, at + 5)?;
        Ok(self.tail(at + 6, at + 2 + length)? - at)
    }

    /// Pushes the byte range `[start, end)` (empty when `end < start`), as
    /// dns-packet slices the rest of a record's data; returns where it ends.
    fn tail(&mut self, start: usize, end: usize) -> Read<usize> {
        let end = end.max(start);
        self.span(end, Some(self.buf.len()))?;
        self.push_bytes(start, end);
        Ok(end)
    }

    /// `typeCovered algorithm labels originalTTL expiration inception keyTag
    /// signersName signature`.
    fn rrsig(&mut self, at: usize) -> Read<usize> {
        let length = self.u16(at)? as usize;
        self.field(Self::u16, at + 2)?;
        self.field(Self::u8, at + 4)?;
        self.field(Self::u8, at + 5)?;
        for i in 0..3 {
            self.field(Self::u32, at + 6 + 4 * i)?;
        }
        self.field(Self::u16, at + 18)?;
        let pos = at + 20 + self.name(at + 20, false)?;
        Ok(self.tail(pos, at + 2 + length)? - at)
    }

    /// `count types…`: the windows that start before `end`, which dns-packet
    /// puts two bytes before the end of the record's data; returns where the
    /// last window ends.
    fn type_bitmap(&mut self, at: usize, end: usize) -> Read<usize> {
        let count_at = self.out.tape.len();
        self.push(0);
        let mut pos = at;
        while pos < end {
            let window = self.u8(pos)?;
            let len = self.u8(pos + 1)? as usize;
            for i in 0..len {
                let bits = self.u8(pos + 2 + i)?;
                for j in 0..8 {
                    if bits & (0x80 >> j) != 0 {
                        self.push(window << 8 | (i as u32) << 3 | j);
                        self.out.tape[count_at] += 1;
                    }
                }
            }
            pos += 2 + len;
        }
        Ok(pos)
    }

    /// `algorithm flags iterations salt nextDomain count types…`.
    fn nsec3(&mut self, at: usize) -> Read<usize> {
        let length = self.u16(at)? as usize;
        self.field(Self::u8, at + 2)?;
        self.field(Self::u8, at + 3)?;
        self.field(Self::u16, at + 4)?;
        let mut pos = at + 6;
        for i in 0..2 {
            let len = self.u8(pos)? as usize;
            let after = pos + 1 + len;
            // Past a clamped slice dns-packet reads the next length byte,
            // or the bitmap's first window if it thinks there is one.
            self.span(after, None).map_err(|_| {
                if i == 0 || after < at + length {
                    Fault::Range {
                        at: after,
                        width: 1,
                    }
                } else {
                    Fault::Overrun { next: Some(after) }
                }
            })?;
            self.push_bytes(pos + 1, after);
            pos = after;
        }
        Ok(self.type_bitmap(pos, at + length)? - at)
    }

    /// `keyTag algorithm digestType digest`.
    fn ds(&mut self, at: usize) -> Read<usize> {
        let length = self.u16(at)? as usize;
        self.field(Self::u16, at + 2)?;
        self.field(Self::u8, at + 4)?;
        self.field(Self::u8, at + 5)?;
        Ok(self.tail(at + 6, at + 2 + length)? - at)
    }

    /// `algorithm hash fingerprint` (hex text). A hash type other than 1 or
    /// 2 has no known length; dns-packet then counts `NaN` bytes.
    fn sshfp(&mut self, at: usize) -> Read<usize> {
        let algorithm = self.byte(at + 2)?;
        let hash = self.byte(at + 3)?;
        let len = match hash {
            1 => 20,
            2 => 32,
            _ => return Err(Fault::Overrun { next: None }),
        };
        self.push(algorithm);
        self.push(hash);
        self.span(at + 4 + len, Some(at + 4 + len))?;
        let fingerprint = &self.buf[at + 4..at + 4 + len];
        self.push_ascii(|s| text::upper_hex(s, fingerprint));
        Ok(4 + len)
    }

    /// `order preference flags services regexp replacement`.
    fn naptr(&mut self, at: usize) -> Read<usize> {
        self.field(Self::u16, at + 2)?;
        self.field(Self::u16, at + 4)?;
        let mut pos = at + 6;
        for field in 0..3 {
            match self.string(pos) {
                Ok(taken) => pos += taken,
                // Past a clamped regexp, dns-packet reads the replacement
                // where the regexp's length says, past the end of the buffer.
                Err(Fault::Overrun { next: Some(next) }) if field == 2 => {
                    self.name(next, false)?;
                    return Err(Fault::Overrun { next: None });
                }
                // Otherwise the next string's length byte is past the end,
                // and dns-packet's offset is now `NaN`: it reads the rest at 0.
                Err(_) => {
                    self.name(0, false)?;
                    return Err(Fault::Overrun { next: None });
                }
            }
        }
        pos += self.name(pos, false)?;
        Ok(pos - at)
    }

    /// `usage selector matchingType certificate`.
    fn tlsa(&mut self, at: usize) -> Read<usize> {
        let length = self.u16(at)? as usize;
        for i in 0..3 {
            self.field(Self::u8, at + 2 + i)?;
        }
        Ok(self.tail(at + 5, at + 2 + length)? - at)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The text of the name the tape ends with, or the fault.
    fn last_name(read: Read<usize>, out: &Output) -> Read<String> {
        read?;
        let [.., start, end] = out.tape[..] else {
            unreachable!("a name pushes two words")
        };
        let units: Vec<u16> = core::str::from_utf8(&out.text)
            .unwrap()
            .encode_utf16()
            .collect();
        Ok(String::from_utf16(&units[start as usize..end as usize]).unwrap())
    }

    /// Each name of `names` (offset, mail form) read by one decoder, one
    /// after another, and each read by a decoder of its own.
    fn in_turn_and_alone(buf: &[u8], names: &[(usize, bool)]) -> [Vec<Read<String>>; 2] {
        let mut shared = Output::new();
        let mut decoder = Decoder::new(buf, &mut shared);
        let mut in_turn = Vec::new();
        for &(at, mail) in names {
            let read = decoder.name(at, mail);
            in_turn.push(last_name(read, decoder.out));
        }
        let alone = names
            .iter()
            .map(|&(at, mail)| {
                let mut out = Output::new();
                let read = Decoder::new(buf, &mut out).name(at, mail);
                last_name(read, &out)
            })
            .collect();
        [in_turn, alone]
    }

    fn labels(labels: &[&[u8]]) -> Vec<u8> {
        labels
            .iter()
            .flat_map(|label| [&[label.len() as u8][..], label].concat())
            .collect()
    }

    #[test]
    fn names_read_earlier_give_the_same_text() {
        // 0: www.example.com; 17: mail + a pointer to `example` (4);
        // 24: a pointer to 0; 26: a pointer to 17.
        let mut buf = labels(&[b"www", b"example", b"com", b""]);
        buf.extend(labels(&[b"mail"]));
        buf.extend([0xc0, 4, 0xc0, 0, 0xc0, 17]);
        let names = [
            (0, false),
            (17, false),
            (24, false),
            (26, false),
            (24, true),
        ];
        let [in_turn, alone] = in_turn_and_alone(&buf, &names);
        assert_eq!(in_turn, alone);
        assert_eq!(in_turn[3], Ok("mail.example.com".into()));
    }

    #[test]
    fn a_name_read_earlier_counts_toward_the_limit() {
        // 0: three labels of 63 bytes and one of 50 (243 with the length
        // bytes); 244: a label of 20 and a pointer to 0, 264 in all.
        let long = [
            [b'a'; 63].as_slice(),
            &[b'b'; 63],
            &[b'c'; 63],
            &[b'd'; 50],
            b"",
        ];
        let mut buf = labels(&long);
        buf.extend(labels(&[&[b'e'; 20]]));
        buf.extend([0xc0, 0]);
        let [in_turn, alone] = in_turn_and_alone(&buf, &[(0, false), (244, false)]);
        assert_eq!(in_turn, alone);
        assert_eq!(in_turn[1], Err(Fault::NameTooLong));
    }

    #[test]
    fn labels_past_what_a_pointer_reaches_are_not_remembered() {
        // 5: aaa; 0x10005: zzz, which a 16-bit offset would confuse with 5;
        // 0x10010: a pointer to 5.
        let mut buf = vec![0; 0x10012];
        buf[5..10].copy_from_slice(&labels(&[b"aaa", b""]));
        buf[0x10005..0x1000a].copy_from_slice(&labels(&[b"zzz", b""]));
        buf[0x10010..].copy_from_slice(&[0xc0, 5]);
        let names = [(0x10005, false), (0x10010, false)];
        let [in_turn, alone] = in_turn_and_alone(&buf, &names);
        assert_eq!(in_turn, alone);
        assert_eq!(in_turn[1], Ok("aaa".into()));
    }

    #[test]
    fn mail_form_and_other_text_read_the_labels_again() {
        // 0: a.b.com with the dot inside a label; 9: a pointer to 0;
        // 11: a non-ASCII label; 15: a pointer to 11.
        let mut buf = labels(&[b"a.b", b"com", b""]);
        buf.extend([0xc0, 0]);
        buf.extend(labels(&[b"\xc3\xa9t", b""]));
        buf.extend([0xc0, 11]);
        let names = [(0, false), (9, true), (9, false), (11, false), (16, false)];
        let [in_turn, alone] = in_turn_and_alone(&buf, &names);
        assert_eq!(in_turn, alone);
        assert_eq!(in_turn[1], Ok("a\\.b.com".into()));
        assert_eq!(in_turn[4], Ok("ét".into()));
    }
}
