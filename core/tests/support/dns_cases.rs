//! Runs the DNS vectors (`vectors/dns/`) against `leanwire_core::dns`.
//! Shared by the native tests and the wasm tests, so every target runs
//! exactly the same checks.

use std::fmt::Write as _;
use std::string::{String, ToString};
use std::vec::Vec;

use leanwire_core::dns::rdata::{EdnsOption, Svcb};
use leanwire_core::dns::{ErrorKind, Message, MessageBuilder, Name, Record, Rtype, Section};
use serde_json::Value;

/// Every message vector, with dnspython's reading where there is one.
pub const MESSAGES_JSON: &str = include_str!("../vectors/dns/messages.json");
/// Name-decoding cases from RFC 1035, miekg/dns, NLnetLabs/domain and golang x/net.
pub const NAMES_JSON: &str = include_str!("../vectors/dns/third_party/names.json");
/// RFC 9460 Appendix D pairs and BIND's valid and invalid SVCB wire cases.
pub const SVCB_JSON: &str = include_str!("../vectors/dns/third_party/svcb_rdata.json");

pub fn hex(text: &str) -> Vec<u8> {
    leanwire_core::hex::decode(text)
        .collect::<Result<_, _>>()
        .expect("hex")
}

/// Decodes one message vector, compares it with dnspython's reading, and
/// checks that decode -> encode -> decode is the identity.
pub fn check_message(entry: &Value) -> Result<(), String> {
    let bytes = hex(entry["hex"].as_str().ok_or("no hex")?);
    let message = Message::parse(&bytes).map_err(|e| format!("decode: {e}"))?;
    if let Some(reading) = entry["dnspython"].as_str() {
        compare_with_dnspython(&message, reading)?;
    }
    round_trip(&message)
}

/// The message as dnspython prints it, normalized the same way on both sides.
fn render(message: &Message<'_>) -> Vec<String> {
    let h = message.header();
    let mut lines = vec![
        format!("id {}", h.id),
        format!("opcode {}", h.opcode),
        format!("rcode {}", message.rcode()),
    ];
    let flags: Vec<&str> = [
        (h.qr, "QR"),
        (h.aa, "AA"),
        (h.tc, "TC"),
        (h.rd, "RD"),
        (h.ra, "RA"),
        (h.ad, "AD"),
        (h.cd, "CD"),
    ]
    .into_iter()
    .filter_map(|(on, name)| on.then_some(name))
    .collect();
    lines.push(format!("flags {}", flags.join(" ")));
    if let Some(edns) = message.edns() {
        lines.push(format!("edns {}", edns.version));
        if edns.dnssec_ok {
            lines.push("eflags DO".into());
        }
        lines.push(format!("payload {}", edns.payload_size));
        for option in edns.options() {
            // dnspython's names: EDE with its info code, and Generic with the
            // option code for options it has no class for.
            lines.push(match option {
                EdnsOption::ExtendedError { info_code, .. } => format!("option EDE {info_code}"),
                other => format!("option Generic {}", other.code()),
            });
        }
    }
    lines.push(";QUESTION".into());
    lines.extend(message.questions().map(|q| q.to_string()));
    for (title, records) in [
        (";ANSWER", message.answers()),
        (";AUTHORITY", message.authority()),
        (";ADDITIONAL", message.additional()),
    ] {
        lines.push(title.into());
        lines.extend(
            records
                .filter(|r| r.rtype != Rtype::Opt)
                .map(|r| normalize(&r.to_string())),
        );
    }
    lines
}

/// dnspython breaks base64 into 32-character groups and quotes every SVCB
/// value; leanwire prints both unbroken and quotes only where needed. Join
/// the groups and drop the quotes, on both sides, and nothing else.
fn normalize(line: &str) -> String {
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let blob_from = match tokens.get(3).copied() {
        Some("DNSKEY") => Some(7),
        Some("RRSIG") => Some(12),
        Some("DS") => Some(7),
        _ => None,
    };
    match (tokens.get(3).copied(), blob_from) {
        (_, Some(from)) if tokens.len() > from => {
            format!("{} {}", tokens[..from].join(" "), tokens[from..].concat())
        }
        (Some("SVCB" | "HTTPS"), _) => tokens
            .iter()
            .map(|t| t.replace('"', ""))
            .collect::<Vec<_>>()
            .join(" "),
        _ => tokens.join(" "),
    }
}

