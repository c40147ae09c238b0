//! Chunking never changes what the reader reads: for every vector stream
//! and any chunking (one byte at a time, every split point, random sizes),
//! the events, the error and the end state equal those of feeding the
//! whole buffer at once, in both large-value modes.

mod support {
    #[allow(dead_code)]
    pub mod tds_cases;
}

use std::sync::OnceLock;

use leanwire_core::tds::LargeValues;
use proptest::prelude::*;
use support::tds_cases::{Rows, Run, Stream, all_streams, group, read, read_rows};

const BUF: usize = 1 << 16;

fn streams() -> &'static [Stream] {
    static STREAMS: OnceLock<Vec<Stream>> = OnceLock::new();
    STREAMS.get_or_init(all_streams)
}

fn whole(stream: &Stream, large: LargeValues) -> Run {
    read(stream, &[], large, BUF)
}

/// Streamed values arrive in chunking-dependent pieces: compare them joined.
fn same(a: &Run, b: &Run, large: LargeValues) -> bool {
    match large {
        LargeValues::Assemble => a == b,
        _ => (group(&a.events), a.error, a.finish) == (group(&b.events), b.error, b.finish),
    }
}

#[test]
fn there_are_streams_of_every_kind() {
    let streams = streams();
    assert!(streams.len() >= 100, "{}", streams.len());
    assert!(streams.iter().any(|s| s.bytes.len() > 5000));
}

#[test]
fn one_byte_at_a_time_for_every_vector() {
    for large in [LargeValues::Assemble, LargeValues::Stream] {
        for stream in streams() {
            let want = whole(stream, large);
            let got = read(stream, &[1], large, BUF);
            assert!(
                same(&got, &want, large),
                "{} ({large:?}): {got:?}\nvs {want:?}",
                stream.name
            );
        }
    }
}

#[test]
fn every_split_point_for_every_vector() {
    for stream in streams() {
        let want = whole(stream, LargeValues::Assemble);
        let len = stream.bytes.len();
        // Every point of the short streams; 300 spread points of the long ones.
        let step = (len / 300).max(1);
        for cut in (1..len).step_by(step) {
            let got = read(stream, &[cut, len], LargeValues::Assemble, BUF);
            assert_eq!(got, want, "{} split at {cut}", stream.name);
        }
    }
}

#[test]
fn whole_rows_read_as_the_events_do() {
    let mut whole_rows = 0;
    for large in [LargeValues::Assemble, LargeValues::Stream] {
        for stream in streams() {
            let len = stream.bytes.len();
            let step = (len / 100).max(1);
            let mut chunkings: Vec<Vec<usize>> = vec![vec![], vec![1], vec![4096]];
            chunkings.extend((1..len).step_by(step).map(|cut| vec![cut, len]));
            for chunks in &chunkings {
                let want = read(stream, chunks, large, BUF);
                let (got, whole) = read_rows(stream, chunks, large, BUF, Rows::Whole);
                whole_rows += whole;
                // Wider than the planned columns, or with values in several
                // chunks to join, and read whole all the same.
                let built = ["wide_rows (built)", "joined_plp_values (built)"];
                if built.contains(&stream.name.as_str()) && chunks.is_empty() {
                    assert_eq!((whole, want.error), (2, None), "{want:?}");
                }
                assert!(
                    same(&got, &want, large),
                    "{} ({large:?}, chunks {chunks:?}): {got:?}\nvs {want:?}",
                    stream.name
                );
            }
        }
    }
    assert!(whole_rows > 900, "{whole_rows} rows read whole");
}

#[test]
fn streamed_and_assembled_values_agree() {
    for stream in streams() {
        let assembled = whole(stream, LargeValues::Assemble);
        let streamed = whole(stream, LargeValues::Stream);
        assert!(
            same(&assembled, &streamed, LargeValues::Stream),
            "{}",
            stream.name
        );
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn random_chunkings_read_the_same(
        sizes in proptest::collection::vec(1usize..40, 1..12),
        pick in proptest::collection::vec(any::<prop::sample::Index>(), 12),
        streamed in any::<bool>(),
    ) {
        let large = if streamed { LargeValues::Stream } else { LargeValues::Assemble };
        let streams = streams();
        for index in &pick {
            let stream = &streams[index.index(streams.len())];
            let want = whole(stream, large);
            let got = read(stream, &sizes, large, BUF);
            prop_assert!(same(&got, &want, large), "{} with {sizes:?}", stream.name);
        }
    }
}
