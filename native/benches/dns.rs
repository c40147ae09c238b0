//! DNS messages: leanwire's codec, each op next to a peer crate on the same input.
//!
//! | op | leanwire | peer |
//! |---|---|---|
//! | decode_domain | `Message::parse`, then every name's labels and every record's typed `data()` | `domain` 0.11: `Message::from_slice`, `to_record::<AllRecordData<_, ParsedName<_>>>()` |
//! | decode_hickory | the same | `hickory-proto` 0.26: `Message::from_vec`, then its `Record`s and `Edns` |
//! | decode_trust_dns | the same | `trust-dns-proto` 0.23: `Message::from_vec`, then its `Record`s and `Edns` |
//! | decode_simple_dns | the same | `simple-dns` 0.13: `Packet::parse`, then its `ResourceRecord`s and `opt()` |
//! | encode_query | `MessageBuilder::new` into a reused `[u8; 512]`, `push_question`, `push_edns`, `finish` | `hickory-proto`: `Message::new`, `add_query`, `set_edns`, `to_vec` |
//!
//! The decode inputs are three responses from `core/tests/vectors/dns/messages.json`:
//! a CNAME chain ending in four A records, two AAAA records, and an ANY answer
//! with an OPT record and ten records of six types. Every decoder walks every
//! name's labels and every record's RDATA into a [`Walk`]; `main` checks that
//! all five decoders arrive at the same `Walk` for every input before timing
//! anything, so each row compares the same work.
//!
//! `scripts/bench` runs this and turns divan's output into `BENCHMARKS.md`.

use std::net::{Ipv4Addr, Ipv6Addr};

use divan::{AllocProfiler, Bencher, black_box};
use leanwire_native::core::{dns, hex};

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    check_decoders_agree();
    check_encoders_agree();
    warm_up();
    divan::main();
}

/// Runs every decoder on every input for a second before anything is
/// timed. Without it the first group timed (leanwire and domain) ran up
/// to half as slow again as the same code did in every later group.
fn warm_up() {
    let inputs = INPUTS.map(message);
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(1) {
        for bytes in &inputs {
            black_box(walk_leanwire(black_box(bytes)));
            black_box(walk_domain(black_box(bytes)));
            black_box(walk_hickory(black_box(bytes)));
            black_box(walk_trust_dns(black_box(bytes)));
            black_box(walk_simple_dns(black_box(bytes)));
        }
    }
}

/// The decode inputs, by the name of their vector file without `gen_` and `.hex`.
const INPUTS: [&str; 3] = ["a_cname_chain", "b_aaaa", "c_big_any_opt"];

/// The vector file each input comes from.
fn vector_file(input: &str) -> &'static str {
    match input {
        "a_cname_chain" => "gen_a_cname_chain_4a.hex",
        "b_aaaa" => "gen_b_aaaa.hex",
        "c_big_any_opt" => "gen_c_big_any_opt.hex",
        other => panic!("no DNS bench input {other}"),
    }
}

/// The message bytes of `input`, decoded from the vectors' hex; called
/// outside the timed closures.
fn message(input: &str) -> Vec<u8> {
    let file = vector_file(input);
    let vectors: serde_json::Value =
        serde_json::from_str(include_str!("../../core/tests/vectors/dns/messages.json"))
            .expect("messages.json is JSON");
    let hex = vectors["messages"]
        .as_array()
        .expect("a messages array")
        .iter()
        .find(|m| m["file"] == file)
        .and_then(|m| m["hex"].as_str())
        .unwrap_or_else(|| panic!("{file} is not in messages.json"));
    hex::decode(hex).collect::<Result<_, _>>().expect("hex")
}

/// What a decoder saw. Every field means the same in every decoder, so two
/// decoders that visited the same names and RDATA agree on all of them.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Walk {
    /// Questions plus records, the OPT record included.
    entries: u64,
    /// Labels over all owner names (and question names), the root not counted.
    owner_labels: u64,
    /// Octets in those labels.
    owner_octets: u64,
    /// TTLs added up, the OPT record's (which holds EDNS flags) left out.
    ttls: u64,
    /// The RDATA: address octets, numbers, and the labels and label octets of
    /// names inside RDATA, TXT string octets, the OPT payload size and options.
    rdata: u64,
}

