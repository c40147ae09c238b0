//! leanwire's DNS decoder against trust-dns-proto 0.23 on every message in
//! `core/tests/vectors/dns/messages.json`.
//!
//! Both libraries decode the same bytes; the test then compares them field by
//! field: the header, the questions, and every record of every section (owner
//! name, type, class, TTL and the RDATA's fields), and the EDNS parameters.
//! Names are compared as label sequences, ASCII case ignored [RFC 4343];
//! RDATA is compared by meaning (addresses, numbers, names, strings, bytes),
//! never by either library's presentation text, which differ in formatting.
//!
//! trust-dns-proto keeps less than the wire holds in a few places, and the
//! comparison says so where it narrows a field: CAA keeps only the critical
//! flag, DNSKEY only the ZONE, REVOKE and SEP flags, NSEC3 only the opt-out
//! flag, and EDNS options live in a map, so their order is not compared.

use std::fmt;
use std::net::{Ipv4Addr, Ipv6Addr};

use leanwire_native::core::dns::{self, RData, rdata::EdnsOption, rdata::SvcParamKey};
use trust_dns_proto::op::Message as TdMessage;
use trust_dns_proto::rr::dnssec::rdata::DNSSECRData;
use trust_dns_proto::rr::rdata::caa;
use trust_dns_proto::rr::rdata::svcb::{SVCB, SvcParamValue};
use trust_dns_proto::rr::{Name as TdName, RData as TdRData, Record as TdRecord};
use trust_dns_proto::serialize::binary::BinEncodable;

/// The vectors: `{"messages": [{"file", "hex", "dnspython"}, ...]}`.
const VECTORS: &str = include_str!("../../core/tests/vectors/dns/messages.json");

/// Every message, as (file, bytes).
fn messages() -> Vec<(String, Vec<u8>)> {
    let vectors: serde_json::Value = serde_json::from_str(VECTORS).expect("messages.json is JSON");
    vectors["messages"]
        .as_array()
        .expect("a messages array")
        .iter()
        .map(|m| {
            let file = m["file"].as_str().expect("a file name").to_owned();
            let hex = m["hex"].as_str().expect("a hex string");
            (file, unhex(hex))
        })
        .collect()
}

fn unhex(hex: &str) -> Vec<u8> {
    leanwire_native::core::hex::decode(hex)
        .collect::<Result<_, _>>()
        .expect("hex digits")
}

/// One field of a decoded value, in a form both libraries can be turned into.
#[derive(Clone, PartialEq, Eq)]
enum Field {
    Num(u64),
    Flag(bool),
    Bytes(Vec<u8>),
    /// A name's labels, lowercased, the root left out.
    Name(Vec<Vec<u8>>),
    Text(String),
    V4(Ipv4Addr),
    V6(Ipv6Addr),
    Types(Vec<u16>),
    Strings(Vec<Vec<u8>>),
    List(Vec<Field>),
}

impl fmt::Debug for Field {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Field::Num(n) => write!(f, "{n}"),
            Field::Flag(b) => write!(f, "{b}"),
            Field::Bytes(b) => write!(
                f,
                "0x{}",
                b.iter().map(|b| format!("{b:02x}")).collect::<String>()
            ),
            Field::Name(labels) => {
                for label in labels {
                    write!(f, "{}.", String::from_utf8_lossy(label))?;
                }
                if labels.is_empty() {
                    f.write_str(".")?;
                }
                Ok(())
            }
            Field::Text(t) => write!(f, "{t:?}"),
            Field::V4(a) => write!(f, "{a}"),
            Field::V6(a) => write!(f, "{a}"),
            Field::Types(t) => write!(f, "{t:?}"),
            Field::Strings(s) => f
                .debug_list()
                .entries(s.iter().map(|s| String::from_utf8_lossy(s)))
                .finish(),
            Field::List(items) => f.debug_list().entries(items).finish(),
        }
    }
}

