//! The npm package's TDS reader on arbitrary bytes, as JavaScript drives
//! it: fed in random-sized pieces (sizes drawn from the first bytes), it
//! ends the way feeding everything at once ends: both finish, or both fail
//! with the same kind at the same offset. No panic.
#![no_main]

use leanwire_web::shared::{FAILED, last_output, put_input};
use leanwire_web::tds::{tds_close, tds_feed, tds_finish, tds_open};
use libfuzzer_sys::fuzz_target;

/// How the stream ended: `None` when it finished, else the failure's
/// offset as `finish` reports it.
fn end(flags: u32, bytes: &[u8], sizes: &[usize]) -> Option<u32> {
    let handle = tds_open(flags, put_input(b"7.4"), 1 << 24);
    let mut rest = bytes;
    let mut sizes = sizes.iter().copied().cycle();
    while !rest.is_empty() {
        let n = sizes.next().unwrap_or(rest.len()).clamp(1, rest.len());
        let (chunk, tail) = rest.split_at(n);
        rest = tail;
        assert!(
            tds_feed(handle, put_input(chunk)) >= 0,
            "an open reader takes every piece"
        );
    }
    let end = (tds_finish(handle) == FAILED).then(|| last_output().0[0]);
    tds_close(handle);
    end
}

fuzz_target!(|data: &[u8]| {
    let Some((&[flags, count], rest)) = data.split_first_chunk::<2>() else {
        return;
    };
    let flags = u32::from(flags % 8);
    let count = usize::from(count % 16).min(rest.len());
    let (sizes, bytes) = rest.split_at(count);
    let sizes: Vec<usize> = sizes.iter().map(|&s| usize::from(s % 32) + 1).collect();
    let whole = end(flags, bytes, &[bytes.len()]);
    assert_eq!(whole, end(flags, bytes, &sizes), "sizes {sizes:?}");
    assert_eq!(whole, end(flags, bytes, &[1]));
});
