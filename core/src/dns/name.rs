//! Domain names: a checked view of a (possibly compressed) name inside a
//! message, and an uncompressed value type built from text.
//!
//! ```text
//! name    = *label root
//! label   = length(1..=63) octets      ; top bits 00
//! pointer = 11 offset(14 bits)         ; the rest of the name is at `offset`
//! root    = 0x00
//! ```
//!
//! [RFC 1035 §3.1, §4.1.4]. A pointer may only point backwards, to a label
//! that this name has not visited yet, and a name is at most 255 octets long
//! when written out in full.

use core::cmp::Ordering;
use core::fmt;
use core::hash::{Hash, Hasher};

use super::error::{Error, ErrorKind, Result};

/// The longest name, in wire octets with every pointer expanded [RFC 1035 §2.3.4].
pub const MAX_NAME_LEN: usize = 255;
/// The longest label [RFC 1035 §2.3.4].
pub const MAX_LABEL_LEN: usize = 63;
/// The most compression pointers one name may follow. Real names follow one
/// or two; a longer chain is refused as a loop would be.
const MAX_JUMPS: usize = 32;

/// A domain name inside a message. The labels stay where they are; a view
/// follows compression pointers as it is read.
///
/// Parsing checks the whole name once, so reading it later cannot fail.
/// Comparison ignores ASCII case, as DNS does [RFC 4343].
///
/// ```
/// use leanwire_core::dns::Name;
///
/// // "www.example.com." at 0, then "mail" + a pointer to "example.com." at 17.
/// let msg = b"\x03www\x07example\x03com\x00\x04mail\xc0\x04";
/// let (www, rest) = Name::parse(msg, 0)?;
/// let (mail, end) = Name::parse(msg, rest)?;
/// assert_eq!((www.to_string(), rest), ("www.example.com.".into(), 17));
/// assert_eq!((mail.to_string(), end), ("mail.example.com.".into(), 24));
/// assert_eq!(mail.wire_len(), 18);
/// # Ok::<(), leanwire_core::dns::Error>(())
/// ```
#[derive(Copy, Clone)]
pub struct Name<'a> {
    message: &'a [u8],
    start: usize,
    /// The length written out in full; 0 when not yet counted (a name read
    /// by [`split_checked`](Self::split_checked)), since a real one is at least 1.
    wire_len: u8,
}

impl<'a> Name<'a> {
    /// Reads the name at `offset` in `message`. Returns it with the offset
    /// just past its in-place part (after the root label or the first pointer).
    pub fn parse(message: &'a [u8], offset: usize) -> Result<(Self, usize)> {
        match Self::parse_plain(message, offset) {
            Some(parsed) => Ok(parsed),
            None => Self::parse_exact(message, offset),
        }
    }

    /// [`parse`](Self::parse) for the names real messages hold, in fewer
    /// steps a label; `None`, for [`parse_exact`](Self::parse_exact) to
    /// settle, wherever that would check more.
    ///
    /// One bound per run of labels stands for both checks of each label:
    /// the run may not pass the message's end, nor the name its 255 octets.
    /// Pointers are not remembered: a walk that comes back to a pointer's
    /// target repeats itself and never reaches a root, so it ends at the
    /// bound or at the most jumps, and the exact walk names the loop.
    #[inline]
    fn parse_plain(message: &'a [u8], offset: usize) -> Option<(Self, usize)> {
        let mut pos = offset;
        let mut end = None;
        // Octets of the runs before this one, and where this one starts.
        let mut before = 0;
        let mut run = offset;
        let mut jumps = 0;
        loop {
            // The run, and with it the name, ends with a root label
            // before `stop`.
            let stop = message.len().min(run + MAX_NAME_LEN - before);
            loop {
                if pos >= stop {
                    return None;
                }
                let len = usize::from(message[pos]);
                if len == 0 {
                    let name = Name {
                        message,
                        start: offset,
                        wire_len: (before + pos + 1 - run) as u8,
                    };
                    return Some((name, end.unwrap_or(pos + 1)));
                }
                if len > MAX_LABEL_LEN {
                    break;
                }
                pos += 1 + len;
            }
            let low = *message.get(pos + 1)?;
            let target = (usize::from(message[pos]) & 0x3f) << 8 | usize::from(low);
            if message[pos] & 0xc0 != 0xc0 || target >= pos || jumps == MAX_JUMPS {
                return None;
            }
            jumps += 1;
            before += pos - run;
            end.get_or_insert(pos + 2);
            (pos, run) = (target, target);
        }
    }

