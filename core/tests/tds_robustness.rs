//! Hostile and unusual TDS input, one test per defect: lying lengths,
//! broken text, truncation at every byte, too many columns, missing
//! metadata, undersized buffers, random bytes. Nothing may panic, every
//! error names its token (and column) and points inside the input, and no
//! chunking changes the answer.

mod support {
    #[allow(dead_code)]
    pub mod tds_cases;
}

use leanwire_core::bumpalo::Bump;
use leanwire_core::tds::{
    DataType, Error, ErrorKind, Event, LargeValues, MetaPart, Metadata, Reader, ReaderState, Site,
    SqlValue, Status, TdsVersion, Token, TokenType, ValuePart, ValueSource,
};
use proptest::prelude::*;
use support::tds_cases::build::{
    COLLATION, Tokens, b_value, b_varchar, plp, ucs2, us_value, us_varchar,
};
use support::tds_cases::{Rows, all_streams, lines, read_rows, stream};

const ASSEMBLE: LargeValues = LargeValues::Assemble;
const STREAM: LargeValues = LargeValues::Stream;

fn row_site(column: u16) -> Site {
    Site::column(TokenType::Row, column)
}

/// The error reading `bytes` in `chunk`-byte chunks.
fn error(bytes: &[u8], chunk: usize, large: LargeValues) -> Error {
    lines(bytes, chunk, large).expect_err("an error")
}

/// The same error at every chunk size, in both modes, and whether rows are
/// read an event at a time or whole.
fn same_error_every_way(bytes: &[u8]) -> Error {
    let want = error(bytes, bytes.len(), ASSEMBLE);
    let hostile = stream("hostile", bytes.to_vec());
    for chunk in 1..=bytes.len() {
        for large in [ASSEMBLE, STREAM] {
            assert_eq!(error(bytes, chunk, large), want, "chunk {chunk} {large:?}");
            let (whole, _) = read_rows(&hostile, &[chunk], large, 1 << 16, Rows::Whole);
            assert_eq!(
                whole.error,
                Some((want.kind(), want.offset())),
                "whole rows, chunk {chunk} {large:?}"
            );
        }
    }
    want
}

/// The same lines at every chunk size, as read whole. Streamed, a value's
/// pieces follow the chunking, so they are compared joined.
fn same_lines_every_way(bytes: &[u8], large: LargeValues) -> Vec<String> {
    let want = lines(bytes, bytes.len(), large).unwrap();
    for chunk in 1..bytes.len() {
        let got = lines(bytes, chunk, large).unwrap();
        assert_eq!(joined_pieces(&got), joined_pieces(&want), "chunk {chunk}");
    }
    want
}

/// `lines` with each run of one column's `chunk 0x…` lines made one line.
fn joined_pieces(lines: &[String]) -> Vec<String> {
    let mut joined: Vec<String> = Vec::new();
    for line in lines {
        if let (Some(last), Some((column, hex))) = (joined.last_mut(), line.split_once(" chunk 0x"))
            && last.starts_with(&format!("{column} chunk 0x"))
        {
            last.push_str(hex);
        } else {
            joined.push(line.clone());
        }
    }
    joined
}

/// A COLMETADATA of `count` INTN(4) columns, named `c0`, `c1`, and so on.
fn intn_columns(count: usize) -> Tokens {
    let names: Vec<String> = (0..count).map(|i| format!("c{i}")).collect();
    let columns: Vec<(&str, Vec<u8>)> = names.iter().map(|n| (n.as_str(), vec![0x26, 4])).collect();
    Tokens::new().colmetadata(&columns)
}

fn nvarchar(max: u16) -> Vec<u8> {
    [&[0xe7][..], &max.to_le_bytes(), &COLLATION].concat()
}

#[test]
fn unknown_token_id() {
    let bytes = Tokens::new().done(0).raw(&[0x12, 0xfd]).0;
    let e = same_error_every_way(&bytes);
    assert_eq!((e.kind(), e.offset()), (ErrorKind::UnknownToken(0x12), 13));
    assert_eq!(e.to_string(), "unknown token 0x12 at byte 13");
}

#[test]
fn unsupported_tokens_are_named() {
    for byte in [0xa3, 0x88, 0xd3] {
        let e = error(&[byte], 1, ASSEMBLE);
        assert_eq!(e.kind(), ErrorKind::UnsupportedToken(TokenType::from(byte)));
    }
}

#[test]
fn more_than_4096_columns() {
    let e = same_error_every_way(&[0x81, 0x01, 0x10, 0, 0]);
    assert_eq!((e.kind(), e.offset()), (ErrorKind::TooManyColumns(4097), 1));
    assert_eq!(e.kind().site(), Some(Site::token(TokenType::ColMetadata)));
    // After a DONE of 13 bytes, at the count.
    let bytes = Tokens::new().done(0).raw(&[0x81, 0x01, 0x10, 0, 0]).0;
    let e = same_error_every_way(&bytes);
    assert_eq!(
        (e.kind(), e.offset()),
        (ErrorKind::TooManyColumns(4097), 14)
    );
}

#[test]
fn a_different_metadata_inside_a_colmetadata_is_no_metadata() {
    // Two INT columns "a" and "b", 10 bytes each after the count.
    let bytes = Tokens::new()
        .colmetadata(&[("a", vec![0x38]), ("b", vec![0x38])])
        .0;
    let bump = Bump::new();
    // Once the columns' room is made (after the count), the rest of the
    // token must go into the same Metadata.
    for split in 4..bytes.len() {
        let (mut first, mut rest) = bytes.split_at(split);
        let mut reader = Reader::new(TdsVersion::V7_4);
        let mut meta = Metadata::new(&bump);
        while let Status::Complete(_) = reader.next(&mut first, &mut meta, &mut []).unwrap() {}
        let mut other = Metadata::new(&bump);
        let e = reader.next(&mut rest, &mut other, &mut []).unwrap_err();
        let column = u16::from(split >= 3 + 10);
        assert_eq!(
            (e.kind(), e.offset()),
            (
                ErrorKind::NoMetadata(Site::column(TokenType::ColMetadata, column)),
                split
            ),
            "split at {split}"
        );
    }
}

#[test]
fn exactly_4096_columns_and_an_all_null_nbcrow() {
    let all: Vec<usize> = (0..4096).collect();
    let bytes = intn_columns(4096)
        .nbcrow(4096, &all[..4095], &[b_value(&7i32.to_le_bytes())])
        .0;
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    let mut input = &bytes[..];
    let mut values = Vec::new();
    while let Status::Complete(event) = reader.next(&mut input, &mut meta, &mut []).unwrap() {
        match event {
            Event::RowStart(_) => {
                assert_eq!(reader.is_null(0), Some(true));
                assert_eq!(reader.is_null(4094), Some(true));
                assert_eq!(reader.is_null(4095), Some(false));
                assert_eq!(reader.is_null(4096), None);
            }
            Event::Value { column, value, .. } => values.push((column, value.to_string())),
            _ => {}
        }
    }
    assert_eq!(values.len(), 4096);
    assert_eq!(values[4095], (4095, "7".into()));
    assert_eq!(values[17], (17, "NULL".into()));
}

#[test]
fn plp_total_disagrees_with_chunks() {
    let head = Tokens::new()
        .colmetadata(&[("v", vec![0xa5, 0xff, 0xff])])
        .0;
    // Total 7, chunks of 3 and 3: wrong at the terminator.
    let short = Tokens::new()
        .raw(&head)
        .row(&[plp(Some(7), &[b"abc", b"def"])])
        .0;
    let terminator = short.len() - 4;
    let e = same_error_every_way(&short);
    assert_eq!(
        (e.kind(), e.offset()),
        (ErrorKind::PlpLengthMismatch(row_site(0)), terminator)
    );
    // Total 5, chunks of 3 and 3: wrong as soon as the second length is read.
    let long = Tokens::new()
        .raw(&head)
        .row(&[plp(Some(5), &[b"abc", b"def"])])
        .0;
    let second = head.len() + 1 + 8 + 4 + 3;
    let e = same_error_every_way(&long);
    assert_eq!(
        (e.kind(), e.offset()),
        (ErrorKind::PlpLengthMismatch(row_site(0)), second)
    );
    // A single chunk longer than the total.
    let one = Tokens::new().raw(&head).row(&[plp(Some(2), &[b"abc"])]).0;
    let e = same_error_every_way(&one);
    assert_eq!(e.offset(), head.len() + 1 + 8);
}

