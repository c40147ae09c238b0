use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::Serialize;

use crate::dns::rdata::EdnsOption;
use crate::dns::{Message, Record, Records, Rtype};

/// The report for one message of `leanwire dns decode` (and the npm
/// package's `decodeDnsMessage`).
///
/// ```json
/// {"ok":true,"header":{"id":0,"qr":true,"opcode":"QUERY","aa":false,"tc":false,"rd":true,"ra":true,
///  "ad":false,"cd":false,"rcode":"NOERROR"},"question":[{"name":"www.example.com.","type":"A","class":"IN"}],
///  "answer":[{"name":"www.example.com.","ttl":300,"class":"IN","type":"A","rdata":"93.184.215.14"}],
///  "authority":[],"additional":[],"edns":{"version":0,"payload":1232,"do":false,"options":[]}}
/// {"ok":false,"error":"message ends inside a field at byte 12"}
/// ```
///
/// Types print as dig prints them (`TYPE65534` for unknown ones), `rdata` is
/// the presentation format, and the OPT record is reported in `edns`, not in
/// `additional`.
#[derive(Serialize, Debug)]
#[serde(untagged)]
pub enum DnsMessageReport {
    /// The message decoded, RDATA included.
    Decoded {
        /// Always `true`.
        ok: bool,
        /// The header, with the response code extended by EDNS.
        header: DnsHeaderReport,
        /// The question section.
        question: Vec<QuestionReport>,
        /// The answer section.
        answer: Vec<RecordReport>,
        /// The authority section.
        authority: Vec<RecordReport>,
        /// The additional section, without the OPT record.
        additional: Vec<RecordReport>,
        /// The EDNS parameters, or `null` without an OPT record.
        edns: Option<EdnsReport>,
    },
    /// The message did not decode.
    Failed {
        /// Always `false`.
        ok: bool,
        /// What was wrong, and at which byte.
        error: String,
    },
}

/// The `header` object of a [`DnsMessageReport`].
#[derive(Serialize, Debug)]
pub struct DnsHeaderReport {
    /// The message ID.
    pub id: u16,
    /// A response.
    pub qr: bool,
    /// `QUERY`, `NOTIFY`, `UPDATE`, ...
    pub opcode: String,
    /// Authoritative answer.
    pub aa: bool,
    /// Truncated.
    pub tc: bool,
    /// Recursion desired.
    pub rd: bool,
    /// Recursion available.
    pub ra: bool,
    /// Authentic data.
    pub ad: bool,
    /// Checking disabled.
    pub cd: bool,
    /// `NOERROR`, `NXDOMAIN`, ..., with EDNS's extended bits.
    pub rcode: String,
}

/// An entry of `question`.
#[derive(Serialize, Debug)]
pub struct QuestionReport {
    /// The name, absolute, case as on the wire.
    pub name: String,
    /// The type's mnemonic.
    #[serde(rename = "type")]
    pub qtype: String,
    /// The class's mnemonic.
    pub class: String,
}

/// An entry of `answer`, `authority` or `additional`.
#[derive(Serialize, Debug)]
pub struct RecordReport {
    /// The owner name.
    pub name: String,
    /// The TTL in seconds.
    pub ttl: u32,
    /// The class's mnemonic.
    pub class: String,
    /// The type's mnemonic.
    #[serde(rename = "type")]
    pub rtype: String,
    /// The RDATA in presentation format.
    pub rdata: String,
}

/// The `edns` object of a [`DnsMessageReport`].
#[derive(Serialize, Debug)]
pub struct EdnsReport {
    /// The EDNS version.
    pub version: u8,
    /// The sender's UDP payload size.
    pub payload: u16,
    /// DNSSEC OK.
    #[serde(rename = "do")]
    pub dnssec_ok: bool,
    /// The options, in wire order.
    pub options: Vec<EdnsOptionReport>,
}

/// An entry of `edns.options`.
#[derive(Serialize, Debug)]
pub struct EdnsOptionReport {
    /// The option code.
    pub code: u16,
    /// The option's name as dig prints it, or `null`.
    pub name: Option<&'static str>,
    /// The option as dig prints it, such as `NSID: 6e7331 ("ns1")`.
    pub text: String,
}

impl DnsMessageReport {
    /// Decodes `bytes`, the typed RDATA of every record included: a record
    /// whose RDATA is malformed for its type fails the whole message.
    pub fn decode(bytes: &[u8]) -> Self {
        match Self::try_decode(bytes) {
            Ok(report) => report,
            Err(e) => DnsMessageReport::Failed {
                ok: false,
                error: e.to_string(),
            },
        }
    }

    fn try_decode(bytes: &[u8]) -> crate::dns::Result<Self> {
        let message = Message::parse(bytes)?;
        let h = message.header();
        let header = DnsHeaderReport {
            id: h.id,
            qr: h.qr,
            opcode: h.opcode.to_string(),
            aa: h.aa,
            tc: h.tc,
            rd: h.rd,
            ra: h.ra,
            ad: h.ad,
            cd: h.cd,
            rcode: message.rcode().to_string(),
        };
        let question = message
            .questions()
            .map(|q| QuestionReport {
                name: q.name.to_string(),
                qtype: q.qtype.to_string(),
                class: q.qclass.to_string(),
            })
            .collect();
        let edns = message.edns().map(|e| EdnsReport {
            version: e.version,
            payload: e.payload_size,
            dnssec_ok: e.dnssec_ok,
            options: e.options().map(option_report).collect(),
        });
        Ok(DnsMessageReport::Decoded {
            ok: true,
            header,
            question,
            answer: records(message.answers())?,
            authority: records(message.authority())?,
            additional: records(message.additional())?,
            edns,
        })
    }
}

fn records(records: Records<'_>) -> crate::dns::Result<Vec<RecordReport>> {
    records
        .filter(|r| r.rtype != Rtype::Opt)
        .map(|r| record_report(&r))
        .collect()
}

fn record_report(record: &Record<'_>) -> crate::dns::Result<RecordReport> {
    let rdata = record.data()?.to_string();
    Ok(RecordReport {
        name: record.name.to_string(),
        ttl: record.ttl,
        class: record.class().to_string(),
        rtype: record.rtype.to_string(),
        rdata,
    })
}

fn option_report(option: EdnsOption<'_>) -> EdnsOptionReport {
    EdnsOptionReport {
        code: option.code(),
        name: option.name(),
        text: option.to_string(),
    }
}
