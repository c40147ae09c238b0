//! `TdsStream`: rows of generated TDS 7.4 result sets, read with the sync
//! and the async API, whole and in reads of 1 byte or random sizes, checked
//! against what the generator wrote.

#[path = "support/tds_stream.rs"]
#[allow(dead_code)]
mod tds_stream;

#[path = "support/stutter.rs"]
mod stutter;
use stutter::{OneByte, Stutter};

use std::future::Future;
use std::io::{self, Read};
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use futures_io::AsyncRead;
use leanwire_native::core::tds::{
    DateTime2, Decimal, DoneKind, ErrorKind, Guid, Money, Site, SqlValue, TokenType, Ucs2Str,
};
use leanwire_native::tds::{BlockingRead, MessageKind, StreamOptions, TdsStream};

/// `rows` generated rows in 4 KiB packets.
fn response(rows: u32) -> Vec<u8> {
    tds_stream::packets(&tds_stream::result_set(rows), 4096)
}

/// xorshift64: sizes for the sources below, the same every run.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// A blocking source that hands out 1 to 37 bytes per `read`, and now and
/// then an `Interrupted` error.
struct RandomSizes<'a> {
    data: &'a [u8],
    rng: Rng,
}

impl Read for RandomSizes<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.rng.below(50) == 0 {
            return Err(io::ErrorKind::Interrupted.into());
        }
        let n = (1 + self.rng.below(37) as usize)
            .min(self.data.len())
            .min(buf.len());
        buf[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

/// Checks the current row against what `tds_stream::row(i)` wrote, every
/// column, with the typed getters.
fn check_row<R>(stream: &TdsStream<R>, i: u32) -> io::Result<()> {
    let nulls = i % 4 == 3;
    assert_eq!(stream.get::<i32>(0)?, i as i32);
    assert_eq!(stream.get::<i64>(1)?, i64::from(i) * 1_000_000_007);
    assert_eq!(stream.get::<&str>(2)?, format!("row {i:05} name"));
    assert_eq!(stream.get::<Decimal>(3)?.to_string(), format!("{i}.1234"));
    let ts: DateTime2 = stream.get(4)?;
    assert_eq!(ts.date.days, 738_945 + i % 1000);
    assert_eq!(
        (ts.time.units, ts.time.scale),
        (u64::from(i % 86_400) * 10_000_000 + 1_234_567, 7)
    );
    let guid = (!nulls).then(|| {
        Guid(std::array::from_fn(|b| {
            (b as u8 * 17).wrapping_add(i as u8)
        }))
    });
    assert_eq!(stream.get::<Option<Guid>>(5)?, guid);
    assert_eq!(stream.get::<Option<&str>>(6)?, (!nulls).then_some("a note"));
    let body = format!("body of row {i}, {}", "x".repeat((i % 7) as usize * 10));
    assert_eq!(stream.get::<&str>(7)?, body);
    assert!(stream.get::<Ucs2Str>(7)? == body.as_str());
    assert_eq!(stream.get::<String>(7)?, body);
    Ok(())
}

/// Every row's every column as text, and which are NULL.
fn dump_row<R>(stream: &TdsStream<R>) -> io::Result<String> {
    let mut out = String::new();
    for column in 0..stream.columns().len() {
        let field = stream.field(column)?;
        out.push_str(&format!(
            "{}{field}|",
            if field.is_null() { "!" } else { "" }
        ));
    }
    Ok(out)
}

/// Reads a whole response with the sync API, checking every row; returns
/// the rows as text.
fn read_sync<R: AsyncRead + Unpin>(
    stream: &mut TdsStream<R>,
    rows: u32,
) -> io::Result<Vec<String>> {
    let mut seen = Vec::new();
    while stream.read_row_sync()? {
        let i = seen.len() as u32;
        check_row(stream, i)?;
        let nulls = i % 4 == 3;
        assert!(!stream.is_null_sync(0)?);
        assert!(!stream.is_null_sync(4)?);
        assert_eq!(stream.is_null_sync(5)?, nulls);
        assert_eq!(stream.is_null_sync(6)?, nulls);
        seen.push(dump_row(stream)?);
    }
    assert_eq!(seen.len(), rows as usize);
    let done = stream.done().expect("the result set's DONE");
    assert_eq!(
        (done.kind, done.row_count()),
        (DoneKind::Done, Some(u64::from(rows)))
    );
    assert!(!stream.has_row());
    assert!(!stream.read_row_sync()?, "read_row stays false");
    assert!(!stream.next_result_sync()?);
    assert!(!stream.next_result_sync()?);
    Ok(seen)
}

/// The same with the async API, driven by pollster.
async fn read_async<R: AsyncRead + Unpin>(
    stream: &mut TdsStream<R>,
    rows: u32,
) -> io::Result<Vec<String>> {
    let mut seen = Vec::new();
    while stream.read_row().await? {
        let i = seen.len() as u32;
        check_row(stream, i)?;
        let nulls = i % 4 == 3;
        assert!(!stream.is_null(2).await?);
        assert_eq!(stream.is_null(5).await?, nulls);
        assert_eq!(stream.is_null(6).await?, nulls);
        seen.push(dump_row(stream)?);
    }
    assert_eq!(seen.len(), rows as usize);
    assert_eq!(
        stream.done().and_then(|d| d.row_count()),
        Some(u64::from(rows))
    );
    assert!(!stream.next_result().await?);
    Ok(seen)
}

/// The core TDS error inside an `InvalidData` error of the stream.
fn core_error(e: &io::Error) -> &leanwire_native::core::tds::Error {
    e.get_ref()
        .and_then(|inner| inner.downcast_ref())
        .expect("the core error inside")
}

#[test]
fn sync_reads_every_column_as_written() {
    let bytes = response(1000);
    let mut stream = TdsStream::new(BlockingRead(&bytes[..]));
    assert!(stream.open_sync().unwrap());
    let names: Vec<String> = stream
        .columns()
        .iter()
        .map(|c| c.name.to_string())
        .collect();
    let expected: Vec<&str> = tds_stream::COLUMNS.iter().map(|(name, _)| *name).collect();
    assert_eq!(names, expected);
    assert_eq!(stream.columns()[7].type_info.to_string(), "nvarchar(max)");
    assert_eq!(stream.ordinal("amount"), Some(3));
    let rows = read_sync(&mut stream, 1000).unwrap();
    assert_eq!(
        rows[0],
        "0|0|row 00000 name|0.1234|2024-03-01T00:00:00.1234567|\
         33221100-5544-7766-8899-aabbccddeeff|a note|body of row 0, |"
    );
    assert!(rows[3].contains("|!NULL|!NULL|"), "{}", rows[3]);
    assert_eq!(stream.message_count(), 0);
}

#[test]
fn async_reads_the_same_rows_as_sync() {
    let bytes = response(1000);
    let mut sync = TdsStream::new(BlockingRead(&bytes[..]));
    let expected = read_sync(&mut sync, 1000).unwrap();

    // Over a `&[u8]` (always ready), and over a source that is pending on
    // every other poll.
    let mut stream = TdsStream::new(&bytes[..]);
    assert_eq!(
        pollster::block_on(read_async(&mut stream, 1000)).unwrap(),
        expected
    );
    let source = {
        let mut rng = Rng(7);
        Stutter::new(&bytes, move || 1 + rng.below(300) as usize)
    };
    let mut stream = TdsStream::new(source);
    assert_eq!(
        pollster::block_on(read_async(&mut stream, 1000)).unwrap(),
        expected
    );
}

#[test]
fn one_byte_reads_resume_inside_values_and_plp_chunks() {
    let bytes = response(1000);
    let mut whole = TdsStream::new(BlockingRead(&bytes[..]));
    let expected = read_sync(&mut whole, 1000).unwrap();
    let mut stream = TdsStream::new(BlockingRead(OneByte(&bytes)));
    assert_eq!(read_sync(&mut stream, 1000).unwrap(), expected);
}

#[test]
fn random_read_sizes_give_identical_rows() {
    let bytes = response(1000);
    let mut whole = TdsStream::new(BlockingRead(&bytes[..]));
    let expected = read_sync(&mut whole, 1000).unwrap();
    for seed in [1, 2, 3] {
        let source = RandomSizes {
            data: &bytes,
            rng: Rng(seed),
        };
        // A small input buffer too: packets span many reads of it.
        let options = StreamOptions {
            input_len: 100 + seed as usize * 211,
            ..StreamOptions::default()
        };
        let mut stream = TdsStream::with_options(BlockingRead(source), options);
        assert_eq!(
            read_sync(&mut stream, 1000).unwrap(),
            expected,
            "seed {seed}"
        );
    }
}

#[test]
fn dropped_read_row_futures_lose_nothing() {
    let bytes = response(200);
    let mut whole = TdsStream::new(BlockingRead(&bytes[..]));
    let expected = read_sync(&mut whole, 200).unwrap();

    // Each read_row future is polled once and dropped, pending or not, and
    // a new one is made: the stream must go on from the same byte.
    let source = {
        let mut rng = Rng(11);
        Stutter::new(&bytes, move || 1 + rng.below(300) as usize)
    };
    let mut stream = TdsStream::new(source);
    let mut cx = Context::from_waker(Waker::noop());
    let mut seen = Vec::new();
    loop {
        let mut future = stream.read_row();
        match Pin::new(&mut future).poll(&mut cx) {
            Poll::Pending => continue,
            Poll::Ready(Ok(true)) => {
                drop(future);
                check_row(&stream, seen.len() as u32).unwrap();
                seen.push(dump_row(&stream).unwrap());
            }
            Poll::Ready(Ok(false)) => break,
            Poll::Ready(Err(e)) => panic!("{e}"),
        }
    }
    assert_eq!(seen, expected);
}

/// ERROR (0xAA) or INFO (0xAB) [MS-TDS 2.2.7.10, 2.2.7.13], from server
/// "db1", at line 7.
fn message(
    out: &mut Vec<u8>,
    token: u8,
    number: i32,
    state: u8,
    class: u8,
    text: &str,
    procedure: &str,
) {
    let ucs2 = |s: &str| -> Vec<u8> { s.encode_utf16().flat_map(u16::to_le_bytes).collect() };
    let mut body = Vec::new();
    body.extend(number.to_le_bytes());
    body.extend([state, class]);
    body.extend((text.encode_utf16().count() as u16).to_le_bytes());
    body.extend(ucs2(text));
    body.push(3);
    body.extend(ucs2("db1"));
    body.push(procedure.encode_utf16().count() as u8);
    body.extend(ucs2(procedure));
    body.extend(7i32.to_le_bytes());
    out.push(token);
    out.extend((body.len() as u16).to_le_bytes());
    out.extend(body);
}

/// `result_set(rows)` with DONE_MORE set in its DONE: more follows.
fn result_set_with_more(rows: u32) -> Vec<u8> {
    let mut tokens = tds_stream::result_set(rows);
    let status = tokens.len() - 12;
    tokens[status] |= 0x01;
    tokens
}

#[test]
fn next_result_skips_the_rest_of_a_result_set() {
    let mut tokens = result_set_with_more(50);
    // An UPDATE's DONE (count 3, more follows) between the two result sets.
    tokens.extend([0xfd, 0x11, 0, 0xc5, 0, 3, 0, 0, 0, 0, 0, 0, 0]);
    tokens.extend(tds_stream::result_set(7));
    let bytes = tds_stream::packets(&tokens, 4096);

    for first_rows in [0, 1, 49, 50] {
        let mut stream = TdsStream::new(BlockingRead(OneByte(&bytes)));
        for i in 0..first_rows {
            assert!(stream.read_row_sync().unwrap());
            check_row(&stream, i).unwrap();
        }
        assert!(
            stream.next_result_sync().unwrap(),
            "after {first_rows} rows"
        );
        assert!(!stream.has_row());
        assert_eq!(stream.columns().len(), 8);
        let done = stream.done().unwrap();
        assert_eq!((done.row_count(), done.cur_cmd), (Some(3), 0xc5));
        let mut n = 0;
        while stream.read_row_sync().unwrap() {
            check_row(&stream, n).unwrap();
            n += 1;
        }
        assert_eq!(n, 7);
        assert_eq!(stream.done().unwrap().row_count(), Some(7));
        assert!(!stream.next_result_sync().unwrap());
    }

    // next_result first thing skips the first result set whole.
    let mut stream = TdsStream::new(BlockingRead(&bytes[..]));
    assert!(stream.next_result_sync().unwrap());
    assert!(stream.read_row_sync().unwrap());
    check_row(&stream, 0).unwrap();
    assert!(!stream.next_result_sync().unwrap());
    assert!(!stream.read_row_sync().unwrap());
}

#[test]
fn messages_and_done_counts_are_kept() {
    let mut tokens = Vec::new();
    message(
        &mut tokens,
        0xab,
        5701,
        1,
        0,
        "Changed database context to 'db1'.",
        "",
    );
    tokens.extend(result_set_with_more(2));
    message(
        &mut tokens,
        0xaa,
        208,
        2,
        16,
        "Invalid object name 'nope'.",
        "usp_report",
    );
    // DONE with DONE_ERROR, no count: the failed statement.
    tokens.extend([0xfd, 0x02, 0, 0xc1, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    let bytes = tds_stream::packets(&tokens, 512);
    let mut stream = TdsStream::new(BlockingRead(&bytes[..]));
    assert_eq!(stream.message_count(), 0);
    while stream.read_row_sync().unwrap() {}
    assert_eq!(stream.done().unwrap().row_count(), Some(2));
    assert_eq!(stream.message_count(), 1);
    assert!(!stream.next_result_sync().unwrap());
    let done = stream.done().unwrap();
    assert!(done.status.error() && done.row_count().is_none());
    let messages: Vec<String> = stream.messages().map(|m| m.text().to_string()).collect();
    assert_eq!(
        messages,
        [
            "Changed database context to 'db1'.",
            "Invalid object name 'nope'."
        ]
    );
    let first = stream.messages().next().unwrap();
    assert_eq!(
        first.to_string(),
        r#"INFO 5701 state=1 class=0 "Changed database context to \'db1\'." server="db1" proc="" line=7"#
    );
    let error = stream.messages().last().unwrap();
    assert_eq!(
        (
            error.kind(),
            error.number(),
            error.state(),
            error.class(),
            error.line()
        ),
        (MessageKind::Error, 208, 2, 16, 7)
    );
    assert!(error.server() == "db1" && error.procedure() == "usp_report");
    assert!(!error.truncated());
    stream.clear_messages();
    assert_eq!((stream.messages().len(), stream.message_count()), (0, 2));
}

/// A blocking source that hands out `before`, fails once with
/// `ConnectionReset`, then hands out `after`.
struct FailsOnce<'a> {
    before: &'a [u8],
    after: &'a [u8],
    failed: bool,
}

impl Read for FailsOnce<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.before.is_empty() && !self.failed {
            self.failed = true;
            return Err(io::ErrorKind::ConnectionReset.into());
        }
        let data = if self.failed {
            &mut self.after
        } else {
            &mut self.before
        };
        data.read(buf)
    }
}