#[test]
fn a_large_value_whole_in_its_chunk_is_borrowed() {
    // varbinary(max): one chunk and the terminator, then two chunks, which
    // must be joined in the caller's buffer.
    let head = Tokens::new()
        .colmetadata(&[("v", vec![0xa5, 0xff, 0xff])])
        .0;
    let bytes = Tokens::new()
        .raw(&head)
        .row(&[plp(Some(3), &[b"abc"])])
        .row(&[plp(Some(6), &[b"abc", b"def"])])
        .0;
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    let mut buf = [0u8; 16];
    let mut input = &bytes[..];
    let mut sources = Vec::new();
    while let Status::Complete(event) = reader.next(&mut input, &mut meta, &mut buf).unwrap() {
        if let Event::Value { source, .. } = event {
            sources.push(source);
        }
    }
    // The value's call began just after the ROW byte: the data follows the
    // 8-byte total and the chunk's 4-byte length.
    assert_eq!(
        sources,
        [
            Some(ValueSource::Chunk { offset: 8 + 4 }),
            Some(ValueSource::Buffer { offset: 0 })
        ]
    );
}

#[test]
fn a_whole_row_borrows_values_in_one_piece_and_joins_the_rest() {
    let stream = all_streams()
        .into_iter()
        .find(|s| s.name == "joined_plp_values (built)")
        .unwrap();
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    let mut buf = [0u8; 256];
    let mut input = &stream.bytes[..];
    while let Status::Complete(event) = reader.next(&mut input, &mut meta, &mut buf).unwrap() {
        if let Event::Token(Token::ColMetadata(_)) = event {
            break;
        }
    }
    let mut rows = Vec::new();
    while let Some(row) = reader.whole_row(&mut input, &meta, &mut buf) {
        assert_eq!(
            (row.len(), row.values().len(), row.is_empty()),
            (4, 4, false)
        );
        let values: Vec<Option<Vec<u8>>> = row
            .values()
            .map(|v| v.bytes().map(<[u8]>::to_vec))
            .collect();
        rows.push((values, row.sources().collect::<Vec<_>>()));
    }
    assert_eq!(input.first(), Some(&0xfd), "both rows read whole");
    // Offsets in the input count from the ROW byte. The buffer starts with
    // the row's index, 8 bytes per column, and the joined values follow it.
    let (chunk, joined) = (
        |offset: usize| Some(ValueSource::Chunk { offset }),
        |at: usize| Some(ValueSource::Buffer { offset: 4 * 8 + at }),
    );
    let text = ucs2("héllo, wörld");
    assert_eq!(
        rows[0],
        (
            vec![
                Some(b"abcdefghi".to_vec()),
                Some(text),
                Some(7i32.to_le_bytes().to_vec()),
                Some(b"vwxyz".to_vec()),
            ],
            // The INT follows 33 bytes of "abcdefghi" in three chunks and
            // 48 of the text in three; "vwxyz" its total and its length.
            vec![
                joined(0),
                joined(9),
                chunk(1 + 33 + 48),
                chunk(1 + 33 + 48 + 4 + 8 + 4)
            ],
        )
    );
    assert_eq!(
        rows[1],
        (
            vec![
                Some(b"one piece".to_vec()),
                None,
                Some((-7i32).to_le_bytes().to_vec()),
                Some(b"0123456789".to_vec()),
            ],
            // "one piece" follows its total and its length, and the INT
            // its 25 bytes and the NULL's 8.
            vec![chunk(1 + 8 + 4), None, chunk(1 + 25 + 8), joined(0)],
        )
    );
}

#[test]
fn a_plp_value_needs_a_buffer_as_large_as_its_data() {
    // Two chunks are joined in the caller's buffer, however the value is fed.
    let head = Tokens::new()
        .colmetadata(&[("v", vec![0xa5, 0xff, 0xff])])
        .0;
    let bytes = Tokens::new()
        .raw(&head)
        .row(&[plp(Some(6), &[b"abc", b"def"])])
        .0;
    let bump = Bump::new();
    let run = |chunk: usize, buf: &mut [u8]| -> Result<Vec<u8>, Error> {
        let mut meta = Metadata::new(&bump);
        let mut reader = Reader::new(TdsVersion::V7_4);
        let mut seen = Vec::new();
        for mut piece in bytes.chunks(chunk) {
            while let Status::Complete(event) = reader.next(&mut piece, &mut meta, buf)? {
                if let Event::Value { value, .. } = event {
                    seen = value.bytes().unwrap().to_vec();
                }
            }
        }
        Ok(seen)
    };
    let second_length_at = head.len() + 1 + 8 + 4 + 3;
    for chunk in 1..=bytes.len() {
        assert_eq!(
            run(chunk, &mut [0; 6]).as_deref(),
            Ok(&b"abcdef"[..]),
            "chunk {chunk}"
        );
        let e = run(chunk, &mut [0; 5]).unwrap_err();
        assert_eq!(
            (e.kind(), e.offset()),
            (ErrorKind::BufferTooSmall(row_site(0)), second_length_at),
            "chunk {chunk}"
        );
    }
}

#[test]
fn a_plp_chunk_length_split_after_its_first_byte() {
    // A chunk of 256 bytes has the length 00 01 00 00. Split after its
    // first byte, the other three and the chunk's first byte, 00, would
    // read as a chunk of 1 byte.
    let first: Vec<u8> = (0..=255).collect();
    let bytes = Tokens::new()
        .colmetadata(&[("v", vec![0xa5, 0xff, 0xff])])
        .row(&[plp(None, &[&first, b"xy"])])
        .0;
    let lines = same_lines_every_way(&bytes, ASSEMBLE);
    let hex: String = first
        .iter()
        .chain(b"xy")
        .map(|b| format!("{b:02X}"))
        .collect();
    assert_eq!(lines[3], format!("  [0] 0x{hex}"));
}

#[test]
fn plp_chunks_of_one_byte() {
    let head = Tokens::new()
        .colmetadata(&[("v", vec![0xa5, 0xff, 0xff]), ("i", vec![0x38])])
        .0;
    let bytes = Tokens::new()
        .raw(&head)
        .row(&[plp(None, &[b"a", b"b", b"c"]), 7i32.to_le_bytes().to_vec()])
        .0;
    let lines = same_lines_every_way(&bytes, ASSEMBLE);
    assert_eq!(lines[3..], ["  [0] 0x616263", "  [1] 7", "ROWEND"]);
    let streamed = same_lines_every_way(&bytes, STREAM);
    assert_eq!(streamed[3], "  [0] start");
    assert_eq!(
        streamed[streamed.len() - 3..],
        ["  [0] end", "  [1] 7", "ROWEND"]
    );
}

#[test]
fn row_split_inside_plp_chunk() {
    let text = ucs2("héllo 😀 wörld");
    // Chunks that split a code unit (5) and a surrogate pair (15).
    let value = plp(None, &[&text[..5], &text[5..15], &text[15..]]);
    let bytes = Tokens::new()
        .colmetadata(&[("n", nvarchar(0xffff)), ("i", vec![0x38])])
        .row(&[value.clone(), 5i32.to_le_bytes().to_vec()])
        .row(&[
            plp(Some(text.len() as u64), &[&text]),
            6i32.to_le_bytes().to_vec(),
        ])
        .0;
    let want = same_lines_every_way(&bytes, ASSEMBLE);
    assert_eq!(want[3], "  [0] héllo 😀 wörld");
    assert_eq!(want[7], "  [0] héllo 😀 wörld");
    // Streamed, the pieces join to the same bytes at every chunking.
    for chunk in 1..bytes.len() {
        let lines = lines(&bytes, chunk, STREAM).unwrap();
        let mut joined = Vec::new();
        for line in lines.iter().filter(|l| l.starts_with("  [0] chunk 0x")) {
            let hex = &line["  [0] chunk 0x".len()..];
            joined.extend(leanwire_core::hex::decode(hex).map(Result::unwrap));
        }
        assert_eq!(joined, [&text[..], &text[..]].concat(), "chunk {chunk}");
    }
}

