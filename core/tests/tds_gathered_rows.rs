//! Rows split across chunks, gathered by `Reader::whole_row` and handed out
//! whole once their last byte is in; rows the gathering cannot follow go to
//! `next`, with the events they always had.

mod support {
    #[allow(dead_code)]
    pub mod tds_cases;
}

use leanwire_core::bumpalo::Bump;
use leanwire_core::tds::{
    ErrorKind, Event, GATHERED_ROW_LEN, LargeValues, Metadata, Reader, ReaderState, Site, Status,
    TdsVersion, Token, TokenType, ValuePart, ValueSource,
};
use support::tds_cases::build::{COLLATION, Tokens, b_value, plp, ucs2, us_value};
use support::tds_cases::{Rows, read_rows, stream};

/// A row's values, as bytes (`None`: NULL).
type Values = Vec<Option<Vec<u8>>>;

/// What a reader that takes rows whole saw.
#[derive(Debug, Default, PartialEq)]
struct Seen {
    /// The rows `whole_row` gave, and where their values were.
    whole: Vec<(Values, Vec<Option<ValueSource>>)>,
    /// The values `next` gave, by row.
    events: Vec<Values>,
}

/// An INT, an nvarchar(100) and an nvarchar(max) column, with `rows` rows
/// whose text grows with the row, whose name is NULL in every third row,
/// and whose nvarchar(max) value comes in two PLP chunks.
fn result_set(rows: usize) -> (Vec<u8>, usize) {
    let nvarchar = [&[0xe7][..], &200u16.to_le_bytes(), &COLLATION].concat();
    let nvarchar_max = [&[0xe7][..], &0xffffu16.to_le_bytes(), &COLLATION].concat();
    let mut tokens = Tokens::new().colmetadata(&[
        ("id", vec![0x26, 4]),
        ("name", nvarchar),
        ("body", nvarchar_max),
    ]);
    let start = tokens.0.len();
    for i in 0..rows {
        let body = ucs2(&format!("body {i} {}", "x".repeat(i * 7)));
        let (first, second) = body.split_at(body.len() / 2);
        tokens = tokens.row(&[
            b_value(&(i as i32).to_le_bytes()),
            match i % 3 {
                2 => 0xffffu16.to_le_bytes().to_vec(),
                _ => us_value(&ucs2(&format!("name {i}"))),
            },
            plp(Some(body.len() as u64), &[first, second]),
        ]);
    }
    (tokens.done(rows as u64).0, start)
}

/// Reads `bytes`, its first `start` bytes (the metadata) at once, the rest
/// in `chunk`-byte chunks, rows through `whole_row` first.
fn read(bytes: &[u8], start: usize, chunk: usize, gather: bool) -> Seen {
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    reader.set_gather_rows(gather);
    let mut buf = [0u8; 1024];
    let mut seen = Seen::default();
    let mut head = &bytes[..start];
    while let Status::Complete(_) = reader.next(&mut head, &mut meta, &mut buf).unwrap() {}
    for mut input in bytes[start..].chunks(chunk) {
        loop {
            if let Some(row) = reader.whole_row(&mut input, &meta, &mut buf) {
                let values = row
                    .values()
                    .map(|v| v.bytes().map(<[u8]>::to_vec))
                    .collect();
                seen.whole.push((values, row.sources().collect()));
                continue;
            }
            match reader.next(&mut input, &mut meta, &mut buf).unwrap() {
                Status::Complete(Event::RowStart(_)) => seen.events.push(Vec::new()),
                Status::Complete(Event::Value { value, .. }) => {
                    let row = seen.events.last_mut().expect("a value inside a row");
                    row.push(value.bytes().map(<[u8]>::to_vec));
                }
                Status::Complete(_) => {}
                Status::Partial => break,
            }
        }
    }
    reader.finish().unwrap();
    seen
}

