//! Encoding as dns-packet encodes: no name compression, every length byte
//! what `buf.write` wrote (modulo 256), and dns-packet's own
//! `encodingLength` counted beside the bytes.
//!
//! The input is a tape of `u32` words written by `src/dns-packet/encode.js`:
//! the first word is the tape's length, and the bytes after the tape hold
//! every string (UTF-8) and byte field; the tape refers to them by
//! `[start, end)` in that area. JavaScript has already turned mnemonics into
//! numbers and checked every value's range as Node's `writeUInt…` does.

use super::decode::rtype;

/// Reads an encode tape and writes the message's bytes.
pub struct Encoder<'a> {
    tape: &'a [u8],
    at: usize,
    data: &'a [u8],
    out: &'a mut Vec<u8>,
    /// dns-packet's `encodingLength` of what was written.
    pub length: usize,
}

/// What a tape that ends early reads as.
const MISSING: u32 = 0;

impl<'a> Encoder<'a> {
    /// An encoder of the tape in `input`, appending to `out`.
    pub fn new(input: &'a [u8], out: &'a mut Vec<u8>) -> Self {
        let words = input
            .get(..4)
            .map_or(0, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]) as usize);
        let (tape, data) = input.split_at((words * 4).min(input.len()));
        Encoder {
            tape,
            at: 1,
            data,
            out,
            length: 0,
        }
    }

    fn word(&mut self) -> u32 {
        let word = self
            .tape
            .get(4 * self.at..4 * self.at + 4)
            .map_or(MISSING, |w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]));
        self.at += 1;
        word
    }

    /// The words left on the tape.
    fn left(&self) -> u32 {
        (self.tape.len() / 4).saturating_sub(self.at) as u32
    }

    /// A count from the tape, capped at the words left: every item reads at
    /// least one word, so a tape that claims more items than it holds ends
    /// the loop instead of spinning on words that are not there.
    fn count(&mut self) -> u32 {
        let count = self.word();
        count.min(self.left())
    }

    fn bytes(&mut self) -> &'a [u8] {
        let start = self.word() as usize;
        let end = self.word() as usize;
        self.data.get(start..end).unwrap_or(&[])
    }

    fn u8(&mut self) -> u32 {
        let value = self.word();
        self.out.push(value as u8);
        value
    }

    fn u16(&mut self) -> u32 {
        let value = self.word();
        self.put_u16(value);
        value
    }

    fn u32(&mut self) -> u32 {
        let value = self.word();
        self.out.extend_from_slice(&value.to_be_bytes());
        value
    }

    fn put_u16(&mut self, value: u32) {
        self.out.extend_from_slice(&(value as u16).to_be_bytes());
    }

    /// Writes a placeholder for a length and returns where it is.
    fn hole(&mut self) -> usize {
        self.out.extend_from_slice(&[0, 0]);
        self.out.len() - 2
    }

    /// Fills the length at `hole` with the bytes written after it.
    fn fill(&mut self, hole: usize) {
        let len = (self.out.len() - hole - 2) as u16;
        self.out[hole..hole + 2].copy_from_slice(&len.to_be_bytes());
    }

    /// A name as dns-packet's `name.encode` writes it. dns-packet counts
    /// `encodingLength` as 1 for `.` and `..`, else the name's UTF-8 length
    /// without its outer dots, plus 2.
    pub fn name(&mut self, mail: bool) {
        let text = self.bytes();
        if text.contains(&b'\n') || (mail && text.contains(&b'\\')) {
            self.name_in_parts(text, mail);
        } else {
            let start = usize::from(text.first() == Some(&b'.'));
            let end = text.len() - usize::from(text.len() > start && text.last() == Some(&b'.'));
            let stripped = &text[start..end.max(start)];
            self.length += if text == b"." || text == b".." {
                1
            } else {
                stripped.len() + 2
            };
            if !stripped.is_empty() {
                stripped
                    .split(|&b| b == b'.')
                    .for_each(|part| self.label(part));
            }
            self.out.push(0);
        }
    }

    /// [`name`](Self::name) for the rare text that needs more than a
    /// split on dots: lines (dns-packet's regular expression strips the
    /// dots at the ends of each), or a mail name's local part, whose labels
    /// end in `\` and join the first label after them.
    fn name_in_parts(&mut self, text: &[u8], mail: bool) {
        let stripped = strip_outer_dots(text);
        self.length += if text == b"." || text == b".." {
            1
        } else {
            stripped.iter().filter(|&&b| b != STRIPPED).count() + 2
        };
        let mut label = Vec::new();
        let mut local = Vec::new();
        let mut labels = 0;
        let mut rest = stripped.split(|&b| b == b'.');
        if stripped.is_empty() {
            rest.next();
        }
        for part in rest {
            label.clear();
            label.extend(part.iter().copied().filter(|&b| b != STRIPPED));
            if mail && label.last() == Some(&b'\\') {
                if !local.is_empty() {
                    local.push(b'.');
                }
                local.extend_from_slice(&label[..label.len() - 1]);
                continue;
            }
            if mail && labels == 0 && !local.is_empty() {
                local.push(b'.');
                local.extend_from_slice(&label);
                self.label(&local);
            } else {
                self.label(&label);
            }
            labels += 1;
        }
        self.out.push(0);
    }

    fn label(&mut self, label: &[u8]) {
        self.out.push(label.len() as u8);
        self.out.extend_from_slice(label);
    }

    /// A `<character-string>`: its length modulo 256, then its bytes.
    fn string(&mut self) {
        let text = self.bytes();
        self.length += text.len() + 1;
        self.label(text);
    }

    /// Byte data written as it is; counted by `encodingLength`.
    fn blob(&mut self) -> usize {
        let data = self.bytes();
        self.out.extend_from_slice(data);
        self.length += data.len();
        data.len()
    }

    /// A whole message: `id flags qdcount ancount nscount arcount`, then
    /// the questions and the records.
    pub fn message(&mut self) {
        self.u16();
        self.u16();
        let counts = [self.u16(), self.u16(), self.u16(), self.u16()];
        self.length += 12;
        for _ in 0..counts[0].min(self.left()) {
            self.question();
        }
        for count in counts[1..].iter().copied() {
            for _ in 0..count.min(self.left()) {
                self.answer();
            }
        }
    }

    /// `name type class`.
    pub fn question(&mut self) {
        self.name(false);
        self.u16();
        self.u16();
        self.length += 4;
    }

    /// `name type codec`, then for OPT (codec 41) `udpPayloadSize
    /// extendedRcode ednsVersion flags` and the options, else `class ttl`
    /// and the data of the codec's type.
    pub fn answer(&mut self) {
        self.name(false);
        self.u16();
        let codec = self.word() as u16;
        if codec == rtype::OPT {
            self.u16();
            self.u8();
            self.u8();
            self.u16();
        } else {
            self.u16();
            self.u32();
        }
        self.length += 8;
        self.data(codec);
    }

    /// The RDLENGTH and data of the record type `codec`, as that type's
    /// dns-packet encoder writes them (see the module for the words).
    pub fn data(&mut self, codec: u16) {
        let hole = self.hole();
        self.length += 2;
        match codec {
            rtype::NS | rtype::PTR | rtype::CNAME | rtype::DNAME => {
                self.name(false);
            }
            rtype::SOA => {
                self.name(false);
                self.name(true);
                (0..5).for_each(|_| {
                    self.u32();
                });
                self.length += 20;
            }
            rtype::TXT => {
                for _ in 0..self.count() {
                    self.string();
                }
            }
            rtype::HINFO => {
                self.string();
                self.string();
            }
            rtype::SRV => {
                (0..3).for_each(|_| {
                    self.u16();
                });
                self.length += 6;
                self.name(false);
            }
            rtype::CAA => {
                self.u8();
                self.string();
                self.blob();
                self.length += 1;
            }
            rtype::MX => {
                self.u16();
                self.length += 2;
                self.name(false);
            }
            rtype::OPT => return self.options(hole),
            rtype::DNSKEY => {
                self.u16();
                self.out.push(3);
                self.u8();
                self.length += 4;
                self.blob();
            }
            rtype::RRSIG => self.rrsig(),
            rtype::RP => {
                self.name(true);
                self.name(false);
            }
            rtype::NSEC => {
                self.name(false);
                self.type_bitmap();
            }
            rtype::NSEC3 => self.nsec3(),
            rtype::DS => {
                self.u16();
                self.u8();
                self.u8();
                self.length += 4;
                self.blob();
            }
            rtype::SSHFP => {
                self.u8();
                self.u8();
                self.length += 2;
                self.blob();
            }
            rtype::NAPTR => {
                self.u16();
                self.u16();
                self.length += 4;
                (0..3).for_each(|_| self.string());
                self.name(false);
            }
            rtype::TLSA => {
                (0..3).for_each(|_| {
                    self.u8();
                });
                self.length += 3;
                self.blob();
            }
            // A and AAAA (their address bytes), NULL, and every type
            // dns-packet writes as its bytes.
            _ => {
                self.blob();
            }
        }
        self.fill(hole);
    }

    /// `count`, then each option as `code declaredLength data`; the
    /// RDLENGTH is the sum of the declared lengths, as dns-packet writes it.
    fn options(&mut self, hole: usize) {
        let before = self.length;
        for _ in 0..self.count() {
            self.option();
        }
        let declared = (self.length - before) as u16;
        self.out[hole..hole + 2].copy_from_slice(&declared.to_be_bytes());
    }

    /// One EDNS option: `code declaredLength data`.
    pub fn option(&mut self) {
        self.u16();
        self.length += self.word() as usize;
        let data = self.bytes();
        self.put_u16(data.len() as u32);
        self.out.extend_from_slice(data);
    }

    /// `typeCovered algorithm labels originalTTL expiration inception keyTag
    /// signersName signature`.
    fn rrsig(&mut self) {
        self.u16();
        self.u8();
        self.u8();
        self.u32();
        self.u32();
        self.u32();
        self.u16();
        self.length += 18;
        self.name(false);
        self.blob();
    }

    /// `algorithm flags iterations salt nextDomain count types…`.
    fn nsec3(&mut self) {
        self.u8();
        self.u8();
        self.u16();
        for _ in 0..2 {
            let data = self.bytes();
            self.out.push(data.len() as u8);
            self.out.extend_from_slice(data);
            self.length += data.len();
        }
        self.length += 6;
        self.type_bitmap();
    }

    /// `count types…` as a type bitmap: each window that has a type, in
    /// order, as long as its highest type needs [RFC 4034 §4.1.2].
    fn type_bitmap(&mut self) {
        let mut bits = [[0u8; 32]; 256];
        let mut used = [0usize; 256];
        for _ in 0..self.count() {
            let code = self.word() as usize & 0xffff;
            let (window, low) = (code >> 8, code & 0xff);
            bits[window][low >> 3] |= 0x80 >> (low & 7);
            used[window] = used[window].max(low / 8 + 1);
        }
        for (window, &len) in used.iter().enumerate().filter(|(_, len)| **len > 0) {
            self.out.push(window as u8);
            self.out.push(len as u8);
            self.out.extend_from_slice(&bits[window][..len]);
            self.length += 2 + len;
        }
    }
}