#[test]
fn a_source_error_passes_through_and_the_stream_goes_on() {
    let bytes = response(20);
    for at in [0, 1, 8, 100, bytes.len() / 2, bytes.len() - 1] {
        let (before, after) = bytes.split_at(at);
        let mut stream = TdsStream::new(BlockingRead(FailsOnce {
            before,
            after,
            failed: false,
        }));
        let mut rows = 0;
        let e = loop {
            match stream.read_row_sync() {
                Ok(true) => {
                    check_row(&stream, rows).unwrap();
                    rows += 1;
                }
                Ok(false) => panic!("no error after {at} bytes"),
                Err(e) => break e,
            }
        };
        assert_eq!(e.kind(), io::ErrorKind::ConnectionReset, "after {at} bytes");
        while stream.read_row_sync().unwrap() {
            check_row(&stream, rows).unwrap();
            rows += 1;
        }
        assert_eq!(rows, 20, "after {at} bytes");
        assert_eq!(stream.done().unwrap().row_count(), Some(20));
    }
}

#[test]
fn the_last_messages_are_kept_each_cut_to_its_room() {
    let mut tokens = Vec::new();
    let long_text = "t".repeat(600);
    let long_procedure = "p".repeat(200);
    for number in 1..=10 {
        let (text, procedure) = match number {
            9 => (long_text.as_str(), ""),
            10 => ("short", long_procedure.as_str()),
            _ => ("short", "usp"),
        };
        message(&mut tokens, 0xab, number, 1, 0, text, procedure);
    }
    tds_stream::done(&mut tokens, 0);
    let bytes = tds_stream::packets(&tokens, 512);
    let mut stream = TdsStream::new(BlockingRead(OneByte(&bytes)));
    assert!(!stream.read_row_sync().unwrap());
    assert_eq!(stream.message_count(), 10);
    let numbers: Vec<i32> = stream.messages().map(|m| m.number()).collect();
    assert_eq!(numbers, (3..=10).collect::<Vec<_>>());
    let [.., eighth, ninth, tenth] = stream.messages().collect::<Vec<_>>()[..] else {
        unreachable!()
    };
    assert!(!eighth.truncated());
    assert!(eighth.procedure() == "usp");
    // 1024 bytes of text are 512 UCS-2 code units; 256 bytes of a name, 128.
    assert!(ninth.truncated());
    assert!(ninth.text() == "t".repeat(512).as_str() && ninth.procedure() == "");
    assert!(tenth.truncated());
    assert!(tenth.text() == "short" && tenth.procedure() == "p".repeat(128).as_str());
    assert_eq!(
        format!("{tenth:?}"),
        format!(
            "ServerMessage {{ kind: Info, number: 10, state: 1, class: 0, line: 7, \
             text: \"short\", server: \"db1\", procedure: {:?} }}",
            "p".repeat(128)
        )
    );
}