    /// [`parse`](Self::parse), checking every label and pointer on its own,
    /// so that a defect is reported at its own offset.
    fn parse_exact(message: &'a [u8], offset: usize) -> Result<(Self, usize)> {
        let mut pos = offset;
        let mut end = None;
        let mut wire_len = 0usize;
        // Where the pointers led. The walk from a position is always the
        // same, so a loop is exactly a pointer that leads somewhere again.
        let mut jumps = [0u16; MAX_JUMPS];
        let mut jumped = 0;
        loop {
            let len = *message
                .get(pos)
                .ok_or(Error::new(ErrorKind::ShortInput, pos))?;
            match len & 0xc0 {
                0x00 => {
                    let label_end = pos + 1 + usize::from(len);
                    if label_end > message.len() {
                        return Err(Error::new(ErrorKind::ShortInput, message.len()));
                    }
                    wire_len += 1 + usize::from(len);
                    if wire_len > MAX_NAME_LEN {
                        return Err(Error::new(ErrorKind::NameTooLong, pos));
                    }
                    if len == 0 {
                        let name = Name {
                            message,
                            start: offset,
                            wire_len: wire_len as u8,
                        };
                        return Ok((name, end.unwrap_or(label_end)));
                    }
                    pos = label_end;
                }
                0xc0 => {
                    let low = *message
                        .get(pos + 1)
                        .ok_or(Error::new(ErrorKind::ShortInput, pos + 1))?;
                    let target = usize::from(len & 0x3f) << 8 | usize::from(low);
                    match target.cmp(&pos) {
                        Ordering::Less
                            if jumped < MAX_JUMPS
                                && !jumps[..jumped].contains(&(target as u16)) =>
                        {
                            jumps[jumped] = target as u16;
                            jumped += 1;
                        }
                        Ordering::Less => return Err(Error::new(ErrorKind::PointerLoop, pos)),
                        Ordering::Equal => return Err(Error::new(ErrorKind::PointerLoop, pos)),
                        Ordering::Greater => {
                            return Err(Error::new(ErrorKind::ForwardPointer, pos));
                        }
                    }
                    end.get_or_insert(pos + 2);
                    pos = target;
                }
                _ => return Err(Error::new(ErrorKind::ReservedLabelType, pos)),
            }
        }
    }

    /// [`parse`](Self::parse) for a name that was parsed before, in a message
    /// that [`Message::parse`](super::Message::parse) checked: it only finds
    /// where the name ends, without checking again. On bytes that were not
    /// checked it still stops, after at most [`MAX_NAME_LEN`] steps, but the
    /// name it returns may be wrong.
    pub(crate) fn split_checked(message: &'a [u8], offset: usize) -> (Self, usize) {
        let mut pos = offset;
        while let Some(&len) = message.get(pos) {
            if len & 0xc0 == 0xc0 {
                pos += 2;
                break;
            }
            pos += 1 + usize::from(len);
            if len == 0 {
                break;
            }
        }
        (
            Name {
                message,
                start: offset,
                wire_len: 0,
            },
            pos,
        )
    }

    /// [`parse`](Self::parse), remembering each name parsed in `seen`: a
    /// name that is only a pointer to a name already checked there is not
    /// walked again. Responses are full of these (every `0xc00c` owner).
    pub(crate) fn parse_remembered(
        message: &'a [u8],
        offset: usize,
        seen: &mut SeenNames,
    ) -> Result<(Self, usize)> {
        let mut target = None;
        if let (Some(&high), Some(&low)) = (message.get(offset), message.get(offset + 1))
            && high & 0xc0 == 0xc0
        {
            let at = usize::from(high & 0x3f) << 8 | usize::from(low);
            if at < offset
                && let Some(wire_len) = seen.get(at)
            {
                return Ok((
                    Name {
                        message,
                        start: offset,
                        wire_len,
                    },
                    offset + 2,
                ));
            }
            target = Some(at);
        }
        let (name, next) = Self::parse(message, offset)?;
        seen.put(offset, name.wire_len);
        // A name that is just a pointer is the name it points at, which is
        // often inside an RDATA that was not walked here (a CNAME's target,
        // owner of the records after it): remember that one too.
        if let Some(at) = target {
            seen.put(at, name.wire_len);
        }
        Ok((name, next))
    }

