//! `Name::parse` at any offset, and `NameBuf::from_text`: no panic, no loop;
//! a decoded name prints, reads back from its text, and stays within 255 octets.
#![no_main]

use leanwire_core::dns::{Name, NameBuf};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: (u16, &[u8])| {
    let (offset, bytes) = data;
    match Name::parse(bytes, usize::from(offset) % (bytes.len() + 1)) {
        Ok((name, end)) => {
            assert!(end <= bytes.len());
            assert!(name.wire_len() <= 255);
            let text = name.to_string();
            let again = NameBuf::from_text(&text).expect("printed names read back");
            assert!(again.as_name().eq_exact(&name));
        }
        Err(e) => assert!(e.offset() <= bytes.len()),
    }
    if let Ok(text) = core::str::from_utf8(bytes) {
        if let Ok(name) = NameBuf::from_text(text) {
            assert!(name.as_bytes().len() <= 255);
            assert_eq!(NameBuf::from_text(&name.to_string()).unwrap(), name);
        }
    }
});