#[test]
fn unpaired_surrogate_in_nvarchar() {
    let head = Tokens::new()
        .colmetadata(&[("i", vec![0x38]), ("n", nvarchar(20))])
        .0;
    let int = 1i32.to_le_bytes().to_vec();
    // A high surrogate followed by 'A': the error is at the high surrogate.
    let high = [0x41, 0, 0x3d, 0xd8, 0x41, 0];
    let bytes = Tokens::new()
        .raw(&head)
        .row(&[int.clone(), us_value(&high)])
        .0;
    let at = head.len() + 1 + 4 + 2 + 2;
    let e = same_error_every_way(&bytes);
    assert_eq!(
        (e.kind(), e.offset()),
        (ErrorKind::InvalidUcs2(row_site(1)), at)
    );
    assert_eq!(
        e.to_string(),
        format!("invalid UCS-2 in ROW column 1 at byte {at}")
    );
    // A lone low surrogate.
    let low = [0x00, 0xdc];
    let bytes = Tokens::new()
        .raw(&head)
        .row(&[int.clone(), us_value(&low)])
        .0;
    let e = same_error_every_way(&bytes);
    assert_eq!(e.offset(), head.len() + 1 + 4 + 2);
    // A high surrogate at the very end of the value.
    let end = [0x41, 0, 0x3d, 0xd8];
    let bytes = Tokens::new()
        .raw(&head)
        .row(&[int.clone(), us_value(&end)])
        .0;
    assert_eq!(
        same_error_every_way(&bytes).offset(),
        head.len() + 1 + 4 + 2 + 2
    );
    // In nvarchar(max), with the pair split across PLP chunks and the
    // second half not a low surrogate.
    let head = Tokens::new().colmetadata(&[("n", nvarchar(0xffff))]).0;
    let bytes = Tokens::new()
        .raw(&head)
        .row(&[plp(None, &[&[0x41, 0, 0x3d], &[0xd8, 0x42, 0]])])
        .0;
    let e = same_error_every_way(&bytes);
    assert_eq!(
        (e.kind(), e.offset()),
        (
            ErrorKind::InvalidUcs2(row_site(0)),
            head.len() + 1 + 8 + 4 + 2
        )
    );
}

#[test]
fn odd_length_nvarchar() {
    let head = Tokens::new().colmetadata(&[("n", nvarchar(20))]).0;
    let bytes = Tokens::new()
        .raw(&head)
        .row(&[us_value(&[0x41, 0, 0x42])])
        .0;
    let e = same_error_every_way(&bytes);
    assert_eq!(
        (e.kind(), e.offset()),
        (ErrorKind::InvalidUcs2(row_site(0)), bytes.len() - 1)
    );
}

#[test]
fn value_longer_than_its_column() {
    let head = Tokens::new()
        .colmetadata(&[("v", [&[0xa7, 10, 0][..], &COLLATION].concat())])
        .0;
    let bytes = Tokens::new().raw(&head).row(&[us_value(b"hello world")]).0;
    let e = same_error_every_way(&bytes);
    assert_eq!(
        (e.kind(), e.offset()),
        (ErrorKind::LengthOverflow(row_site(0)), head.len() + 1)
    );
}