impl Walk {
    fn owner<'l>(&mut self, labels: impl Iterator<Item = &'l [u8]>) {
        self.entries += 1;
        for label in labels {
            self.owner_labels += 1;
            self.owner_octets += label.len() as u64;
        }
    }

    fn name<'l>(&mut self, labels: impl Iterator<Item = &'l [u8]>) {
        for label in labels {
            self.rdata += 1 + label.len() as u64;
        }
    }

    fn octets(&mut self, octets: &[u8]) {
        self.rdata += octets.iter().map(|&b| u64::from(b)).sum::<u64>();
    }

    fn ipv4(&mut self, address: Ipv4Addr) {
        self.octets(&address.octets());
    }

    fn ipv6(&mut self, address: Ipv6Addr) {
        self.octets(&address.octets());
    }

    fn number(&mut self, n: impl Into<u64>) {
        self.rdata += n.into();
    }

    fn soa(&mut self, numbers: [u32; 5]) {
        for n in numbers {
            self.number(n);
        }
    }

    fn option(&mut self, code: u16, data_len: usize) {
        self.rdata += u64::from(code) + data_len as u64;
    }
}

fn walk_leanwire(bytes: &[u8]) -> Walk {
    use dns::RData;

    let message = dns::Message::parse(bytes).expect("leanwire parses the input");
    let mut walk = Walk::default();
    for question in message.questions() {
        walk.owner(question.name.labels());
    }
    let records = message
        .answers()
        .chain(message.authority())
        .chain(message.additional());
    for record in records {
        walk.owner(record.name.labels());
        if record.rtype != dns::Rtype::Opt {
            walk.ttls += u64::from(record.ttl);
        }
        match record.data().expect("leanwire reads the RDATA") {
            RData::A(a) => walk.ipv4(a.address),
            RData::Aaaa(aaaa) => walk.ipv6(aaaa.address),
            RData::Ns(ns) => walk.name(ns.nsdname.labels()),
            RData::Cname(cname) => walk.name(cname.cname.labels()),
            RData::Ptr(ptr) => walk.name(ptr.ptrdname.labels()),
            RData::Mx(mx) => {
                walk.number(mx.preference);
                walk.name(mx.exchange.labels());
            }
            RData::Soa(soa) => {
                walk.name(soa.mname.labels());
                walk.name(soa.rname.labels());
                walk.soa([soa.serial, soa.refresh, soa.retry, soa.expire, soa.minimum]);
            }
            RData::Txt(txt) => walk.number(txt.strings().map(|s| s.len() as u64).sum::<u64>()),
            RData::Opt(opt) => {
                walk.number(record.class);
                for option in opt.options() {
                    walk.option(option.code(), option.data_len());
                }
            }
            other => panic!("no bench input has {}", other.rtype()),
        }
    }
    walk
}

fn walk_hickory(bytes: &[u8]) -> Walk {
    use hickory_proto::op::Message;
    use hickory_proto::rr::RData;

    let message = Message::from_vec(bytes).expect("hickory-proto parses the input");
    let mut walk = Walk::default();
    for query in &message.queries {
        walk.owner(query.name.iter());
    }
    let records = message
        .answers
        .iter()
        .chain(&message.authorities)
        .chain(&message.additionals);
    for record in records {
        walk.owner(record.name.iter());
        walk.ttls += u64::from(record.ttl);
        match &record.data {
            RData::A(a) => walk.ipv4(a.0),
            RData::AAAA(aaaa) => walk.ipv6(aaaa.0),
            RData::NS(ns) => walk.name(ns.0.iter()),
            RData::CNAME(cname) => walk.name(cname.0.iter()),
            RData::PTR(ptr) => walk.name(ptr.0.iter()),
            RData::MX(mx) => {
                walk.number(mx.preference);
                walk.name(mx.exchange.iter());
            }
            RData::SOA(soa) => {
                walk.name(soa.mname.iter());
                walk.name(soa.rname.iter());
                walk.soa([
                    soa.serial,
                    soa.refresh as u32,
                    soa.retry as u32,
                    soa.expire as u32,
                    soa.minimum,
                ]);
            }
            RData::TXT(txt) => {
                walk.number(txt.txt_data.iter().map(|s| s.len() as u64).sum::<u64>())
            }
            other => panic!("no bench input has {}", other.record_type()),
        }
    }
    // hickory-proto takes the OPT record out of the additional section.
    if let Some(edns) = &message.edns {
        walk.owner([].into_iter());
        walk.number(edns.max_payload());
        for (code, option) in &edns.options().options {
            walk.option(u16::from(*code), usize::from(option.len()));
        }
    }
    walk
}