/// Stands for a dot that dns-packet's `/^\.|\.$/gm` removes: one at the
/// start or end of the text or of a line. No byte of UTF-8 is 0xff.
const STRIPPED: u8 = 0xff;

/// The name with its outer dots marked [`STRIPPED`]; empty if nothing else is left.
fn strip_outer_dots(text: &[u8]) -> Vec<u8> {
    let mut kept: Vec<u8> = text.to_vec();
    for i in 0..text.len() {
        let starts = i == 0 || text[i - 1] == b'\n';
        let ends = i + 1 == text.len() || text[i + 1] == b'\n';
        if text[i] == b'.' && (starts || ends) {
            kept[i] = STRIPPED;
        }
    }
    if kept.iter().all(|&b| b == STRIPPED) {
        kept.clear();
    }
    kept
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tape of `words`, with no byte area after it.
    fn tape(words: &[u32]) -> Vec<u8> {
        let mut bytes = ((words.len() + 1) as u32).to_le_bytes().to_vec();
        for word in words {
            bytes.extend_from_slice(&word.to_le_bytes());
        }
        bytes
    }

    #[test]
    fn a_count_larger_than_the_tape_stops_at_its_end() {
        // TXT data claiming four billion strings, and a message claiming
        // 65,535 of each section: only the words present are read.
        let mut out = Vec::new();
        Encoder::new(&tape(&[u32::MAX, 0, 0]), &mut out).data(rtype::TXT);
        assert!(out.len() <= 2 + 3, "{} bytes", out.len());
        let mut out = Vec::new();
        Encoder::new(&tape(&[1, 0, 0xffff, 0xffff, 0xffff, 0xffff]), &mut out).message();
        assert!(out.len() < 64, "{} bytes", out.len());
    }
}