#[test]
fn rows_fed_a_byte_at_a_time_come_whole() {
    let (bytes, start) = result_set(20);
    let at_once = read(&bytes, start, bytes.len(), true);
    assert_eq!((at_once.whole.len(), at_once.events.len()), (20, 0));
    for chunk in [1, 2, 3, 7, 64] {
        let seen = read(&bytes, start, chunk, true);
        assert!(seen.events.is_empty(), "chunk {chunk}: no row left to next");
        assert_eq!(seen.whole.len(), 20, "chunk {chunk}");
        for ((values, sources), (want, _)) in seen.whole.iter().zip(&at_once.whole) {
            assert_eq!(values, want, "chunk {chunk}");
            // A row that lay whole in a chunk borrows it; one that did not
            // was gathered, and the joined body is in the buffer either way.
            let [id, name, body] = sources[..] else {
                panic!("three sources: {sources:?}");
            };
            assert!(matches!(body, Some(ValueSource::Buffer { .. })), "{body:?}");
            assert!(
                matches!(
                    (id, name),
                    (Some(ValueSource::Inline), Some(ValueSource::Inline) | None)
                ) || matches!(
                    (id, name),
                    (
                        Some(ValueSource::Chunk { .. }),
                        Some(ValueSource::Chunk { .. }) | None
                    )
                ),
                "chunk {chunk}: {sources:?}"
            );
        }
    }
    let bytewise = read(&bytes, start, 1, true);
    let inline = bytewise.whole.iter().flat_map(|(_, s)| s);
    // Every id, and the 14 names that are not NULL.
    assert_eq!(
        inline.filter(|s| **s == Some(ValueSource::Inline)).count(),
        34
    );
}

#[test]
fn without_gathering_the_same_rows_come_by_events() {
    let (bytes, start) = result_set(20);
    let at_once = read(&bytes, start, bytes.len(), true);
    let want: Vec<Values> = at_once
        .whole
        .into_iter()
        .map(|(values, _)| values)
        .collect();
    let seen = read(&bytes, start, 5, false);
    assert!(seen.whole.len() < 20, "some rows straddle 5-byte chunks");
    let mut rows: Vec<Values> = seen.whole.into_iter().map(|(values, _)| values).collect();
    rows.extend(seen.events);
    rows.sort();
    let mut want = want;
    want.sort();
    assert_eq!(rows, want);
}

/// The metadata of a one-column result set, read, and a reader past it.
fn past_metadata(bytes: &[u8], start: usize, meta: &mut Metadata<'_>) -> Reader {
    let mut reader = Reader::new(TdsVersion::V7_4);
    let mut head = &bytes[..start];
    while let Status::Complete(_) = reader.next(&mut head, meta, &mut []).unwrap() {}
    reader
}

#[test]
fn a_split_row_left_untaken_without_gathering() {
    let (bytes, start) = result_set(1);
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = past_metadata(&bytes, start, &mut meta);
    reader.set_gather_rows(false);
    let mut buf = [0u8; 256];
    let mut input = &bytes[start..start + 10];
    assert!(reader.whole_row(&mut input, &meta, &mut buf).is_none());
    assert_eq!(input.len(), 10, "nothing taken");
    assert_eq!(reader.state(), ReaderState::TokenStart);
}

#[test]
fn a_row_being_gathered_says_where_it_is_and_waits() {
    let (bytes, start) = result_set(1);
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = past_metadata(&bytes, start, &mut meta);
    let mut buf = [0u8; 256];
    // The ROW byte, the INTN length and two of its four bytes.
    let mut input = &bytes[start..start + 4];
    assert!(reader.whole_row(&mut input, &meta, &mut buf).is_none());
    assert!(input.is_empty(), "the row's bytes are taken");
    assert_eq!(reader.offset(), (start + 4) as u64);
    let state = ReaderState::Value {
        token: TokenType::Row,
        column: 0,
        part: ValuePart::Data { left: 2 },
    };
    assert_eq!(reader.state(), state);
    assert!(
        reader
            .next(&mut input, &mut meta, &mut buf)
            .unwrap()
            .is_partial()
    );
    assert_eq!(reader.state(), state, "next waits for more");
    let e = reader.finish().unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "stream ends inside a token in ROW column 0 at byte {}",
            start + 4
        )
    );
}

