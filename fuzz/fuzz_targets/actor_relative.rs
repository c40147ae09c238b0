//! `relative_elements` and `wildcard_match`: no panic, no hang, and the
//! elements of a relative path come from its text.
#![no_main]

use leanwire_core::actor::{Dialect, relative_elements, wildcard_match};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: (&str, &str)| {
    let (text, pattern) = data;
    for dialect in [Dialect::DotNet, Dialect::Jvm] {
        if let Some(elements) = relative_elements(text, dialect) {
            for element in elements {
                assert!(text.contains(element.name));
            }
        }
    }
    // The matcher is O(text × pattern); keep inputs small enough to stay fast.
    if text.len() <= 256 && pattern.len() <= 64 {
        if !text.contains(['*', '?']) {
            assert!(
                wildcard_match(text, text),
                "a literal pattern matches itself"
            );
        }
        let _ = wildcard_match(text, pattern);
        assert!(wildcard_match(text, "*"));
    }
});