    /// The root name, `.`.
    pub const fn root() -> Name<'static> {
        Name {
            message: &[0],
            start: 0,
            wire_len: 1,
        }
    }

    /// The labels from the leftmost to the last one before the root; the root's
    /// empty label is not included.
    pub fn labels(&self) -> Labels<'a> {
        Labels {
            message: self.message,
            pos: self.start,
        }
    }

    /// The labels as runs of wire bytes, for copying a run at a time.
    pub(crate) fn runs(&self) -> Runs<'a> {
        Runs {
            message: self.message,
            pos: Some(self.start),
        }
    }

    /// The length of the name written out in full, in octets (1 for the root).
    pub fn wire_len(&self) -> usize {
        match self.wire_len {
            0 => self.labels().map(|l| 1 + l.len()).sum::<usize>() + 1,
            n => usize::from(n),
        }
    }

    /// Whether this is the root name.
    pub fn is_root(&self) -> bool {
        self.labels().next().is_none()
    }

    /// The number of labels, the root not counted.
    pub fn label_count(&self) -> usize {
        self.labels().count()
    }

    /// Where the name starts in its message.
    pub const fn offset(&self) -> usize {
        self.start
    }

    /// Whether two names have the same labels byte for byte (case included).
    pub fn eq_exact(&self, other: &Name<'_>) -> bool {
        self.labels().eq(other.labels())
    }

    /// The name written out in full, as a value that owns its bytes.
    pub fn to_buf(&self) -> NameBuf {
        let mut buf = NameBuf {
            bytes: [0; MAX_NAME_LEN],
            len: 0,
        };
        for label in self.labels() {
            buf.push_label(label);
        }
        buf.bytes[buf.len as usize] = 0;
        buf.len += 1;
        buf
    }
}

/// A few names already checked in one message, by offset, with their
/// lengths: a slot for each offset's last three bits, where a later name
/// replaces an earlier one. An empty slot has length 0, which no name has.
#[derive(Default)]
pub(crate) struct SeenNames {
    /// Where each slot's name starts, and its length (kept apart, so that
    /// emptying the slots takes two stores rather than one per field).
    starts: [u16; 8],
    wire_lens: [u8; 8],
}

impl SeenNames {
    fn slot(at: usize) -> usize {
        at % 8
    }

    fn get(&self, at: usize) -> Option<u8> {
        let slot = Self::slot(at);
        match self.wire_lens[slot] {
            len if len != 0 && usize::from(self.starts[slot]) == at => Some(len),
            _ => None,
        }
    }

    fn put(&mut self, at: usize, wire_len: u8) {
        // Only offsets a pointer can reach are worth keeping.
        if let Ok(at16) = u16::try_from(at)
            && at16 <= 0x3fff
        {
            let slot = Self::slot(at);
            self.starts[slot] = at16;
            self.wire_lens[slot] = wire_len;
        }
    }
}

/// The labels of a [`Name`], leftmost first, without the root.
#[derive(Clone, Debug)]
pub struct Labels<'a> {
    message: &'a [u8],
    pos: usize,
}

impl<'a> Iterator for Labels<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        // The name was checked when it was parsed: every step here is in bounds
        // and the pointers lead backwards to the root.
        loop {
            let len = *self.message.get(self.pos)?;
            if len & 0xc0 == 0xc0 {
                let low = *self.message.get(self.pos + 1)?;
                self.pos = usize::from(len & 0x3f) << 8 | usize::from(low);
                continue;
            }
            if len == 0 {
                return None;
            }
            let start = self.pos + 1;
            let label = self.message.get(start..)?.get(..usize::from(len))?;
            self.pos = start + usize::from(len);
            return Some(label);
        }
    }
}

/// The labels of a [`Name`] as they lie in its message: runs of whole
/// labels, each with its length octets, split where a compression pointer
/// leads elsewhere; the root is not in any run.
#[derive(Clone, Debug)]
pub(crate) struct Runs<'a> {
    message: &'a [u8],
    /// Where the next run starts, or a pointer to it; `None` past the root.
    pos: Option<usize>,
}

impl<'a> Iterator for Runs<'a> {
    type Item = &'a [u8];

