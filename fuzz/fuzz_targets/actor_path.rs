//! `ActorPath::parse` and `PathNode::parse` in both dialects: no panic, errors
//! point into the input, and the view and the arena path agree.
#![no_main]

use bumpalo::Bump;
use leanwire_core::actor::{ActorPath, Dialect, PathNode, PathView};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|input: &str| {
    for dialect in [Dialect::DotNet, Dialect::Jvm] {
        let bump = Bump::new();
        match (
            ActorPath::parse(input, dialect),
            PathNode::parse(&bump, input, dialect),
        ) {
            (Ok(view), Ok(node)) => {
                assert!(view == *node && *node == view);
                assert_eq!(view.depth(), node.depth());
                assert!(view.elements().eq(node.elements()));
                assert!(view.elements().rev().eq(node.elements().rev()));
                assert_eq!(
                    view.serialization_format().to_string(),
                    node.serialization_format().to_string()
                );
                assert_eq!(view.cmp(&view), core::cmp::Ordering::Equal);
                let _ = view.without_address().to_string();
                let _ = view.with_address(&view.address()).to_string();
            }
            (Err(a), Err(b)) => {
                assert_eq!(a, b);
                assert!(a.offset() <= input.len());
            }
            (view, node) => panic!(
                "view {view:?} and node {:?} disagree",
                node.map(|n| n.to_string())
            ),
        }
    }
});