fn walk_trust_dns(bytes: &[u8]) -> Walk {
    use trust_dns_proto::op::Message;
    use trust_dns_proto::rr::RData;

    let message = Message::from_vec(bytes).expect("trust-dns-proto parses the input");
    let mut walk = Walk::default();
    for query in message.queries() {
        walk.owner(query.name().iter());
    }
    let records = message
        .answers()
        .iter()
        .chain(message.name_servers())
        .chain(message.additionals());
    for record in records {
        walk.owner(record.name().iter());
        walk.ttls += u64::from(record.ttl());
        match record.data().expect("trust-dns-proto reads the RDATA") {
            RData::A(a) => walk.ipv4(a.0),
            RData::AAAA(aaaa) => walk.ipv6(aaaa.0),
            RData::NS(ns) => walk.name(ns.0.iter()),
            RData::CNAME(cname) => walk.name(cname.0.iter()),
            RData::PTR(ptr) => walk.name(ptr.0.iter()),
            RData::MX(mx) => {
                walk.number(mx.preference());
                walk.name(mx.exchange().iter());
            }
            RData::SOA(soa) => {
                walk.name(soa.mname().iter());
                walk.name(soa.rname().iter());
                walk.soa([
                    soa.serial(),
                    soa.refresh() as u32,
                    soa.retry() as u32,
                    soa.expire() as u32,
                    soa.minimum(),
                ]);
            }
            RData::TXT(txt) => walk.number(txt.iter().map(|s| s.len() as u64).sum::<u64>()),
            other => panic!("no bench input has {}", other.record_type()),
        }
    }
    // trust-dns-proto takes the OPT record out of the additional section.
    if let Some(edns) = message.extensions() {
        walk.owner([].into_iter());
        walk.number(edns.max_payload());
        for (code, option) in edns.options().as_ref() {
            walk.option(u16::from(*code), usize::from(option.len()));
        }
    }
    walk
}

fn walk_domain(bytes: &[u8]) -> Walk {
    use domain::base::opt::UnknownOptData;
    use domain::base::{Message, ParsedName, Rtype};
    use domain::rdata::AllRecordData;

    fn labels<'n>(name: &'n ParsedName<&[u8]>) -> impl Iterator<Item = &'n [u8]> {
        name.iter()
            .filter(|label| !label.is_root())
            .map(|label| label.as_slice())
    }

    let message = Message::from_slice(bytes).expect("domain reads the header");
    let (questions, answers, authority, additional) =
        message.sections().expect("domain finds the sections");
    let mut walk = Walk::default();
    for question in questions {
        let question = question.expect("domain parses the question");
        walk.owner(labels(question.qname()));
    }
    for record in answers.chain(authority).chain(additional) {
        let record = record.expect("domain parses the record");
        let record = record
            .to_record::<AllRecordData<&[u8], ParsedName<&[u8]>>>()
            .expect("domain reads the RDATA")
            .expect("domain knows the type");
        walk.owner(labels(record.owner()));
        if record.rtype() != Rtype::OPT {
            walk.ttls += u64::from(record.ttl().as_secs());
        }
        match record.data() {
            AllRecordData::A(a) => walk.octets(&a.addr().octets()),
            AllRecordData::Aaaa(aaaa) => walk.octets(&aaaa.addr().octets()),
            AllRecordData::Ns(ns) => walk.name(labels(ns.nsdname())),
            AllRecordData::Cname(cname) => walk.name(labels(cname.cname())),
            AllRecordData::Ptr(ptr) => walk.name(labels(ptr.ptrdname())),
            AllRecordData::Mx(mx) => {
                walk.number(mx.preference());
                walk.name(labels(mx.exchange()));
            }
            AllRecordData::Soa(soa) => {
                walk.name(labels(soa.mname()));
                walk.name(labels(soa.rname()));
                walk.soa([
                    soa.serial().into_int(),
                    soa.refresh().as_secs(),
                    soa.retry().as_secs(),
                    soa.expire().as_secs(),
                    soa.minimum().as_secs(),
                ]);
            }
            AllRecordData::Txt(txt) => walk.number(txt.iter().map(|s| s.len() as u64).sum::<u64>()),
            AllRecordData::Opt(opt) => {
                walk.number(record.class().to_int());
                for option in opt.iter::<UnknownOptData<&[u8]>>() {
                    let option = option.expect("domain reads the option");
                    walk.option(option.code().to_int(), option.data().len());
                }
            }
            _ => panic!("no bench input has {}", record.rtype()),
        }
    }
    walk
}