fn compare_with_dnspython(message: &Message<'_>, reading: &str) -> Result<(), String> {
    let theirs: Vec<String> = reading
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(normalize)
        .collect();
    let ours = render(message);
    if ours == theirs {
        return Ok(());
    }
    let mut diff = String::new();
    for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
        if a != b {
            let _ = write!(diff, "\n  line {i}: ours {a:?}\n          dnspython {b:?}");
        }
    }
    if ours.len() != theirs.len() {
        let _ = write!(diff, "\n  {} lines against {}", ours.len(), theirs.len());
    }
    Err(format!("differs from dnspython:{diff}"))
}

fn round_trip(message: &Message<'_>) -> Result<(), String> {
    let mut buf = vec![0xa5u8; 65535];
    let mut builder = MessageBuilder::new(&mut buf).map_err(|e| e.to_string())?;
    *builder.header_mut() = message.header();
    for q in message.questions() {
        builder
            .push_question(&q.name, q.qtype, q.qclass)
            .map_err(|e| format!("encode question: {e}"))?;
    }
    for (section, records) in [
        (Section::Answer, message.answers()),
        (Section::Authority, message.authority()),
        (Section::Additional, message.additional()),
    ] {
        for record in records {
            builder
                .push(section, &record)
                .map_err(|e| format!("encode {record}: {e}"))?;
        }
    }
    let encoded = builder.finish().map_err(|e| e.to_string())?;
    let again = Message::parse(encoded).map_err(|e| format!("decode of our encoding: {e}"))?;
    if again.header() != message.header() {
        return Err(format!(
            "header changed: {:?} -> {:?}",
            message.header(),
            again.header()
        ));
    }
    fn sections<'m>(m: &Message<'m>) -> Vec<Vec<Record<'m>>> {
        vec![
            m.answers().collect(),
            m.authority().collect(),
            m.additional().collect(),
        ]
    }
    if !message
        .questions()
        .map(|q| q.to_string())
        .eq(again.questions().map(|q| q.to_string()))
    {
        return Err("questions changed".into());
    }
    for (before, after) in sections(message).iter().zip(sections(&again)) {
        if before.len() != after.len() {
            return Err("record count changed".into());
        }
        for (a, b) in before.iter().zip(&after) {
            let same = a.name.eq_exact(&b.name)
                && (a.rtype, a.class, a.ttl) == (b.rtype, b.class, b.ttl)
                && a.to_string() == b.to_string()
                && names_in_rdata_exact(a, b);
            if !same {
                return Err(format!("record changed:\n  {a}\n  {b}"));
            }
        }
    }
    if message.edns() != again.edns() {
        return Err("EDNS changed".into());
    }
    Ok(())
}

/// Presentation text ignores nothing but case in names; compare them exactly.
fn names_in_rdata_exact(a: &Record<'_>, b: &Record<'_>) -> bool {
    use leanwire_core::dns::RData;
    let names = |r: &Record<'_>| -> Vec<String> {
        let text = |n: &Name<'_>| n.labels().map(|l| format!("{l:?}")).collect::<String>();
        match r.data() {
            Ok(RData::Ns(x)) => vec![text(&x.nsdname)],
            Ok(RData::Cname(x)) => vec![text(&x.cname)],
            Ok(RData::Ptr(x)) => vec![text(&x.ptrdname)],
            Ok(RData::Mx(x)) => vec![text(&x.exchange)],
            Ok(RData::Soa(x)) => vec![text(&x.mname), text(&x.rname)],
            Ok(RData::Srv(x)) => vec![text(&x.target)],
            _ => vec![],
        }
    };
    names(a) == names(b)
}

/// Runs one `names.json` case, looked up by its name.
pub fn check_name_case(case_name: &str) -> Result<(), String> {
    let cases: Vec<Value> = serde_json::from_str(NAMES_JSON).map_err(|e| e.to_string())?;
    let case = cases
        .iter()
        .find(|c| c["name"] == case_name)
        .ok_or_else(|| format!("no case {case_name:?}"))?;
    check_name(case)
}

