//! The wasm test suite. `node.rs` runs it in Node and `browser.rs` in headless
//! Chromium; both include this module, so both run exactly these tests.

#[path = "../../../core/tests/support/actor_cases.rs"]
mod actor_cases;
// The name checks run inside `run_all` here; only `dns_names.rs` calls them one by one.
#[path = "../../../core/tests/support/dns_cases.rs"]
#[allow(dead_code)]
mod dns_cases;
// The whole-run entry point is used here; the per-record helpers serve the native tests.
#[path = "../../../core/tests/support/tds_cases.rs"]
#[allow(dead_code)]
mod tds_cases;

use leanwire_web::actor::{
    actor_check_name, actor_format, actor_is_valid_path_element, actor_parse,
    actor_split_name_and_uid,
};
use leanwire_web::dns::{dns_build_query, dns_report, dns_type_code};
use leanwire_web::shared;
use leanwire_web::tds::{tds_close, tds_feed, tds_finish, tds_open};
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

/// The per-op counts that the native conformance test prints, too.
const EXPECTED_COUNTS: &str = include_str!("../../../core/tests/support/actor_counts.txt");
/// `dialect<TAB>report` lines that `leanwire actor parse` printed.
const GOLDEN: &str = include_str!("../../../native/tests/golden/actor_parse.tsv");
/// Streams and the lines `leanwire tds decode` printed for them.
const TDS_GOLDEN: &str = include_str!("../../../native/tests/golden/tds_decode.json");
/// `hex<TAB>report` lines that `leanwire dns decode` printed.
const DNS_GOLDEN: &str = include_str!("../../../native/tests/golden/dns_decode.tsv");
const SEED: &str = "akka.tcp://system@127.0.0.1:1337/parent/child#1";

#[wasm_bindgen_test]
fn akka_conformance_vectors_agree_with_native() {
    let report = actor_cases::run(actor_cases::CASES_JSON);
    console_log!("{}", report.table());
    for failure in &report.failures {
        console_log!("FAIL {failure}");
    }
    assert!(
        report.failures.is_empty(),
        "{} cases failed",
        report.failures.len()
    );
    assert_eq!(report.table(), EXPECTED_COUNTS);
}

/// The length of `text` in UTF-16 code units, its JavaScript `length`.
fn units(text: &str) -> u32 {
    text.encode_utf16().count() as u32
}

/// A string of an actor tape: `[kind, start, end)` in UTF-16 units of the
/// input or of the text area, as `src/actor.js` reads it.
fn tape_string(input: &str, text: &str, word: &[u32]) -> Option<String> {
    let code_units = |s: &str| s.encode_utf16().collect::<Vec<u16>>();
    let slice =
        |s: &str| String::from_utf16(&code_units(s)[word[1] as usize..word[2] as usize]).unwrap();
    match word[0] {
        0 => Some(slice(input)),
        1 => Some(slice(input).to_ascii_lowercase()),
        2 => Some(slice(text)),
        _ => None,
    }
}

/// The tape's `[present, value]` number.
fn tape_number(word: &[u32]) -> Option<u32> {
    (word[0] == 1).then_some(word[1])
}

/// The last call's tape and text.
fn output() -> (Vec<u32>, String) {
    let (tape, text) = shared::last_output();
    (tape, String::from_utf8(text).unwrap())
}

/// The failure of the last call: its kind, message and offset.
fn failure() -> (String, String, u32) {
    let (tape, text) = output();
    let (kind, message) = text.split_once('\0').unwrap();
    (kind.to_owned(), message.to_owned(), tape[0])
}