    fn next(&mut self) -> Option<&'a [u8]> {
        let mut pos = self.pos?;
        while let [len, low, ..] = *self.message.get(pos..)?
            && len & 0xc0 == 0xc0
        {
            pos = usize::from(len & 0x3f) << 8 | usize::from(low);
        }
        let start = pos;
        loop {
            let len = *self.message.get(pos)?;
            if len & 0xc0 == 0xc0 {
                self.pos = Some(pos);
                break;
            }
            if len == 0 {
                self.pos = None;
                break;
            }
            pos += 1 + usize::from(len);
        }
        match self.message.get(start..pos)? {
            [] => None,
            run => Some(run),
        }
    }
}

/// Writes one label in presentation form: `.`, `\`, `"`, `(`, `)`, `;`, `@`
/// and `$` get a backslash, and bytes outside `!`..=`~` become `\DDD`.
pub(crate) fn write_label(f: &mut impl fmt::Write, label: &[u8]) -> fmt::Result {
    let mut plain = 0;
    for (i, &b) in label.iter().enumerate() {
        let special = matches!(b, b'.' | b'\\' | b'"' | b'(' | b')' | b';' | b'@' | b'$');
        let printable = (0x21..=0x7e).contains(&b);
        if special || !printable {
            // The run before this byte is printable ASCII, so it is valid UTF-8.
            f.write_str(core::str::from_utf8(&label[plain..i]).map_err(|_| fmt::Error)?)?;
            if special {
                f.write_char('\\')?;
                f.write_char(char::from(b))?;
            } else {
                write!(f, "\\{b:03}")?;
            }
            plain = i + 1;
        }
    }
    f.write_str(core::str::from_utf8(&label[plain..]).map_err(|_| fmt::Error)?)
}

/// Writes labels as an absolute name: `www.example.com.`, or `.` for the root.
fn write_labels<'l>(
    f: &mut impl fmt::Write,
    labels: impl Iterator<Item = &'l [u8]>,
) -> fmt::Result {
    let mut any = false;
    for label in labels {
        write_label(f, label)?;
        f.write_char('.')?;
        any = true;
    }
    if !any {
        f.write_char('.')?;
    }
    Ok(())
}

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write_labels(f, self.labels())
    }
}

impl fmt::Debug for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Name({self})")
    }
}

/// Case-insensitive label sequence equality [RFC 4343].
fn labels_eq<'x, 'y>(a: impl Iterator<Item = &'x [u8]>, b: impl Iterator<Item = &'y [u8]>) -> bool {
    let mut b = b;
    for x in a {
        match b.next() {
            Some(y) if x.eq_ignore_ascii_case(y) => {}
            _ => return false,
        }
    }
    b.next().is_none()
}

impl PartialEq for Name<'_> {
    fn eq(&self, other: &Self) -> bool {
        labels_eq(self.labels(), other.labels())
    }
}

impl Eq for Name<'_> {}

impl Hash for Name<'_> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for label in self.labels() {
            state.write_u8(label.len() as u8);
            for b in label {
                state.write_u8(b.to_ascii_lowercase());
            }
        }
        state.write_u8(0);
    }
}

impl PartialEq<NameBuf> for Name<'_> {
    fn eq(&self, other: &NameBuf) -> bool {
        *self == other.as_name()
    }
}

/// A domain name written out in full (no compression), in a fixed 255-byte
/// buffer: the value type for names that do not come from a message.
///
/// ```
/// use leanwire_core::dns::NameBuf;
///
/// let name = NameBuf::from_text("Mail.Example.COM")?;
/// assert_eq!(name.to_string(), "Mail.Example.COM.");
/// assert_eq!(name.as_name(), NameBuf::from_text("mail.example.com.")?.as_name());
/// assert_eq!(NameBuf::from_text("a\\.b.c.")?.as_name().label_count(), 2);
/// # Ok::<(), leanwire_core::dns::Error>(())
/// ```
#[derive(Copy, Clone)]
pub struct NameBuf {
    bytes: [u8; MAX_NAME_LEN],
    len: u8,
}

impl NameBuf {
    /// The root name.
    pub const fn root() -> Self {
        NameBuf {
            bytes: [0; MAX_NAME_LEN],
            len: 1,
        }
    }