fn walk_simple_dns(bytes: &[u8]) -> Walk {
    use simple_dns::Packet;
    use simple_dns::rdata::RData;

    fn labels<'n>(name: &'n simple_dns::Name<'_>) -> impl Iterator<Item = &'n [u8]> {
        name.as_bytes()
    }

    let packet = Packet::parse(bytes).expect("simple-dns parses the input");
    let mut walk = Walk::default();
    for question in &packet.questions {
        walk.owner(labels(&question.qname));
    }
    let records = packet
        .answers
        .iter()
        .chain(&packet.name_servers)
        .chain(&packet.additional_records);
    for record in records {
        walk.owner(labels(&record.name));
        walk.ttls += u64::from(record.ttl);
        match &record.rdata {
            RData::A(a) => walk.ipv4(Ipv4Addr::from(a.address)),
            RData::AAAA(aaaa) => walk.ipv6(Ipv6Addr::from(aaaa.address)),
            RData::NS(ns) => walk.name(labels(&ns.0)),
            RData::CNAME(cname) => walk.name(labels(&cname.0)),
            RData::PTR(ptr) => walk.name(labels(&ptr.0)),
            RData::MX(mx) => {
                walk.number(mx.preference);
                walk.name(labels(&mx.exchange));
            }
            RData::SOA(soa) => {
                walk.name(labels(&soa.mname));
                walk.name(labels(&soa.rname));
                walk.soa([
                    soa.serial,
                    soa.refresh as u32,
                    soa.retry as u32,
                    soa.expire as u32,
                    soa.minimum,
                ]);
            }
            // simple-dns shows a TXT record's strings only split at the first
            // `=`; the `=` itself is the octet that the split takes out.
            RData::TXT(txt) => walk.number(
                txt.iter_raw()
                    .map(|(key, value)| (key.len() + value.map_or(0, |v| 1 + v.len())) as u64)
                    .sum::<u64>(),
            ),
            other => panic!("no bench input has {:?}", other.type_code()),
        }
    }
    // simple-dns takes the OPT record out of the additional section.
    if let Some(opt) = packet.opt() {
        walk.owner([].into_iter());
        walk.number(opt.udp_packet_size);
        for option in &opt.opt_codes {
            walk.option(option.code, option.data.len());
        }
    }
    walk
}

/// Fails, before anything is timed, unless every decoder saw the same
/// names, records and RDATA in every input.
fn check_decoders_agree() {
    for input in INPUTS {
        let bytes = message(input);
        let ours = walk_leanwire(&bytes);
        let header = dns::Message::parse(&bytes).unwrap();
        let h = header.header();
        let count = [h.qdcount, h.ancount, h.nscount, h.arcount]
            .map(u64::from)
            .iter()
            .sum::<u64>();
        assert_eq!(ours.entries, count, "{input}: leanwire skipped an entry");
        for (peer, theirs) in [
            ("domain", walk_domain(&bytes)),
            ("hickory-proto", walk_hickory(&bytes)),
            ("trust-dns-proto", walk_trust_dns(&bytes)),
            ("simple-dns", walk_simple_dns(&bytes)),
        ] {
            assert_eq!(
                theirs, ours,
                "{input}: {peer} and leanwire walked different messages"
            );
        }
    }
}