#[wasm_bindgen_test]
fn actor_tapes_hold_what_the_cli_prints() {
    let mut checked = 0;
    for line in GOLDEN.lines() {
        let (dialect, want) = line.split_once('\t').unwrap();
        let want: serde_json::Value = serde_json::from_str(want).unwrap();
        let input = want["input"].as_str().unwrap();
        let code = u32::from(dialect == "jvm");
        let len = shared::put_input(input.as_bytes());
        if actor_parse(len, units(input), code) == shared::FAILED {
            let (_, message, _) = failure();
            assert_eq!(
                message,
                want["error"].as_str().unwrap(),
                "{dialect} {input}"
            );
            checked += 1;
            continue;
        }
        let (tape, text) = output();
        let address = &want["address"];
        let string = |at: usize| tape_string(input, &text, &tape[at..at + 3]);
        assert_eq!(
            string(0).as_deref(),
            address["protocol"].as_str(),
            "{input}"
        );
        assert_eq!(string(3).as_deref(), address["system"].as_str(), "{input}");
        assert_eq!(string(6).as_deref(), address["host"].as_str(), "{input}");
        assert_eq!(
            tape_number(&tape[9..]).map(u64::from),
            address["port"].as_u64()
        );
        let uid = tape_number(&tape[11..]).map(|uid| i64::from(uid as i32));
        assert_eq!(uid, want["uid"].as_i64(), "{input}");
        let elements: Vec<String> = tape[14..]
            .chunks(2)
            .map(|w| tape_string(input, "", &[0, w[0], w[1]]).unwrap())
            .collect();
        assert_eq!(elements.len(), tape[13] as usize);
        assert_eq!(serde_json::json!(elements), want["elements"], "{input}");
        for (with_uid, key) in [(0, "to_string"), (1, "to_serialization_format")] {
            assert!(actor_format(len, code, with_uid) >= 0);
            assert_eq!(output().1, want[key].as_str().unwrap());
        }
        checked += 1;
    }
    assert!(checked > 40);
}

#[cfg(feature = "peers")]
#[wasm_bindgen_test]
fn parsing_makes_no_heap_allocation() {
    use leanwire_web::benchmark;
    let run = benchmark("parse", SEED, 1000, None).unwrap();
    assert_eq!((run.iterations, run.allocations, run.bytes), (1000, 0, 0));
    let run = benchmark("name_uid", "foo#11241311", 1000, None).unwrap();
    assert_eq!(run.allocations, 0);
    let run = benchmark("arena", SEED, 1000, Some("jvm".into())).unwrap();
    assert_eq!(run.allocations, 0, "the reused arena needs no new chunk");
    assert!(
        run.arena_bytes_per_op > 0 && run.arena_bytes_per_op <= 512,
        "{}",
        run.arena_bytes_per_op
    );
    assert!(run.arena_allocated_bytes >= run.arena_bytes_per_op);
    assert!(benchmark("parse", "not a path", 10, None).is_err());
    assert!(benchmark("compile", SEED, 10, None).is_err());
}

#[cfg(feature = "peers")]
#[wasm_bindgen_test]
fn a_call_through_the_tape_allocates_nothing_once_warm() {
    use leanwire_web::{alloc_stats, reset_alloc_stats};
    let len = shared::put_input(SEED.as_bytes());
    // The first call grows the tape and text area to their working size.
    assert!(actor_parse(len, len, 0) > 0);
    reset_alloc_stats();
    for _ in 0..100 {
        assert!(actor_parse(len, len, 0) > 0);
        assert!(actor_split_name_and_uid(len, len, 0) > 0);
    }
    assert_eq!(alloc_stats().allocations, 0);
}

#[wasm_bindgen_test]
fn split_name_and_uid_reports_bad_uids() {
    let input = "foo#11241311";
    assert!(actor_split_name_and_uid(shared::put_input(input.as_bytes()), units(input), 0) >= 0);
    let (tape, _) = output();
    assert_eq!(&input[tape[0] as usize..tape[1] as usize], "foo");
    assert_eq!(tape_number(&tape[2..]), Some(11241311));
    assert!(actor_split_name_and_uid(shared::put_input(b"foo"), 3, 1) >= 0);
    assert_eq!(tape_number(&output().0[2..]), None);
    // Offsets count UTF-16 code units: "f\u{e9}\u{1f600}" is 1 + 1 + 2 of them.
    let input = "f\u{e9}\u{1f600}#7";
    assert!(actor_split_name_and_uid(shared::put_input(input.as_bytes()), units(input), 0) >= 0);
    assert_eq!(output().0[..2], [0, 4]);
    let len = shared::put_input(b"foo#x");
    assert_eq!(actor_split_name_and_uid(len, 5, 0), shared::FAILED);
    assert_eq!(
        failure(),
        (
            "InvalidUid".into(),
            "uid is not a number at byte 4".into(),
            4
        )
    );
}

#[wasm_bindgen_test]
fn element_checks_follow_the_dialect() {
    let len = shared::put_input(b"a(b)");
    assert_eq!(actor_is_valid_path_element(len, 0), 1);
    assert_eq!(actor_is_valid_path_element(len, 1), 0);
    assert_eq!(actor_check_name(0, 1, 1), shared::FAILED);
    assert_eq!(failure().1, "actor name must not be null");
    assert_eq!(actor_check_name(shared::put_input(b"ok"), 0, 0), 0);
    assert_eq!(
        actor_check_name(shared::put_input(b"$x"), 0, 0),
        shared::FAILED
    );
    assert_eq!(failure().0, "LeadingDollar");
}

