//! Akka.NET's `ActorPathBenchmarks`, each next to a peer on the same input.
//!
//! | op | leanwire | peer |
//! |---|---|---|
//! | parse | `ActorPath::parse` | `url::Url::parse` |
//! | concat | `PathNode::child` twice, in a reused arena | `Url::path_segments_mut().push` twice |
//! | equals | `ActorPath == ActorPath` | `Url == Url` |
//! | to_string | `write!` into a reused `String` | `format!` |
//! | name_uid | `split_name_and_uid` | `split_once('#')` + `str::parse` |
//!
//! `scripts/bench` runs this and turns divan's output into `BENCHMARKS.md`.

use std::fmt::Write as _;

use bumpalo::Bump;
use divan::{AllocProfiler, Bencher, black_box};
use leanwire_native::core::actor::{ActorPath, Address, Dialect, PathNode, split_name_and_uid};
use url::Url;

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

fn main() {
    divan::main();
}

/// Akka.NET's `[Params(1, 100000, int.MaxValue)] Uid`.
const UIDS: [i32; 3] = [1, 100_000, i32::MAX];

/// The seed's input: `new ChildActorPath(x / "parent", "child", Uid).ToSerializationFormat()`.
fn seed_path(uid: i32) -> String {
    format!("akka.tcp://system@127.0.0.1:1337/parent/child#{uid}")
}

mod parse {
    use super::*;

    #[divan::bench(args = UIDS)]
    fn leanwire(bencher: Bencher, uid: i32) {
        let input = seed_path(uid);
        bencher.bench_local(|| ActorPath::parse(black_box(&input), Dialect::DotNet).unwrap());
    }

    #[divan::bench(args = UIDS)]
    fn peer(bencher: Bencher, uid: i32) {
        let input = seed_path(uid);
        bencher.bench_local(|| Url::parse(black_box(&input)).unwrap());
    }
}

mod concat {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        let roots = Box::leak(Box::new(Bump::new()));
        let address = Address::new(
            Dialect::DotNet,
            "akka.tcp",
            "system",
            Some("127.0.0.1"),
            Some(1337),
        );
        let root = PathNode::new_root(roots, address).unwrap();
        let mut bump = Bump::with_capacity(1024);
        bencher.bench_local(move || {
            bump.reset();
            let child = root
                .child(&bump, black_box("parent"))
                .unwrap()
                .child(&bump, black_box("child"))
                .unwrap();
            black_box(child.depth())
        });
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        let root = Url::parse("akka.tcp://system@127.0.0.1:1337/").unwrap();
        bencher.bench_local(|| {
            let mut child = root.clone();
            child
                .path_segments_mut()
                .unwrap()
                .pop_if_empty()
                .push(black_box("parent"))
                .push(black_box("child"));
            child
        });
    }
}

mod equals {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        let (a, b) = (seed_path(1), seed_path(1));
        let (a, b) = (
            ActorPath::parse(&a, Dialect::DotNet).unwrap(),
            ActorPath::parse(&b, Dialect::DotNet).unwrap(),
        );
        bencher.bench_local(|| black_box(&a) == black_box(&b));
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        let (a, b) = (
            Url::parse(&seed_path(1)).unwrap(),
            Url::parse(&seed_path(1)).unwrap(),
        );
        bencher.bench_local(|| black_box(&a) == black_box(&b));
    }
}

mod to_string {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        let input = seed_path(1);
        let path = ActorPath::parse(&input, Dialect::DotNet).unwrap();
        let mut out = String::with_capacity(128);
        bencher.bench_local(move || {
            out.clear();
            write!(out, "{}", black_box(&path)).unwrap();
            out.len()
        });
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        let (protocol, system, host, port) = ("akka.tcp", "system", "127.0.0.1", 1337);
        let elements = ["parent", "child"];
        bencher.bench_local(|| {
            let [p, c] = black_box(elements);
            format!("{protocol}://{system}@{host}:{port}/{p}/{c}")
        });
    }
}

mod name_uid {
    use super::*;

    /// The removed `NameAndUidBenchmarks` input.
    const INPUT: &str = "foo#11241311";

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        bencher.bench_local(|| split_name_and_uid(black_box(INPUT), Dialect::DotNet).unwrap());
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        bencher.bench_local(|| {
            let (name, uid) = black_box(INPUT).split_once('#').unwrap();
            (name, uid.parse::<i32>().unwrap())
        });
    }
}
