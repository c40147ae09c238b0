//! Rows split across chunks, gathered by `Reader::whole_row` and handed out
//! whole once their last byte is in; rows the gathering cannot follow go to
//! `next`, with the events they always had.

mod support {
    #[allow(dead_code)]
    pub mod tds_cases;
}

use leanwire_core::bumpalo::Bump;
use leanwire_core::tds::{
    Event, GATHERED_ROW_LEN, Metadata, Reader, ReaderState, Status, TdsVersion, Token, TokenType,
    ValuePart, ValueSource,
};
use support::tds_cases::build::{COLLATION, Tokens, b_value, plp, ucs2, us_value};

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
/// whose text grows with the row and whose nvarchar(max) value comes in
/// two PLP chunks.
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
            us_value(&ucs2(&format!("name {i}"))),
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
                    (Some(ValueSource::Inline), Some(ValueSource::Inline))
                ) || matches!(
                    (id, name),
                    (
                        Some(ValueSource::Chunk { .. }),
                        Some(ValueSource::Chunk { .. })
                    )
                ),
                "chunk {chunk}: {sources:?}"
            );
        }
    }
    let bytewise = read(&bytes, start, 1, true);
    let inline = bytewise.whole.iter().flat_map(|(_, s)| s);
    assert_eq!(
        inline.filter(|s| **s == Some(ValueSource::Inline)).count(),
        40
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
