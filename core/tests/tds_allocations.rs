//! After the first COLMETADATA, reading rows touches neither the heap nor
//! the arena: values are borrowed from the chunk, or assembled in the
//! reader's scratch space or the caller's row buffer.

mod support {
    pub mod heap;
    #[allow(dead_code)]
    pub mod tds_cases;
}

use std::fmt::Write as _;

use leanwire_core::bumpalo::Bump;
use leanwire_core::tds::{Event, LargeValues, Metadata, Reader, Status, TdsVersion};
use support::heap::heap_allocations;
use support::tds_cases::build::{COLLATION, Tokens, b_value, plp, ucs2, us_value};
use support::tds_cases::{TYPES_TOKENS_HEX, hex};

/// COLMETADATA with one column of most types.
fn metadata() -> Tokens {
    let c = COLLATION;
    Tokens::new().colmetadata(&[
        ("int", vec![0x38]),
        ("intn", vec![0x26, 8]),
        ("dec", vec![0x6a, 17, 38, 4]),
        ("guid", vec![0x24, 16]),
        ("dt2", vec![0x2a, 7]),
        ("dto", vec![0x2b, 7]),
        ("money", vec![0x6e, 8]),
        ("datetime", vec![0x3d]),
        ("vc", [&[0xa7, 0x40, 0x1f][..], &c].concat()),
        ("nvc", [&[0xe7, 0x40, 0x1f][..], &c].concat()),
        ("vb", vec![0xa5, 0x40, 0x1f]),
        ("nvmax", [&[0xe7, 0xff, 0xff][..], &c].concat()),
        ("vbmax", vec![0xa5, 0xff, 0xff]),
    ])
}

/// One row; `i` varies the values.
fn row(tokens: Tokens, i: u64) -> Tokens {
    let text = "x".repeat((i % 50) as usize);
    let wide = ucs2(&format!("héllo {i} 😀"));
    let mut dec = vec![1];
    dec.extend((u128::from(i) * 12_345).to_le_bytes());
    let mut dt2 = (i * 10_000_000).to_le_bytes()[..5].to_vec();
    dt2.extend([0x80, 0x46, 0x0b]);
    let mut dto = dt2.clone();
    dto.extend((-300i16).to_le_bytes());
    let mut money = ((i as i64) >> 32).to_le_bytes()[..4].to_vec();
    money.extend((i as u32).to_le_bytes());
    let blob = vec![i as u8; (i % 300) as usize];
    tokens.row(&[
        (i as i32).to_le_bytes().to_vec(),
        b_value(&i.to_le_bytes()),
        b_value(&dec),
        b_value(&[7; 16]),
        b_value(&dt2),
        b_value(&dto),
        b_value(&money),
        [0u32.to_le_bytes(), 300u32.to_le_bytes()].concat(),
        us_value(text.as_bytes()),
        us_value(&wide),
        us_value(&blob),
        plp(None, &[&wide[..3], &wide[3..]]),
        plp(Some(blob.len() as u64), &[&blob]),
    ])
}

fn read_all(
    bytes: &[u8],
    chunk: usize,
    meta: &mut Metadata<'_>,
    reader: &mut Reader,
    buf: &mut [u8],
    text: &mut String,
) -> usize {
    let mut values = 0;
    for mut piece in bytes.chunks(chunk) {
        while let Status::Complete(event) = reader.next(&mut piece, meta, buf).unwrap() {
            match event {
                Event::Value { value, .. } => {
                    write!(text, "{value}|").unwrap();
                    values += 1;
                }
                Event::ValueChunk { bytes, .. } => {
                    let _ = bytes.len();
                }
                other => write!(text, "{other}").unwrap(),
            }
        }
    }
    values
}

#[test]
fn no_heap_allocation_per_row() {
    let head = metadata().0;
    let mut rows = Tokens::new();
    for i in 0..400 {
        rows = row(rows, i);
    }
    let rows = rows.done(400).0;

    for (chunk, large) in [
        (rows.len(), LargeValues::Assemble),
        (4096, LargeValues::Assemble),
        (7, LargeValues::Assemble),
        (1, LargeValues::Assemble),
        (13, LargeValues::Stream),
        (1, LargeValues::Stream),
    ] {
        let bump = Bump::new();
        let mut meta = Metadata::new(&bump);
        let mut reader = Reader::new(TdsVersion::V7_4);
        reader.set_large_values(large);
        let mut buf = vec![0u8; 8192];
        let mut text = String::with_capacity(1 << 22);
        read_all(
            &head,
            head.len(),
            &mut meta,
            &mut reader,
            &mut buf,
            &mut text,
        );
        let arena = bump.allocated_bytes();
        let mut values = 0;
        let n = heap_allocations(|| {
            values = read_all(&rows, chunk, &mut meta, &mut reader, &mut buf, &mut text);
        });
        assert_eq!(
            n, 0,
            "{n} allocations reading rows in {chunk}-byte chunks, {large:?}"
        );
        assert_eq!(
            bump.allocated_bytes(),
            arena,
            "the arena grew while reading rows"
        );
        let streamed = if large == LargeValues::Stream { 2 } else { 0 };
        assert_eq!(values, 400 * (13 - streamed));
        reader.finish().unwrap();
    }

    // The 14-type vector stream, one byte at a time: after its COLMETADATA,
    // nothing allocates.
    let types = hex(TYPES_TOKENS_HEX);
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    let mut buf = [0u8; 256];
    let mut text = String::with_capacity(1 << 16);
    let mut input = &types[..];
    let start = reader.next(&mut input, &mut meta, &mut buf).unwrap();
    assert!(matches!(
        start,
        Status::Complete(Event::ColMetadataStart { .. })
    ));
    let first = reader.next(&mut input, &mut meta, &mut buf).unwrap();
    assert!(matches!(first, Status::Complete(Event::Token(_))));
    let rows = input;
    assert_eq!(rows[0], 0xd1);
    let n = heap_allocations(|| {
        read_all(rows, 1, &mut meta, &mut reader, &mut buf, &mut text);
    });
    assert_eq!(n, 0);
    assert!(text.contains("2024-02-29T08:14:15.1234567-05:00"), "{text}");
}