/// Named fields, in order.
type Fields = Vec<(&'static str, Field)>;

fn num(n: impl Into<u64>) -> Field {
    Field::Num(n.into())
}

fn bytes(b: &[u8]) -> Field {
    Field::Bytes(b.to_vec())
}

fn lower(labels: impl Iterator<Item = impl AsRef<[u8]>>) -> Field {
    Field::Name(labels.map(|l| l.as_ref().to_ascii_lowercase()).collect())
}

fn ours_name(name: &dns::Name<'_>) -> Field {
    lower(name.labels())
}

fn theirs_name(name: &TdName) -> Field {
    lower(name.iter())
}

/// Collects the differences between the two decodings of one message.
struct Diff<'f> {
    file: &'f str,
    found: Vec<String>,
}

impl Diff<'_> {
    fn check(&mut self, what: &str, ours: &Field, theirs: &Field) {
        if ours != theirs {
            self.found.push(format!(
                "{}: {what}: leanwire {ours:?}, trust-dns-proto {theirs:?}",
                self.file
            ));
        }
    }

    fn check_all(&mut self, what: &str, ours: &Fields, theirs: &Fields) {
        let names = |f: &Fields| f.iter().map(|(n, _)| *n).collect::<Vec<_>>();
        if names(ours) != names(theirs) {
            self.found.push(format!(
                "{}: {what}: leanwire has fields {:?}, trust-dns-proto {:?}",
                self.file,
                names(ours),
                names(theirs)
            ));
            return;
        }
        for ((name, a), (_, b)) in ours.iter().zip(theirs) {
            self.check(&format!("{what} {name}"), a, b);
        }
    }

    fn fail(&mut self, what: impl fmt::Display) {
        self.found.push(format!("{}: {what}", self.file));
    }
}

/// Compares leanwire's reading of `ours` with trust-dns-proto's of `theirs`
/// (the same bytes, except in the tests that check that a change is caught).
fn compare(file: &str, ours: &[u8], theirs: &[u8]) -> Vec<String> {
    let mut diff = Diff {
        file,
        found: Vec::new(),
    };
    let ours = match dns::Message::parse(ours) {
        Ok(m) => m,
        Err(e) => {
            diff.fail(format_args!("leanwire rejects the message: {e}"));
            return diff.found;
        }
    };
    let theirs = match TdMessage::from_vec(theirs) {
        Ok(m) => m,
        Err(e) => {
            diff.fail(format_args!("trust-dns-proto rejects the message: {e}"));
            return diff.found;
        }
    };
    compare_header(&mut diff, &ours, &theirs);

    let questions: Vec<_> = ours.questions().collect();
    diff.check(
        "question count",
        &num(questions.len() as u64),
        &num(theirs.queries().len() as u64),
    );
    for (i, (q, t)) in questions.iter().zip(theirs.queries()).enumerate() {
        let ours = vec![
            ("name", ours_name(&q.name)),
            ("type", num(u16::from(q.qtype))),
            ("class", num(u16::from(q.qclass))),
        ];
        let theirs = vec![
            ("name", theirs_name(t.name())),
            ("type", num(u16::from(t.query_type()))),
            ("class", num(u16::from(t.query_class()))),
        ];
        diff.check_all(&format!("question {i}"), &ours, &theirs);
    }

    // trust-dns-proto takes the OPT record out of the additional section
    // into `extensions()`; it is compared on its own below.
    let additional: Vec<_> = ours
        .additional()
        .filter(|r| r.rtype != dns::Rtype::Opt)
        .collect();
    let sections = [
        (
            "answer",
            ours.answers().collect::<Vec<_>>(),
            theirs.answers(),
        ),
        (
            "authority",
            ours.authority().collect(),
            theirs.name_servers(),
        ),
        ("additional", additional, theirs.additionals()),
    ];
    for (section, ours, theirs) in &sections {
        diff.check(
            &format!("{section} count"),
            &num(ours.len() as u64),
            &num(theirs.len() as u64),
        );
        for (i, (r, t)) in ours.iter().zip(theirs.iter()).enumerate() {
            compare_record(&mut diff, &format!("{section} {i}"), r, t);
        }
    }

    compare_edns(&mut diff, &ours, &theirs);
    diff.found
}

