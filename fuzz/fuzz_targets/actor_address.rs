//! `Address::split` and `Address::parse` in both dialects: no panic, the rest
//! is a suffix of the input, and errors point into it.
#![no_main]

use leanwire_core::actor::{Address, Dialect};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &str| {
    for dialect in [Dialect::DotNet, Dialect::Jvm] {
        match Address::split(input, dialect) {
            Ok((address, rest)) => {
                assert!(input.ends_with(rest));
                let printed = address.to_string();
                assert!(!printed.is_empty());
                assert_eq!(address.cmp(&address), core::cmp::Ordering::Equal);
                assert_eq!(address.cmp_printed(&address), core::cmp::Ordering::Equal);
                let _ = address.host_port().to_string();
                let _ = address.check_host_characters();
                assert_eq!(Address::parse(input, dialect).is_ok(), rest.is_empty());
            }
            Err(e) => assert!(e.offset() <= input.len()),
        }
    }
});
