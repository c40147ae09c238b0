//! The test vectors the unit tests read: the DNS messages of
//! `core/tests/vectors/dns/messages.json` and the TDS responses of
//! `native/tests/golden/tds_decode.json`, as bytes.

/// Every vector message, in the file's order.
pub(crate) fn dns_messages() -> Vec<Vec<u8>> {
    let json: serde_json::Value =
        serde_json::from_str(include_str!("../../core/tests/vectors/dns/messages.json")).unwrap();
    json["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|message| {
            let hex = message["hex"].as_str().unwrap();
            leanwire_core::hex::decode(hex)
                .collect::<Result<_, _>>()
                .unwrap()
        })
        .collect()
}

/// TDS response `index`: its bytes, whether it is a bare token stream, and
/// the first token the CLI decodes from it (as JSON).
#[cfg(feature = "peers")]
pub(crate) fn tds_case(index: usize) -> (Vec<u8>, bool, serde_json::Value) {
    let json: serde_json::Value =
        serde_json::from_str(include_str!("../../native/tests/golden/tds_decode.json")).unwrap();
    let case = &json["cases"][index];
    let bytes = leanwire_core::hex::decode(case["hex"].as_str().unwrap())
        .collect::<Result<_, _>>()
        .unwrap();
    let first = serde_json::from_str(case["lines"][0].as_str().unwrap()).unwrap();
    (bytes, case["tokens_only"].as_bool().unwrap(), first)
}
