//! Hostile DNS input: every prefix of every vector, flipped bytes, lying
//! counts and lengths, and random bytes. Nothing may panic or loop, and
//! every error must point inside the message.

mod support {
    // Only the vector list and the hex reader are used here.
    #[allow(dead_code)]
    pub mod dns_cases;
}

use leanwire_core::dns::{ErrorKind, Message, MessageBuilder, Name, NameBuf, Section};
use proptest::prelude::*;
use support::dns_cases::{MESSAGES_JSON, hex};

fn vectors() -> Vec<Vec<u8>> {
    let messages: serde_json::Value = serde_json::from_str(MESSAGES_JSON).unwrap();
    messages["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| hex(m["hex"].as_str().unwrap()))
        .collect()
}

/// Decodes `bytes` and touches everything a caller could touch.
fn exercise(bytes: &[u8]) -> Result<usize, leanwire_core::dns::Error> {
    let message = Message::parse(bytes)?;
    let mut seen = 0;
    for q in message.questions() {
        seen += q.to_string().len();
    }
    for record in message
        .answers()
        .chain(message.authority())
        .chain(message.additional())
    {
        seen += record.to_string().len();
        if let Ok(data) = record.data() {
            let mut buf = [0u8; 4096];
            let mut builder = MessageBuilder::new(&mut buf)?;
            // Re-encoding what decoded must work, or fail only for lack of room.
            match builder.push_record(
                Section::Answer,
                &record.name,
                record.class,
                record.ttl,
                &data,
            ) {
                Ok(()) => {}
                Err(e) => assert_eq!(e.kind(), ErrorKind::Truncated, "{record}"),
            }
        }
    }
    if let Some(edns) = message.edns() {
        seen += edns.options().count();
    }
    Ok(seen)
}

#[test]
fn truncation_at_every_byte_is_an_error() {
    for bytes in vectors() {
        assert!(exercise(&bytes).is_ok());
        for cut in 0..bytes.len() {
            let err = exercise(&bytes[..cut]).expect_err("a cut message must not decode");
            assert!(err.offset() <= cut, "{err} for a {cut}-byte prefix");
            assert!(
                matches!(err.kind(), ErrorKind::ShortInput | ErrorKind::RdataOverrun),
                "{err}"
            );
        }
    }
}

#[test]
fn flipped_bytes_never_panic() {
    for bytes in vectors() {
        for at in 0..bytes.len() {
            for flip in [0x01, 0x40, 0x80, 0xff] {
                let mut mutated = bytes.clone();
                mutated[at] ^= flip;
                if let Err(e) = exercise(&mutated) {
                    assert!(e.offset() <= mutated.len());
                }
            }
        }
    }
}

#[test]
fn counts_larger_than_the_data() {
    let mut bytes = vectors()[0].clone();
    bytes[7] += 1; // one more answer than there is
    let err = Message::parse(&bytes).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::ShortInput, bytes.len())
    );
    bytes[7] -= 2; // one fewer: the last answer is left over
    assert_eq!(
        Message::parse(&bytes).unwrap_err().kind(),
        ErrorKind::TrailingData
    );
}

#[test]
fn rdlength_past_the_end() {
    // www.example.com. A, with an answer whose RDLENGTH is 5 but only 4 bytes follow.
    let mut bytes = hex(
        "3c4d8180000100010000000003777777076578616d706c6503636f6d0000010001c00c000100010000003c0004c0000201",
    );
    let len_at = bytes.len() - 6;
    bytes[len_at + 1] = 5;
    let err = Message::parse(&bytes).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::RdataOverrun, len_at)
    );
}

#[test]
fn wrong_rdata_length_for_the_type() {
    let mut bytes = hex(
        "3c4d8180000100010000000003777777076578616d706c6503636f6d0000010001c00c000100010000003c0004c0000201",
    );
    bytes.push(7);
    let len_at = bytes.len() - 7;
    bytes[len_at + 1] = 5;
    let message = Message::parse(&bytes).unwrap();
    let err = message.answers().next().unwrap().data().unwrap_err();
    assert_eq!(err.kind(), ErrorKind::InvalidRdata);
    // The record still prints, in the RFC 3597 form.
    assert!(
        message
            .answers()
            .next()
            .unwrap()
            .to_string()
            .ends_with("\\# 5 c000020107")
    );
}

#[test]
fn second_opt_record() {
    let mut buf = [0u8; 512];
    let mut builder = MessageBuilder::new(&mut buf).unwrap();
    builder.push_edns(&Default::default()).unwrap();
    builder.push_edns(&Default::default()).unwrap();
    let bytes = builder.finish().unwrap();
    let err = Message::parse(bytes).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ErrorKind::InvalidOpt, 23));
}

#[test]
fn labels_over_63_octets_cannot_be_built() {
    let text = format!("{}.example.", "a".repeat(64));
    assert_eq!(
        NameBuf::from_text(&text).unwrap_err().kind(),
        ErrorKind::LabelTooLong
    );
}

#[test]
fn a_long_pointer_chain_is_bounded() {
    // 8,000 pointers, each to the one before: strictly backwards, but absurd.
    let mut bytes = vec![0u8];
    for i in 0..8000u16 {
        let target = if i == 0 { 0 } else { 1 + 2 * (i - 1) };
        bytes.extend_from_slice(&(0xc000 | target).to_be_bytes());
    }
    let err = Name::parse(&bytes, bytes.len() - 2).unwrap_err();
    assert_eq!(err.kind(), ErrorKind::PointerLoop);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn random_bytes_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
        if let Err(e) = exercise(&bytes) {
            prop_assert!(e.offset() <= bytes.len());
        }
    }

    #[test]
    fn random_headers_on_real_bodies(header in proptest::array::uniform12(any::<u8>()), which in 0usize..46) {
        let mut bytes = vectors()[which].clone();
        bytes[..12].copy_from_slice(&header);
        if let Err(e) = exercise(&bytes) {
            prop_assert!(e.offset() <= bytes.len());
        }
    }
}
