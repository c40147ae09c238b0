//! The reports the CLI prints and the npm package returns, built from any
//! input: no panic; a TDS stream reports the same tokens and error whether
//! it arrives whole or in pieces; every error offset lies inside the input.
#![no_main]

use leanwire_core::actor::Dialect;
use leanwire_core::report::{
    ActorPathReport, DecodeOptions, DnsMessageReport, ElementReport, decode_tds,
};
use leanwire_core::tds::TdsVersion;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &[u8]| {
    let Some((&selector, bytes)) = input.split_first() else {
        return;
    };
    let _ = DnsMessageReport::decode(bytes);
    let text = String::from_utf8_lossy(bytes);
    for dialect in [Dialect::DotNet, Dialect::Jvm] {
        let _ = ActorPathReport::parse(&text, dialect);
        let _ = ElementReport::check(&text, dialect);
    }
    let options = DecodeOptions {
        tokens_only: selector & 1 == 1,
        version: TdsVersion::V7_4,
        ..DecodeOptions::default()
    };
    let chunk = usize::from(selector >> 1) + 1;
    let (whole, whole_error) = decode_tds(bytes, options, 0);
    let (pieces, pieces_error) = decode_tds(bytes, options, chunk);
    assert_eq!(whole, pieces, "tokens differ in pieces of {chunk}");
    assert_eq!(
        whole_error, pieces_error,
        "errors differ in pieces of {chunk}"
    );
    if let Some(error) = whole_error {
        assert!(error.offset as usize <= bytes.len(), "{error:?}");
    }
});