    /// Reads a name in presentation format. A missing final `.` is implied,
    /// `\X` stands for the character X and `\DDD` for the octet DDD. Error
    /// offsets are positions in `text`.
    pub fn from_text(text: &str) -> Result<Self> {
        let mut buf = NameBuf {
            bytes: [0; MAX_NAME_LEN],
            len: 0,
        };
        if text == "." {
            buf.len = 1;
            return Ok(buf);
        }
        let bytes = text.as_bytes();
        let mut label = [0u8; MAX_LABEL_LEN];
        let mut label_len = 0;
        let mut label_at = 0;
        let mut i = 0;
        while i < bytes.len() {
            let (octet, step) = match bytes[i] {
                b'.' => {
                    if label_len == 0 {
                        return Err(Error::new(ErrorKind::EmptyLabel, i));
                    }
                    buf.try_push_label(&label[..label_len], label_at)?;
                    label_len = 0;
                    i += 1;
                    label_at = i;
                    continue;
                }
                b'\\' => unescape(bytes, i)?,
                b => (b, 1),
            };
            if label_len == MAX_LABEL_LEN {
                return Err(Error::new(ErrorKind::LabelTooLong, label_at));
            }
            label[label_len] = octet;
            label_len += 1;
            i += step;
        }
        if label_len > 0 {
            buf.try_push_label(&label[..label_len], label_at)?;
        }
        if buf.len as usize == MAX_NAME_LEN {
            return Err(Error::new(ErrorKind::NameTooLong, text.len()));
        }
        buf.bytes[buf.len as usize] = 0;
        buf.len += 1;
        Ok(buf)
    }

    /// A view of this name, to compare, print or write into a message.
    pub fn as_name(&self) -> Name<'_> {
        Name {
            message: &self.bytes[..self.len as usize],
            start: 0,
            wire_len: self.len,
        }
    }

    /// The name's wire octets, ending with the root label.
    pub fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// Appends a label known to fit (it came from a checked name).
    fn push_label(&mut self, label: &[u8]) {
        let at = self.len as usize;
        self.bytes[at] = label.len() as u8;
        self.bytes[at + 1..at + 1 + label.len()].copy_from_slice(label);
        self.len += 1 + label.len() as u8;
    }

    /// Appends a label, leaving room for the root.
    fn try_push_label(&mut self, label: &[u8], text_at: usize) -> Result<()> {
        if self.len as usize + 1 + label.len() + 1 > MAX_NAME_LEN {
            return Err(Error::new(ErrorKind::NameTooLong, text_at));
        }
        self.push_label(label);
        Ok(())
    }
}

/// Reads `\X` or `\DDD` at `at`; returns the octet and how many bytes it took.
fn unescape(bytes: &[u8], at: usize) -> Result<(u8, usize)> {
    let digit = |i: usize| {
        bytes
            .get(at + i)
            .filter(|b| b.is_ascii_digit())
            .map(|b| u16::from(b - b'0'))
    };
    match (digit(1), digit(2), digit(3)) {
        (Some(a), Some(b), Some(c)) => {
            let value = a * 100 + b * 10 + c;
            u8::try_from(value)
                .map(|v| (v, 4))
                .map_err(|_| Error::new(ErrorKind::InvalidEscape, at))
        }
        (Some(_), _, _) => Err(Error::new(ErrorKind::InvalidEscape, at)),
        _ => match bytes.get(at + 1) {
            // A non-ASCII character after `\` stands for itself, one octet at a time.
            Some(&b) => Ok((b, 2)),
            None => Err(Error::new(ErrorKind::InvalidEscape, at)),
        },
    }
}

impl fmt::Display for NameBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.as_name(), f)
    }
}

impl fmt::Debug for NameBuf {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "NameBuf({self})")
    }
}

impl PartialEq for NameBuf {
    fn eq(&self, other: &Self) -> bool {
        self.as_name() == other.as_name()
    }
}

impl Eq for NameBuf {}

impl Hash for NameBuf {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_name().hash(state);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::string::ToString;

    fn parse(hex: &[u8], at: usize) -> Result<(Name<'_>, usize)> {
        Name::parse(hex, at)
    }

    #[test]
    fn root_alone() {
        let (name, end) = parse(&[0], 0).unwrap();
        assert!(name.is_root());
        assert_eq!((name.to_string(), end), (".".to_string(), 1));
    }

    #[test]
    fn runs_split_where_a_pointer_leads_elsewhere() {
        // `example.com` at 0, then `www` and a pointer to it at 13.
        let message = b"\x07example\x03com\x00\x03www\xc0\x00";
        let (name, _) = Name::parse(message, 13).unwrap();
        let runs: std::vec::Vec<&[u8]> = name.runs().collect();
        assert_eq!(runs, [&b"\x03www"[..], &b"\x07example\x03com"[..]]);
        assert_eq!(Name::root().runs().count(), 0);
    }