#[test]
fn skipping_a_column_hands_the_gathered_row_to_next() {
    let (bytes, start) = result_set(1);
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = past_metadata(&bytes, start, &mut meta);
    let mut buf = [0u8; 256];
    let mut input = &bytes[start..start + 12];
    assert!(reader.whole_row(&mut input, &meta, &mut buf).is_none());
    reader.skip_column(1, true);
    // The row machine reads the 11 gathered bytes again, then the rest.
    let mut rest = &bytes[start + 12..];
    let mut columns = Vec::new();
    let first = reader.next(&mut input, &mut meta, &mut buf).unwrap();
    assert!(
        matches!(first, Status::Complete(Event::RowStart(_))),
        "{first:?}"
    );
    assert_eq!(
        reader.offset(),
        (start + 12) as u64,
        "the row's bytes are all taken"
    );
    loop {
        assert!(reader.whole_row(&mut rest, &meta, &mut buf).is_none());
        match reader.next(&mut rest, &mut meta, &mut buf).unwrap() {
            Status::Complete(Event::Value { column, .. }) => columns.push(column),
            Status::Complete(Event::Token(Token::Done(_))) => break,
            Status::Complete(_) => {}
            Status::Partial => panic!("the stream ends with DONE"),
        }
    }
    assert_eq!(columns, [0, 2]);
}

#[test]
fn a_row_longer_than_the_reader_holds_goes_to_next() {
    let long = vec![0xab; GATHERED_ROW_LEN + 100];
    let varbinary = [&[0xa5][..], &8000u16.to_le_bytes()].concat();
    let bytes = Tokens::new()
        .colmetadata(&[("id", vec![0x26, 4]), ("data", varbinary)])
        .row(&[b_value(&7i32.to_le_bytes()), us_value(&long)])
        .done(1)
        .0;
    let start = bytes.len() - 13 - (1 + 5 + 2 + long.len());
    for chunk in [1, 64, 500] {
        let seen = read(&bytes, start, chunk, true);
        assert!(seen.whole.is_empty(), "chunk {chunk}");
        assert_eq!(
            seen.events,
            [vec![Some(7i32.to_le_bytes().to_vec()), Some(long.clone())]],
            "chunk {chunk}"
        );
    }
}

/// Every prefix of `bytes`, fed a byte at a time with a `buf_len`-byte
/// buffer, ends the same with rows taken whole as without: the same
/// error, or the same word from `finish`. Returns how the whole of `bytes`
/// ends.
fn same_end_at_every_cut(bytes: &[u8], buf_len: usize) -> Option<(ErrorKind, usize)> {
    for cut in 1..=bytes.len() {
        let cut_short = stream("cut short", bytes[..cut].to_vec());
        for large in [LargeValues::Assemble, LargeValues::Stream] {
            let (events, _) = read_rows(&cut_short, &[1], large, buf_len, Rows::Events);
            let (rows, _) = read_rows(&cut_short, &[1], large, buf_len, Rows::Whole);
            assert_eq!(
                (rows.error, rows.finish),
                (events.error, events.finish),
                "cut at {cut} of {}, {large:?}",
                bytes.len()
            );
        }
    }
    let (events, _) = read_rows(
        &stream("whole", bytes.to_vec()),
        &[1],
        LargeValues::Assemble,
        buf_len,
        Rows::Events,
    );
    events.error
}

/// An INT column and a column of type `type_info`, with one row: 7, then
/// `value`.
fn int_and(type_info: Vec<u8>, value: Vec<u8>) -> Vec<u8> {
    Tokens::new()
        .colmetadata(&[("id", vec![0x26, 4]), ("v", type_info)])
        .row(&[b_value(&7i32.to_le_bytes()), value])
        .done(1)
        .0
}

#[test]
fn a_bad_ucs2_unit_fails_as_it_arrives() {
    // A lone low surrogate inside an nvarchar(100) value: the reader says
    // so at once, though the value has more to come.
    let mut text = ucs2("ab");
    text.extend(0xdc00u16.to_le_bytes());
    text.extend(ucs2("cdefgh"));
    let nvarchar = [&[0xe7][..], &200u16.to_le_bytes(), &COLLATION].concat();
    let bytes = int_and(nvarchar.clone(), us_value(&text));
    let error = same_end_at_every_cut(&bytes, 1024).expect("an error");
    assert_eq!(
        error.0,
        ErrorKind::InvalidUcs2(Site::column(TokenType::Row, 1))
    );
    // The same in a PLP value, in two chunks.
    let nvarchar_max = [&[0xe7][..], &0xffffu16.to_le_bytes(), &COLLATION].concat();
    let (first, second) = text.split_at(6);
    let bytes = int_and(nvarchar_max, plp(Some(text.len() as u64), &[first, second]));
    let error = same_end_at_every_cut(&bytes, 1024).expect("an error");
    assert_eq!(
        error.0,
        ErrorKind::InvalidUcs2(Site::column(TokenType::Row, 1))
    );
}

