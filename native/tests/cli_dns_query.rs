//! `leanwire dns query`: dig's text, the JSON report, and the exit statuses,
//! against NSD started on 127.0.0.1 with the zones in `tests/nsd/` (as in
//! `stub_resolver.rs`), against a socket that never answers, and against a
//! TCP server that trickles its answer.
//!
//! `scripts/setup` installs NSD. Without it the NSD test fails, saying so.

use std::net::{Ipv4Addr, UdpSocket};
use std::process::{Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

mod support {
    pub mod cli;
    pub mod hostile;
    pub mod nsd;
}

use support::cli::leanwire;
use support::hostile::{Server, answer};
use support::nsd::Nsd;

/// `@127.0.0.1:PORT`, the server argument for `nsd`.
fn at(nsd: &Nsd) -> String {
    format!("@{}", nsd.address())
}

/// `dns query ARGS...`, which must succeed.
fn query(args: &[&str]) -> String {
    let run = leanwire(&[&["dns", "query"], args].concat(), "");
    assert_eq!(run.status, Some(0), "{args:?}: {}", run.stderr);
    run.stdout
}

/// The lines of the section titled `title` (`;; ANSWER SECTION:`), up to
/// the blank line that ends it; `None` if the section is not there.
fn section<'t>(text: &'t str, title: &str) -> Option<Vec<&'t str>> {
    let mut lines = text.lines();
    lines.find(|l| *l == format!(";; {title} SECTION:"))?;
    Some(lines.take_while(|l| !l.is_empty()).collect())
}

/// A section's records, split on tabs, with `type`'s ones sorted: the order
/// within a record set is the server's choice.
fn records<'t>(lines: &[&'t str], rtype: &str) -> Vec<Vec<&'t str>> {
    let mut set: Vec<Vec<&str>> = lines
        .iter()
        .map(|l| l.split('\t').filter(|f| !f.is_empty()).collect::<Vec<_>>())
        .filter(|fields| fields.get(3) == Some(&rtype))
        .collect();
    set.sort();
    set
}

fn text_answer_with_the_cname_chain(nsd: &Nsd) {
    let text = query(&["www.example.test", "A", &at(nsd)]);
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    assert!(
        header.starts_with(";; ->>HEADER<<- opcode: QUERY, status: NOERROR, id: "),
        "{text}"
    );
    assert!(
        lines
            .next()
            .unwrap()
            .starts_with(";; flags: qr aa rd; QUERY: 1, ANSWER: 6, AUTHORITY: 2, ADDITIONAL: "),
        "{text}"
    );
    // dig's columns: the owner, then tabs to column 24, 32, 40 and 48.
    assert_eq!(
        section(&text, "QUESTION").unwrap(),
        [";www.example.test.\t\tIN\tA"]
    );
    let answer = section(&text, "ANSWER").unwrap();
    assert_eq!(
        answer[..2],
        [
            "www.example.test.\t3600\tIN\tCNAME\twww.cdn.example.test.",
            "www.cdn.example.test.\t3600\tIN\tCNAME\tedge.example.test.",
        ],
        "{text}"
    );
    let a: Vec<&str> = records(&answer, "A").iter().map(|r| r[4]).collect();
    assert_eq!(a, ["192.0.2.10", "192.0.2.11", "192.0.2.12", "192.0.2.13"]);
    assert_eq!(answer.len(), 6, "{text}");
    // The OPT record is the pseudosection, not a record of ADDITIONAL.
    assert!(text.contains("\n\n;; OPT PSEUDOSECTION:\n; EDNS: version: 0, flags:; udp: 1232\n"));
    assert!(
        !section(&text, "ADDITIONAL")
            .unwrap()
            .iter()
            .any(|l| l.contains("OPT"))
    );
    assert!(
        text.contains(&format!(
            "\n;; SERVER: 127.0.0.1#{}(UDP)\n",
            nsd.address().port()
        )),
        "{text}"
    );
    assert!(text.contains("\n;; Query time: ") && text.contains("\n;; MSG SIZE  rcvd: "));
}

fn the_server_may_come_first_and_the_type_in_lowercase(nsd: &Nsd) {
    let text = query(&[&at(nsd), "mail.example.test", "aaaa"]);
    assert_eq!(
        section(&text, "QUESTION").unwrap(),
        [";mail.example.test.\t\tIN\tAAAA"]
    );
    // mail has no AAAA: NOERROR with no ANSWER section at all.
    assert!(text.contains("status: NOERROR"), "{text}");
    assert_eq!(section(&text, "ANSWER"), None, "{text}");
    // Without a TYPE, A.
    let text = query(&["mail.example.test", &at(nsd)]);
    assert_eq!(
        section(&text, "ANSWER").unwrap(),
        ["mail.example.test.\t3600\tIN\tA\t192.0.2.25"]
    );
}