fn compare_header(diff: &mut Diff<'_>, ours: &dns::Message<'_>, theirs: &TdMessage) {
    use trust_dns_proto::op::MessageType;

    let h = ours.header();
    let t = theirs.header();
    let ours = vec![
        ("id", num(h.id)),
        ("QR", Field::Flag(h.qr)),
        ("opcode", num(u8::from(h.opcode))),
        ("AA", Field::Flag(h.aa)),
        ("TC", Field::Flag(h.tc)),
        ("RD", Field::Flag(h.rd)),
        ("RA", Field::Flag(h.ra)),
        ("AD", Field::Flag(h.ad)),
        ("CD", Field::Flag(h.cd)),
        ("rcode", num(u16::from(ours.rcode()))),
    ];
    let theirs = vec![
        ("id", num(t.id())),
        ("QR", Field::Flag(t.message_type() == MessageType::Response)),
        ("opcode", num(u8::from(t.op_code()))),
        ("AA", Field::Flag(t.authoritative())),
        ("TC", Field::Flag(t.truncated())),
        ("RD", Field::Flag(t.recursion_desired())),
        ("RA", Field::Flag(t.recursion_available())),
        ("AD", Field::Flag(t.authentic_data())),
        ("CD", Field::Flag(t.checking_disabled())),
        ("rcode", num(u16::from(theirs.response_code()))),
    ];
    diff.check_all("header", &ours, &theirs);
}

fn compare_record(diff: &mut Diff<'_>, what: &str, ours: &dns::Record<'_>, theirs: &TdRecord) {
    let head = |name, rtype: u16, class: u16, ttl: u32| {
        vec![
            ("owner", name),
            ("type", num(rtype)),
            ("class", num(class)),
            ("TTL", num(ttl)),
        ]
    };
    let our_head = head(
        ours_name(&ours.name),
        ours.rtype.into(),
        ours.class,
        ours.ttl,
    );
    let their_head = head(
        theirs_name(theirs.name()),
        theirs.record_type().into(),
        theirs.dns_class().into(),
        theirs.ttl(),
    );
    diff.check_all(what, &our_head, &their_head);
    if our_head[1] != their_head[1] {
        return;
    }
    let what = format!("{what} ({} {})", ours.name, ours.rtype);
    let our_data = match ours.data() {
        Ok(data) => ours_rdata(&data),
        Err(e) => return diff.fail(format_args!("{what}: leanwire rejects the RDATA: {e}")),
    };
    let their_data = match theirs.data() {
        Some(data) => theirs_rdata(data),
        None => return diff.fail(format_args!("{what}: trust-dns-proto has no RDATA")),
    };
    match (our_data, their_data) {
        (Ok(ours), Ok(theirs)) => diff.check_all(&what, &ours, &theirs),
        (Err(e), _) | (_, Err(e)) => diff.fail(format_args!("{what}: {e}")),
    }
}