#[test]
fn text_longer_than_its_column() {
    // An image column of at most 4 bytes, its table name of no parts. A
    // value is its text pointer and timestamp, then its 4-byte length and data.
    let head = Tokens::new()
        .colmetadata(&[("i", [&[0x22][..], &4u32.to_le_bytes(), &[0]].concat())])
        .0;
    let image = |data: &[u8]| {
        let mut out = vec![16];
        out.extend([0xab; 16 + 8]);
        out.extend((data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
        out
    };
    let fits = Tokens::new()
        .raw(&head)
        .row(&[image(b"\x01\x02\x03\x04")])
        .0;
    assert_eq!(same_lines_every_way(&fits, ASSEMBLE)[3], "  [0] 0x01020304");
    let bytes = Tokens::new()
        .raw(&head)
        .row(&[image(b"\x01\x02\x03\x04\x05")])
        .0;
    let e = same_error_every_way(&bytes);
    let length_at = head.len() + 1 + 1 + 24;
    assert_eq!(
        (e.kind(), e.offset()),
        (ErrorKind::LengthOverflow(row_site(0)), length_at)
    );
}

#[test]
fn metadata_debug_shows_its_columns_and_hides_the_build() {
    let bytes = Tokens::new().colmetadata(&[("id", vec![0x38])]).0;
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    assert_eq!(
        format!("{meta:?}"),
        "Metadata { generation: 0, columns: [], return_value: None, .. }"
    );
    let mut input = &bytes[..];
    let mut reader = Reader::new(TdsVersion::V7_4);
    while reader
        .next(&mut input, &mut meta, &mut [])
        .unwrap()
        .complete()
        .is_some()
    {}
    let debug = format!("{meta:?}");
    assert!(
        debug.starts_with("Metadata { generation: 1, columns: [Column {"),
        "{debug}"
    );
    assert!(debug.ends_with("], return_value: None, .. }"), "{debug}");
}

#[test]
fn a_reader_stopped_inside_colmetadata_says_where() {
    // Two INT columns, the second named "name" (1 length byte, 8 bytes).
    let bytes = Tokens::new()
        .colmetadata(&[("id", vec![0x38]), ("name", vec![0x38])])
        .0;
    let state_at = |stop: usize| {
        let bump = Bump::new();
        let mut meta = Metadata::new(&bump);
        let mut reader = Reader::new(TdsVersion::V7_4);
        let mut input = &bytes[..stop];
        while reader
            .next(&mut input, &mut meta, &mut [])
            .unwrap()
            .complete()
            .is_some()
        {}
        (reader.state(), reader.state().to_string())
    };
    let in_column_1 = |part| ReaderState::Metadata {
        token: TokenType::ColMetadata,
        column: 1,
        part,
    };
    assert_eq!(
        state_at(bytes.len() - 9),
        (
            in_column_1(MetaPart::NameLength),
            "in COLMETADATA column 1, reading a name's length".into()
        )
    );
    assert_eq!(
        state_at(bytes.len() - 3),
        (
            in_column_1(MetaPart::Name),
            "in COLMETADATA column 1, reading a name".into()
        )
    );
}

#[test]
fn impossible_values() {
    let cases: [(Vec<u8>, Vec<u8>, usize); 6] = [
        // decimal with sign byte 2
        (vec![0x6a, 5, 9, 2], b_value(&[2, 1, 0, 0, 0]), 1),
        // intn of length 3
        (vec![0x26, 4], b_value(&[1, 2, 3]), 0),
        // intn of length 5: longer than its column, but no intn has 5 bytes
        (vec![0x26, 4], b_value(&[1, 2, 3, 4, 5]), 0),
        // time(0) at 24:00:00
        (vec![0x29, 0], b_value(&[0x80, 0x51, 0x01]), 1),
        // datetimeoffset with a +15:00 offset
        (vec![0x2b, 0], b_value(&[0, 0, 0, 0, 0, 0, 0x84, 0x03]), 7),
        // smalldatetime at minute 1440
        (vec![0x3a], vec![0, 0, 0xa0, 0x05], 2),
    ];
    for (type_info, value, at) in cases {
        let head = Tokens::new().colmetadata(&[("v", type_info.clone())]).0;
        let bytes = Tokens::new().raw(&head).row(&[value]).0;
        let e = same_error_every_way(&bytes);
        assert_eq!(
            e.kind(),
            ErrorKind::InvalidValue(row_site(0)),
            "{type_info:?}"
        );
        assert_eq!(e.offset(), head.len() + 1 + at, "{type_info:?}");
    }
}

#[test]
fn row_before_colmetadata() {
    let e = same_error_every_way(&[0xd1, 1, 0, 0, 0]);
    assert_eq!(
        (e.kind(), e.offset()),
        (ErrorKind::NoMetadata(Site::token(TokenType::Row)), 0)
    );
    let e = error(&[0xd2, 0], 1, ASSEMBLE);
    assert_eq!(
        e.kind(),
        ErrorKind::NoMetadata(Site::token(TokenType::NbcRow))
    );
}

#[test]
fn metadata_swapped_between_result_sets() {
    let head = Tokens::new().colmetadata(&[("i", vec![0x38])]).0;
    let row = Tokens::new().row(&[5i32.to_le_bytes().to_vec()]).done(1).0;
    let mut reader = Reader::new(TdsVersion::V7_4);
    let first = Bump::new();
    let mut meta = Metadata::new(&first);
    let mut input = &head[..];
    while reader
        .next(&mut input, &mut meta, &mut [])
        .unwrap()
        .complete()
        .is_some()
    {}
    // A fresh arena and metadata, as a caller resetting between result
    // sets would have: the reader refuses to read a row by it.
    let second = Bump::new();
    let mut fresh = Metadata::new(&second);
    let mut input = &row[..];
    let e = reader.next(&mut input, &mut fresh, &mut []).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::NoMetadata(Site::token(TokenType::Row)));
    // And the error sticks.
    assert_eq!(reader.next(&mut input, &mut meta, &mut []).unwrap_err(), e);
    assert_eq!(reader.state(), ReaderState::Failed);
}

#[test]
fn no_metadata_colmetadata_keeps_the_columns() {
    let bytes = Tokens::new()
        .colmetadata(&[("i", vec![0x38])])
        .raw(&[0x81, 0xff, 0xff])
        .row(&[9i32.to_le_bytes().to_vec()])
        .0;
    let lines = same_lines_every_way(&bytes, ASSEMBLE);
    // No start: the columns stay.
    assert_eq!(lines[1], "COLMETADATA [i int]");
    assert_eq!(lines[2], "COLMETADATA (no metadata) [i int]");
    assert_eq!(lines[4], "  [0] 9");
}

#[test]
fn split_value_larger_than_row_buffer() {
    let head = Tokens::new()
        .colmetadata(&[("v", [&[0xa7, 0x40, 0x1f][..], &COLLATION].concat())])
        .0;
    let value = vec![b'x'; 100];
    let bytes = Tokens::new().raw(&head).row(&[us_value(&value)]).0;
    let bump = Bump::new();
    let run = |chunk: usize, buf: &mut [u8]| -> Result<usize, Error> {
        let mut meta = Metadata::new(&bump);
        let mut reader = Reader::new(TdsVersion::V7_4);
        let mut seen = 0;
        for mut piece in bytes.chunks(chunk) {
            while let Status::Complete(event) = reader.next(&mut piece, &mut meta, buf)? {
                if let Event::Value { value, .. } = event {
                    seen = value.bytes().unwrap().len();
                }
            }
        }
        Ok(seen)
    };
    // In one piece it is borrowed: no buffer needed.
    assert_eq!(run(bytes.len(), &mut []), Ok(100));
    // Split, it needs 100 bytes of buffer.
    let e = run(bytes.len() - 10, &mut [0; 99]).unwrap_err();
    assert_eq!(
        (e.kind(), e.offset()),
        (ErrorKind::BufferTooSmall(row_site(0)), head.len() + 3)
    );
    assert_eq!(run(bytes.len() - 10, &mut [0; 100]), Ok(100));
    // Up to 32 bytes split needs no buffer (the reader's scratch space).
    let small = Tokens::new().raw(&head).row(&[us_value(&value[..32])]).0;
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    for mut piece in small.chunks(1) {
        while reader
            .next(&mut piece, &mut meta, &mut [])
            .unwrap()
            .complete()
            .is_some()
        {}
    }
    reader.finish().unwrap();
}

#[test]
fn unknown_data_type_in_colmetadata() {
    let bytes = Tokens::new()
        .colmetadata(&[("a", vec![0x38]), ("b", vec![0x99])])
        .0;
    let e = same_error_every_way(&bytes);
    let site = Site::column(TokenType::ColMetadata, 1);
    assert_eq!(
        (e.kind(), e.offset()),
        (ErrorKind::UnknownDataType(site, 0x99), 3 + 10 + 6)
    );
    let json = Tokens::new().colmetadata(&[("j", vec![0xf4])]).0;
    let e = error(&json, 1, ASSEMBLE);
    assert_eq!(
        e.kind(),
        ErrorKind::Unsupported(Site::column(TokenType::ColMetadata, 0))
    );
}

#[test]
fn invalid_type_info() {
    // The type byte follows the token byte, the count, the user type and
    // the flags; each defect is the byte after it named here.
    let type_at = 1 + 2 + 4 + 2;
    for (type_info, after) in [
        // INTN of 3 bytes.
        (vec![0x26, 3], 1),
        // DECIMALN of 1 byte, of precision 39, of scale 6 > precision 5.
        (vec![0x6a, 1, 5, 0], 1),
        (vec![0x6a, 17, 39, 0], 2),
        (vec![0x6a, 5, 5, 6], 3),
        // TIME of scale 8.
        (vec![0x29, 8], 1),
        // XML whose schema-present byte is neither 0 nor 1.
        (vec![0xf1, 2], 1),
        // NVARCHAR of an odd length.
        ([&[0xe7, 3, 0][..], &COLLATION].concat(), 1),
    ] {
        let defect = type_at + after;
        let bytes = Tokens::new().colmetadata(&[("a", type_info.clone())]).0;
        let e = same_error_every_way(&bytes);
        let site = Site::column(TokenType::ColMetadata, 0);
        assert_eq!(
            (e.kind(), e.offset()),
            (ErrorKind::InvalidTypeInfo(site), defect),
            "{type_info:?}"
        );
    }
}

#[test]
fn token_length_disagrees_with_fields() {
    // LOGINACK whose Length counts one byte more than its fields.
    let mut body = vec![1, 0x74, 0, 0, 4];
    body.extend(b_varchar("x"));
    body.extend([1, 0, 0, 0, 0xee]);
    let mut bytes = vec![0xad];
    bytes.extend((body.len() as u16).to_le_bytes());
    bytes.extend(&body);
    let e = same_error_every_way(&bytes);
    let site = Site::token(TokenType::LoginAck);
    assert_eq!(
        (e.kind(), e.offset()),
        (ErrorKind::LengthMismatch(site), bytes.len() - 1)
    );
    // INFO whose Length is too short for its message.
    let mut body = vec![1, 0, 0, 0, 1, 0];
    body.extend(us_varchar("message"));
    let mut bytes = vec![0xab];
    bytes.extend((body.len() as u16).to_le_bytes());
    bytes.extend(&body);
    let e = same_error_every_way(&bytes);
    assert_eq!(
        (e.kind(), e.offset()),
        (
            ErrorKind::LengthMismatch(Site::token(TokenType::Info)),
            bytes.len()
        )
    );
}

#[test]
fn eof_inside_a_token() {
    let stream = all_streams()
        .into_iter()
        .find(|s| s.name == "types_tokens.hex")
        .unwrap();
    let bytes = &stream.bytes;
    // Token boundaries: where the reader stood after each token or row.
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    let mut input = &bytes[..];
    let mut boundaries = vec![0];
    while let Status::Complete(event) = reader.next(&mut input, &mut meta, &mut [0; 64]).unwrap() {
        if matches!(event, Event::Token(_) | Event::RowEnd) {
            boundaries.push(reader.offset() as usize);
        }
    }
    for cut in 0..=bytes.len() {
        let result = lines(&bytes[..cut], 3, ASSEMBLE);
        match result {
            Ok(_) => assert!(boundaries.contains(&cut), "cut {cut} finished"),
            Err(e) => {
                assert!(!boundaries.contains(&cut), "cut {cut}: {e}");
                assert_eq!(e.offset(), cut);
                assert!(matches!(e.kind(), ErrorKind::UnexpectedEof(_)), "{e}");
            }
        }
    }
    // Inside the ROW's fourth column: the error says so.
    let row_at = boundaries[1];
    let e = lines(&bytes[..row_at + 1 + 9 + 18 + 17 + 2], 1, ASSEMBLE).unwrap_err();
    assert_eq!(
        e.kind(),
        ErrorKind::UnexpectedEof(Site::column(TokenType::Row, 3))
    );
    assert_eq!(
        e.to_string(),
        format!(
            "stream ends inside a token in ROW column 3 at byte {}",
            e.offset()
        )
    );
}

#[test]
fn reader_state_names_where_it_stopped() {
    let head = Tokens::new().colmetadata(&[("n", nvarchar(0xffff))]).0;
    let bytes = Tokens::new()
        .raw(&head)
        .row(&[plp(None, &[b"ab", b"cd"])])
        .0;
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    assert_eq!(reader.state().to_string(), "at a token boundary");
    let stop = head.len() + 1 + 8 + 4 + 2 + 2;
    let mut input = &bytes[..stop];
    while reader
        .next(&mut input, &mut meta, &mut [0; 16])
        .unwrap()
        .complete()
        .is_some()
    {}
    assert_eq!(
        reader.state(),
        ReaderState::Value {
            token: TokenType::Row,
            column: 0,
            part: ValuePart::PlpChunkLength
        }
    );
    assert_eq!(
        reader.state().to_string(),
        "in ROW column 0, reading a PLP chunk length"
    );
    let mut input = &bytes[head.len()..head.len() + 5];
    let mut fresh = Reader::new(TdsVersion::V7_4);
    let _ = fresh.next(&mut input, &mut Metadata::new(&bump), &mut []);
    assert!(
        fresh.state().to_string().starts_with("stopped"),
        "{}",
        fresh.state()
    );
}

#[test]
fn featureextack_without_terminator() {
    let bytes = [0xae, 0x01, 2, 0, 0, 0, 0xaa];
    let e = error(&bytes, 2, ASSEMBLE);
    assert_eq!(
        (e.kind(), e.offset()),
        (
            ErrorKind::UnexpectedEof(Site::token(TokenType::FeatureExtAck)),
            7
        )
    );
}

#[test]
fn column_encryption_is_unsupported() {
    let bytes = Tokens::new()
        .raw(&[0xae, 0x04, 1, 0, 0, 0, 1, 0xff])
        .colmetadata(&[("i", vec![0x38])])
        .0;
    let e = error(&bytes, 3, ASSEMBLE);
    assert_eq!(
        (e.kind(), e.offset()),
        (
            ErrorKind::Unsupported(Site::token(TokenType::ColMetadata)),
            8
        )
    );
}

/// Where reading `bytes` stops with the arena full, under every limit that
/// stops it; each error is `ArenaFull`, at the token (its count) or at the
/// column.
fn arena_full_offsets(bytes: &[u8]) -> Vec<usize> {
    let mut seen = std::collections::BTreeSet::new();
    for limit in 0..8192 {
        let bump = Bump::new();
        bump.set_allocation_limit(Some(limit));
        let mut meta = Metadata::new(&bump);
        let mut reader = Reader::new(TdsVersion::V7_4);
        let mut input = bytes;
        let e = loop {
            match reader.next(&mut input, &mut meta, &mut []) {
                Ok(Status::Complete(_)) => {}
                Ok(Status::Partial) => break None,
                Err(e) => break Some(e),
            }
        };
        let Some(e) = e else { continue };
        let site = if e.offset() == 1 {
            Site::token(TokenType::ColMetadata)
        } else {
            Site::column(TokenType::ColMetadata, 0)
        };
        assert_eq!(e.kind(), ErrorKind::ArenaFull(site), "limit {limit}: {e}");
        seen.insert(e.offset());
    }
    seen.into_iter().collect()
}

#[test]
fn arena_full_points_at_the_field_it_could_not_keep() {
    // A TEXT column: the columns, its table name's parts, each part and
    // the column's name are kept in the arena. Long names each need an
    // arena chunk of their own.
    let text = [&[0x23][..], &4096u32.to_le_bytes(), &COLLATION].concat();
    // The count follows the token byte, and the table name's part count
    // the user type, the flags and the type's 10 bytes.
    let (count_at, parts_at) = (1, 1 + 2 + 4 + 2 + 10);
    let (schema, table, name) = ("s".repeat(100), "t".repeat(120), "n".repeat(250));
    let table_name = [&[2][..], &us_varchar(&schema), &us_varchar(&table)].concat();
    let bytes = Tokens::new()
        .colmetadata(&[(name.as_str(), [&text[..], &table_name].concat())])
        .0;
    // Each name's length comes before its UCS-2 units.
    let schema_at = parts_at + 1;
    let table_at = schema_at + 2 + 2 * schema.len();
    let name_at = table_at + 2 + 2 * table.len();
    assert_eq!(
        arena_full_offsets(&bytes),
        [count_at, schema_at, table_at, name_at]
    );
    // The most parts a byte can count, all empty: 255 of them to keep.
    let table_name = [&[255][..], &[0; 2 * 255]].concat();
    let bytes = Tokens::new()
        .colmetadata(&[("n", [&text[..], &table_name].concat())])
        .0;
    assert_eq!(arena_full_offsets(&bytes), [count_at, parts_at]);
}

#[test]
fn streaming_a_1_gib_varbinary_max_needs_no_buffer() {
    const GIB: u64 = 1 << 30;
    const CHUNK: usize = 1 << 16;
    let head = Tokens::new()
        .colmetadata(&[("blob", vec![0xa5, 0xff, 0xff]), ("i", vec![0x38])])
        .raw(&[0xd1])
        .raw(&GIB.to_le_bytes())
        .0;
    let data = vec![0x5a; CHUNK];
    let chunk_len = (CHUNK as u32).to_le_bytes();
    let tail = Tokens::new()
        .raw(&[0, 0, 0, 0])
        .raw(&42i32.to_le_bytes())
        .done(1)
        .0;
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    reader.set_large_values(LargeValues::Stream);
    let mut streamed = 0u64;
    let mut events = Vec::new();
    let mut feed = |mut piece: &[u8], reader: &mut Reader, meta: &mut Metadata<'_>| {
        while let Status::Complete(event) = reader.next(&mut piece, meta, &mut []).unwrap() {
            match event {
                Event::ValueChunk { bytes, .. } => streamed += bytes.len() as u64,
                other => events.push(other.to_string()),
            }
        }
    };
    feed(&head, &mut reader, &mut meta);
    for _ in 0..GIB / CHUNK as u64 {
        feed(&chunk_len, &mut reader, &mut meta);
        feed(&data, &mut reader, &mut meta);
    }
    feed(&tail, &mut reader, &mut meta);
    reader.finish().unwrap();
    assert_eq!(streamed, GIB);
    assert_eq!(
        events,
        [
            "COLMETADATA start 2 columns",
            "COLMETADATA [blob varbinary(max), i int]",
            "ROW",
            "  [0] start 1073741824 bytes",
            "  [0] end",
            "  [1] 42",
            "ROWEND",
            "DONE status=0x0010 cur_cmd=0x00C1 rows=1"
        ]
    );
}

