//! `TdsStream` touches the heap for no row once its text columns have held
//! their longest values: `read_row`, `is_null` and the borrowed getters,
//! sync and async.
//!
//! `allocation-counter`'s allocator counts what this thread allocates; the
//! harness's own threads are not counted.

#[path = "support/tds_stream.rs"]
#[allow(dead_code)]
mod tds_stream;

// Only the async source is used here.
#[path = "support/stutter.rs"]
#[allow(dead_code)]
mod stutter;
use stutter::Stutter;

use std::fmt::{self, Write as _};
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};

use leanwire_native::tds::{BlockingRead, TdsStream};

/// Text formatted on the stack, to compare with without allocating.
struct StackText {
    buf: [u8; 64],
    len: usize,
}

impl StackText {
    fn new(args: fmt::Arguments<'_>) -> StackText {
        let mut text = StackText {
            buf: [0; 64],
            len: 0,
        };
        text.write_fmt(args).expect("fits");
        text
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.buf[..self.len]).expect("UTF-8")
    }
}

impl fmt::Write for StackText {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let to = self
            .buf
            .get_mut(self.len..self.len + s.len())
            .ok_or(fmt::Error)?;
        to.copy_from_slice(s.as_bytes());
        self.len += s.len();
        Ok(())
    }
}

/// Polls `future` with the no-op waker until it is ready (`pollster` would
/// allocate its waker on each `block_on`).
fn spin<F: Future + Unpin>(mut future: F) -> F::Output {
    let mut cx = Context::from_waker(Waker::noop());
    loop {
        if let Poll::Ready(out) = Pin::new(&mut future).poll(&mut cx) {
            return out;
        }
    }
}

/// Checks row `i` with the borrowed getters only.
fn check<R>(stream: &TdsStream<R>, i: u32, null: bool) {
    assert_eq!(stream.get::<i32>(0).unwrap(), i as i32);
    assert_eq!(stream.get::<i64>(1).unwrap(), i64::from(i) * 1_000_000_007);
    let name = StackText::new(format_args!("row {i:05} name"));
    assert_eq!(stream.get::<&str>(2).unwrap(), name.as_str());
    let note = stream.get::<Option<&str>>(6).unwrap();
    assert_eq!(note, (!null).then_some("a note"));
    assert_eq!(null, i % 4 == 3);
    let body: &str = stream.get(7).unwrap();
    let head = StackText::new(format_args!("body of row {i}, "));
    assert!(body.starts_with(head.as_str()));
    assert_eq!(body.len(), head.len + (i % 7) as usize * 10);
}

/// Rows whose text values reach every length the result set has: a body
/// has `i % 7` tens of bytes after its head, so rows 0 to 6.
const WARM_UP: u32 = 7;

#[test]
fn rows_after_the_longest_text_allocate_nothing() {
    const ROWS: u32 = 10_000;
    let bytes = tds_stream::packets(&tds_stream::result_set(ROWS), 4096);

    // Sync, over a blocking source.
    let mut stream = TdsStream::new(BlockingRead(&bytes[..]));
    let mut rows = 0;
    while rows < WARM_UP && stream.read_row_sync().unwrap() {
        let null = stream.is_null_sync(6).unwrap();
        check(&stream, rows, null);
        rows += 1;
    }
    let heap = allocation_counter::measure(|| {
        while stream.read_row_sync().unwrap() {
            let null = stream.is_null_sync(6).unwrap();
            assert!(!stream.is_null_sync(0).unwrap());
            check(&stream, rows, null);
            rows += 1;
        }
        assert!(!stream.next_result_sync().unwrap());
    });
    assert_eq!(rows, ROWS);
    assert_eq!(heap.count_total, 0, "sync, after the warm-up: {heap:?}");

    // Async, over a source that is pending on every other poll.
    let source = Stutter::new(&bytes, || 1000);
    let mut stream = TdsStream::new(source);
    let mut rows = 0;
    while rows < WARM_UP && spin(stream.read_row()).unwrap() {
        let null = spin(stream.is_null(6)).unwrap();
        check(&stream, rows, null);
        rows += 1;
    }
    let heap = allocation_counter::measure(|| {
        while spin(stream.read_row()).unwrap() {
            let null = spin(stream.is_null(6)).unwrap();
            assert!(!spin(stream.is_null(0)).unwrap());
            check(&stream, rows, null);
            rows += 1;
        }
        assert!(!spin(stream.next_result()).unwrap());
    });
    assert_eq!(rows, ROWS);
    assert_eq!(heap.count_total, 0, "async, after the warm-up: {heap:?}");
}