/// leanwire's RDATA as fields.
fn ours_rdata(data: &RData<'_>) -> Result<Fields, String> {
    Ok(match data {
        RData::A(a) => vec![("address", Field::V4(a.address))],
        RData::Aaaa(a) => vec![("address", Field::V6(a.address))],
        RData::Ns(r) => vec![("nsdname", ours_name(&r.nsdname))],
        RData::Cname(r) => vec![("cname", ours_name(&r.cname))],
        RData::Ptr(r) => vec![("ptrdname", ours_name(&r.ptrdname))],
        RData::Mx(r) => vec![
            ("preference", num(r.preference)),
            ("exchange", ours_name(&r.exchange)),
        ],
        RData::Soa(r) => vec![
            ("mname", ours_name(&r.mname)),
            ("rname", ours_name(&r.rname)),
            ("serial", num(r.serial)),
            ("refresh", num(r.refresh)),
            ("retry", num(r.retry)),
            ("expire", num(r.expire)),
            ("minimum", num(r.minimum)),
        ],
        RData::Srv(r) => vec![
            ("priority", num(r.priority)),
            ("weight", num(r.weight)),
            ("port", num(r.port)),
            ("target", ours_name(&r.target)),
        ],
        RData::Txt(r) => vec![(
            "strings",
            Field::Strings(r.strings().map(<[u8]>::to_vec).collect()),
        )],
        RData::Caa(r) => ours_caa(r)?,
        RData::Ds(r) => vec![
            ("key tag", num(r.key_tag)),
            ("algorithm", num(r.algorithm)),
            ("digest type", num(r.digest_type)),
            ("digest", bytes(r.digest)),
        ],
        RData::Dnskey(r) => vec![
            // trust-dns-proto keeps only the ZONE, REVOKE and SEP flags.
            ("flags (ZONE, REVOKE, SEP)", num(r.flags & 0x0181)),
            ("protocol", num(r.protocol)),
            ("algorithm", num(r.algorithm)),
            ("public key", bytes(r.public_key)),
        ],
        RData::Rrsig(r) => vec![
            ("type covered", num(u16::from(r.type_covered))),
            ("algorithm", num(r.algorithm)),
            ("labels", num(r.labels)),
            ("original TTL", num(r.original_ttl)),
            ("expiration", num(r.expiration)),
            ("inception", num(r.inception)),
            ("key tag", num(r.key_tag)),
            ("signer", ours_name(&r.signer_name)),
            ("signature", bytes(r.signature)),
        ],
        RData::Nsec(r) => vec![
            ("next domain", ours_name(&r.next_domain)),
            (
                "types",
                Field::Types(r.types.types().map(u16::from).collect()),
            ),
        ],
        RData::Nsec3(r) => vec![
            ("hash algorithm", num(r.hash_algorithm)),
            // trust-dns-proto keeps only the opt-out flag.
            ("opt-out", Field::Flag(r.flags & 1 != 0)),
            ("iterations", num(r.iterations)),
            ("salt", bytes(r.salt)),
            ("next hashed owner", bytes(r.next_hashed_owner)),
            (
                "types",
                Field::Types(r.types.types().map(u16::from).collect()),
            ),
        ],
        RData::Svcb(r) | RData::Https(r) => ours_svcb(r)?,
        RData::Unknown(r) => vec![("bytes", bytes(r.data))],
        other => return Err(format!("no comparison for leanwire's {}", other.rtype())),
    })
}

/// A CAA record by meaning [RFC 8659 §4.2-4.4]: for `issue` and `issuewild`
/// the issuer's name and its parameters, for `iodef` the URL, else the bytes.
fn ours_caa(r: &dns::rdata::Caa<'_>) -> Result<Fields, String> {
    let tag = String::from_utf8_lossy(r.tag).to_ascii_lowercase();
    let mut fields = vec![
        // trust-dns-proto keeps only the critical flag.
        ("critical", Field::Flag(r.flags & 0x80 != 0)),
        ("tag", Field::Text(tag.clone())),
    ];
    let text = std::str::from_utf8(r.value).map_err(|_| "CAA value is not UTF-8".to_owned());
    match tag.as_str() {
        "issue" | "issuewild" => {
            let text = text?;
            let (issuer, params) = text.split_once(';').unwrap_or((text, ""));
            let issuer = issuer.trim();
            let issuer = if issuer.is_empty() {
                Field::List(Vec::new())
            } else {
                Field::List(vec![lower(issuer.trim_end_matches('.').split('.'))])
            };
            let params = params
                .split([';', ' ', '\t'])
                .filter(|p| !p.is_empty())
                .map(|p| Field::Text(p.to_owned()))
                .collect();
            fields.push(("issuer", issuer));
            fields.push(("parameters", Field::List(params)));
        }
        "iodef" => fields.push(("url", Field::Text(text?.to_owned()))),
        _ => fields.push(("value", bytes(r.value))),
    }
    Ok(fields)
}