#[test]
fn is_null_answers_without_decoding() {
    let bytes = Tokens::new()
        .colmetadata(&[
            ("a", vec![0x26, 4]),
            ("b", nvarchar(20)),
            ("c", vec![0x26, 4]),
        ])
        .nbcrow(
            3,
            &[1],
            &[b_value(&1i32.to_le_bytes()), b_value(&3i32.to_le_bytes())],
        )
        .row(&[
            b_value(&[]),
            us_value(&ucs2("x")),
            b_value(&3i32.to_le_bytes()),
        ])
        .0;
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    let mut answers = Vec::new();
    for mut piece in bytes.chunks(1) {
        while let Status::Complete(event) =
            reader.next(&mut piece, &mut meta, &mut [0; 64]).unwrap()
        {
            if matches!(event, Event::RowStart(_) | Event::Value { .. }) {
                answers.push([0, 1, 2].map(|c| reader.is_null(c)));
            }
        }
    }
    let (y, n, u) = (Some(true), Some(false), None);
    assert_eq!(
        answers,
        [
            // NBCROW: known for every column at its start.
            [n, y, n],
            [n, y, n],
            [n, y, n],
            [n, y, n],
            // ROW: known column by column.
            [u, u, u],
            [y, u, u],
            [y, n, u],
            [y, n, n],
        ]
    );
}

#[test]
fn skipped_columns_are_not_copied_or_decoded() {
    let broken = [0x41, 0, 0x00, 0xdc];
    let big = vec![7u8; 100_000];
    let bytes = Tokens::new()
        .colmetadata(&[
            ("big", vec![0xa5, 0xff, 0xff]),
            ("bad", nvarchar(20)),
            ("i", vec![0x38]),
        ])
        .row(&[
            plp(None, &[&big[..50_000], &big[50_000..]]),
            us_value(&broken),
            5i32.to_le_bytes().to_vec(),
        ])
        .0;
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    let mut seen = Vec::new();
    let mut first = true;
    for mut piece in bytes.chunks(997) {
        while let Status::Complete(event) = reader.next(&mut piece, &mut meta, &mut []).unwrap() {
            if let Event::ColMetadataStart { .. } = event {
                continue;
            }
            if let Event::Token(Token::ColMetadata(_)) = event {
                first = false;
                reader.skip_column(0, true);
                reader.skip_column(1, true);
                continue;
            }
            seen.push(event.to_string());
            assert_eq!(reader.is_null(1).is_some(), seen.len() > 1, "{seen:?}");
        }
    }
    assert!(!first);
    assert_eq!(seen, ["ROW", "  [2] 5", "ROWEND"]);
}

#[test]
fn nulls_past_the_eighth_column_and_a_column_delivered_again() {
    // Ten INTN(4) columns; in the ROW, columns 3 and 8 are NULL.
    let values: Vec<Vec<u8>> = (0..10i32)
        .map(|i| match i {
            3 | 8 => vec![0],
            _ => b_value(&(i * 11).to_le_bytes()),
        })
        .collect();
    let bytes = intn_columns(10).row(&values).0;
    for chunk in [1, 5, bytes.len()] {
        let bump = Bump::new();
        let mut meta = Metadata::new(&bump);
        let mut reader = Reader::new(TdsVersion::V7_4);
        let mut seen = Vec::new();
        for mut piece in bytes.chunks(chunk) {
            while let Status::Complete(event) = reader.next(&mut piece, &mut meta, &mut []).unwrap()
            {
                match event {
                    Event::Token(Token::ColMetadata(_)) => {
                        for column in [0, 8, 9] {
                            reader.skip_column(column, true);
                        }
                        // Delivered again: only 0 and 8 stay skipped.
                        reader.skip_column(9, false);
                    }
                    Event::Value { column, .. } => seen.push(column),
                    _ => {}
                }
            }
        }
        assert_eq!(seen, [1, 2, 3, 4, 5, 6, 7, 9], "chunks of {chunk}");
        let nulls: Vec<Option<bool>> = (0..11).map(|c| reader.is_null(c)).collect();
        let want: Vec<Option<bool>> = (0..11)
            .map(|c| (c < 10).then_some(c == 3 || c == 8))
            .collect();
        assert_eq!(nulls, want, "chunks of {chunk}");
    }
}

