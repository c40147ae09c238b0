//! A DNS message's bytes, annotated field by field.

use leanwire_core::dns::{
    HEADER_LEN, Header, Message, Name, Question, Rcode, Record, Result, Rtype,
};
use serde::Serialize;
use wasm_bindgen::prelude::*;

/// One run of bytes and the field it holds.
#[derive(Serialize, Debug, PartialEq)]
pub(super) struct Span {
    /// The first byte.
    pub(super) start: usize,
    /// The byte after the last.
    pub(super) end: usize,
    /// `header`, `question`, `answer`, `authority`, `additional`,
    /// `trailing` or `unparsed`.
    pub(super) section: &'static str,
    /// The entry's index in its section; `null` in the header.
    pub(super) record: Option<usize>,
    /// The field: `ID`, `flags`, `QDCOUNT`, ..., `name`, `type`, `class`,
    /// `TTL`, `RDLENGTH`, `RDATA`; an OPT record's class and TTL are
    /// `UDP payload size` and `extended RCODE, version, flags`.
    pub(super) field: &'static str,
    /// The field's value in presentation form.
    pub(super) text: String,
    /// For a name that ends in a compression pointer: where the pointer
    /// is and where it leads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub(super) pointer: Option<Pointer>,
}

/// A compression pointer at the end of a name.
#[derive(Serialize, Debug, PartialEq)]
pub(super) struct Pointer {
    /// The offset of the pointer's two bytes.
    pub(super) offset: usize,
    /// The offset it points to.
    pub(super) target: usize,
}

/// Where the message went wrong.
#[derive(Serialize, Debug, PartialEq)]
pub(super) struct Defect {
    /// The error as `Display` prints it, offset included.
    pub(super) message: String,
    /// The `ErrorKind`'s name, such as `ShortInput`.
    pub(super) kind: String,
    /// The byte offset of the defect.
    pub(super) offset: usize,
}

/// Every byte of a message in [`spans`](Self::spans), and the first defect.
#[derive(Serialize, Debug)]
pub(super) struct Layout {
    /// Contiguous, in byte order, covering the whole message.
    pub(super) spans: Vec<Span>,
    /// `null` for a message that `Message::parse` accepts.
    pub(super) error: Option<Defect>,
}

/// Annotates every byte of the DNS message `bytes`, for the page's hex view.
///
/// Returns JSON, `{"spans": [...], "error": null}`: each span is
/// `{"start", "end", "section", "record", "field", "text"}` (plus
/// `"pointer": {"offset", "target"}` on a name that ends in a compression
/// pointer), contiguous and in byte order. Bytes after the last record are
/// a `trailing bytes` span. On a defect the spans stop there, the rest is
/// one `unparsed bytes` span, and `error` is `{"message", "kind", "offset"}`.
#[wasm_bindgen(js_name = dnsLayout)]
pub fn dns_layout(bytes: &[u8]) -> String {
    serde_json::to_string(&layout(bytes)).unwrap_or_default()
}

/// The layout of `bytes`; never fails, whatever the bytes.
pub(super) fn layout(bytes: &[u8]) -> Layout {
    let mut walk = Walk {
        bytes,
        spans: Vec::new(),
        at: 0,
    };
    let error = walk
        .message()
        .and_then(|()| Message::parse(bytes).map(|_| ()))
        .err();
    if let Some(error) = error {
        let message = error.to_string();
        walk.push(bytes.len(), "unparsed", None, "unparsed bytes", message);
    }
    Layout {
        spans: walk.spans,
        error: error.map(|e| Defect {
            message: e.to_string(),
            kind: format!("{:?}", e.kind()),
            offset: e.offset(),
        }),
    }
}

/// A walk through a message, section by section, recording spans.
struct Walk<'a> {
    bytes: &'a [u8],
    spans: Vec<Span>,
    /// Where the next span starts.
    at: usize,
}

