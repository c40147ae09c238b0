//! The TDS token reader: fed in random-sized chunks (sizes drawn from the
//! input's first bytes), it must read exactly what it reads when fed the
//! whole input at once, in both large-value modes, and taking whole rows
//! through `Reader::whole_row` must read the same as taking every row event
//! by event (but for a row the stream cuts off, which `whole_row` never
//! hands out). No panic, errors point inside the input, and every value prints.
#![no_main]

use leanwire_core::bumpalo::Bump;
use leanwire_core::tds::{Event, LargeValues, Metadata, Reader, Status, TdsVersion, Value};
use libfuzzer_sys::fuzz_target;

/// The line of column `column`'s value, printed both ways, wherever its
/// bytes lie.
fn value_line(column: u16, value: &Value<'_>) -> String {
    format!("  [{column}] {value} / {column} {value:?}")
}

/// What a run read: one line per event (streamed pieces joined), then the
/// error or the end state. With `whole_rows`, the rows `Reader::whole_row`
/// reads are written down as the events `next` would have given.
fn run(
    bytes: &[u8],
    sizes: &[usize],
    large: LargeValues,
    version: TdsVersion,
    whole_rows: bool,
) -> Vec<String> {
    let bump = Bump::new();
    bump.set_allocation_limit(Some(1 << 24));
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(version);
    reader.set_large_values(large);
    // As large as the input: no value or token can need more, so the
    // buffer's size never depends on the chunking.
    let mut buf = vec![0u8; bytes.len() + 64];
    let mut out: Vec<String> = Vec::new();
    let mut rest = bytes;
    let mut sizes = sizes.iter().copied().cycle();
    // The streamed value being read: its start, and its pieces joined.
    let mut streaming: Option<(String, Vec<u8>)> = None;
    while !rest.is_empty() {
        let n = sizes.next().unwrap_or(rest.len()).clamp(1, rest.len());
        let (mut chunk, tail) = rest.split_at(n);
        rest = tail;
        loop {
            if whole_rows && let Some(row) = reader.whole_row(&mut chunk, &meta, &mut buf) {
                assert!(streaming.is_none(), "a row inside a streamed value");
                let start = Event::RowStart(row.kind());
                out.push(format!("{start} / {start:?}"));
                for (column, value) in row.values().enumerate() {
                    out.push(value_line(column as u16, &value));
                }
                out.push(format!("{} / {:?}", Event::RowEnd, Event::RowEnd));
                continue;
            }
            match reader.next(&mut chunk, &mut meta, &mut buf) {
                Ok(Status::Complete(event)) => match event {
                    Event::ValueStart { .. } => {
                        assert!(streaming.is_none(), "a value inside a value");
                        streaming = Some((format!("{event:?}"), Vec::new()));
                    }
                    Event::ValueChunk { bytes, .. } => match streaming.as_mut() {
                        Some((_, joined)) => joined.extend_from_slice(bytes),
                        None => panic!("a chunk outside a streamed value"),
                    },
                    Event::ValueEnd { .. } => match streaming.take() {
                        Some((start, joined)) => {
                            out.push(format!("{start} {joined:02x?} {event:?}"))
                        }
                        None => panic!("an end outside a streamed value"),
                    },
                    // Where a value's bytes lie depends on the chunking;
                    // the value does not.
                    Event::Value { column, value, .. } => {
                        assert!(streaming.is_none(), "{event} inside a streamed value");
                        out.push(value_line(column, &value));
                    }
                    other => {
                        assert!(streaming.is_none(), "{other} inside a streamed value");
                        out.push(format!("{other} / {other:?}"));
                    }
                },
                Ok(Status::Partial) => break,
                Err(e) => {
                    assert!(e.offset() <= bytes.len(), "{e} past {}", bytes.len());
                    // A streamed value cut short by the error: how much of
                    // it was handed out depends on the chunking, so only
                    // its start counts.
                    if let Some((start, _)) = streaming.take() {
                        out.push(start);
                    }
                    out.push(format!("error {e:?}"));
                    return out;
                }
            }
        }
    }
    // Input ran out inside a streamed value: everything fed was handed out.
    if let Some((start, joined)) = streaming.take() {
        out.push(format!("{start} {joined:02x?} (unfinished)"));
    }
    out.push(format!("finish {:?} {}", reader.finish(), reader.state()));
    out
}

/// What `run` read, as a caller of `Reader::whole_row` sees it when the
/// stream ends inside a row: `whole_row` hands out whole rows only, so a
/// row it was gathering when the input ran out shows in nothing but
/// `finish`, where `next` would have given its first values.
fn without_cut_row(read: &[String]) -> Vec<String> {
    let Some((finish, events)) = read.split_last() else {
        return Vec::new();
    };
    let start = events
        .iter()
        .rposition(|line| line.starts_with("ROW /") || line.starts_with("NBCROW /"));
    let keep = match start {
        Some(start)
            if finish.starts_with("finish Err")
                && !events[start..]
                    .iter()
                    .any(|line| line.starts_with("ROWEND")) =>
        {
            start
        }
        _ => events.len(),
    };
    events[..keep].iter().chain([finish]).cloned().collect()
}

fuzz_target!(|data: &[u8]| {
    let Some((&control, rest)) = data.split_first() else {
        return;
    };
    // The low bits choose the mode and version, the rest how many of the
    // next bytes give chunk sizes.
    let large = if control & 1 == 0 {
        LargeValues::Assemble
    } else {
        LargeValues::Stream
    };
    let version = match (control >> 1) & 3 {
        0 => TdsVersion::V7_1,
        1 => TdsVersion::V7_2,
        2 => TdsVersion::V7_3B,
        _ => TdsVersion::V7_4,
    };
    let count = usize::from(control >> 3).min(rest.len());
    let (sizes, bytes) = rest.split_at(count);
    let sizes: Vec<usize> = sizes.iter().map(|&s| usize::from(s % 64) + 1).collect();
    let whole = run(bytes, &[bytes.len()], large, version, false);
    let chunked = run(bytes, &sizes, large, version, false);
    assert_eq!(whole, chunked, "sizes {sizes:?}");
    let bytewise = run(bytes, &[1], large, version, false);
    assert_eq!(whole, bytewise);
    // Streamed, a large value comes in pieces by events but whole in a row
    // read at once: only assembled values read the same both ways.
    if large == LargeValues::Assemble {
        for sizes in [&[bytes.len()][..], &sizes] {
            let rows = run(bytes, sizes, large, version, true);
            // A cut row that `whole_row` gathered has no events; one it left
            // to `next` has the same as without whole rows.
            assert!(
                rows == whole || rows == without_cut_row(&whole),
                "whole rows, sizes {sizes:?}:\n{rows:#?}\nvs\n{whole:#?}"
            );
        }
    }
});
