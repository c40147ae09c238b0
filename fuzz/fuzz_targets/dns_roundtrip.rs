//! decode -> encode -> decode: whatever decodes, with RDATA that reads as
//! its type, encodes, and decodes again to the same records.
#![no_main]

use leanwire_core::dns::{Message, MessageBuilder, Section};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(message) = Message::parse(bytes) else {
        return;
    };
    let mut buf = [0u8; 65535];
    let mut builder = MessageBuilder::new(&mut buf).unwrap();
    *builder.header_mut() = message.header();
    for q in message.questions() {
        builder.push_question(&q.name, q.qtype, q.qclass).unwrap();
    }
    for (section, records) in [
        (Section::Answer, message.answers()),
        (Section::Authority, message.authority()),
        (Section::Additional, message.additional()),
    ] {
        for record in records {
            // Malformed typed RDATA cannot be re-encoded from a typed view.
            if record.data().is_err() {
                return;
            }
            builder.push(section, &record).unwrap();
        }
    }
    let encoded = builder.finish().unwrap();
    let again = Message::parse(encoded).expect("our own encoding decodes");
    assert_eq!(again.header(), message.header());
    let all = |m: &Message<'_>| {
        m.questions()
            .map(|q| q.to_string())
            .chain(
                m.answers()
                    .chain(m.authority())
                    .chain(m.additional())
                    .map(|r| r.to_string()),
            )
            .collect::<Vec<_>>()
    };
    assert_eq!(all(&again), all(&message));
    assert_eq!(again.edns(), message.edns());
});