impl Walk<'_> {
    /// Records the bytes from the last span's end to `end`, if any.
    fn push(
        &mut self,
        end: usize,
        section: &'static str,
        record: Option<usize>,
        field: &'static str,
        text: String,
    ) {
        let end = end.min(self.bytes.len());
        if end > self.at {
            self.spans.push(Span {
                start: self.at,
                end,
                section,
                record,
                field,
                text,
                pointer: None,
            });
            self.at = end;
        }
    }

    /// Every section in turn, then what is left over.
    fn message(&mut self) -> Result<()> {
        let (header, _) = Header::split(self.bytes)?;
        self.header(&header);
        for index in 0..usize::from(header.qdcount) {
            self.question(index)?;
        }
        for (section, count) in [
            ("answer", header.ancount),
            ("authority", header.nscount),
            ("additional", header.arcount),
        ] {
            for index in 0..usize::from(count) {
                self.record(section, index)?;
            }
        }
        let text = format!("{} bytes", self.bytes.len() - self.at);
        self.push(self.bytes.len(), "trailing", None, "trailing bytes", text);
        Ok(())
    }

    /// The six fields of the header.
    fn header(&mut self, header: &Header) {
        let fields = [
            ("ID", header.id.to_string()),
            ("flags", flags_text(header)),
            ("QDCOUNT", header.qdcount.to_string()),
            ("ANCOUNT", header.ancount.to_string()),
            ("NSCOUNT", header.nscount.to_string()),
            ("ARCOUNT", header.arcount.to_string()),
        ];
        for (field, text) in fields {
            self.push(self.at + 2, "header", None, field, text);
        }
        debug_assert_eq!(self.at, HEADER_LEN);
    }

    /// A question's name, type and class.
    fn question(&mut self, index: usize) -> Result<()> {
        let start = self.at;
        let name_end = self.name("question", index)?;
        let (question, _) = Question::parse(self.bytes, start)?;
        let section = "question";
        self.push(
            name_end + 2,
            section,
            Some(index),
            "type",
            question.qtype.to_string(),
        );
        self.push(
            name_end + 4,
            section,
            Some(index),
            "class",
            question.qclass.to_string(),
        );
        Ok(())
    }

    /// A record's owner name, fixed fields and RDATA.
    fn record(&mut self, section: &'static str, index: usize) -> Result<()> {
        let start = self.at;
        let name_end = self.name(section, index)?;
        let (record, end) = Record::parse(self.bytes, start)?;
        let rdlength = end - record.rdata_offset();
        let opt = record.rtype == Rtype::Opt;
        let (class_field, class_text) = if opt {
            ("UDP payload size", record.class.to_string())
        } else {
            ("class", record.class().to_string())
        };
        let (ttl_field, ttl_text) = if opt {
            ("extended RCODE, version, flags", edns_ttl_text(record.ttl))
        } else {
            ("TTL", record.ttl.to_string())
        };
        let fields = [
            (2, "type", record.rtype.to_string()),
            (4, class_field, class_text),
            (8, ttl_field, ttl_text),
            (10, "RDLENGTH", rdlength.to_string()),
        ];
        for (after, field, text) in fields {
            self.push(name_end + after, section, Some(index), field, text);
        }
        self.push(end, section, Some(index), "RDATA", rdata_text(&record));
        Ok(())
    }

    /// The in-place part of the name at the current offset, as a `name`
    /// span; returns the offset after it.
    fn name(&mut self, section: &'static str, index: usize) -> Result<usize> {
        let start = self.at;
        let (name, end) = Name::parse(self.bytes, start)?;
        let pointer = final_pointer(self.bytes, start, end);
        let text = match &pointer {
            Some(pointer) => format!("{name} (pointer to {})", pointer.target),
            None => name.to_string(),
        };
        self.push(end, section, Some(index), "name", text);
        if let Some(span) = self.spans.last_mut().filter(|s| s.start == start) {
            span.pointer = pointer;
        }
        Ok(end)
    }
}

/// The compression pointer that ends the in-place part `start..end` of a
/// name that parsed, if it ends in one.
fn final_pointer(bytes: &[u8], start: usize, end: usize) -> Option<Pointer> {
    let mut pos = start;
    while pos < end {
        let len = *bytes.get(pos)?;
        if len & 0xc0 == 0xc0 {
            let low = *bytes.get(pos + 1)?;
            return Some(Pointer {
                offset: pos,
                target: usize::from(len & 0x3f) << 8 | usize::from(low),
            });
        }
        pos += 1 + usize::from(len);
    }
    None
}

/// `QR RD RA, opcode QUERY, rcode NOERROR`: the set flags by their names,
/// the opcode and the header's four rcode bits.
fn flags_text(header: &Header) -> String {
    let named = [
        (header.qr, "QR"),
        (header.aa, "AA"),
        (header.tc, "TC"),
        (header.rd, "RD"),
        (header.ra, "RA"),
        (header.z, "Z"),
        (header.ad, "AD"),
        (header.cd, "CD"),
    ];
    let set: Vec<&str> = named
        .iter()
        .filter(|(on, _)| *on)
        .map(|&(_, n)| n)
        .collect();
    let flags = if set.is_empty() {
        "no flags".to_string()
    } else {
        set.join(" ")
    };
    let rcode = Rcode::from(u16::from(header.rcode));
    format!("{flags}, opcode {}, rcode {rcode}", header.opcode)
}

/// An OPT record's TTL field read as EDNS(0) lays it out
/// [RFC 6891 §6.1.3]: `extended RCODE 0, version 0, flags DO`.
fn edns_ttl_text(ttl: u32) -> String {
    let extended_rcode = ttl >> 24;
    let version = (ttl >> 16) & 0xff;
    let flags = match (ttl & 0x8000 != 0, ttl & 0x7fff) {
        (true, 0) => "DO".to_string(),
        (false, 0) => "none".to_string(),
        (true, z) => format!("DO, Z {z:#06x}"),
        (false, z) => format!("Z {z:#06x}"),
    };
    format!("extended RCODE {extended_rcode}, version {version}, flags {flags}")
}