#[wasm_bindgen_test]
fn dns_vectors_agree_with_native() {
    let (ran, failures) = dns_cases::run_all();
    for failure in &failures {
        console_log!("FAIL {failure}");
    }
    assert!(failures.is_empty(), "{} cases failed", failures.len());
    assert_eq!(ran, 46 + 31 + 25);
}

#[wasm_bindgen_test]
fn dns_reports_match_the_cli_byte_for_byte() {
    let mut checked = 0;
    for line in DNS_GOLDEN.lines() {
        let (hex, want) = line.split_once('\t').unwrap();
        // Lines the CLI rejects as bad hex never reach the decoder.
        let Ok(bytes) = leanwire_core::hex::decode(hex).collect::<Result<Vec<u8>, _>>() else {
            continue;
        };
        dns_report(shared::put_input(&bytes));
        assert_eq!(output().1, want);
        checked += 1;
    }
    assert!(checked >= 49);
}

/// The query that `dnsBuildQuery` writes, or the failure's kind.
fn query(name: &str, qtype: &str, id: u32, edns: u32, dnssec: u32) -> Result<Vec<u8>, String> {
    let code = dns_type_code(shared::put_input(qtype.as_bytes()));
    if code < 0 {
        return Err(failure().0);
    }
    let len = shared::put_input(name.as_bytes());
    if dns_build_query(len, code as u32, id, edns, dnssec) < 0 {
        return Err(failure().0);
    }
    Ok(shared::last_output().1)
}

#[wasm_bindgen_test]
fn build_dns_query_matches_the_vector() {
    // gen_query_www_example_com_A_edns.hex, made by hickory-proto.
    let want =
        "12340100000100000000000103777777076578616d706c6503636f6d000001000100002904d0000000000000";
    assert_eq!(
        query("www.example.com", "A", 4660, 1, 0).unwrap(),
        dns_cases::hex(want)
    );
    let question = "03777777076578616d706c6503636f6d0000010001";
    let header = "000001000001000000000000"; // ID 0, RD, one question, nothing else
    assert_eq!(
        query("www.example.com.", "a", 0, 0, 0).unwrap(),
        dns_cases::hex(&format!("{header}{question}"))
    );
    dns_report(shared::put_input(
        &query("example.test", "DNSKEY", 0, 1, 1).unwrap(),
    ));
    assert!(output().1.contains(r#""do":true"#));
    assert_eq!(
        query("www.example.com", "NOPE", 0, 1, 0).unwrap_err(),
        "UnknownType"
    );
    assert_eq!(query("a..b", "A", 0, 1, 0).unwrap_err(), "EmptyLabel");
}

#[wasm_bindgen_test]
fn tds_vectors_agree_with_native() {
    let (ran, failures) = tds_cases::run_all();
    for failure in &failures {
        console_log!("FAIL {failure}");
    }
    assert!(failures.is_empty(), "{} cases failed", failures.len());
    assert!(ran >= 120, "only {ran} cases ran");
}

/// Each golden case: its bytes, whether they are bare tokens, and the CLI's lines.
fn tds_golden() -> Vec<(Vec<u8>, bool, Vec<String>)> {
    let golden: serde_json::Value = serde_json::from_str(TDS_GOLDEN).unwrap();
    golden["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let lines = c["lines"]
                .as_array()
                .unwrap()
                .iter()
                .map(|l| l.as_str().unwrap().to_owned())
                .collect();
            (
                dns_cases::hex(c["hex"].as_str().unwrap()),
                c["tokens_only"].as_bool().unwrap(),
                lines,
            )
        })
        .collect()
}

#[wasm_bindgen_test]
fn tds_readers_end_as_the_cli_did_however_they_are_fed() {
    let cases = tds_golden();
    assert!(cases.len() >= 4);
    for (bytes, tokens_only, want) in cases {
        let cli_failed = want.last().unwrap().contains(r#""error""#);
        for piece in [1, 13, bytes.len().max(1)] {
            let handle = tds_open(u32::from(tokens_only), shared::put_input(b"7.4"), 1 << 24);
            let mut words = 0;
            for chunk in bytes.chunks(piece) {
                let fed = tds_feed(handle, shared::put_input(chunk));
                assert!(fed >= 0, "an open reader takes every piece");
                words += fed;
            }
            assert!(words > 0);
            let failed = tds_finish(handle) == shared::FAILED;
            assert_eq!(failed, cli_failed, "pieces of {piece}: {want:?}");
            tds_close(handle);
        }
    }
}