    #[test]
    fn pointer_past_the_first_256_bytes() {
        // `example.com` at 0x1234, after filler; `www` and a pointer to it.
        let mut message = std::vec![0; 0x1234];
        message.extend_from_slice(b"\x07example\x03com\x00\x03www\xd2\x34");
        let end = message.len();
        let (name, after) = parse(&message, end - 6).unwrap();
        assert_eq!(
            (name.to_string(), after),
            ("www.example.com.".to_string(), end)
        );
        let runs: std::vec::Vec<&[u8]> = name.runs().collect();
        assert_eq!(runs, [&b"\x03www"[..], &b"\x07example\x03com"[..]]);
        assert_eq!(std::format!("{name:?}"), "Name(www.example.com.)");
    }

    #[test]
    fn a_remembered_name_is_found_by_the_whole_pointer() {
        // `a.` at 0x50 and `bb.` at 0x150, both remembered; then a pointer
        // to 0x150, and a forward one to 0x250, whose low byte is 0x50 too.
        let mut message = std::vec![0; 0x204];
        message[0x50..0x53].copy_from_slice(b"\x01a\x00");
        message[0x150..0x154].copy_from_slice(b"\x02bb\x00");
        message[0x200..].copy_from_slice(&[0xc1, 0x50, 0xc2, 0x50]);
        let mut seen = SeenNames::default();
        for at in [0x50, 0x150] {
            Name::parse_remembered(&message, at, &mut seen).unwrap();
        }
        let (name, end) = Name::parse_remembered(&message, 0x200, &mut seen).unwrap();
        assert_eq!(
            (name.to_string(), name.wire_len(), end),
            ("bb.".to_string(), 4, 0x202)
        );
        assert_eq!(
            Name::parse_remembered(&message, 0x202, &mut seen).unwrap_err(),
            Error::new(ErrorKind::ForwardPointer, 0x202)
        );
    }

    #[test]
    fn chain_of_more_pointers_than_a_name_may_follow() {
        // The root at 0, then pointers that each lead to the one before.
        let mut message = std::vec![0];
        for jump in 0..=MAX_JUMPS {
            // Pointer `jump` sits at `1 + 2 * jump`.
            let target = if jump == 0 { 0 } else { 2 * jump - 1 };
            message.extend_from_slice(&[0xc0, target as u8]);
        }
        let last = message.len() - 2;
        let (name, _) = parse(&message, last - 2).unwrap();
        assert!(name.is_root());
        assert_eq!(
            parse(&message, last).unwrap_err(),
            Error::new(ErrorKind::PointerLoop, 1)
        );
    }

    /// Bytes where names are likely: small lengths, roots, the longest
    /// label length, pointers into the first 512 bytes, and any byte.
    fn name_soup() -> impl proptest::strategy::Strategy<Value = std::vec::Vec<u8>> {
        use proptest::prelude::*;
        let byte = prop_oneof![
            4 => 0u8..=3,
            1 => Just(MAX_LABEL_LEN as u8),
            2 => 0xc0u8..=0xc1,
            3 => any::<u8>(),
        ];
        proptest::collection::vec(byte, 0..700)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Where the plain walk reads a name, the exact one reads the same.
        #[test]
        fn the_plain_walk_reads_what_the_exact_one_does(message in name_soup()) {
            for at in 0..message.len() {
                if let Some((plain, end)) = Name::parse_plain(&message, at) {
                    let (exact, exact_end) = Name::parse_exact(&message, at)
                        .unwrap_or_else(|e| panic!("at {at}: the exact walk says {e}"));
                    assert_eq!(
                        (plain.wire_len, end, plain.labels().count()),
                        (exact.wire_len, exact_end, exact.labels().count()),
                        "at {at}"
                    );
                }
            }
        }
    }