#[test]
fn getters_say_what_is_wrong() {
    let bytes = response(4);
    let mut stream = TdsStream::new(BlockingRead(&bytes[..]));
    let e = stream.get::<i32>(0).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidInput, "{e}");
    assert_eq!(
        stream.is_null_sync(0).unwrap_err().kind(),
        io::ErrorKind::InvalidInput
    );
    for _ in 0..4 {
        assert!(stream.read_row_sync().unwrap());
    }
    // Row 3: guid and note NULL.
    let e = stream.get::<&str>(6).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    assert_eq!(
        e.to_string(),
        r#"column 6 "note" (nvarchar(50)) is NULL: read it as an Option"#
    );
    let e = stream.get::<i32>(2).unwrap_err();
    assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
    assert_eq!(
        e.to_string(),
        r#"column 2 "name" (nvarchar(50)) cannot be read as i32"#
    );
    assert_eq!(stream.get::<i64>(0).unwrap(), 3, "int widens to i64");
    assert!(stream.get::<f64>(3).is_err());
    assert_eq!(
        stream.get::<&[u8]>(7).unwrap_err().kind(),
        io::ErrorKind::InvalidInput
    );
    assert_eq!(
        stream.get::<i32>(8).unwrap_err().kind(),
        io::ErrorKind::InvalidInput
    );
    assert_eq!(stream.get::<SqlValue>(6).unwrap(), SqlValue::Null);
    assert_eq!(stream.get::<SqlValue>(0).unwrap(), SqlValue::Int(3));
    assert!(stream.get::<Option<i32>>(0).unwrap() == Some(3));
}

