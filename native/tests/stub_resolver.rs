//! `StubResolver` against a real DNS server: NSD, started on 127.0.0.1 by
//! this test with the zones in `tests/nsd/`, and stopped when it ends.
//!
//! `scripts/setup` installs NSD. Without it this test fails, saying so.

use std::net::{Ipv4Addr, UdpSocket};
use std::time::{Duration, Instant};

use leanwire_native::core::dns::{RData, Rcode, Rtype};
use leanwire_native::stub::{Response, StubResolver, Transport};

mod support {
    pub mod nsd;
}

use support::nsd::{Nsd, free_port};

/// The answers of `rtype`, in presentation form, in wire order.
fn in_order(response: &Response, rtype: Rtype) -> Vec<String> {
    let message = response.message().unwrap();
    message
        .answers()
        .filter(|r| r.rtype == rtype)
        .map(|r| r.data().unwrap().to_string())
        .collect()
}

/// The answers of `rtype`, sorted: the order within a record set is the server's choice.
fn answers(response: &Response, rtype: Rtype) -> Vec<String> {
    let mut set = in_order(response, rtype);
    set.sort();
    set
}

fn cname_chain(nsd: &Nsd) {
    let response = nsd
        .resolver()
        .query_sync("www.example.test", Rtype::A)
        .unwrap();
    // The chain comes in order: www -> www.cdn -> edge.
    assert_eq!(
        in_order(&response, Rtype::Cname),
        ["www.cdn.example.test.", "edge.example.test."]
    );
    assert_eq!(
        answers(&response, Rtype::A),
        ["192.0.2.10", "192.0.2.11", "192.0.2.12", "192.0.2.13"]
    );
    assert_eq!(response.transport(), Transport::Udp);
}

fn mx_txt_srv_caa(nsd: &Nsd) {
    let r = nsd.resolver();
    let mx = r.query_sync("example.test", Rtype::Mx).unwrap();
    assert_eq!(
        answers(&mx, Rtype::Mx),
        ["10 mail.example.test.", "20 mail2.example.test."]
    );
    let txt = r.query_sync("example.test", Rtype::Txt).unwrap();
    assert_eq!(
        answers(&txt, Rtype::Txt),
        [
            "\"part one\" \"part two\" \"\"",
            "\"v=spf1 ip4:192.0.2.0/24 -all\""
        ]
    );
    let srv = r.query_sync("_sip._tcp.example.test", Rtype::Srv).unwrap();
    assert_eq!(answers(&srv, Rtype::Srv), ["10 60 5060 sip.example.test."]);
    let caa = r.query_sync("example.test", Rtype::Caa).unwrap();
    assert_eq!(
        answers(&caa, Rtype::Caa),
        [
            "0 issue \"letsencrypt.org\"",
            "128 iodef \"mailto:security@example.test\""
        ]
    );
}

fn svcb_and_https(nsd: &Nsd) {
    let r = nsd.resolver();
    let svcb = r.query_sync("svc.example.test", Rtype::Svcb).unwrap();
    assert_eq!(
        answers(&svcb, Rtype::Svcb),
        ["1 svc-backend.example.test. alpn=dot port=853"]
    );
    let https = r.query_sync("example.test", Rtype::Https).unwrap();
    assert_eq!(
        answers(&https, Rtype::Https),
        ["1 . alpn=h2,h3 ipv4hint=192.0.2.1 ipv6hint=2001:db8::1"]
    );
}

fn truncation_falls_back_to_tcp(nsd: &Nsd) {
    let response = nsd
        .resolver()
        .query_sync("big.example.test", Rtype::Txt)
        .unwrap();
    assert_eq!(response.transport(), Transport::Tcp);
    assert!(
        response.bytes().len() > 4000,
        "{} bytes",
        response.bytes().len()
    );
    assert_eq!(answers(&response, Rtype::Txt).len(), 40);
    assert!(!response.message().unwrap().header().tc);
}