/// A service binding with each parameter's value read for its key [RFC 9460 §7].
fn ours_svcb(r: &dns::rdata::Svcb<'_>) -> Result<Fields, String> {
    let mut params = Vec::new();
    for param in r.params() {
        let v = param.value;
        let value = match param.key {
            SvcParamKey::Mandatory => Field::List(
                v.chunks_exact(2)
                    .map(|k| num(u16::from_be_bytes([k[0], k[1]])))
                    .collect(),
            ),
            SvcParamKey::Alpn => {
                let mut ids = Vec::new();
                let mut rest = v;
                while let Some((&len, tail)) = rest.split_first() {
                    let (id, tail) = tail.split_at(usize::from(len).min(tail.len()));
                    ids.push(id.to_vec());
                    rest = tail;
                }
                Field::Strings(ids)
            }
            SvcParamKey::NoDefaultAlpn => Field::List(Vec::new()),
            SvcParamKey::Port => match v {
                [a, b] => num(u16::from_be_bytes([*a, *b])),
                _ => return Err("SVCB port is not two octets".into()),
            },
            SvcParamKey::Ipv4Hint => Field::List(
                v.chunks_exact(4)
                    .map(|a| Field::V4(Ipv4Addr::new(a[0], a[1], a[2], a[3])))
                    .collect(),
            ),
            SvcParamKey::Ipv6Hint => Field::List(
                v.chunks_exact(16)
                    .map(|a| Field::V6(Ipv6Addr::from(<[u8; 16]>::try_from(a).unwrap())))
                    .collect(),
            ),
            _ => bytes(v),
        };
        params.push(Field::List(vec![num(u16::from(param.key)), value]));
    }
    Ok(vec![
        ("priority", num(r.priority)),
        ("target", ours_name(&r.target)),
        ("parameters", Field::List(params)),
    ])
}