#[test]
fn return_values_of_every_layout() {
    let rv = |name: &str, type_info: &[u8], value: &[u8]| {
        let mut out = vec![0xac, 1, 0];
        out.extend(b_varchar(name));
        out.push(1);
        out.extend([0, 0, 0, 0, 1, 0]);
        out.extend_from_slice(type_info);
        out.extend_from_slice(value);
        out
    };
    let xml_names = [
        &[0xf1, 1][..],
        &b_varchar("db"),
        &b_varchar("dbo"),
        &us_varchar("coll"),
    ]
    .concat();
    let udt_names = [
        &[0xf0, 0xff, 0xff][..],
        &b_varchar("db"),
        &b_varchar("dbo"),
        &b_varchar("point"),
        &us_varchar("Asm.Point"),
    ]
    .concat();
    let bytes = Tokens::new()
        .raw(&rv("@i", &[0x26, 4], &b_value(&42i32.to_le_bytes())))
        .raw(&rv(
            "@s",
            &nvarchar(0xffff),
            &plp(None, &[&ucs2("out"), &ucs2("put")]),
        ))
        .raw(&rv("@x", &xml_names, &plp(Some(6), &[&ucs2("<a/>")[..6]])))
        .raw(&rv("@u", &udt_names, &plp(Some(2), &[&[1, 2]])))
        .raw(&rv("@n", &[0x26, 4], &[0]))
        .raw(&[0x79, 0, 0, 0, 0])
        .0;
    // The names each kind of TYPE_INFO carries, as the metadata keeps them.
    for (type_info, want) in [
        (
            &xml_names,
            r#"Some(Xml { database: "db", owning_schema: "dbo", collection: "coll" })"#,
        ),
        (
            &udt_names,
            r#"Some(Udt { database: "db", schema: "dbo", type_name: "point", assembly: "Asm.Point" })"#,
        ),
    ] {
        let bytes = rv("@v", type_info, &plp(None, &[]));
        let bump = Bump::new();
        let mut meta = Metadata::new(&bump);
        let mut reader = Reader::new(TdsVersion::V7_4);
        let mut input = &bytes[..];
        while let Status::Complete(_) = reader.next(&mut input, &mut meta, &mut []).unwrap() {}
        let names = meta.return_value().expect("a return value").type_info.names;
        assert_eq!(format!("{names:?}"), want);
    }
    let lines = same_lines_every_way(&bytes, ASSEMBLE);
    assert_eq!(
        lines,
        [
            "RETURNVALUE 1 @i int status=1",
            "  [0] 42",
            "RETURNVALUE 1 @s nvarchar(max) status=1",
            "  [0] output",
            "RETURNVALUE 1 @x xml status=1",
            "  [0] <a/",
            "RETURNVALUE 1 @u point status=1",
            "  [0] 0x0102",
            "RETURNVALUE 1 @n int status=1",
            "  [0] NULL",
            "RETURNSTATUS 0",
        ]
    );
    let streamed = support::tds_cases::lines(&bytes, 5, STREAM).unwrap();
    assert_eq!(streamed[3], "  [0] start");
}

#[test]
fn text_ntext_image_with_table_names() {
    let table = [&[2u8][..], &us_varchar("dbo"), &us_varchar("t")].concat();
    let text_info = |id: u8| {
        let mut out = vec![id, 0xff, 0xff, 0xff, 0x7f];
        if id != 0x22 {
            out.extend(COLLATION);
        }
        out.extend(&table);
        out
    };
    let text_value = |data: &[u8]| {
        let mut out = vec![16];
        out.extend([0xab; 16]);
        out.extend([0xcd; 8]);
        out.extend((data.len() as u32).to_le_bytes());
        out.extend_from_slice(data);
        out
    };
    let bytes = Tokens::new()
        .colmetadata(&[
            ("t", text_info(0x23)),
            ("n", text_info(0x63)),
            ("i", text_info(0x22)),
        ])
        .row(&[
            text_value(b"caf\xe9"),
            text_value(&ucs2("ünï")),
            text_value(&[0xde, 0xad]),
        ])
        .row(&[vec![0], vec![0], vec![0]])
        .0;
    let lines = same_lines_every_way(&bytes, ASSEMBLE);
    assert_eq!(
        lines,
        [
            "COLMETADATA start 3 columns",
            "COLMETADATA [t text, n ntext, i image]",
            "ROW",
            "  [0] café",
            "  [1] ünï",
            "  [2] 0xDEAD",
            "ROWEND",
            "ROW",
            "  [0] NULL",
            "  [1] NULL",
            "  [2] NULL",
            "ROWEND"
        ]
    );
    // Streamed, each value is a start with its length, its bytes and an end.
    let streamed = same_lines_every_way(&bytes, STREAM);
    assert_eq!(
        streamed[2..13],
        [
            "ROW",
            "  [0] start 4 bytes",
            "  [0] chunk 0x636166E9",
            "  [0] end",
            "  [1] start 6 bytes",
            "  [1] chunk 0xFC006E00EF00",
            "  [1] end",
            "  [2] start 2 bytes",
            "  [2] chunk 0xDEAD",
            "  [2] end",
            "ROWEND"
        ]
    );
    // The table names are in the metadata.
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut input = &bytes[..];
    let mut reader = Reader::new(TdsVersion::V7_4);
    // The COLMETADATA's start, then the token.
    reader.next(&mut input, &mut meta, &mut []).unwrap();
    reader.next(&mut input, &mut meta, &mut []).unwrap();
    let names: Vec<String> = meta.columns()[1]
        .table_name
        .iter()
        .map(|p| p.to_string())
        .collect();
    assert_eq!(names, ["dbo", "t"]);
    assert_eq!(meta.position("i"), Some(2));
}

#[test]
fn tds_7_1_layouts() {
    // UserType u16, TEXT with a single table name, DONE with a u32 row
    // count, INFO with a u16 line number.
    let mut bytes = vec![0x81, 2, 0];
    bytes.extend([0, 0, 1, 0, 0x38]);
    bytes.extend(b_varchar("i"));
    bytes.extend([0, 0, 1, 0, 0x23, 0xff, 0xff, 0xff, 0x7f]);
    bytes.extend(COLLATION);
    bytes.extend(us_varchar("dbo.t"));
    bytes.extend(b_varchar("t"));
    bytes.extend([0xd1, 3, 0, 0, 0, 0]);
    let mut info = vec![1, 0, 0, 0, 1, 0];
    info.extend(us_varchar("m"));
    info.extend(b_varchar("s"));
    info.extend(b_varchar(""));
    info.extend([9, 0]);
    bytes.push(0xab);
    bytes.extend((info.len() as u16).to_le_bytes());
    bytes.extend(info);
    bytes.extend([0xfd, 0x10, 0, 0xc1, 0, 1, 0, 0, 0]);
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_1);
    let mut out = Vec::new();
    let mut buf = [0u8; 64];
    for mut piece in bytes.chunks(1) {
        while let Status::Complete(event) = reader.next(&mut piece, &mut meta, &mut buf).unwrap() {
            out.push(event.to_string());
        }
    }
    reader.finish().unwrap();
    assert_eq!(
        out,
        [
            "COLMETADATA start 2 columns",
            "COLMETADATA [i int, t text]",
            "ROW",
            "  [0] 3",
            "  [1] NULL",
            "ROWEND",
            r#"INFO 1 state=1 class=0 "m" server="s" proc="" line=9"#,
            "DONE status=0x0010 cur_cmd=0x00C1 rows=1",
        ]
    );
    assert_eq!(meta.columns()[1].table_name[0], "dbo.t");
}