fn a_generic_type(nsd: &Nsd) {
    let text = query(&["example.test", "type65534", &at(nsd)]);
    assert_eq!(
        section(&text, "QUESTION").unwrap(),
        [";example.test.\t\t\tIN\tTYPE65534"]
    );
    assert!(text.contains("status: NOERROR"), "{text}");
}

fn a_truncated_answer_comes_over_tcp(nsd: &Nsd) {
    let text = query(&["big.example.test", "TXT", &at(nsd)]);
    let answer = section(&text, "ANSWER").unwrap();
    assert_eq!(records(&answer, "TXT").len(), 40);
    assert!(
        text.contains(&format!(
            "\n;; SERVER: 127.0.0.1#{}(TCP)\n",
            nsd.address().port()
        )),
        "{text}"
    );
    let flags = text.lines().nth(1).unwrap();
    assert!(
        !flags.contains(" tc"),
        "the answer over TCP is whole: {flags}"
    );
}

fn tcp_when_asked(nsd: &Nsd) {
    let text = query(&["example.test", "SOA", &at(nsd), "--tcp"]);
    assert!(
        text.contains(&format!("#{}(TCP)\n", nsd.address().port())),
        "{text}"
    );
    assert_eq!(
        section(&text, "ANSWER").unwrap(),
        [
            "example.test.\t\t3600\tIN\tSOA\tns1.example.test. hostmaster.example.test. \
             2024061501 7200 3600 1209600 3600"
        ]
    );
}