#[test]
fn row_buffer_too_small_names_the_column() {
    let bytes = response(3);
    // Row 0 needs 115 bytes: id 4, big 8, name 28, amount 9, ts 8, guid 16,
    // note 12, body 30; 85 before the body, which comes in two PLP chunks
    // and is assembled by the reader itself. UTF-8 forms take no room.
    for (len, column) in [(30, 2), (50, 4), (100, 7)] {
        let options = StreamOptions {
            row_buffer_len: len,
            ..StreamOptions::default()
        };
        let mut stream = TdsStream::with_options(BlockingRead(&bytes[..]), options);
        let e = stream.read_row_sync().unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        let inner = core_error(&e);
        assert_eq!(
            inner.kind(),
            ErrorKind::BufferTooSmall(Site::column(TokenType::Row, column)),
            "{len} bytes"
        );
        // The stream stops there.
        assert_eq!(
            stream.read_row_sync().unwrap_err().to_string(),
            e.to_string()
        );
        // One byte at a time, every value arrives split, and is assembled
        // by the reader: the same column is named.
        let mut stream = TdsStream::with_options(BlockingRead(OneByte(&bytes)), options);
        let e = stream.read_row_sync().unwrap_err();
        assert!(
            e.to_string()
                .contains(&format!("in ROW column {column} at byte")),
            "{e}"
        );
    }
}

