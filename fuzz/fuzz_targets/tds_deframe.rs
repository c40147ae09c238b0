//! The TDS packet de-framer on arbitrary bytes, fed in random-sized chunks
//! (sizes drawn from the first bytes): the packets, their payloads and the
//! message ends equal those of feeding everything at once. No panic, and an
//! error points inside the input.
#![no_main]

use leanwire_core::tds::{Deframer, Status};
use libfuzzer_sys::fuzz_target;

/// (header, payload, message end) per packet, and the error or end state.
fn run(bytes: &[u8], sizes: &[usize]) -> (Vec<String>, String) {
    let mut deframer = Deframer::new();
    let mut packets = Vec::new();
    let mut payload = Vec::new();
    let mut rest = bytes;
    let mut sizes = sizes.iter().copied().cycle();
    while !rest.is_empty() {
        let n = sizes.next().unwrap_or(rest.len()).clamp(1, rest.len());
        let (mut chunk, tail) = rest.split_at(n);
        rest = tail;
        loop {
            match deframer.next(&mut chunk) {
                Ok(Status::Complete(piece)) => {
                    assert!(piece.bytes.len() <= piece.header.payload_len());
                    payload.extend_from_slice(piece.bytes);
                    if piece.packet_end {
                        assert_eq!(payload.len(), piece.header.payload_len());
                        packets.push(format!(
                            "{} {payload:02x?} {}",
                            piece.header, piece.message_end
                        ));
                        payload.clear();
                    }
                }
                Ok(Status::Partial) => break,
                Err(e) => {
                    assert!(e.offset() <= bytes.len());
                    return (packets, format!("error {e:?}"));
                }
            }
        }
    }
    let end = format!(
        "{:?} {} {}",
        deframer.finish(),
        deframer.in_message(),
        deframer.offset()
    );
    (packets, end)
}

fuzz_target!(|data: &[u8]| {
    let Some((&count, rest)) = data.split_first() else {
        return;
    };
    let count = usize::from(count % 16).min(rest.len());
    let (sizes, bytes) = rest.split_at(count);
    let sizes: Vec<usize> = sizes.iter().map(|&s| usize::from(s % 32) + 1).collect();
    let whole = run(bytes, &[bytes.len()]);
    assert_eq!(whole, run(bytes, &sizes), "sizes {sizes:?}");
    assert_eq!(whole, run(bytes, &[1]));
});