fn json_is_the_decode_report(nsd: &Nsd) {
    let stdout = query(&["--json", "big.example.test", "TXT", &at(nsd)]);
    let lines: Vec<&str> = stdout.lines().collect();
    assert_eq!(lines.len(), 1, "{stdout}");
    // Key order is part of the contract: it is `dns decode`'s.
    assert!(
        lines[0].starts_with(r#"{"ok":true,"header":{"id":"#),
        "{stdout}"
    );
    let report: serde_json::Value = serde_json::from_str(lines[0]).unwrap();
    assert_eq!(report["ok"], true);
    assert_eq!(report["header"]["rcode"], "NOERROR");
    assert_eq!(report["header"]["tc"], false);
    assert_eq!(
        report["question"],
        serde_json::json!([{"name": "big.example.test.", "type": "TXT", "class": "IN"}])
    );
    let answer = report["answer"].as_array().unwrap();
    assert_eq!(answer.len(), 40);
    assert!(
        answer
            .iter()
            .all(|r| r["type"] == "TXT" && r["ttl"] == 3600)
    );
    assert_eq!(report["edns"]["payload"], 1232);
    let additional = report["additional"].as_array().unwrap();
    assert!(additional.iter().all(|r| r["type"] != "OPT"));
}

fn nxdomain_is_an_answer(nsd: &Nsd) {
    let text = query(&["nonexistent.example.test", &at(nsd)]);
    assert!(
        text.starts_with(";; ->>HEADER<<- opcode: QUERY, status: NXDOMAIN, id: "),
        "{text}"
    );
    assert_eq!(section(&text, "ANSWER"), None, "{text}");
    let authority = section(&text, "AUTHORITY").unwrap();
    assert_eq!(records(&authority, "SOA").len(), 1, "{text}");

    let stdout = query(&["nonexistent.example.test", &at(nsd), "--json"]);
    let report: serde_json::Value = serde_json::from_str(stdout.trim_end()).unwrap();
    assert_eq!(
        (&report["ok"], &report["header"]["rcode"]),
        (&true.into(), &"NXDOMAIN".into())
    );
}

fn dnssec_sets_do_and_brings_rrsigs(nsd: &Nsd) {
    let plain = query(&["example.test", "A", &at(nsd)]);
    assert!(
        plain.contains("\n; EDNS: version: 0, flags:; udp: "),
        "{plain}"
    );
    assert!(!plain.contains("RRSIG"), "{plain}");

    let signed = query(&["example.test", "A", &at(nsd), "--dnssec"]);
    assert!(
        signed.contains("\n; EDNS: version: 0, flags: do; udp: "),
        "{signed}"
    );
    let answer = section(&signed, "ANSWER").unwrap();
    let rrsig = records(&answer, "RRSIG");
    assert_eq!(rrsig.len(), 1, "{signed}");
    assert_eq!(rrsig[0][..4], ["example.test.", "3600", "IN", "RRSIG"]);
    assert!(rrsig[0][4].starts_with("A 13 2 3600 "), "{signed}");
    assert_eq!(records(&answer, "A").len(), 1, "{signed}");
}

fn a_reverse_lookup_of_an_address(nsd: &Nsd) {
    let text = query(&["-x", "192.0.2.10", &at(nsd)]);
    assert_eq!(
        section(&text, "QUESTION").unwrap(),
        [";10.2.0.192.in-addr.arpa.\tIN\tPTR"]
    );
    assert_eq!(
        section(&text, "ANSWER").unwrap(),
        ["10.2.0.192.in-addr.arpa.\t3600\tIN\tPTR\tedge.example.test."]
    );
}

fn short_prints_only_the_answers_data(nsd: &Nsd) {
    let text = query(&["www.example.test", "--short", &at(nsd)]);
    let mut lines: Vec<&str> = text.lines().collect();
    // The chain in order, then the address set in the server's order.
    assert_eq!(
        lines[..2],
        ["www.cdn.example.test.", "edge.example.test."],
        "{text}"
    );
    lines[2..].sort();
    assert_eq!(
        lines[2..],
        ["192.0.2.10", "192.0.2.11", "192.0.2.12", "192.0.2.13"],
        "{text}"
    );
    assert_eq!(
        query(&["-x", "192.0.2.1", "--short", &at(nsd)]),
        "example.test.\n"
    );
    assert_eq!(query(&["nothing.example.test", "--short", &at(nsd)]), "");
}

fn a_port_and_a_class(nsd: &Nsd) {
    let port = nsd.address().port().to_string();
    let text = query(&["mail.example.test", "@127.0.0.1", "-p", &port]);
    assert_eq!(
        section(&text, "ANSWER").unwrap(),
        ["mail.example.test.\t3600\tIN\tA\t192.0.2.25"]
    );
    // A port given with the server wins over -p.
    let text = query(&["mail.example.test", &at(nsd), "-p", "9"]);
    assert!(
        text.contains(&format!(";; SERVER: 127.0.0.1#{port}(")),
        "{text}"
    );
    // NSD serves its zones in IN only; the question goes out in CH all the same.
    let text = query(&["example.test", "ch", "txt", &at(nsd)]);
    assert_eq!(
        section(&text, "QUESTION").unwrap(),
        [";example.test.\t\t\tCH\tTXT"]
    );
}

/// A named check that runs against the shared server.
type Scenario = (&'static str, fn(&Nsd));

#[test]
fn against_nsd() {
    let nsd = Nsd::start();
    let scenarios: [Scenario; 11] = [
        (
            "text_answer_with_the_cname_chain",
            text_answer_with_the_cname_chain,
        ),
        (
            "the_server_may_come_first_and_the_type_in_lowercase",
            the_server_may_come_first_and_the_type_in_lowercase,
        ),
        ("a_generic_type", a_generic_type),
        (
            "a_truncated_answer_comes_over_tcp",
            a_truncated_answer_comes_over_tcp,
        ),
        ("tcp_when_asked", tcp_when_asked),
        ("json_is_the_decode_report", json_is_the_decode_report),
        ("nxdomain_is_an_answer", nxdomain_is_an_answer),
        (
            "dnssec_sets_do_and_brings_rrsigs",
            dnssec_sets_do_and_brings_rrsigs,
        ),
        (
            "a_reverse_lookup_of_an_address",
            a_reverse_lookup_of_an_address,
        ),
        (
            "short_prints_only_the_answers_data",
            short_prints_only_the_answers_data,
        ),
        ("a_port_and_a_class", a_port_and_a_class),
    ];
    for (name, scenario) in scenarios {
        println!("scenario {name}");
        scenario(&nsd);
    }
}

#[test]
fn no_answer_exits_9_naming_the_server() {
    // A socket that is bound but never read: queries to it go unanswered.
    let silent = UdpSocket::bind((Ipv4Addr::LOCALHOST, 0)).unwrap();
    let server = silent.local_addr().unwrap();
    let at = format!("@{server}");

    let started = Instant::now();
    let run = leanwire(&["dns", "query", "example.test", &at, "--timeout", "1"], "");
    assert_eq!(run.status, Some(9), "{}", run.stderr);
    assert_eq!(
        run.stderr,
        format!("leanwire: no answer from {server} within 1s\n")
    );
    assert_eq!(run.stdout, "");
    assert!(started.elapsed() < Duration::from_secs(10));

    let run = leanwire(
        &[
            "dns",
            "query",
            "example.test",
            &at,
            "--timeout",
            "0.2",
            "--json",
        ],
        "",
    );
    assert_eq!(run.status, Some(9), "{}", run.stderr);
    let report: serde_json::Value = serde_json::from_str(run.stdout.trim_end()).unwrap();
    assert_eq!(
        report,
        serde_json::json!({"ok": false, "error": format!("no answer from {server} within 200ms")})
    );
    assert!(run.stderr.contains("no answer from"), "{}", run.stderr);
}

#[test]
fn a_bad_name_or_server_exits_1() {
    // Both are refused before anything is sent.
    let run = leanwire(&["dns", "query", "a..b", "@127.0.0.1:9", "--json"], "");
    assert_eq!(run.status, Some(1), "{}", run.stderr);
    assert!(
        run.stderr.starts_with("leanwire: bad name \"a..b\""),
        "{}",
        run.stderr
    );
    assert!(
        run.stdout.starts_with(r#"{"ok":false,"error":"bad name"#),
        "{}",
        run.stdout
    );

    for server in ["@localhost", "@127.0.0.1:x", "@[127.0.0.1]", "@"] {
        let run = leanwire(&["dns", "query", "example.test", server], "");
        assert_eq!(run.status, Some(1), "{server}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("leanwire: bad server"),
            "{}",
            run.stderr
        );
        assert_eq!(run.stdout, "");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        &["example.test", "NOPE", "@127.0.0.1"][..],
        &["example.test", "TYPE65536", "@127.0.0.1"],
        &[],
        &["@127.0.0.1"],
        &["example.test", "A", "extra"],
        &["example.test", "@127.0.0.1", "@127.0.0.2"],
        &["example.test", "@127.0.0.1", "--timeout", "0"],
        &["example.test", "@127.0.0.1", "--timeout", "soon"],
        &["example.test", "A", "IN", "CH"],
        &["-x", "not-an-address", "@127.0.0.1"],
        &["example.test", "--short", "--json", "@127.0.0.1"],
    ] {
        let run = leanwire(&[&["dns", "query"], args].concat(), "");
        assert_eq!(run.status, Some(2), "{args:?}: {}", run.stderr);
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(run.stderr.starts_with("error: "), "{}", run.stderr);
    }
    let run = leanwire(&["dns", "query", "example.test", "NOPE", "@127.0.0.1"], "");
    assert!(run.stderr.contains("'NOPE'"), "{}", run.stderr);
}

#[test]
fn a_trickling_tcp_server_cannot_stretch_the_timeout() {
    // One byte every 0.4 s: each read would finish well within the timeout.
    let trickle = Server::tcp(
        |q| vec![answer(q, Ipv4Addr::new(192, 0, 2, 1))],
        Some(Duration::from_millis(400)),
    );
    let at = format!("@{}", trickle.addr());
    let mut child = Command::new(env!("CARGO_BIN_EXE_leanwire"))
        .args([
            "dns",
            "query",
            "--tcp",
            "--timeout",
            "1",
            "example.com",
            &at,
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed() > Duration::from_secs(10) {
            let _ = child.kill();
            let _ = child.wait();
            panic!("leanwire dns query was still running after 10 s");
        }
        thread::sleep(Duration::from_millis(50));
    }
    let took = started.elapsed();
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(9), "{stderr}");
    assert_eq!(
        stderr,
        format!(
            "leanwire: no answer from {} over TCP within 1s\n",
            trickle.addr()
        )
    );
    // Two attempts of one second each.
    assert!(took < Duration::from_secs(5), "{took:?}");
}

#[test]
fn a_timeout_out_of_range_is_a_usage_error() {
    for timeout in ["1e19", "3601", "-1", "NaN", "inf", "-0"] {
        let flag = format!("--timeout={timeout}");
        let run = leanwire(&["dns", "query", "example.test", "@127.0.0.1:9", &flag], "");
        assert_eq!(run.status, Some(2), "{timeout}: {}", run.stderr);
        assert!(
            run.stderr.starts_with("error: invalid value")
                && run.stderr.contains("greater than 0 and at most 3600"),
            "{timeout}: {}",
            run.stderr
        );
        assert_eq!(run.stdout, "");
    }
}