/// The RDATA in presentation form, or why it does not read as its type.
fn rdata_text(record: &Record<'_>) -> String {
    match record.data() {
        Ok(data) => {
            let text = data.to_string();
            if text.is_empty() && record.rtype == Rtype::Opt {
                "(no options)".to_string()
            } else {
                text
            }
        }
        Err(error) => error.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spans run from 0 to the end without gaps or overlaps.
    fn assert_covers(layout: &Layout, len: usize) {
        let mut at = 0;
        for span in &layout.spans {
            assert_eq!(span.start, at, "{span:?}");
            assert!(span.end > span.start, "{span:?}");
            at = span.end;
        }
        assert_eq!(at, len);
    }

    fn field<'l>(layout: &'l Layout, section: &str, field: &str) -> Vec<&'l str> {
        layout
            .spans
            .iter()
            .filter(|s| s.section == section && s.field == field)
            .map(|s| s.text.as_str())
            .collect()
    }

    #[test]
    fn every_vector_is_covered_byte_for_byte() {
        for bytes in crate::vectors::dns_messages() {
            let layout = layout(&bytes);
            assert_covers(&layout, bytes.len());
            assert_eq!(layout.error.is_some(), Message::parse(&bytes).is_err());
        }
    }

    #[test]
    fn cname_chain_fields() {
        let bytes = &crate::vectors::dns_messages()[0];
        let layout = layout(bytes);
        assert!(layout.error.is_none());
        assert_eq!(field(&layout, "header", "ID"), ["6699"]);
        assert_eq!(
            field(&layout, "header", "flags"),
            ["QR RD RA, opcode QUERY, rcode NOERROR"]
        );
        assert_eq!(field(&layout, "question", "name"), ["www.example.com."]);
        let names = field(&layout, "answer", "name");
        assert_eq!(names[0], "www.example.com. (pointer to 12)");
        assert_eq!(
            field(&layout, "answer", "RDATA")[0],
            "www.example.com.edgekey.net."
        );
        let owner = layout
            .spans
            .iter()
            .find(|s| s.section == "answer" && s.field == "name")
            .unwrap();
        assert_eq!(
            owner.pointer,
            Some(Pointer {
                offset: owner.start,
                target: 12
            })
        );
    }

    #[test]
    fn opt_record_fields_are_named_for_edns() {
        let with_opt = crate::vectors::dns_messages()
            .into_iter()
            .find(|b| Message::parse(b).ok().and_then(|m| m.edns()).is_some())
            .unwrap();
        let layout = layout(&with_opt);
        let payload = field(&layout, "additional", "UDP payload size");
        assert_eq!(payload.len(), 1);
        let flags = field(&layout, "additional", "extended RCODE, version, flags");
        assert!(
            flags[0].starts_with("extended RCODE 0, version 0"),
            "{flags:?}"
        );
    }

    #[test]
    fn every_cut_of_a_vector_stops_at_its_defect() {
        for bytes in crate::vectors::dns_messages()
            .iter()
            .filter(|b| b.len() < 1024)
        {
            if Message::parse(bytes).is_err() {
                continue;
            }
            for len in 0..bytes.len() {
                let layout = layout(&bytes[..len]);
                assert_covers(&layout, len);
                let error = layout.error.expect("a cut message is a defect");
                assert!(error.offset <= len, "{error:?} in {len} bytes");
            }
        }
    }

    #[test]
    fn corrupted_bytes_are_laid_out_to_the_end() {
        for bytes in crate::vectors::dns_messages()
            .iter()
            .filter(|b| b.len() < 1024)
            .take(8)
        {
            for at in 0..bytes.len() {
                for value in [0x00, 0x01, 0x3f, 0x40, 0xc0, 0xff] {
                    let mut corrupted = bytes.clone();
                    corrupted[at] = value;
                    let layout = layout(&corrupted);
                    assert_covers(&layout, corrupted.len());
                    assert_eq!(layout.error.is_some(), Message::parse(&corrupted).is_err());
                }
            }
        }
    }

    #[test]
    fn truncated_question() {
        let bytes = &crate::vectors::dns_messages()[0][..20];
        let layout = layout(bytes);
        let error = layout.error.unwrap();
        assert_eq!((error.kind.as_str(), error.offset), ("ShortInput", 20));
        assert_eq!(layout.spans.len(), 7);
        assert_eq!(layout.spans[6].field, "unparsed bytes");
        assert_eq!(layout.spans[6].start, HEADER_LEN);
    }

    #[test]
    fn pointer_to_itself() {
        let bytes = [0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0xc0, 12, 0, 1, 0, 1];
        let layout = layout(&bytes);
        assert_covers(&layout, bytes.len());
        let error = layout.error.unwrap();
        assert_eq!((error.kind.as_str(), error.offset), ("PointerLoop", 12));
    }

    #[test]
    fn trailing_bytes_get_a_span() {
        let mut bytes = crate::vectors::dns_messages()[0].clone();
        let len = bytes.len();
        bytes.extend([0xde, 0xad]);
        let layout = layout(&bytes);
        let last = layout.spans.last().unwrap();
        assert_eq!((last.start, last.field), (len, "trailing bytes"));
        assert_eq!(layout.error.unwrap().kind, "TrailingData");
    }
}