    #[test]
    fn the_plain_walk_leaves_every_defect_to_the_exact_one() {
        let long = [&[MAX_LABEL_LEN as u8][..], &[b'a'; MAX_LABEL_LEN]].concat();
        let cases: [(std::vec::Vec<u8>, usize); 6] = [
            // 256 octets: four 63-octet labels and a 3-octet one.
            ([long.repeat(4), std::vec![2, b'a', b'b', 0]].concat(), 0),
            // 260 octets, the last 129 through a pointer.
            (
                [
                    long.repeat(2),
                    std::vec![0],
                    long.repeat(2),
                    std::vec![2, b'a', b'b', 0xc0, 0],
                ]
                .concat(),
                129,
            ),
            // A pointer to itself, and one forward.
            (std::vec![0xc0, 0], 0),
            (std::vec![0xc0, 2, 0], 0),
            // A label type that is reserved, and a label past the end.
            (std::vec![0x40, 0], 0),
            (std::vec![3, b'a', b'b'], 0),
        ];
        for (message, at) in cases {
            assert!(Name::parse_plain(&message, at).is_none(), "{message:?}");
            assert!(Name::parse_exact(&message, at).is_err(), "{message:?}");
        }
        // A pointer back into bytes the name has read is followed: the
        // label at 0 holds the bytes of `z.`, and the pointer after it
        // leads to them.
        let message = [3, 1, b'z', 0, 0xc0, 1];
        let (name, end) = Name::parse_plain(&message, 0).unwrap();
        assert_eq!((name.label_count(), name.wire_len(), end), (2, 7, 6));
    }

    #[test]
    fn a_name_read_without_checks_says_the_same() {
        // `example.com` at 0, then `www` and a pointer to it at 13.
        let message = b"\x07example\x03com\x00\x03www\xc0\x00";
        let (checked, end) = parse(message, 13).unwrap();
        let (unchecked, unchecked_end) = Name::split_checked(message, 13);
        assert_eq!((unchecked_end, end), (19, 19));
        assert_eq!((unchecked.wire_len(), checked.wire_len()), (17, 17));
        assert_eq!((unchecked.offset(), unchecked.label_count()), (13, 3));
        assert!(unchecked.eq_exact(&checked) && !unchecked.is_root());
        let buf = unchecked.to_buf();
        assert_eq!(buf.as_bytes(), b"\x03www\x07example\x03com\x00");
        assert!(buf.as_name().eq_exact(&checked));
    }

    #[test]
    fn pointer_to_itself() {
        assert_eq!(
            parse(&[0xc0, 0x00], 0).unwrap_err(),
            Error::new(ErrorKind::PointerLoop, 0)
        );
    }

    #[test]
    fn pointer_back_to_a_visited_label() {
        // The loop closes at the pointer (offset 4) when it leads to 0 again.
        let msg = b"\x03www\xc0\x00";
        assert_eq!(
            parse(msg, 0).unwrap_err(),
            Error::new(ErrorKind::PointerLoop, 4)
        );
    }

    #[test]
    fn forward_pointer() {
        let msg = b"\x03www\xc0\x06\x00\x00";
        assert_eq!(
            parse(msg, 4).unwrap_err(),
            Error::new(ErrorKind::ForwardPointer, 4)
        );
    }

    #[test]
    fn pointer_into_the_middle_of_a_label_is_allowed() {
        let msg = b"\x03foo\x05\x03com\x00\x07example\xc0\x05";
        let (name, _) = parse(msg, 0).unwrap();
        assert_eq!(name.to_string(), "foo.\\003com\\000.example.com.");
    }

    #[test]
    fn reserved_label_types() {
        assert_eq!(
            parse(b"\x40", 0).unwrap_err().kind(),
            ErrorKind::ReservedLabelType
        );
        assert_eq!(
            parse(b"\x80", 0).unwrap_err().kind(),
            ErrorKind::ReservedLabelType
        );
    }

    #[test]
    fn truncated_inside_a_label() {
        assert_eq!(
            parse(b"\x03ww", 0).unwrap_err(),
            Error::new(ErrorKind::ShortInput, 3)
        );
    }

    #[test]
    fn truncated_pointer() {
        assert_eq!(
            parse(b"\x03www\xc0", 0).unwrap_err(),
            Error::new(ErrorKind::ShortInput, 5)
        );
    }

    #[test]
    fn name_of_256_octets() {
        let mut msg = [0u8; 300];
        let mut at = 0;
        for _ in 0..4 {
            msg[at] = 63;
            at += 64;
        }
        // 4 × 64 = 256 octets before the root.
        assert_eq!(parse(&msg, 0).unwrap_err().kind(), ErrorKind::NameTooLong);
        // 3 × 64 + 62 + the root = 255.
        msg[192] = 61;
        msg[192 + 62] = 0;
        assert_eq!(parse(&msg, 0).unwrap().0.wire_len(), 255);
    }

    #[test]
    fn escapes_in_presentation() {
        let (name, _) = parse(b"\x04a.b\\\x02\x00\x20\x00", 0).unwrap();
        assert_eq!(name.to_string(), "a\\.b\\\\.\\000\\032.");
    }

