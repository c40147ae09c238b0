//! `pcap::server_stream` on the captures in `tests/vectors/tds/` (from
//! shared/vectors/tds/pcap, made by its `mkpcap.py` and checked with tshark).

use leanwire_native::pcap::server_stream;

fn vector(name: &str) -> Vec<u8> {
    std::fs::read(
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("tests/vectors/tds")
            .join(name),
    )
    .unwrap()
}

/// The payloads of the TDS packets in `stream`, headers removed.
fn tokens(stream: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut at = 0;
    while at + 8 <= stream.len() {
        let len = usize::from(u16::from_be_bytes([stream[at + 2], stream[at + 3]]));
        assert!(
            len >= 8 && at + len <= stream.len(),
            "packet at {at} claims {len} bytes"
        );
        out.extend_from_slice(&stream[at + 8..at + len]);
        at += len;
    }
    assert_eq!(at, stream.len(), "the stream ends inside a packet");
    out
}

#[test]
fn types_capture_holds_the_types_token_stream() {
    let stream = server_stream(&vector("types.pcap"), 1433).unwrap();
    assert_eq!(stream[0], 0x04, "a tabular-result packet");
    let hex = String::from_utf8(vector("types_tokens.hex")).unwrap();
    let want: Vec<u8> = (0..hex.trim().len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).unwrap())
        .collect();
    assert_eq!(tokens(&stream), want);
}

#[test]
fn login_capture_is_one_response_stream() {
    let stream = server_stream(&vector("pytds_login.pcap"), 1433).unwrap();
    let payload = tokens(&stream);
    assert!(payload.contains(&0xad), "a LOGINACK token");
}

#[test]
fn the_client_side_is_not_the_server_stream() {
    assert!(
        server_stream(&vector("types.pcap"), 50000)
            .unwrap()
            .starts_with(&[0x01]),
        "the client's SQL batch"
    );
}
