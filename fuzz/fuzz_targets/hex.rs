//! `hex::decode` on arbitrary text: no panic; what it decodes re-encodes to
//! the input's digits; an error points at a character of the input that
//! explains it.
#![no_main]

use leanwire_core::hex::{self, ErrorKind};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|text: &str| {
    let mut bytes = Vec::new();
    let mut failure = None;
    for item in hex::decode(text) {
        match item {
            Ok(byte) => bytes.push(byte),
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }
    let digits: String = text.chars().filter(|c| !c.is_ascii_whitespace()).collect();
    match failure {
        None => {
            let again: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
            assert_eq!(again, digits.to_ascii_lowercase());
        }
        Some(e) => {
            let at = e.offset();
            let rest = text
                .get(at..)
                .expect("the offset is a char boundary in the text");
            let found = rest.chars().next().expect("the offset is inside the text");
            match e.kind() {
                ErrorKind::InvalidDigit(c) => {
                    assert_eq!(c, found);
                    assert!(!c.is_ascii_hexdigit() && !c.is_ascii_whitespace());
                }
                ErrorKind::OddDigits => {
                    assert!(found.is_ascii_hexdigit());
                    assert!(text[at + 1..].chars().all(|c| c.is_ascii_whitespace()));
                }
            }
        }
    }
});