#[test]
fn every_type_prints_in_its_fixed_form() {
    let c = COLLATION;
    let columns: Vec<(&str, Vec<u8>, Vec<u8>, &str)> = vec![
        ("tinyint", vec![0x30], vec![200], "200"),
        ("bit", vec![0x32], vec![1], "true"),
        ("smallint", vec![0x34], (-2i16).to_le_bytes().to_vec(), "-2"),
        ("int", vec![0x38], (-3i32).to_le_bytes().to_vec(), "-3"),
        (
            "bigint",
            vec![0x7f],
            i64::MIN.to_le_bytes().to_vec(),
            "-9223372036854775808",
        ),
        ("real", vec![0x3b], 1.5f32.to_le_bytes().to_vec(), "1.5"),
        (
            "float",
            vec![0x3e],
            (-0.25f64).to_le_bytes().to_vec(),
            "-0.25",
        ),
        (
            "smallmoney",
            vec![0x7a],
            123_400i32.to_le_bytes().to_vec(),
            "12.3400",
        ),
        (
            "money",
            vec![0x3c],
            [(-1i32).to_le_bytes(), (-50_000i32).to_le_bytes()].concat(),
            "-5.0000",
        ),
        (
            "smalldatetime",
            vec![0x3a],
            [45_320u16.to_le_bytes(), 825u16.to_le_bytes()].concat(),
            "2024-01-31T13:45:00",
        ),
        (
            "datetime",
            vec![0x3d],
            [
                45_320i32.to_le_bytes(),
                (49_530u32 * 300 + 299).to_le_bytes(),
            ]
            .concat(),
            "2024-01-31T13:45:30.997",
        ),
        ("intn", vec![0x26, 2], b_value(&7i16.to_le_bytes()), "7"),
        ("bitn", vec![0x68, 1], b_value(&[0]), "false"),
        ("fltn", vec![0x6d, 4], b_value(&2.5f32.to_le_bytes()), "2.5"),
        (
            "moneyn",
            vec![0x6e, 4],
            b_value(&(-50_000i32).to_le_bytes()),
            "-5.0000",
        ),
        (
            "datetimn",
            vec![0x6f, 4],
            b_value(&[0x08, 0xb1, 0x39, 0x03]),
            "2024-01-31T13:45:00",
        ),
        (
            "decimal",
            vec![0x6a, 5, 5, 2],
            b_value(&[0, 0xf4, 1, 0, 0]),
            "-5.00",
        ),
        (
            "numeric",
            vec![0x6c, 5, 6, 4],
            b_value(&[1, 0x08, 0xe2, 0x01, 0]),
            "12.3400",
        ),
        (
            "legacy decimal",
            vec![0x37, 5, 5, 0],
            b_value(&[1, 9, 0, 0, 0]),
            "9",
        ),
        (
            "guid",
            vec![0x24, 16],
            b_value(&[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16]),
            "04030201-0605-0807-090a-0b0c0d0e0f10",
        ),
        (
            "date",
            vec![0x28],
            b_value(&[0x63, 0x46, 0x0b]),
            "2024-01-31",
        ),
        (
            "time0",
            vec![0x29, 0],
            b_value(&49_530u32.to_le_bytes()[..3]),
            "13:45:30",
        ),
        (
            "time7",
            vec![0x29, 7],
            b_value(&495_301_234_567u64.to_le_bytes()[..5]),
            "13:45:30.1234567",
        ),
        (
            "datetime2(2)",
            vec![0x2a, 2],
            b_value(&[&4_953_012u32.to_le_bytes()[..3], &[0x63, 0x46, 0x0b]].concat()),
            "2024-01-31T13:45:30.12",
        ),
        (
            "dto(2)",
            vec![0x2b, 2],
            b_value(
                &[
                    &2_973_012u32.to_le_bytes()[..3],
                    &[0x63, 0x46, 0x0b],
                    &330i16.to_le_bytes(),
                ]
                .concat(),
            ),
            "2024-01-31T13:45:30.12+05:30",
        ),
        (
            "char",
            [&[0xaf, 3, 0][..], &c].concat(),
            us_value(b"ab "),
            "ab ",
        ),
        (
            "varchar",
            [&[0xa7, 10, 0][..], &c].concat(),
            us_value(b"\x80uro"),
            "€uro",
        ),
        (
            "nchar",
            [&[0xef, 4, 0][..], &c].concat(),
            us_value(&ucs2("日本")),
            "日本",
        ),
        (
            "binary",
            vec![0xad, 2, 0],
            us_value(&[0xab, 0x01]),
            "0xAB01",
        ),
        ("legacy varchar", vec![0x27, 10], b_value(b"old"), "old"),
        ("legacy varbinary", vec![0x25, 10], b_value(&[]), "0x"),
        ("legacy char null", vec![0x2f, 10], vec![0xff], "NULL"),
        (
            "varchar(max)",
            [&[0xa7, 0xff, 0xff][..], &c].concat(),
            plp(Some(0), &[]),
            "",
        ),
        (
            "variant",
            vec![0x62, 0x10, 0x1f, 0, 0],
            [&9u32.to_le_bytes()[..], &[0x6a, 2, 5, 2, 0, 0xf4, 1, 0, 0]].concat(),
            "-5.00",
        ),
        (
            "variant null",
            vec![0x62, 0x10, 0x1f, 0, 0],
            vec![0, 0, 0, 0],
            "NULL",
        ),
        ("null type", vec![0x1f], vec![], "NULL"),
        ("xml", vec![0xf1, 0], plp(None, &[&ucs2("<r/>")]), "<r/>"),
    ];
    let meta: Vec<(&str, Vec<u8>)> = columns.iter().map(|(n, t, _, _)| (*n, t.clone())).collect();
    let values: Vec<Vec<u8>> = columns.iter().map(|(_, _, v, _)| v.clone()).collect();
    let bytes = Tokens::new().colmetadata(&meta).row(&values).0;
    let lines = same_lines_every_way(&bytes, ASSEMBLE);
    for (i, (name, _, _, want)) in columns.iter().enumerate() {
        assert_eq!(lines[3 + i], format!("  [{i}] {want}"), "{name}");
    }
    assert!(
        lines[1].contains("decimal(5,2)") && lines[1].contains("sql_variant"),
        "{}",
        lines[1]
    );
}

#[test]
fn decoded_values_are_typed() {
    let bytes = Tokens::new()
        .colmetadata(&[("m", vec![0x6e, 8]), ("d", vec![0x28])])
        .row(&[
            b_value(&[0, 0, 0, 0, 0x10, 0x27, 0, 0]),
            b_value(&[0, 0, 0]),
        ])
        .0;
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    let mut input = &bytes[..];
    let mut got = 0;
    while let Status::Complete(event) = reader.next(&mut input, &mut meta, &mut []).unwrap() {
        if let Event::Value { value, .. } = event {
            assert_eq!(
                value.type_info().data_type,
                [DataType::MoneyN, DataType::Date][got]
            );
            match (got, value.get()) {
                (0, SqlValue::Money(m)) => assert_eq!(m.0, 10_000),
                (1, SqlValue::Date(d)) => assert_eq!(d.days, 0),
                other => panic!("{other:?}"),
            }
            got += 1;
        }
    }
    assert_eq!(got, 2);
}