#[test]
fn token_split_after_a_large_row_gets_the_whole_row_buffer() {
    // Row 0 takes 150 of the row buffer's 200 bytes; the INFO after it is
    // 108 bytes, assembled in the row buffer when it comes 1 byte a read.
    let mut tokens = Vec::new();
    tds_stream::colmetadata(&mut tokens);
    tds_stream::row(&mut tokens, 0);
    message(
        &mut tokens,
        0xab,
        1,
        1,
        0,
        "an informational message of 42 characters",
        "",
    );
    tds_stream::done(&mut tokens, 1);
    let bytes = tds_stream::packets(&tokens, 4096);
    let options = StreamOptions {
        row_buffer_len: 200,
        ..StreamOptions::default()
    };
    let mut stream = TdsStream::with_options(BlockingRead(OneByte(&bytes)), options);
    assert!(stream.read_row_sync().unwrap());
    check_row(&stream, 0).unwrap();
    assert!(!stream.read_row_sync().unwrap());
    assert_eq!(stream.message_count(), 1);
    assert_eq!(
        stream.messages().next().unwrap().text().to_string(),
        "an informational message of 42 characters"
    );
}

#[test]
fn source_ending_between_packets_is_no_end_of_results() {
    let bytes = tds_stream::packets(&tds_stream::result_set(40), 512);
    let mut stream = TdsStream::new(BlockingRead(&bytes[..512 * 3]));
    let e = loop {
        match stream.read_row_sync() {
            Ok(true) => {}
            Ok(false) => panic!("the cut looked like the end"),
            Err(e) => break e,
        }
    };
    assert_eq!(e.kind(), io::ErrorKind::UnexpectedEof, "{e}");
}