/// trust-dns-proto's RDATA as fields.
fn theirs_rdata(data: &TdRData) -> Result<Fields, String> {
    Ok(match data {
        TdRData::A(a) => vec![("address", Field::V4(a.0))],
        TdRData::AAAA(a) => vec![("address", Field::V6(a.0))],
        TdRData::NS(r) => vec![("nsdname", theirs_name(&r.0))],
        TdRData::CNAME(r) => vec![("cname", theirs_name(&r.0))],
        TdRData::PTR(r) => vec![("ptrdname", theirs_name(&r.0))],
        TdRData::MX(r) => vec![
            ("preference", num(r.preference())),
            ("exchange", theirs_name(r.exchange())),
        ],
        TdRData::SOA(r) => vec![
            ("mname", theirs_name(r.mname())),
            ("rname", theirs_name(r.rname())),
            ("serial", num(r.serial())),
            // trust-dns-proto types these as i32; the wire holds u32.
            ("refresh", num(r.refresh() as u32)),
            ("retry", num(r.retry() as u32)),
            ("expire", num(r.expire() as u32)),
            ("minimum", num(r.minimum())),
        ],
        TdRData::SRV(r) => vec![
            ("priority", num(r.priority())),
            ("weight", num(r.weight())),
            ("port", num(r.port())),
            ("target", theirs_name(r.target())),
        ],
        TdRData::TXT(r) => vec![(
            "strings",
            Field::Strings(r.iter().map(|s| s.to_vec()).collect()),
        )],
        TdRData::CAA(r) => theirs_caa(r),
        TdRData::SVCB(r) => theirs_svcb(r)?,
        TdRData::HTTPS(r) => theirs_svcb(&r.0)?,
        TdRData::DNSSEC(DNSSECRData::DS(r)) => vec![
            ("key tag", num(r.key_tag())),
            ("algorithm", num(u8::from(r.algorithm()))),
            ("digest type", num(u8::from(r.digest_type()))),
            ("digest", bytes(r.digest())),
        ],
        TdRData::DNSSEC(DNSSECRData::DNSKEY(r)) => vec![
            ("flags (ZONE, REVOKE, SEP)", num(r.flags())),
            // trust-dns-proto rejects any protocol but 3 [RFC 4034 §2.1.2].
            ("protocol", num(3u8)),
            ("algorithm", num(u8::from(r.algorithm()))),
            ("public key", bytes(r.public_key())),
        ],
        TdRData::DNSSEC(DNSSECRData::RRSIG(r)) => vec![
            ("type covered", num(u16::from(r.type_covered()))),
            ("algorithm", num(u8::from(r.algorithm()))),
            ("labels", num(r.num_labels())),
            ("original TTL", num(r.original_ttl())),
            ("expiration", num(r.sig_expiration())),
            ("inception", num(r.sig_inception())),
            ("key tag", num(r.key_tag())),
            ("signer", theirs_name(r.signer_name())),
            ("signature", bytes(r.sig())),
        ],
        TdRData::DNSSEC(DNSSECRData::NSEC(r)) => vec![
            ("next domain", theirs_name(r.next_domain_name())),
            ("types", theirs_types(r.type_bit_maps())),
        ],
        TdRData::DNSSEC(DNSSECRData::NSEC3(r)) => vec![
            ("hash algorithm", num(u8::from(r.hash_algorithm()))),
            ("opt-out", Field::Flag(r.opt_out())),
            ("iterations", num(r.iterations())),
            ("salt", bytes(r.salt())),
            ("next hashed owner", bytes(r.next_hashed_owner_name())),
            ("types", theirs_types(r.type_bit_maps())),
        ],
        TdRData::Unknown { rdata, .. } => vec![("bytes", bytes(rdata.anything()))],
        // A type trust-dns-proto reads and leanwire keeps as bytes: compare
        // the wire form trust-dns-proto writes back.
        other => {
            let wire = other
                .to_bytes()
                .map_err(|e| format!("trust-dns-proto cannot write its {other:?} back: {e}"))?;
            vec![("bytes", Field::Bytes(wire))]
        }
    })
}

/// trust-dns-proto keeps a type bitmap as a list; leanwire's is in ascending order.
fn theirs_types(types: &[trust_dns_proto::rr::RecordType]) -> Field {
    let mut codes: Vec<u16> = types.iter().map(|&t| u16::from(t)).collect();
    codes.sort_unstable();
    codes.dedup();
    Field::Types(codes)
}

fn theirs_caa(r: &caa::CAA) -> Fields {
    let tag = r.tag().as_str().to_ascii_lowercase();
    let mut fields = vec![
        ("critical", Field::Flag(r.issuer_critical())),
        ("tag", Field::Text(tag)),
    ];
    match r.value() {
        caa::Value::Issuer(name, params) => {
            let issuer = name.iter().map(theirs_name).collect();
            let params = params
                .iter()
                .map(|kv| Field::Text(format!("{}={}", kv.key(), kv.value())))
                .collect();
            fields.push(("issuer", Field::List(issuer)));
            fields.push(("parameters", Field::List(params)));
        }
        caa::Value::Url(url) => fields.push(("url", Field::Text(url.as_str().to_owned()))),
        caa::Value::Unknown(value) => fields.push(("value", bytes(value))),
    }
    fields
}