fn nxdomain_and_refused(nsd: &Nsd) {
    let r = nsd.resolver();
    let missing = r.query_sync("nonexistent.example.test", Rtype::A).unwrap();
    assert_eq!(missing.message().unwrap().rcode(), Rcode::NxDomain);
    let elsewhere = r.query_sync("example.com", Rtype::A).unwrap();
    assert_eq!(elsewhere.message().unwrap().rcode(), Rcode::Refused);
}

fn dnssec_records_with_the_do_bit(nsd: &Nsd) {
    let plain = nsd.resolver().query_sync("example.test", Rtype::A).unwrap();
    assert!(answers(&plain, Rtype::Rrsig).is_empty());
    let signed = nsd
        .resolver()
        .dnssec(true)
        .query_sync("example.test", Rtype::A)
        .unwrap();
    let message = signed.message().unwrap();
    assert!(message.edns().unwrap().dnssec_ok);
    let rrsig = message
        .answers()
        .find(|r| r.rtype == Rtype::Rrsig)
        .expect("an RRSIG");
    match rrsig.data().unwrap() {
        RData::Rrsig(sig) => {
            assert_eq!(sig.type_covered, Rtype::A);
            assert_eq!(sig.signer_name.to_string(), "example.test.");
        }
        other => panic!("{other:?}"),
    }
    let keys = nsd
        .resolver()
        .dnssec(true)
        .query_sync("example.test", Rtype::Dnskey)
        .unwrap();
    assert_eq!(answers(&keys, Rtype::Dnskey).len(), 2);
}

fn tcp_only_and_async(nsd: &Nsd) {
    let tcp = nsd
        .resolver()
        .tcp_only(true)
        .query_sync("example.test", Rtype::Soa)
        .unwrap();
    assert_eq!(tcp.transport(), Transport::Tcp);
    let resolver = nsd.resolver();
    let queries: Vec<_> = ["mail", "mail2", "sip", "edge"]
        .iter()
        .map(|host| resolver.query(&format!("{host}.example.test"), Rtype::A))
        .collect();
    for query in queries {
        let response = pollster::block_on(query).unwrap();
        assert_eq!(answers(&response, Rtype::A).len().min(1), 1);
    }
}

/// A named check that runs against the shared server.
type Scenario = (&'static str, fn(&Nsd));

#[test]
fn against_nsd() {
    let nsd = Nsd::start();
    let scenarios: [Scenario; 7] = [
        ("cname_chain", cname_chain),
        ("mx_txt_srv_caa", mx_txt_srv_caa),
        ("svcb_and_https", svcb_and_https),
        ("truncation_falls_back_to_tcp", truncation_falls_back_to_tcp),
        ("nxdomain_and_refused", nxdomain_and_refused),
        (
            "dnssec_records_with_the_do_bit",
            dnssec_records_with_the_do_bit,
        ),
        ("tcp_only_and_async", tcp_only_and_async),
    ];
    for (name, scenario) in scenarios {
        println!("scenario {name}");
        scenario(&nsd);
    }
}

#[test]
fn timeout_where_nothing_answers() {
    // A socket that is bound but never read: queries to it go unanswered.
    let silent = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let resolver = StubResolver::new([silent.local_addr().unwrap()])
        .timeout(Duration::from_millis(300))
        .attempts(2);
    let started = Instant::now();
    let err = resolver.query_sync("example.test", Rtype::A).unwrap_err();
    assert_eq!(err.kind(), std::io::ErrorKind::TimedOut, "{err}");
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(550) && waited < Duration::from_secs(5),
        "{waited:?}"
    );
}

#[test]
fn a_closed_port_is_an_error_not_a_hang() {
    let port = free_port();
    let resolver = StubResolver::new([(Ipv4Addr::LOCALHOST, port).into()])
        .timeout(Duration::from_millis(500))
        .attempts(1);
    let started = Instant::now();
    assert!(resolver.query_sync("example.test", Rtype::A).is_err());
    assert!(started.elapsed() < Duration::from_secs(3));
}