#[test]
fn stream_cut_inside_a_row_is_unexpected_eof() {
    let bytes = response(20);
    let tokens = tds_stream::result_set(20);
    // The tokens without packet headers end inside row 10 ...
    let mut cut = tokens.clone();
    cut.truncate(tokens.len() / 2);
    let cut = tds_stream::packets(&cut, 4096);
    let mut stream = TdsStream::new(BlockingRead(&cut[..]));
    let e = loop {
        match stream.read_row_sync() {
            Ok(true) => {}
            Ok(false) => panic!("no error"),
            Err(e) => break e,
        }
    };
    assert_eq!(e.kind(), io::ErrorKind::InvalidData);
    assert!(
        e.to_string().starts_with("stream ends inside a token in "),
        "{e}"
    );
    // The stream stops there.
    assert_eq!(
        stream.read_row_sync().unwrap_err().to_string(),
        e.to_string()
    );
    assert_eq!(
        stream.next_result_sync().unwrap_err().to_string(),
        e.to_string()
    );
    // ... and the packets inside a packet.
    let mut stream = TdsStream::new(BlockingRead(&bytes[..bytes.len() - 5]));
    let e = loop {
        match stream.read_row_sync() {
            Ok(true) => {}
            Ok(false) => panic!("no error"),
            Err(e) => break e,
        }
    };
    assert_eq!(
        e.to_string(),
        format!("stream ends inside a packet at byte {}", bytes.len() - 5)
    );
}

#[test]
fn responses_follow_one_another_on_one_source() {
    let mut bytes = response(3);
    bytes.extend(response(5));
    let mut stream = TdsStream::new(BlockingRead(OneByte(&bytes)));
    assert!(
        stream.next_response().is_err(),
        "the first response is not over"
    );
    read_sync(&mut stream, 3).unwrap();
    stream.next_response().unwrap();
    assert!(stream.read_row_sync().unwrap());
    check_row(&stream, 0).unwrap();
    while stream.read_row_sync().unwrap() {}
    assert_eq!(stream.done().unwrap().row_count(), Some(5));
    // The second response's columns stay until a COLMETADATA says otherwise.
    assert_eq!(stream.columns().len(), tds_stream::COLUMNS.len());
    assert!(!stream.next_result_sync().unwrap());
    stream.next_response().unwrap();
    assert!(!stream.open_sync().unwrap(), "the source has ended");
}

