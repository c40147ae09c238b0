//! The DNS vector messages of `core/tests/vectors/dns/messages.json`, as
//! bytes, for the unit tests.

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
