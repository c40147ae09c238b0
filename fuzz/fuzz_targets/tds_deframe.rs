//! The TDS packet de-framer on arbitrary bytes, fed in random-sized chunks
//! (sizes drawn from the first bytes): the packets, their payloads and the
//! message ends equal those of feeding everything at once, through a
//! `Deframer` and through `WholePackets` with a buffer of a drawn size, which
//! hands out every packet that fits its buffer in one piece. No panic, and an
//! error points inside the input.
#![no_main]

use leanwire_core::tds::{Deframer, Payload, Result, Status, WholePackets};
use libfuzzer_sys::fuzz_target;

/// A de-framer, or one that joins packets in a buffer.
enum Packets<'b> {
    Pieces(Deframer),
    Whole(WholePackets<'b>),
}

impl Packets<'_> {
    fn next<'s, 'c: 's>(&'s mut self, input: &mut &'c [u8]) -> Result<Status<Payload<'s>>> {
        match self {
            Packets::Pieces(deframer) => deframer.next(input),
            Packets::Whole(packets) => packets.next(input),
        }
    }

    /// The end state: `finish`, `in_message`, `offset`.
    fn end(&self) -> String {
        match self {
            Packets::Pieces(d) => format!("{:?} {} {}", d.finish(), d.in_message(), d.offset()),
            Packets::Whole(w) => format!("{:?} {} {}", w.finish(), w.in_message(), w.offset()),
        }
    }
}

/// (header, payload, message end) per packet, and the error or end state.
/// `buf_len`: `None` for a `Deframer`, else `WholePackets`' buffer length.
fn run(bytes: &[u8], sizes: &[usize], buf_len: Option<usize>) -> (Vec<String>, String) {
    let mut buf = vec![0; buf_len.unwrap_or(0)];
    let mut deframer = match buf_len {
        None => Packets::Pieces(Deframer::new()),
        Some(_) => Packets::Whole(WholePackets::new(&mut buf)),
    };
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
                    if buf_len.is_some_and(|len| piece.header.payload_len() <= len) {
                        assert!(piece.packet_end && payload.is_empty(), "a packet in pieces");
                    }
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
    (packets, deframer.end())
}

fuzz_target!(|data: &[u8]| {
    let Some((&[count, buf_len], rest)) = data.split_first_chunk() else {
        return;
    };
    let count = usize::from(count % 16).min(rest.len());
    let (sizes, bytes) = rest.split_at(count);
    let sizes: Vec<usize> = sizes.iter().map(|&s| usize::from(s % 32) + 1).collect();
    let buf_len = Some(usize::from(buf_len) * 8);
    let whole = run(bytes, &[bytes.len()], None);
    assert_eq!(whole, run(bytes, &sizes, None), "sizes {sizes:?}");
    assert_eq!(whole, run(bytes, &[1], None));
    assert_eq!(
        whole,
        run(bytes, &sizes, buf_len),
        "sizes {sizes:?}, {buf_len:?}"
    );
    assert_eq!(whole, run(bytes, &[1], buf_len), "{buf_len:?}");
});