/// Fails unless both encoders write the same query (ids aside).
fn check_encoders_agree() {
    let mut buf = [0u8; 512];
    let ours = encode_query::leanwire_query(&mut buf, &encode_query::leanwire_name()).to_vec();
    let theirs = encode_query::hickory_query(&encode_query::hickory_name());
    for bytes in [&ours[..], &theirs[..]] {
        let message = dns::Message::parse(bytes).expect("a query leanwire can read");
        let question = message.questions().next().expect("a question");
        assert_eq!(question.to_string(), "www.example.com. IN A");
        assert_eq!(message.edns().expect("an OPT record").payload_size, 1232);
    }
    assert_eq!(ours[2..], theirs[2..], "the queries differ past their ids");
}

/// A group `$group` with `leanwire` and `peer` benchmarks that decode the
/// same messages: leanwire's walk and `$peer_walk`.
macro_rules! decode_pair {
    ($group:ident, $peer_walk:ident) => {
        mod $group {
            use super::*;

            #[divan::bench(args = INPUTS)]
            fn leanwire(bencher: Bencher, input: &str) {
                let bytes = message(input);
                bencher.bench_local(|| walk_leanwire(black_box(&bytes)));
            }

            #[divan::bench(args = INPUTS)]
            fn peer(bencher: Bencher, input: &str) {
                let bytes = message(input);
                bencher.bench_local(|| $peer_walk(black_box(&bytes)));
            }
        }
    };
}

decode_pair!(decode_domain, walk_domain);
decode_pair!(decode_hickory, walk_hickory);
decode_pair!(decode_trust_dns, walk_trust_dns);
decode_pair!(decode_simple_dns, walk_simple_dns);

mod encode_query {
    use super::*;
    use hickory_proto::op::{Edns, Message, MessageType, OpCode, Query};
    use hickory_proto::rr::RecordType;

    const ID: u16 = 0xbeef;

    pub(super) fn leanwire_name() -> dns::NameBuf {
        dns::NameBuf::from_text("www.example.com").unwrap()
    }

    pub(super) fn hickory_name() -> hickory_proto::rr::Name {
        hickory_proto::rr::Name::from_ascii("www.example.com.").unwrap()
    }

    /// `www.example.com. IN A` with EDNS0 and a 1232-octet payload, into `buf`.
    pub(super) fn leanwire_query<'b>(buf: &'b mut [u8; 512], name: &dns::NameBuf) -> &'b [u8] {
        let mut builder = dns::MessageBuilder::new(buf).unwrap();
        builder.header_mut().id = ID;
        builder.header_mut().rd = true;
        builder
            .push_question(&name.as_name(), dns::Rtype::A, dns::Class::In)
            .unwrap();
        builder.push_edns(&dns::EdnsParams::default()).unwrap();
        builder.finish().unwrap()
    }

    /// The same query; hickory's `Query` owns its name, so building one clones it.
    pub(super) fn hickory_query(name: &hickory_proto::rr::Name) -> Vec<u8> {
        let mut message = Message::new(ID, MessageType::Query, OpCode::Query);
        message.metadata.recursion_desired = true;
        message.add_query(Query::query(name.clone(), RecordType::A));
        let mut edns = Edns::new();
        edns.set_max_payload(1232);
        message.set_edns(edns);
        message.to_vec().unwrap()
    }

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        let name = leanwire_name();
        let mut buf = [0u8; 512];
        bencher.bench_local(move || leanwire_query(&mut buf, black_box(&name)).len());
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        let name = hickory_name();
        bencher.bench_local(|| hickory_query(black_box(&name)));
    }
}
