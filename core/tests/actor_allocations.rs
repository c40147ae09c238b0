//! Parsing and printing touch the heap zero times; arena paths touch only the arena.

use std::fmt::Write as _;

use bumpalo::Bump;
use leanwire_core::actor::{
    ActorPath, Dialect, PathNode, PathView, is_valid_path_element, split_name_and_uid,
};

mod support {
    pub mod heap;
}

use support::heap::heap_allocations;

#[test]
fn no_heap_allocation() {
    const INPUT: &str = "akka.tcp://system@127.0.0.1:1337/parent/child#2147483647";
    let mut out = String::with_capacity(256);
    let bump = Bump::with_capacity(4096);

    for dialect in [Dialect::DotNet, Dialect::Jvm] {
        let n = heap_allocations(|| {
            let path = ActorPath::parse(INPUT, dialect).unwrap();
            assert_eq!(path.depth(), 2);
            out.clear();
            write!(out, "{path}").unwrap();
            write!(out, "{}", path.serialization_format()).unwrap();
            write!(out, "{}", path.without_address()).unwrap();
            write!(out, "{}", path.address()).unwrap();
            for e in path.elements_with_uid() {
                write!(out, "{e}").unwrap();
            }
            assert_eq!(path, ActorPath::parse(INPUT, dialect).unwrap());
        });
        assert_eq!(n, 0, "parse and print ({dialect})");
    }

    let n = heap_allocations(|| {
        assert_eq!(
            split_name_and_uid("foo#11241311", Dialect::DotNet),
            Ok(("foo", Some(11241311)))
        );
        assert!(is_valid_path_element(
            "reliableEndpointWriter-akka.tcp%3a%2f%2fsys",
            Dialect::DotNet
        ));
    });
    assert_eq!(n, 0, "split_name_and_uid and is_valid_path_element");

    let arena_before = bump.allocated_bytes();
    let n = heap_allocations(|| {
        let node = PathNode::parse(&bump, INPUT, Dialect::DotNet).unwrap();
        let child = node.child(&bump, "grandchild#5").unwrap();
        assert_eq!(child.depth(), 3);
        out.clear();
        write!(out, "{}", child.serialization_format()).unwrap();
        assert_eq!(
            child.parent().unwrap(),
            &ActorPath::parse(INPUT, Dialect::DotNet).unwrap()
        );
    });
    assert_eq!(n, 0, "arena path");
    assert_eq!(
        bump.allocated_bytes(),
        arena_before,
        "the arena's first chunk had room"
    );
    assert_eq!(
        out,
        "akka.tcp://system@127.0.0.1:1337/parent/child/grandchild#5"
    );
}