/// A row of a `type_info` column holding `value`, then an INT column
/// holding 7.
fn value_then_int(type_info: Vec<u8>, value: Vec<u8>) -> Vec<u8> {
    Tokens::new()
        .colmetadata(&[("v", type_info), ("id", vec![0x26, 4])])
        .row(&[value, b_value(&7i32.to_le_bytes())])
        .done(1)
        .0
}

#[test]
fn plp_chunks_that_miss_their_total_fail_where_they_miss_it() {
    let varbinary_max = [&[0xa5][..], &0xffffu16.to_le_bytes()].concat();
    let mismatch = ErrorKind::PlpLengthMismatch(Site::column(TokenType::Row, 0));
    // Two chunks of 3 bytes where the total says 8: at the terminator.
    let short = value_then_int(varbinary_max.clone(), plp(Some(8), &[b"abc", b"def"]));
    assert_eq!(
        same_end_at_every_cut(&short, 1024).map(|e| e.0),
        Some(mismatch)
    );
    // Where it says 4: at the second chunk's length.
    let long = value_then_int(varbinary_max, plp(Some(4), &[b"abc", b"def"]));
    assert_eq!(
        same_end_at_every_cut(&long, 1024).map(|e| e.0),
        Some(mismatch)
    );
}

#[test]
fn a_value_too_long_for_its_type_fails_at_its_length() {
    // 40 bytes in an nvarchar(10).
    let nvarchar = [&[0xe7][..], &20u16.to_le_bytes(), &COLLATION].concat();
    let bytes = value_then_int(nvarchar, us_value(&ucs2(&"x".repeat(20))));
    let overflow = ErrorKind::LengthOverflow(Site::column(TokenType::Row, 0));
    assert_eq!(
        same_end_at_every_cut(&bytes, 1024).map(|e| e.0),
        Some(overflow)
    );
}

#[test]
fn a_value_that_fails_its_check_fails_when_whole() {
    // Text ending in a high surrogate with no low half.
    let mut text = ucs2("abc");
    text.extend(0xd800u16.to_le_bytes());
    let nvarchar = [&[0xe7][..], &200u16.to_le_bytes(), &COLLATION].concat();
    let bytes = value_then_int(nvarchar, us_value(&text));
    let bad = ErrorKind::InvalidUcs2(Site::column(TokenType::Row, 0));
    assert_eq!(same_end_at_every_cut(&bytes, 1024).map(|e| e.0), Some(bad));
}

#[test]
fn a_split_value_too_large_for_the_buffer_fails_as_it_splits() {
    // 100 bytes do not fit a 64-byte buffer once split; whole in a chunk,
    // they would be borrowed.
    let varbinary = [&[0xa5][..], &8000u16.to_le_bytes()].concat();
    let too_small = ErrorKind::BufferTooSmall(Site::column(TokenType::Row, 1));
    let bytes = int_and(varbinary, us_value(&[0x5a; 100]));
    assert_eq!(
        same_end_at_every_cut(&bytes, 64).map(|e| e.0),
        Some(too_small)
    );
    // A PLP value assembled from two chunks, in Assemble mode.
    let varbinary_max = [&[0xa5][..], &0xffffu16.to_le_bytes()].concat();
    let halves = [&[0x5a; 50][..], &[0xa5; 50][..]];
    let bytes = int_and(varbinary_max, plp(Some(100), &halves));
    assert_eq!(
        same_end_at_every_cut(&bytes, 64).map(|e| e.0),
        Some(too_small)
    );
}