#[test]
fn every_prefix_and_flip_of_every_vector_is_safe() {
    for stream in all_streams() {
        let full = [&stream.prime[..], &stream.bytes[..]].concat();
        let step = (full.len() / 200).max(1);
        for cut in (0..=full.len()).step_by(step) {
            for large in [ASSEMBLE, STREAM] {
                if let Err(e) = lines(&full[..cut], 7, large) {
                    assert!(e.offset() <= cut, "{}: {e}", stream.name);
                }
            }
        }
        for at in (0..full.len()).step_by(step) {
            let mut flipped = full.clone();
            flipped[at] ^= 0x5a;
            if let Err(e) = lines(&flipped, 5, ASSEMBLE) {
                assert!(e.offset() <= flipped.len(), "{}: {e}", stream.name);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn random_bytes_after_a_colmetadata_never_panic(
        tail in proptest::collection::vec(any::<u8>(), 0..256),
        chunk in 1usize..17,
        streamed in any::<bool>(),
    ) {
        let head = Tokens::new()
            .colmetadata(&[("a", nvarchar(0xffff)), ("b", vec![0x6a, 17, 38, 4]), ("c", vec![0x62, 0x10, 0x1f, 0, 0])])
            .0;
        let bytes = [&head[..], &[0xd1], &tail[..]].concat();
        let large = if streamed { STREAM } else { ASSEMBLE };
        let whole = lines(&bytes, bytes.len(), large);
        let split = lines(&bytes, chunk, large);
        if let Err(e) = &whole {
            prop_assert!(e.offset() <= bytes.len());
            prop_assert_eq!(split.as_ref().err(), Some(e));
        }
    }

    #[test]
    fn random_token_streams_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..512)) {
        if let Err(e) = lines(&bytes, 3, ASSEMBLE) {
            prop_assert!(e.offset() <= bytes.len());
        }
    }
}

#[test]
fn row_buffer_swapped_for_a_smaller_one() {
    let head = Tokens::new()
        .colmetadata(&[("v", vec![0xa5, 0x40, 0x1f]), ("m", vec![0xa5, 0xff, 0xff])])
        .0;
    let value = vec![3u8; 200];
    let bytes = Tokens::new()
        .raw(&head)
        .row(&[us_value(&value), plp(None, &[&value[..100], &value[100..]])])
        .0;
    for cut in [head.len() + 50, head.len() + 260, head.len() + 320] {
        let bump = Bump::new();
        let mut meta = Metadata::new(&bump);
        let mut reader = Reader::new(TdsVersion::V7_4);
        let mut big = vec![0u8; 1024];
        let mut input = &bytes[..cut];
        while reader
            .next(&mut input, &mut meta, &mut big)
            .unwrap()
            .complete()
            .is_some()
        {}
        // The caller now passes a 10-byte buffer: an error, not a panic.
        let mut input = &bytes[cut..];
        let e = loop {
            match reader.next(&mut input, &mut meta, &mut [0; 10]) {
                Ok(Status::Complete(_)) => {}
                Ok(Status::Partial) => panic!("no error at cut {cut}"),
                Err(e) => break e,
            }
        };
        assert!(matches!(e.kind(), ErrorKind::BufferTooSmall(_)), "{e}");
    }
}

#[test]
fn rows_of_no_columns() {
    // A COLMETADATA of no columns, then a ROW and an NBCROW of none.
    let bytes = Tokens::new()
        .colmetadata(&[])
        .row(&[])
        .nbcrow(0, &[], &[])
        .done(2)
        .0;
    let lines = same_lines_every_way(&bytes, ASSEMBLE);
    assert_eq!(
        lines,
        [
            "COLMETADATA start 0 columns",
            "COLMETADATA []",
            "ROW",
            "ROWEND",
            "NBCROW",
            "ROWEND",
            "DONE status=0x0010 cur_cmd=0x00C1 rows=2",
        ]
    );
    let no_columns = stream("no columns", bytes);
    let (events, _) = read_rows(&no_columns, &[1], ASSEMBLE, 64, Rows::Events);
    let (whole, _) = read_rows(&no_columns, &[1], ASSEMBLE, 64, Rows::Whole);
    assert_eq!((whole.error, whole.finish), (None, None));
    assert_eq!(whole.events, events.events);
}

#[test]
fn a_stream_may_end_where_a_row_has_only_its_end_left() {
    // COLMETADATA (one INTN(4)) and a ROW, with no DONE after it.
    let bytes = Tokens::new()
        .colmetadata(&[("i", vec![0x26, 4])])
        .row(&[b_value(&5i32.to_le_bytes())])
        .0;
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    let mut input = &bytes[..];
    let mut finishes = Vec::new();
    while let Status::Complete(event) = reader.next(&mut input, &mut meta, &mut []).unwrap() {
        if !matches!(event, Event::ColMetadataStart { .. }) {
            finishes.push((event.to_string(), reader.finish().is_ok()));
        }
    }
    reader.finish().unwrap();
    let finishes: Vec<(&str, bool)> = finishes.iter().map(|(e, ok)| (e.as_str(), *ok)).collect();
    assert_eq!(
        finishes,
        [
            ("COLMETADATA [i int]", true),
            ("ROW", false),
            ("  [0] 5", true),
            ("ROWEND", true)
        ]
    );
}

#[test]
fn whole_row_leaves_a_row_with_skipped_columns_to_next() {
    // Ten INTN(4) columns, two rows.
    let row = |base: i32| -> Vec<Vec<u8>> {
        (0..10)
            .map(|i| b_value(&(base + i).to_le_bytes()))
            .collect()
    };
    let bytes = intn_columns(10).row(&row(0)).row(&row(100)).0;
    for skipped in [0, 9] {
        let bump = Bump::new();
        let mut meta = Metadata::new(&bump);
        let mut reader = Reader::new(TdsVersion::V7_4);
        let mut buf = [0u8; 256];
        let mut input = &bytes[..];
        let mut whole = 0;
        let mut values = Vec::new();
        loop {
            if reader.whole_row(&mut input, &meta, &mut buf).is_some() {
                whole += 1;
                continue;
            }
            match reader.next(&mut input, &mut meta, &mut buf).unwrap() {
                Status::Complete(Event::Token(Token::ColMetadata(_))) => {
                    reader.skip_column(skipped, true);
                }
                Status::Complete(Event::Value { column, .. }) => values.push(column),
                Status::Complete(_) => {}
                Status::Partial => break,
            }
        }
        assert_eq!(whole, 0, "column {skipped} skipped");
        let want: Vec<u16> = (0..10).filter(|&c| c != skipped).collect();
        assert_eq!(
            values,
            [&want[..], &want[..]].concat(),
            "column {skipped} skipped"
        );
    }
}

/// The events of `bytes` read a byte at a time with a `buf_len`-byte
/// buffer, as lines; or the error.
fn lines_with_buffer(bytes: &[u8], buf_len: usize) -> Result<Vec<String>, Error> {
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    let mut buf = vec![0u8; buf_len];
    let mut out = Vec::new();
    for mut piece in bytes.chunks(1) {
        while let Status::Complete(event) = reader.next(&mut piece, &mut meta, &mut buf)? {
            out.push(event.to_string());
        }
    }
    reader.finish()?;
    Ok(out)
}

#[test]
fn a_token_body_in_pieces_may_fill_the_buffer_exactly() {
    // ENVCHANGE, database from "old" to "new": a 15-byte body.
    let body = [&[1][..], &b_varchar("new"), &b_varchar("old")].concat();
    let bytes = [&[0xe3][..], &(body.len() as u16).to_le_bytes(), &body].concat();
    let lines = lines_with_buffer(&bytes, body.len()).unwrap();
    assert_eq!(lines, [r#"ENVCHANGE database new="new" old="old""#]);
    for smaller in [0, 1, body.len() - 1] {
        let e = lines_with_buffer(&bytes, smaller).unwrap_err();
        assert_eq!(
            (e.kind(), e.offset()),
            (
                ErrorKind::BufferTooSmall(Site::token(TokenType::EnvChange)),
                3
            ),
            "a buffer of {smaller}"
        );
    }
}

#[test]
fn featureextack_with_a_feature_of_more_than_255_bytes() {
    // Feature 0x01 with 300 bytes of data, 0x0a with none, then the
    // terminator, and a DONE after it.
    let data: Vec<u8> = (0..300u32).map(|i| (i % 251) as u8).collect();
    let bytes = [
        &[0xae, 0x01][..],
        &300u32.to_le_bytes(),
        &data,
        &[0x0a, 0, 0, 0, 0, 0xff],
    ]
    .concat();
    let bytes = Tokens::new().raw(&bytes).done(1).0;
    let lines = same_lines_every_way(&bytes, ASSEMBLE);
    let hex: String = data.iter().map(|b| format!("{b:02X}")).collect();
    assert_eq!(
        lines,
        [
            format!("FEATUREEXTACK [SESSIONRECOVERY 0x{hex}, UTF8_SUPPORT 0x]"),
            "DONE status=0x0010 cur_cmd=0x00C1 rows=1".into(),
        ]
    );
}

#[test]
fn a_version_set_after_new_is_the_one_read_by() {
    // A DONE of TDS 7.2 on: an 8-byte row count.
    let bytes = Tokens::new().done(5).0;
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_1);
    reader.set_version(TdsVersion::V7_4);
    assert_eq!(reader.version(), TdsVersion::V7_4);
    let mut input = &bytes[..];
    let mut lines = Vec::new();
    while let Status::Complete(event) = reader.next(&mut input, &mut meta, &mut []).unwrap() {
        lines.push(event.to_string());
    }
    reader.finish().unwrap();
    assert_eq!(lines, ["DONE status=0x0010 cur_cmd=0x00C1 rows=5"]);
}

#[test]
fn error_and_sessionstate_bodies_are_decoded() {
    // ERROR 208, state 1, class 16, "Invalid object name 'x'." from
    // server "db" in no procedure at line 1.
    let error = [
        &208i32.to_le_bytes()[..],
        &[1, 16],
        &us_varchar("Invalid object name 'x'."),
        &b_varchar("db"),
        &b_varchar(""),
        &1i32.to_le_bytes(),
    ]
    .concat();
    // SESSIONSTATE: sequence 7, recoverable, state 2 of 3 bytes.
    let session = [&7u32.to_le_bytes()[..], &[1], &[2, 3, 0xaa, 0xbb, 0xcc]].concat();
    let token = |id: u8, len: &[u8], body: &[u8]| [&[id][..], len, body].concat();
    let bytes = [
        token(0xaa, &(error.len() as u16).to_le_bytes(), &error),
        token(0xe4, &(session.len() as u32).to_le_bytes(), &session),
    ]
    .concat();
    let lines = same_lines_every_way(&bytes, ASSEMBLE);
    assert_eq!(
        lines,
        [
            r#"ERROR 208 state=1 class=16 "Invalid object name \'x\'." server="db" proc="" line=1"#,
            "SESSIONSTATE seq=7 status=1 entries=1",
        ]
    );
    // A state entry longer than the token's body: the error is where the
    // rest of the entry should be.
    let mut broken = session.clone();
    broken[6] = 4;
    let bytes = token(0xe4, &(broken.len() as u32).to_le_bytes(), &broken);
    let e = same_error_every_way(&bytes);
    assert_eq!(
        (e.kind(), e.offset()),
        (
            ErrorKind::LengthMismatch(Site::token(TokenType::SessionState)),
            bytes.len()
        )
    );
}