    #[test]
    fn comparison_ignores_ascii_case_only() {
        let a = NameBuf::from_text("WWW.Example.com").unwrap();
        let b = NameBuf::from_text("www.example.COM.").unwrap();
        assert_eq!(a, b);
        assert!(!a.as_name().eq_exact(&b.as_name()));
        assert_ne!(
            NameBuf::from_text("\\195").unwrap(),
            NameBuf::from_text("\\227").unwrap()
        );
    }

    #[test]
    fn text_round_trips_through_escapes() {
        for text in [
            ".",
            "a.",
            "a\\.b.c.",
            "\\000\\255.x.",
            "semi\\;colon.",
            "\\\\.",
        ] {
            assert_eq!(NameBuf::from_text(text).unwrap().to_string(), text);
        }
    }

    #[test]
    fn text_errors_point_at_the_defect() {
        assert_eq!(
            NameBuf::from_text("a..b").unwrap_err(),
            Error::new(ErrorKind::EmptyLabel, 2)
        );
        assert_eq!(
            NameBuf::from_text("a\\256").unwrap_err(),
            Error::new(ErrorKind::InvalidEscape, 1)
        );
        assert_eq!(
            NameBuf::from_text("a\\25").unwrap_err(),
            Error::new(ErrorKind::InvalidEscape, 1)
        );
        assert_eq!(
            NameBuf::from_text("a\\").unwrap_err(),
            Error::new(ErrorKind::InvalidEscape, 1)
        );
        let long = "x".repeat(64);
        assert_eq!(
            NameBuf::from_text(&long).unwrap_err(),
            Error::new(ErrorKind::LabelTooLong, 0)
        );
        let many = "abc.".repeat(64);
        assert_eq!(
            NameBuf::from_text(&many).unwrap_err().kind(),
            ErrorKind::NameTooLong
        );
        let fits = "abc.".repeat(63);
        assert_eq!(NameBuf::from_text(&fits).unwrap().as_bytes().len(), 253);
    }

    /// Three labels of 63 and one of `last`, with or without the final dot.
    fn four_labels(last: usize, dot: &str) -> std::string::String {
        let full = "x".repeat(63);
        std::format!("{full}.{full}.{full}.{}{dot}", "y".repeat(last))
    }

    #[test]
    fn text_of_exactly_255_octets_fits() {
        for dot in ["", "."] {
            // 3 × 64 + 62 + the root = 255.
            let name = NameBuf::from_text(&four_labels(61, dot)).unwrap();
            assert_eq!(name.as_bytes().len(), 255, "dot {dot:?}");
            // One more octet is refused at the label that does not fit.
            assert_eq!(
                NameBuf::from_text(&four_labels(62, dot)).unwrap_err(),
                Error::new(ErrorKind::NameTooLong, 192),
                "dot {dot:?}"
            );
        }
    }

    fn hash_of(name: &impl Hash) -> u64 {
        let mut hasher = std::hash::DefaultHasher::new();
        name.hash(&mut hasher);
        hasher.finish()
    }

    #[test]
    fn names_equal_whatever_the_case_and_compression_hash_alike() {
        // `Example.COM` at 0, then `www` and a pointer to it at 13.
        let message = b"\x07Example\x03COM\x00\x03www\xc0\x00";
        let (compressed, _) = Name::parse(message, 13).unwrap();
        let text = NameBuf::from_text("WWW.example.com.").unwrap();
        assert!(compressed == text);
        assert_eq!(hash_of(&compressed), hash_of(&text.as_name()));
        let (other, _) = Name::parse(message, 0).unwrap();
        assert!(other != text);
        assert_ne!(hash_of(&other), hash_of(&compressed));
        // The label boundaries are part of the hash: `ab.c.` is not `a.bc.`.
        let ab_c = NameBuf::from_text("ab.c.").unwrap();
        let a_bc = NameBuf::from_text("a.bc.").unwrap();
        assert_ne!(hash_of(&ab_c.as_name()), hash_of(&a_bc.as_name()));
        let cd_e = NameBuf::from_text("cd.e.").unwrap();
        assert_ne!(hash_of(&ab_c.as_name()), hash_of(&cd_e.as_name()));
        // A NameBuf hashes as the name it holds.
        assert_eq!(hash_of(&text), hash_of(&compressed));
        assert_eq!(std::format!("{text:?}"), "NameBuf(WWW.example.com.)");
    }
}