/// Reads `bytes` a byte at a time, rows through `whole_row` first if
/// `whole`, with a 1024-byte buffer for the first `split` bytes and a
/// 64-byte one after; the first error, if any.
fn read_with_a_shrinking_buffer(bytes: &[u8], split: usize, whole: bool) -> Option<ErrorKind> {
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    let (mut large, mut small) = ([0u8; 1024], [0u8; 64]);
    for (at, byte) in bytes.iter().enumerate() {
        let buf: &mut [u8] = if at < split { &mut large } else { &mut small };
        let mut input = std::slice::from_ref(byte);
        loop {
            if whole && reader.whole_row(&mut input, &meta, buf).is_some() {
                continue;
            }
            match reader.next(&mut input, &mut meta, buf) {
                Ok(Status::Complete(_)) => {}
                Ok(Status::Partial) => break,
                Err(e) => return Some(e.kind()),
            }
        }
    }
    reader.finish().err().map(|e| e.kind())
}

#[test]
fn a_buffer_that_shrinks_under_a_split_value_fails_as_the_row_machine_does() {
    let varbinary = [&[0xa5][..], &8000u16.to_le_bytes()].concat();
    let bytes = int_and(varbinary, us_value(&[0x5a; 100]));
    // Ten bytes into the value, which the row buffer no longer holds.
    let split = bytes.len() - 13 - 90;
    let events = read_with_a_shrinking_buffer(&bytes, split, false);
    assert_eq!(
        events,
        Some(ErrorKind::BufferTooSmall(Site::column(TokenType::Row, 1)))
    );
    assert_eq!(read_with_a_shrinking_buffer(&bytes, split, true), events);
}

#[test]
fn a_streamed_value_the_row_machine_reads_after_gathering_keeps_its_bytes() {
    // A PLP value in two chunks, then a value too long to gather: the row
    // machine streams the PLP value's pieces out of the gathered bytes.
    let varbinary_max = [&[0xa5][..], &0xffffu16.to_le_bytes()].concat();
    let varbinary = [&[0xa5][..], &8000u16.to_le_bytes()].concat();
    let long = vec![0x11; GATHERED_ROW_LEN + 100];
    let bytes = Tokens::new()
        .colmetadata(&[("v", varbinary_max), ("w", varbinary)])
        .row(&[plp(Some(7), &[b"abc", b"defg"]), us_value(&long)])
        .done(1)
        .0;
    let bump = Bump::new();
    let mut meta = Metadata::new(&bump);
    let mut reader = Reader::new(TdsVersion::V7_4);
    reader.set_large_values(LargeValues::Stream);
    let mut buf = [0u8; 1024];
    let (mut pieces, mut values) = (Vec::new(), Vec::new());
    for byte in &bytes {
        let mut input = std::slice::from_ref(byte);
        loop {
            assert!(reader.whole_row(&mut input, &meta, &mut buf).is_none());
            match reader.next(&mut input, &mut meta, &mut buf).unwrap() {
                Status::Complete(Event::ValueChunk { column, bytes }) => {
                    assert_eq!(column, 0);
                    pieces.extend_from_slice(bytes);
                }
                Status::Complete(Event::Value { column, value, .. }) => {
                    values.push((column, value.bytes().map(<[u8]>::to_vec)));
                }
                Status::Complete(_) => {}
                Status::Partial => break,
            }
        }
    }
    reader.finish().unwrap();
    assert_eq!(pieces, b"abcdefg");
    assert_eq!(values, [(1, Some(long))]);
}

#[test]
fn a_row_that_ends_in_an_empty_value_comes_whole_with_its_last_byte() {
    // An INT, then an empty varbinary(10): its length, 0, is the row's last
    // field, and the stream ends there.
    let varbinary = [&[0xa5][..], &10u16.to_le_bytes()].concat();
    let bytes = Tokens::new()
        .colmetadata(&[("id", vec![0x26, 4]), ("v", varbinary)])
        .row(&[b_value(&7i32.to_le_bytes()), us_value(&[])])
        .0;
    let start = bytes.len() - (1 + 5 + 2);
    let seen = read(&bytes, start, 1, true);
    assert!(seen.events.is_empty(), "{seen:?}");
    assert_eq!(
        seen.whole
            .iter()
            .map(|(values, _)| values.clone())
            .collect::<Vec<_>>(),
        [vec![Some(7i32.to_le_bytes().to_vec()), Some(Vec::new())]]
    );
}
