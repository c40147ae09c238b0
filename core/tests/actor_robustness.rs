//! Hostile input: nothing may panic, every error points into the input, and
//! well-formed paths survive printing and parsing again.

use bumpalo::Bump;
use leanwire_core::actor::{
    ActorPath, Address, Dialect, ErrorKind, PathNode, PathView, check_actor_name,
    relative_elements, split_name_and_uid, validate_path_element, wildcard_match,
};
use proptest::prelude::*;

const DIALECTS: [Dialect; 2] = [Dialect::DotNet, Dialect::Jvm];

/// Runs every entry point on `input` and checks that errors stay in bounds.
fn exercise(input: &str) {
    for dialect in DIALECTS {
        match ActorPath::parse(input, dialect) {
            Ok(path) => {
                let printed = path.serialization_format().to_string();
                assert!(
                    printed.len() <= input.len() + 64,
                    "{printed:?} from {input:?}"
                );
                let _ = path.depth();
                let _ = path.elements().rev().count();
            }
            Err(e) => assert!(e.offset() <= input.len(), "{e:?} for {input:?}"),
        }
        if let Err(e) = Address::split(input, dialect) {
            assert!(e.offset() <= input.len());
        }
        if let Err(e) = validate_path_element(input, dialect) {
            assert!(e.offset() <= input.len());
            let _ = check_actor_name(input, dialect).unwrap_err().to_string();
        }
        if let Err(e) = split_name_and_uid(input, dialect) {
            assert!(e.offset() <= input.len());
        }
        if let Some(parts) = relative_elements(input, dialect) {
            let _ = parts.count();
        }
        let bump = Bump::new();
        let _ = PathNode::parse(&bump, input, dialect).map(|n| n.to_string());
    }
    let _ = wildcard_match(input, input);
}

#[test]
fn nul_bytes() {
    for input in [
        "\0",
        "akka://\0",
        "akka://sys/\0",
        "akka://s@\0:1",
        "akka://s/a#\0",
        "akka\0://s",
    ] {
        exercise(input);
    }
    let path = ActorPath::parse("akka://sys/a\0b", Dialect::DotNet).unwrap();
    assert!(path.elements().eq(["a\0b"]));
    let err = ActorPath::parse("akka://sys/a\0b", Dialect::Jvm).unwrap_err();
    assert_eq!(
        (err.kind(), err.offset()),
        (ErrorKind::InvalidCharacter, 12)
    );
}

#[test]
fn non_ascii() {
    for input in [
        "akka://sÿs/ü/ß#1",
        "akka://s@hÖst:1/ä",
        "ÄKKA://s/a",
        "akka://s/\u{1f600}#٣",
        "akka://s@[ü]:1",
    ] {
        exercise(input);
    }
    let path = ActorPath::parse("akka://sÿs@HÖST:1/ü", Dialect::DotNet).unwrap();
    assert_eq!(path.to_string(), "akka://sÿs@höst:1/ü");
    // Arabic-Indic digits are not a uid.
    let err = ActorPath::parse("akka://s/a#٣", Dialect::DotNet).unwrap_err();
    assert_eq!((err.kind(), err.offset()), (ErrorKind::InvalidUid, 11));
}

#[test]
fn one_mebibyte_inputs() {
    let long_name = format!("akka://sys@host:1/{}#7", "a".repeat(1 << 20));
    let many_elements = format!("akka://sys{}", "/ab".repeat((1 << 20) / 3));
    let many_slashes = format!("akka://sys{}x", "/".repeat(1 << 20));
    let long_system = format!("akka://{}/a", "s".repeat(1 << 20));
    let long_port = format!("akka://s@h:{}", "9".repeat(1 << 20));
    let long_uid = format!("akka://s/a#{}", "1".repeat(1 << 20));
    for input in [
        &long_name,
        &many_elements,
        &many_slashes,
        &long_system,
        &long_port,
        &long_uid,
    ] {
        exercise(input);
    }
    let path = ActorPath::parse(&long_name, Dialect::DotNet).unwrap();
    assert_eq!((path.name().len(), path.uid()), (1 << 20, Some(7)));
    assert_eq!(
        ActorPath::parse(&many_elements, Dialect::Jvm)
            .unwrap()
            .depth(),
        (1 << 20) / 3
    );
    assert_eq!(
        ActorPath::parse(&many_slashes, Dialect::DotNet)
            .unwrap()
            .depth(),
        1
    );
    assert_eq!(
        ActorPath::parse(&long_port, Dialect::DotNet)
            .unwrap_err()
            .kind(),
        ErrorKind::PortOutOfRange
    );
    assert_eq!(
        ActorPath::parse(&long_uid, Dialect::Jvm)
            .unwrap_err()
            .kind(),
        ErrorKind::UidOutOfRange
    );

    let bump = Bump::new();
    let node = PathNode::parse(&bump, &many_elements, Dialect::DotNet).unwrap();
    assert_eq!(node.depth(), (1 << 20) / 3);
    assert_eq!(node.to_string(), many_elements);
    assert_eq!(node.ancestor(1).name(), "ab");
}

