//! Decoding and encoding DNS messages touch the heap zero times.

mod support {
    // Only the vector list and the hex reader are used here.
    #[allow(dead_code)]
    pub mod dns_cases;
    pub mod heap;
}

use std::fmt::Write as _;

use leanwire_core::dns::{Class, EdnsParams, Message, MessageBuilder, NameBuf, Rtype, Section};
use support::dns_cases::{MESSAGES_JSON, hex};
use support::heap::heap_allocations;

#[test]
fn no_heap_allocation() {
    let messages: serde_json::Value = serde_json::from_str(MESSAGES_JSON).unwrap();
    let vectors: Vec<Vec<u8>> = messages["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| hex(m["hex"].as_str().unwrap()))
        .collect();
    let mut text = String::with_capacity(1 << 16);
    let mut out = vec![0u8; 65535];

    for bytes in &vectors {
        let n = heap_allocations(|| {
            let message = Message::parse(bytes).unwrap();
            text.clear();
            for q in message.questions() {
                write!(text, "{q}").unwrap();
            }
            let mut builder = MessageBuilder::new(&mut out).unwrap();
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
                    let data = record.data().unwrap();
                    write!(text, "{record}").unwrap();
                    builder
                        .push_record(section, &record.name, record.class, record.ttl, &data)
                        .unwrap();
                }
            }
            let encoded = builder.finish().unwrap();
            assert!(Message::parse(encoded).is_ok());
        });
        assert_eq!(n, 0, "decode, print and encode");
    }

    let mut buf = [0u8; 512];
    let n = heap_allocations(|| {
        let name = NameBuf::from_text("www.example.com").unwrap();
        let mut builder = MessageBuilder::new(&mut buf).unwrap();
        builder
            .push_question(&name.as_name(), Rtype::A, Class::In)
            .unwrap();
        builder.push_edns(&EdnsParams::default()).unwrap();
        assert_eq!(builder.finish().unwrap().len(), 44);
    });
    assert_eq!(n, 0, "build a query");
}