/// The expectation of a `names.json` case as leanwire reads it.
pub fn check_name(case: &Value) -> Result<(), String> {
    let bytes = hex(case["hex"].as_str().ok_or("hex")?);
    let start = case["start"].as_u64().ok_or("start")? as usize;
    let expect = case["expect"].as_str().ok_or("expect")?;
    let result = Name::parse(&bytes, start);
    let want_error = |kinds: &[ErrorKind]| match result {
        Err(e) if kinds.is_empty() || kinds.contains(&e.kind()) => Ok(()),
        Err(e) => Err(format!("error {e:?}, want one of {kinds:?}")),
        Ok((name, _)) => Err(format!("decoded {name}, want an error")),
    };
    match expect {
        "error:short" => want_error(&[ErrorKind::ShortInput]),
        "error:pointer loop" => want_error(&[ErrorKind::PointerLoop]),
        "error:loop/too long" => want_error(&[ErrorKind::PointerLoop, ErrorKind::NameTooLong]),
        "error:forward pointer" => want_error(&[ErrorKind::ForwardPointer]),
        "error:reserved label type" => want_error(&[ErrorKind::ReservedLabelType]),
        "error:name too long" => want_error(&[ErrorKind::NameTooLong]),
        "error" => want_error(&[]),
        _ => {
            let (name, end) = result.map_err(|e| format!("error {e}, want {expect:?}"))?;
            let text = name.to_string();
            let want = match expect {
                "ok:255 octets" => {
                    if name.wire_len() != 255 {
                        return Err(format!("{} octets", name.wire_len()));
                    }
                    text.clone()
                }
                // Accepted by miekg and dnspython: the labels overlap the pointers, but every
                // pointer goes backwards and no label is read twice.
                e if e.starts_with("ok (miekg accepts") => text.clone(),
                // Rejected by Go's parser only; RFC 1035 allows any octet in a label.
                e if e.starts_with("error in Go") => "w\\.w.go.dev.".into(),
                e => e.into(),
            };
            if text != want {
                return Err(format!("decoded {text:?}, want {want:?}"));
            }
            if let Some(consumed) = case["consumed"].as_u64()
                && (end - start) as u64 != consumed
            {
                return Err(format!("consumed {}, want {consumed}", end - start));
            }
            Ok(())
        }
    }
}

/// Runs one `svcb_rdata.json` case.
pub fn check_svcb(case: &Value) -> Result<(), String> {
    let bytes = hex(case["rdata_hex"].as_str().ok_or("rdata_hex")?);
    let parsed = Svcb::parse(&bytes, 0, bytes.len());
    match (case["valid"].as_bool(), parsed) {
        (Some(false), Ok(svcb)) => Err(format!("accepted as {svcb}, want an error")),
        (Some(false), Err(_)) => Ok(()),
        (Some(true), Err(e)) => Err(format!("rejected: {e}")),
        (Some(true), Ok(svcb)) => match case["presentation"].as_str() {
            None => Ok(()),
            Some(want) => {
                let ours = svcb_params(&svcb.to_string());
                let theirs = svcb_params(want);
                if ours == theirs {
                    Ok(())
                } else {
                    Err(format!("{ours:?} against {theirs:?}"))
                }
            }
        },
        _ => Err("unreadable case".into()),
    }
}

/// A SVCB presentation as priority, target and the parameters sorted by key,
/// each value without the quotes that only some printers add, and
/// `mandatory`'s list sorted (its order in text is free).
fn svcb_params(text: &str) -> Vec<String> {
    let mut tokens: Vec<String> = text
        .split_whitespace()
        .map(|t| t.replace('"', ""))
        .collect();
    for t in tokens.iter_mut().filter(|t| t.starts_with("mandatory=")) {
        let mut keys: Vec<&str> = t["mandatory=".len()..].split(',').collect();
        keys.sort_unstable();
        *t = format!("mandatory={}", keys.join(","));
    }
    tokens[2..].sort();
    tokens
}

/// Runs every vector; returns one line per failure, and how many ran.
pub fn run_all() -> (usize, Vec<String>) {
    let mut failures = Vec::new();
    let mut ran = 0;
    let messages: Value = serde_json::from_str(MESSAGES_JSON).expect("messages.json");
    for entry in messages["messages"].as_array().expect("messages") {
        ran += 1;
        if let Err(e) = check_message(entry) {
            failures.push(format!("{}: {e}", entry["file"]));
        }
    }
    for (json, check) in [
        (NAMES_JSON, check_name as fn(&Value) -> Result<(), String>),
        (SVCB_JSON, check_svcb),
    ] {
        let cases: Vec<Value> = serde_json::from_str(json).expect("cases");
        for case in &cases {
            ran += 1;
            if let Err(e) = check(case) {
                failures.push(format!("{}: {e}", case["name"]));
            }
        }
    }
    (ran, failures)
}
