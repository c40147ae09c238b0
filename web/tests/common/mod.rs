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

use js_sys::JSON;
use leanwire_web::{
    TdsReader, benchmark, build_dns_query, check_actor_name, decode_dns_message, decode_tds_js,
    is_valid_path_element, parse_actor_path, split_name_and_uid,
};
use wasm_bindgen::JsValue;
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

#[wasm_bindgen_test]
fn parse_actor_path_matches_the_cli_byte_for_byte() {
    let mut checked = 0;
    for line in GOLDEN.lines() {
        let (dialect, want) = line.split_once('\t').unwrap();
        let parsed = JSON::parse(want).unwrap();
        let input = js_sys::Reflect::get(&parsed, &"input".into())
            .unwrap()
            .as_string()
            .unwrap();
        let report = parse_actor_path(&input, Some(dialect.into())).unwrap();
        let got = JSON::stringify(&report).unwrap().as_string().unwrap();
        assert_eq!(got, want, "{dialect} {input}");
        checked += 1;
    }
    assert!(checked > 40);
}

#[wasm_bindgen_test]
fn parsing_makes_no_heap_allocation() {
    let run = benchmark("parse", SEED, 1000, None).unwrap();
    assert_eq!((run.iterations, run.allocations, run.bytes), (1000, 0, 0));
    let run = benchmark("name_uid", "foo#11241311", 1000, None).unwrap();
    assert_eq!(run.allocations, 0);
}

#[wasm_bindgen_test]
fn arena_paths_use_the_arena_only() {
    let run = benchmark("arena", SEED, 1000, Some("jvm".into())).unwrap();
    assert_eq!(run.allocations, 0, "the reused arena needs no new chunk");
    assert!(
        run.arena_bytes_per_op > 0 && run.arena_bytes_per_op <= 512,
        "{}",
        run.arena_bytes_per_op
    );
    assert!(run.arena_allocated_bytes >= run.arena_bytes_per_op);
}

#[wasm_bindgen_test]
fn a_bad_benchmark_input_is_an_error_not_a_measurement() {
    assert!(benchmark("parse", "not a path", 10, None).is_err());
    assert!(benchmark("compile", SEED, 10, None).is_err());
}

#[wasm_bindgen_test]
fn split_name_and_uid_reports_bad_uids() {
    let pair = split_name_and_uid("foo#11241311", None).unwrap();
    assert_eq!(
        JSON::stringify(&pair).unwrap(),
        r#"{"name":"foo","uid":11241311}"#
    );
    let pair = split_name_and_uid("foo", Some("jvm".into())).unwrap();
    assert_eq!(
        JSON::stringify(&pair).unwrap(),
        r#"{"name":"foo","uid":null}"#
    );
    let err = JsValue::from(split_name_and_uid("foo#x", None).unwrap_err());
    let message = js_sys::Error::from(err).message();
    assert_eq!(message, "uid is not a number at byte 4");
}

#[wasm_bindgen_test]
fn element_checks_follow_the_dialect() {
    assert!(is_valid_path_element("a(b)", None).unwrap());
    assert!(!is_valid_path_element("a(b)", Some("jvm".into())).unwrap());
    assert!(is_valid_path_element("x", Some("scala".into())).is_err());
    let report = check_actor_name(None, Some("jvm".into())).unwrap();
    assert_eq!(
        JSON::stringify(&report).unwrap(),
        r#"{"input":null,"ok":false,"error":"actor name must not be null"}"#
    );
    let report = check_actor_name(Some("ok".into()), None).unwrap();
    assert_eq!(
        JSON::stringify(&report).unwrap(),
        r#"{"input":"ok","ok":true}"#
    );
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
fn decode_dns_message_matches_the_cli_byte_for_byte() {
    let mut checked = 0;
    for line in DNS_GOLDEN.lines() {
        let (hex, want) = line.split_once('\t').unwrap();
        // Lines the CLI rejects as bad hex never reach the decoder.
        if !hex.len().is_multiple_of(2) || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            continue;
        }
        let report = decode_dns_message(&dns_cases::hex(hex)).unwrap();
        assert_eq!(JSON::stringify(&report).unwrap().as_string().unwrap(), want);
        checked += 1;
    }
    assert!(checked >= 49);
}

#[wasm_bindgen_test]
fn build_dns_query_matches_the_vector() {
    // gen_query_www_example_com_A_edns.hex, made by hickory-proto.
    let want =
        "12340100000100000000000103777777076578616d706c6503636f6d000001000100002904d0000000000000";
    let options = JSON::parse(r#"{"id": 4660}"#).unwrap();
    assert_eq!(
        build_dns_query("www.example.com", "A", options).unwrap(),
        dns_cases::hex(want)
    );
    let plain = JSON::parse(r#"{"edns": false}"#).unwrap();
    let question = "03777777076578616d706c6503636f6d0000010001";
    let header = "000001000001000000000000"; // ID 0, RD, one question, nothing else
    assert_eq!(
        build_dns_query("www.example.com.", "a", plain).unwrap(),
        dns_cases::hex(&format!("{header}{question}"))
    );
    let dnssec = JSON::parse(r#"{"dnssec": true}"#).unwrap();
    let signed =
        decode_dns_message(&build_dns_query("example.test", "DNSKEY", dnssec).unwrap()).unwrap();
    assert!(
        JSON::stringify(&signed)
            .unwrap()
            .as_string()
            .unwrap()
            .contains(r#""do":true"#)
    );
    assert!(build_dns_query("www.example.com", "NOPE", JsValue::UNDEFINED).is_err());
    assert!(build_dns_query("a..b", "A", JsValue::UNDEFINED).is_err());
    let bad = JSON::parse(r#"{"id": "seven"}"#).unwrap();
    assert!(build_dns_query("a.b", "A", bad).is_err());
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
fn decode_tds_matches_the_cli_byte_for_byte() {
    let cases = tds_golden();
    assert!(cases.len() >= 4);
    for (bytes, tokens_only, want) in cases {
        for chunk in [0, 1, 13] {
            let options = JSON::parse(&format!(
                r#"{{"tokensOnly": {tokens_only}, "chunk": {chunk}}}"#
            ))
            .unwrap();
            let lines = js_sys::Array::from(&decode_tds_js(&bytes, options).unwrap());
            let got: Vec<String> = lines
                .iter()
                .map(|l| JSON::stringify(&l).unwrap().as_string().unwrap())
                .collect();
            assert_eq!(got, want, "chunk {chunk}");
        }
    }
}

#[wasm_bindgen_test]
fn tds_reader_fed_in_pieces_gives_the_same_reports() {
    for (bytes, tokens_only, want) in tds_golden() {
        let options = JSON::parse(&format!(r#"{{"tokensOnly": {tokens_only}}}"#)).unwrap();
        let mut reader = TdsReader::new(options).unwrap();
        let mut got = Vec::new();
        for piece in bytes.chunks(5) {
            reader.feed(piece);
            loop {
                let next = reader.next_report().unwrap();
                if next.is_null() {
                    break;
                }
                got.push(JSON::stringify(&next).unwrap().as_string().unwrap());
            }
        }
        let finish = reader.finish();
        if got.len() + 1 == want.len() {
            // A stream cut short: the same tokens; `finish` reports the end.
            assert_eq!(got[..], want[..got.len()]);
            let message = js_sys::Error::from(JsValue::from(finish.unwrap_err())).message();
            assert!(
                want.last().unwrap().contains(&String::from(message)),
                "{want:?}"
            );
        } else {
            assert_eq!(got, want);
        }
    }
}