#[test]
fn deep_node_paths_print_and_walk() {
    let bump = Bump::new();
    let mut node = PathNode::parse(&bump, "akka://s", Dialect::DotNet).unwrap();
    for i in 0..10_000 {
        node = node.child(&bump, bump.alloc_str(&i.to_string())).unwrap();
    }
    assert_eq!(node.depth(), 10_000);
    for depth in [0, 1, 2, 3, 500, 4095, 4096, 9_999, 10_000] {
        assert_eq!(node.ancestor(depth).depth(), depth);
    }
    assert!(
        node.elements()
            .map(|e| e.parse::<usize>().unwrap())
            .eq(0..10_000)
    );
    assert!(
        node.elements()
            .rev()
            .map(|e| e.parse::<usize>().unwrap())
            .eq((0..10_000).rev())
    );
}

fn element() -> impl Strategy<Value = String> {
    "[a-zA-Z0-9][a-zA-Z0-9_.~-]{0,8}"
}

fn well_formed() -> impl Strategy<Value = (String, String, Option<u16>, Vec<String>, i32)> {
    (
        "akka(\\.tcp)?",
        "[a-z][a-z0-9-]{0,8}[a-z0-9]",
        proptest::option::of(1u16..),
        proptest::collection::vec(element(), 0..6),
        any::<i32>(),
    )
        .prop_map(|(p, s, port, e, uid)| (p, s, port, e, uid))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn arbitrary_text_never_panics(input in "\\PC{0,64}") {
        exercise(&input);
    }

    #[test]
    fn arbitrary_path_like_text_never_panics(input in "[a-zA-Z]{0,5}:?/{0,3}[a-z@:\\[\\]0-9#/%?.+ -]{0,40}") {
        exercise(&input);
    }

    #[test]
    fn printing_then_parsing_is_the_identity((protocol, system, port, elements, uid) in well_formed()) {
        let authority = match port {
            Some(port) => format!("{system}@host-{system}:{port}"),
            None => system.clone(),
        };
        let mut text = format!("{protocol}://{authority}/{}", elements.join("/"));
        if !elements.is_empty() {
            text.push_str(&format!("#{uid}"));
        }
        for dialect in DIALECTS {
            let path = ActorPath::parse(&text, dialect).unwrap();
            prop_assert!(path.elements().eq(elements.iter().map(String::as_str)));
            let printed = path.serialization_format().to_string();
            let again = ActorPath::parse(&printed, dialect).unwrap();
            prop_assert_eq!(again, path);
            prop_assert_eq!(again.uid(), path.uid());
            prop_assert_eq!(again.serialization_format().to_string(), printed.clone());

            let bump = Bump::new();
            let node = PathNode::parse(&bump, &text, dialect).unwrap();
            prop_assert!(*node == path);
            prop_assert_eq!(node.serialization_format().to_string(), printed);
        }
    }

    #[test]
    fn ordering_is_consistent_with_equality(a in "akka://[ab]{1,2}(/[ab]{1,2}){0,3}", b in "akka://[ab]{1,2}(/[ab]{1,2}){0,3}") {
        let (x, y) = (ActorPath::parse(&a, Dialect::DotNet).unwrap(), ActorPath::parse(&b, Dialect::DotNet).unwrap());
        prop_assert_eq!(x.cmp(&y) == std::cmp::Ordering::Equal, x == y);
        prop_assert_eq!(x.cmp(&y), y.cmp(&x).reverse());
    }
}