fn theirs_svcb(r: &SVCB) -> Result<Fields, String> {
    let mut params = Vec::new();
    for (key, value) in r.svc_params() {
        let value = match value {
            SvcParamValue::Mandatory(keys) => {
                Field::List(keys.0.iter().map(|&k| num(u16::from(k))).collect())
            }
            SvcParamValue::Alpn(ids) => {
                Field::Strings(ids.0.iter().map(|id| id.as_bytes().to_vec()).collect())
            }
            SvcParamValue::NoDefaultAlpn => Field::List(Vec::new()),
            SvcParamValue::Port(port) => num(*port),
            SvcParamValue::Ipv4Hint(hints) => {
                Field::List(hints.0.iter().map(|a| Field::V4(a.0)).collect())
            }
            SvcParamValue::Ipv6Hint(hints) => {
                Field::List(hints.0.iter().map(|a| Field::V6(a.0)).collect())
            }
            SvcParamValue::EchConfig(config) => bytes(&config.0),
            SvcParamValue::Unknown(value) => bytes(&value.0),
        };
        params.push(Field::List(vec![num(u16::from(*key)), value]));
    }
    Ok(vec![
        ("priority", num(r.svc_priority())),
        ("target", theirs_name(r.target_name())),
        ("parameters", Field::List(params)),
    ])
}

/// The data of one EDNS option, as leanwire's typed view gives it back.
fn option_data(option: &EdnsOption<'_>) -> Vec<u8> {
    match *option {
        EdnsOption::Nsid(d) | EdnsOption::Padding(d) | EdnsOption::Unknown { data: d, .. } => {
            d.to_vec()
        }
        EdnsOption::ClientSubnet {
            family,
            source_prefix,
            scope_prefix,
            address,
        } => [
            &family.to_be_bytes()[..],
            &[source_prefix, scope_prefix],
            address,
        ]
        .concat(),
        EdnsOption::Cookie { client, server } => [client, server.unwrap_or_default()].concat(),
        EdnsOption::ExtendedError {
            info_code,
            extra_text,
        } => [&info_code.to_be_bytes()[..], extra_text].concat(),
        _ => panic!("an EDNS option this test does not know: {option:?}"),
    }
}

fn compare_edns(diff: &mut Diff<'_>, ours: &dns::Message<'_>, theirs: &TdMessage) {
    match (ours.edns(), theirs.extensions()) {
        (None, None) => {}
        (Some(_), None) => diff.fail("leanwire has an OPT record, trust-dns-proto none"),
        (None, Some(_)) => diff.fail("trust-dns-proto has EDNS, leanwire no OPT record"),
        (Some(e), Some(t)) => {
            let mut our_options: Vec<(u16, Vec<u8>)> =
                e.options().map(|o| (o.code(), option_data(&o))).collect();
            let mut their_options = Vec::new();
            for (code, option) in t.options().as_ref() {
                match Vec::<u8>::try_from(option) {
                    Ok(data) => their_options.push((u16::from(*code), data)),
                    Err(err) => diff.fail(format_args!(
                        "trust-dns-proto cannot write EDNS option {code:?} back: {err}"
                    )),
                }
            }
            // trust-dns-proto keeps the options in a hash map.
            our_options.sort();
            their_options.sort();
            let options = |o: Vec<(u16, Vec<u8>)>| {
                Field::List(
                    o.into_iter()
                        .map(|(code, data)| Field::List(vec![num(code), Field::Bytes(data)]))
                        .collect(),
                )
            };
            let ours = vec![
                // Values below 512 count as 512 [RFC 6891 §6.2.3]; trust-dns-proto stores them so.
                ("payload size", num(e.payload_size.max(512))),
                ("extended rcode", num(e.extended_rcode)),
                ("version", num(e.version)),
                ("DO", Field::Flag(e.dnssec_ok)),
                ("options", options(our_options)),
            ];
            let theirs = vec![
                ("payload size", num(t.max_payload())),
                ("extended rcode", num(t.rcode_high())),
                ("version", num(t.version())),
                ("DO", Field::Flag(t.dnssec_ok())),
                ("options", options(their_options)),
            ];
            diff.check_all("EDNS", &ours, &theirs);
        }
    }
}

