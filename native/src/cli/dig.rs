//! A DNS response as dig prints it: in full, or with `--short` only the
//! answers' data.

use std::fmt::{self, Write as _};
use std::net::SocketAddr;
use std::time::Duration;

use crate::core::dns::{Message, Record, Rtype};
use crate::stub::{Response, Transport};

/// dig's columns: a record's TTL, class, type and RDATA start at these, with
/// tab stops every 8 (`dns_master_stylecreate(.., 24, 32, 40, 48, 80, 8, ..)`
/// in BIND's `bin/dig/dig.c`). A question's class and type go to the same
/// columns as a record's, counted from after the question's `;`.
const TTL_COLUMN: usize = 24;
const CLASS_COLUMN: usize = 32;
const TYPE_COLUMN: usize = 40;
const RDATA_COLUMN: usize = 48;
const TAB_WIDTH: usize = 8;

/// How a response arrived: dig's closing statistics.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Exchange {
    /// The server that answered.
    pub server: SocketAddr,
    /// UDP or TCP.
    pub transport: Transport,
    /// From sending the query to the answer.
    pub elapsed: Duration,
}

impl Exchange {
    /// How `response` arrived.
    pub fn of(response: &Response) -> Self {
        Exchange {
            server: response.server(),
            transport: response.transport(),
            elapsed: response.elapsed(),
        }
    }
}

/// A response in dig's text form: the header, the OPT pseudosection, the
/// sections that are not empty, and the query's statistics.
///
/// ```
/// use leanwire_native::cli::dig::DigText;
/// use leanwire_native::core::dns::{Class, MessageBuilder, Message, NameBuf, Rtype};
///
/// let mut buf = [0u8; 512];
/// let mut builder = MessageBuilder::new(&mut buf)?;
/// builder.push_question(&NameBuf::from_text("example.com")?.as_name(), Rtype::A, Class::In)?;
/// let message = Message::parse(builder.finish()?)?;
/// let text = DigText::new(message, None).to_string();
/// assert!(text.starts_with(";; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: 0\n"));
/// assert!(text.contains(";; QUESTION SECTION:\n;example.com.\t\t\tIN\tA\n"));
/// # Ok::<(), leanwire_native::core::dns::Error>(())
/// ```
#[derive(Copy, Clone, Debug)]
pub struct DigText<'a> {
    message: Message<'a>,
    exchange: Option<Exchange>,
}

impl<'a> DigText<'a> {
    /// The text of `message`, closed by the statistics of `exchange` if given.
    pub fn new(message: Message<'a>, exchange: Option<Exchange>) -> Self {
        DigText { message, exchange }
    }
}

impl fmt::Display for DigText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = &self.message;
        let h = message.header();
        writeln!(
            f,
            ";; ->>HEADER<<- opcode: {}, status: {}, id: {}",
            h.opcode,
            message.rcode(),
            h.id
        )?;
        f.write_str(";; flags:")?;
        let flags = [
            (h.qr, "qr"),
            (h.aa, "aa"),
            (h.tc, "tc"),
            (h.rd, "rd"),
            (h.ra, "ra"),
            (h.ad, "ad"),
            (h.cd, "cd"),
        ];
        for (_, flag) in flags.iter().filter(|(set, _)| *set) {
            write!(f, " {flag}")?;
        }
        if h.z {
            f.write_str("; MBZ: 0x4")?;
        }
        writeln!(
            f,
            "; QUERY: {}, ANSWER: {}, AUTHORITY: {}, ADDITIONAL: {}",
            h.qdcount, h.ancount, h.nscount, h.arcount
        )?;

        if let Some(edns) = message.edns() {
            f.write_str("\n;; OPT PSEUDOSECTION:\n")?;
            write!(f, "; EDNS: version: {}, flags:", edns.version)?;
            if edns.dnssec_ok {
                f.write_str(" do")?;
            }
            if edns.z != 0 {
                write!(f, "; MBZ: {:#06x},", edns.z)?;
            }
            writeln!(f, "; udp: {}", edns.payload_size)?;
            for option in edns.options() {
                writeln!(f, "; {option}")?;
            }
        }

        let mut questions = message.questions().peekable();
        if questions.peek().is_some() {
            f.write_str("\n;; QUESTION SECTION:\n")?;
            for q in questions {
                let (name, class, qtype) = (q.name.to_string(), q.qclass, q.qtype);
                // dig counts the columns from after the `;`.
                f.write_char(';')?;
                columns(
                    f,
                    &name,
                    [
                        (CLASS_COLUMN, &*class.to_string()),
                        (TYPE_COLUMN, &*qtype.to_string()),
                    ],
                )?;
            }
        }

        let sections = [
            ("ANSWER", message.answers()),
            ("AUTHORITY", message.authority()),
            // The OPT record is the pseudosection above.
            ("ADDITIONAL", message.additional()),
        ];
        for (title, records) in sections {
            let mut records = records.filter(|r| r.rtype != Rtype::Opt).peekable();
            if records.peek().is_none() {
                continue;
            }
            write!(f, "\n;; {title} SECTION:\n")?;
            for record in records {
                record_line(f, &record)?;
            }
        }

        let Some(exchange) = self.exchange else {
            return Ok(());
        };
        write!(
            f,
            "\n;; Query time: {} msec\n;; SERVER: {}#{}({})\n;; MSG SIZE  rcvd: {}\n",
            exchange.elapsed.as_millis(),
            exchange.server.ip(),
            exchange.server.port(),
            exchange.transport,
            message.as_bytes().len()
        )
    }
}

/// The answers' data alone, one record to a line, as `dig +short` prints
/// it: a CNAME chain shows each target, then the addresses.
#[derive(Copy, Clone, Debug)]
pub struct ShortText<'a>(pub Message<'a>);

impl fmt::Display for ShortText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for record in self.0.answers() {
            writeln!(f, "{}", record.data_text())?;
        }
        Ok(())
    }
}

/// A record as dig prints it: `Record`'s text with its first four spaces
/// turned into tabs to dig's columns. A name prints a space as `\032`, and
/// TTL, class and type have none, so those four are the spaces between the
/// fields; the RDATA keeps its own.
fn record_line(f: &mut fmt::Formatter<'_>, record: &Record<'_>) -> fmt::Result {
    let text = record.to_string();
    let mut fields = text.splitn(5, ' ');
    let name = fields.next().unwrap_or_default();
    let stops = [TTL_COLUMN, CLASS_COLUMN, TYPE_COLUMN, RDATA_COLUMN];
    columns(f, name, stops.into_iter().zip(fields))
}

/// Writes `first`, then each field at its column, and ends the line.
///
/// Tabs pad to the column as in dig. Where the text before a field runs
/// past its column, dig writes one space; this writes one tab, so that the
/// fields always split on tabs.
fn columns<'t>(
    f: &mut fmt::Formatter<'_>,
    first: &str,
    fields: impl IntoIterator<Item = (usize, &'t str)>,
) -> fmt::Result {
    f.write_str(first)?;
    let mut column = first.len();
    for (stop, field) in fields {
        loop {
            f.write_char('\t')?;
            column = (column / TAB_WIDTH + 1) * TAB_WIDTH;
            if column >= stop {
                break;
            }
        }
        f.write_str(field)?;
        column += field.len();
    }
    f.write_char('\n')
}
