//! The wasm test suite. `node.rs` runs it in Node and `browser.rs` in headless
//! Chromium; both include this module, so both run exactly these tests.

#[path = "../../../core/tests/support/actor_cases.rs"]
mod actor_cases;

use js_sys::JSON;
use leanwire_web::{
    benchmark, check_actor_name, is_valid_path_element, parse_actor_path, split_name_and_uid,
};
use wasm_bindgen::JsValue;
use wasm_bindgen_test::{console_log, wasm_bindgen_test};

/// The per-op counts that the native conformance test prints, too.
const EXPECTED_COUNTS: &str = include_str!("../../../core/tests/support/actor_counts.txt");
/// `dialect<TAB>report` lines that `leanwire actor parse` printed.
const GOLDEN: &str = include_str!("../../../native/tests/golden/actor_parse.tsv");
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