#[test]
fn a_colmetadata_past_the_arena_limit_is_arena_full_at_its_offset() {
    let (tokens, first) = tds_stream::wide_result_sets(3, 4096);
    let bytes = tds_stream::packets(&tokens, 4096);
    let options = StreamOptions {
        arena_limit: 64 * 1024,
        ..StreamOptions::default()
    };
    for one_byte in [false, true] {
        let mut stream = if one_byte {
            TdsStream::with_options(
                BlockingRead(Box::new(OneByte(&bytes)) as Box<dyn Read>),
                options,
            )
        } else {
            TdsStream::with_options(BlockingRead(Box::new(&bytes[..]) as Box<dyn Read>), options)
        };
        // The narrow result set fits.
        assert!(stream.read_row_sync().unwrap());
        assert_eq!(stream.get::<i32>(0).unwrap(), 7);
        assert!(!stream.read_row_sync().unwrap());
        let e = stream.next_result_sync().unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidData);
        let inner = core_error(&e);
        assert_eq!(
            (inner.kind(), inner.offset()),
            (
                ErrorKind::ArenaFull(Site::token(TokenType::ColMetadata)),
                first + 1
            )
        );
        assert!(stream.arena_allocated_bytes() <= 64 * 1024);
        // The stream stops there.
        assert_eq!(
            stream.next_result_sync().unwrap_err().to_string(),
            e.to_string()
        );
    }
}

#[test]
fn result_sets_one_after_another_keep_the_arena_at_one() {
    // Without resets, 100 result sets of 4096 columns take over 50 MB of
    // metadata, past the default limit.
    let (tokens, _) = tds_stream::wide_result_sets(100, 4096);
    let bytes = tds_stream::packets(&tokens, 4096);
    let mut stream = TdsStream::new(BlockingRead(&bytes[..]));
    assert!(stream.open_sync().unwrap());
    assert_eq!(stream.columns().len(), 1);
    let mut sets = 0;
    let mut peak = 0;
    let mut least = usize::MAX;
    while stream.next_result_sync().unwrap() {
        sets += 1;
        assert_eq!(stream.columns().len(), 4096);
        peak = peak.max(stream.arena_allocated_bytes());
        least = least.min(stream.arena_allocated_bytes());
    }
    assert_eq!(sets, 100);
    assert!(peak < 2 << 20, "{peak} bytes");
    // Each set's 4096 columns are in the arena: at least a byte apiece.
    assert!(least >= 4096, "{least} bytes");
}

#[test]
fn a_colmetadata_without_metadata_keeps_the_columns() {
    let (mut tokens, first) = tds_stream::wide_result_sets(0, 0);
    assert_eq!(tokens.len(), first);
    tokens.extend([0x81, 0xff, 0xff, 0xd1, 8, 0, 0, 0]);
    tds_stream::done(&mut tokens, 1);
    let bytes = tds_stream::packets(&tokens, 4096);
    let mut stream = TdsStream::new(BlockingRead(OneByte(&bytes)));
    assert!(stream.read_row_sync().unwrap());
    assert!(!stream.read_row_sync().unwrap());
    assert!(stream.next_result_sync().unwrap());
    assert_eq!(stream.ordinal("a"), Some(0));
    assert!(stream.read_row_sync().unwrap());
    assert_eq!(stream.get::<i32>(0).unwrap(), 8);
    assert!(!stream.next_result_sync().unwrap());
}