#[test]
fn every_vector_decodes_the_same_in_trust_dns() {
    let messages = messages();
    assert!(
        messages.len() >= 40,
        "only {} messages in messages.json",
        messages.len()
    );
    let mut failures = Vec::new();
    for (file, bytes) in &messages {
        failures.extend(compare(file, bytes, bytes));
    }
    assert!(
        failures.is_empty(),
        "{} differences:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

/// Every record type the vectors hold goes through a typed comparison, so
/// a record both libraries fail to type cannot pass as equal bytes.
#[test]
fn the_vectors_cover_the_typed_comparisons() {
    let mut seen = std::collections::BTreeSet::new();
    for (_, bytes) in messages() {
        let message = dns::Message::parse(&bytes).unwrap();
        for record in message
            .answers()
            .chain(message.authority())
            .chain(message.additional())
        {
            seen.insert(record.rtype.to_string());
        }
    }
    for rtype in [
        "A", "AAAA", "NS", "CNAME", "PTR", "MX", "SOA", "SRV", "TXT", "CAA", "DS", "DNSKEY",
        "RRSIG", "NSEC", "SVCB", "HTTPS", "OPT",
    ] {
        assert!(seen.contains(rtype), "no vector holds a {rtype} record");
    }
    assert!(
        seen.iter().all(|t| !t.starts_with("TYPE")),
        "a vector holds a type leanwire does not name: {seen:?}"
    );
}

/// The message `file` from the vectors.
fn vector(file: &str) -> Vec<u8> {
    messages()
        .into_iter()
        .find(|(f, _)| f == file)
        .unwrap_or_else(|| panic!("{file} is not in messages.json"))
        .1
}

/// Changes the octet at `at` and returns the changed copy.
fn with_octet(bytes: &[u8], at: usize, value: u8) -> Vec<u8> {
    let mut changed = bytes.to_vec();
    changed[at] = value;
    changed
}

/// The offset of `needle` in `haystack`.
fn find(haystack: &[u8], needle: &[u8]) -> usize {
    haystack
        .windows(needle.len())
        .position(|w| w == needle)
        .expect("the needle is in the message")
}

#[test]
fn a_changed_address_is_reported() {
    let file = "gen_a_cname_chain_4a.hex";
    let bytes = vector(file);
    // 23.45.67.89, the first A record's address.
    let at = find(&bytes, &[23, 45, 67, 89]) + 3;
    let found = compare(file, &bytes, &with_octet(&bytes, at, 90));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].starts_with(file), "{found:?}");
    assert!(found[0].contains("address"), "{found:?}");
    assert!(found[0].contains("23.45.67.89") && found[0].contains("23.45.67.90"));
}

#[test]
fn a_changed_ttl_is_reported() {
    let file = "gen_b_aaaa.hex";
    let bytes = vector(file);
    // The first answer's TTL, 3600 = 0x00000e10, follows its type, AAAA, and class, IN.
    let at = find(&bytes, &[0, 28, 0, 1, 0, 0, 0x0e, 0x10]) + 7;
    let found = compare(file, &bytes, &with_octet(&bytes, at, 0x11));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("answer 0 TTL"), "{found:?}");
}

#[test]
fn a_changed_label_case_is_not_a_difference_but_a_changed_letter_is() {
    let file = "gen_b_aaaa.hex";
    let bytes = vector(file);
    let at = find(&bytes, b"example");
    assert_eq!(
        compare(file, &bytes, &with_octet(&bytes, at, b'E')),
        Vec::<String>::new()
    );
    let found = compare(file, &bytes, &with_octet(&bytes, at, b'x'));
    // The question's name and both owners point at it.
    assert_eq!(found.len(), 3, "{found:?}");
    assert!(found.iter().all(|f| f.contains("xxample")), "{found:?}");
}

#[test]
fn a_changed_txt_string_is_reported() {
    let file = "nsd_live/example_test_TXT_udp.hex";
    let bytes = vector(file);
    let at = find(&bytes, b"part two");
    let found = compare(file, &bytes, &with_octet(&bytes, at, b'P'));
    assert_eq!(found.len(), 1, "{found:?}");
    assert!(found[0].contains("strings"), "{found:?}");
}
