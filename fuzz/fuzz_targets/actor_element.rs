//! Element checks and `name#uid` splitting in both dialects: no panic, errors
//! point into the input, and Akka's messages always print.
#![no_main]

use leanwire_core::actor::{Dialect, check_actor_name, split_name_and_uid, validate_path_element};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &str| {
    for dialect in [Dialect::DotNet, Dialect::Jvm] {
        match validate_path_element(input, dialect) {
            Ok(()) => assert!(!input.is_empty() && input.is_ascii()),
            Err(e) => {
                assert!(e.offset() <= input.len());
                assert!(
                    !check_actor_name(input, dialect)
                        .unwrap_err()
                        .to_string()
                        .is_empty()
                );
            }
        }
        match split_name_and_uid(input, dialect) {
            Ok((name, uid)) => {
                assert!(input.starts_with(name));
                assert_ne!(uid, Some(0));
            }
            Err(e) => assert!(e.offset() <= input.len()),
        }
    }
});