/// A result set of other types: varchar (CP1252), varbinary, float, bit,
/// money and smallint; row 0 with values, row 1 with NULLs. One packet.
fn other_types() -> Vec<u8> {
    let mut t = vec![0x81, 6, 0];
    let column = |t: &mut Vec<u8>, type_info: &[u8], name: u8| {
        t.extend([0, 0, 0, 0, 1, 0]);
        t.extend(type_info);
        t.extend([1, name, 0]);
    };
    column(&mut t, &[0xa7, 50, 0, 0x09, 0x04, 0xd0, 0x00, 0x34], b'v');
    column(&mut t, &[0xa5, 20, 0], b'b');
    column(&mut t, &[0x6d, 8], b'f');
    column(&mut t, &[0x68, 1], b'x');
    column(&mut t, &[0x6e, 8], b'm');
    column(&mut t, &[0x34], b's');
    t.extend([0xd1, 4, 0, b'c', b'a', b'f', 0xe9]);
    t.extend([3, 0, 1, 2, 3]);
    t.push(8);
    t.extend(1.5f64.to_le_bytes());
    t.extend([1, 1]);
    t.push(8);
    t.extend(0i32.to_le_bytes());
    t.extend(123_400u32.to_le_bytes());
    t.extend((-7i16).to_le_bytes());
    t.extend([0xd1, 5, 0, 0xc3, 0xa9, b't', 0xc3, 0xa9]);
    t.extend([0xff, 0xff, 0, 0, 0]);
    t.extend(5i16.to_le_bytes());
    t.extend([0xfd, 0x10, 0, 0xc1, 0, 2, 0, 0, 0, 0, 0, 0, 0]);
    tds_stream::packets(&t, 4096)
}

#[test]
fn other_types_convert() {
    let bytes = other_types();
    check_other_types(TdsStream::new(BlockingRead(&bytes[..])));
    check_other_types(TdsStream::new(BlockingRead(OneByte(&bytes))));
}

fn check_other_types<R: AsyncRead + Unpin>(mut stream: TdsStream<R>) {
    assert_eq!(stream.offset(), 0);
    assert!(!stream.has_row());
    assert!(stream.read_row_sync().unwrap());
    assert!(stream.has_row());
    assert_eq!(stream.field(4).unwrap().index(), 4);
    let debug = format!("{stream:?}");
    assert!(
        debug.starts_with("TdsStream {") && debug.contains("has_row: true, columns: 6"),
        "{debug}"
    );
    // 0xE9 is é in CP1252: decoded into the UTF-8 form, made once.
    let text = stream.get::<&str>(0).unwrap();
    assert_eq!(text, "café");
    let field = format!("{:?}", stream.field(0).unwrap());
    assert!(field.contains(r#"text: TextForm(Some("café"))"#), "{field}");
    assert!(std::ptr::eq(text, stream.get::<&str>(0).unwrap()));
    assert_eq!(stream.field(0).unwrap().bytes(), Some(&b"caf\xe9"[..]));
    assert_eq!(stream.get::<&[u8]>(1).unwrap(), [1, 2, 3]);
    assert_eq!(stream.get::<Vec<u8>>(1).unwrap(), [1, 2, 3]);
    assert_eq!(stream.get::<f64>(2).unwrap(), 1.5);
    assert!(stream.get::<f32>(2).is_err());
    assert!(stream.get::<bool>(3).unwrap());
    assert_eq!(stream.get::<Money>(4).unwrap().to_string(), "12.3400");
    assert_eq!(stream.get::<i16>(5).unwrap(), -7);
    assert_eq!(stream.get::<i32>(5).unwrap(), -7);
    assert!(stream.get::<u8>(5).is_err());
    assert!(stream.get::<&str>(1).is_err(), "binary is no text");

    assert!(stream.read_row_sync().unwrap());
    // The next row's text, not a form kept from the last one. Its bytes
    // happen to be valid UTF-8 ("été"), but the column's code page is
    // CP1252, where they are "Ã©tÃ©".
    assert_eq!(stream.get::<String>(0).unwrap(), "Ã©tÃ©");
    assert_eq!(stream.get::<Option<&[u8]>>(1).unwrap(), None);
    assert_eq!(stream.get::<Option<f64>>(2).unwrap(), None);
    assert_eq!(stream.get::<Option<bool>>(3).unwrap(), None);
    assert_eq!(stream.get::<Option<Money>>(4).unwrap(), None);
    for column in 1..=4 {
        assert!(stream.is_null_sync(column).unwrap());
    }
    assert_eq!(stream.get::<i16>(5).unwrap(), 5);
    assert!(!stream.read_row_sync().unwrap());
    assert!(!stream.has_row());
    assert_eq!(stream.done().unwrap().row_count(), Some(2));
    // Every token byte was read: the packet less its 8-byte header.
    assert_eq!(stream.offset(), (other_types().len() - 8) as u64);
}
