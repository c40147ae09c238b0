//! TDS result sets: leanwire's sans-IO reader fed whole, in 4 KiB chunks and
//! one byte at a time, each next to the whole-buffer decode it must keep up
//! with.
//!
//! | op | leanwire | peer |
//! |---|---|---|
//! | decode_whole | `WholePackets` (a 4 KiB packet buffer) + `Reader` (`LargeValues::Assemble`, a reused 64 KiB row buffer), the stream as one chunk | the same (the baseline) |
//! | decode_4k | the same, fed in 4 KiB chunks | the whole-buffer decode |
//! | decode_1byte | the same, fed 1 byte at a time: packets are joined in the packet buffer | the whole-buffer decode |
//! | decode_1byte_pieces | 1 byte at a time through `WholePackets` with no buffer, so each byte reaches the `Reader` as its own piece and the reader gathers rows split across chunks | the whole-buffer decode |
//! | stream_whole, stream_4k, stream_1byte | `LargeValues::Stream`: the nvarchar(max) column comes as pieces | the whole-buffer decode (Assemble) |
//! | data_reader | `TdsStream` (the `SqlDataReader`-like API) over the stream in 4 KiB reads, one stream reused for every decode: `read_row_sync`, then `get::<SqlValue>` of every column | the whole-buffer decode |
//! | plp_1byte | one row holding an nvarchar(max) and a varbinary(max) value of the arg's size each, `LargeValues::Stream`, 1 byte at a time, each byte its own piece (no packet buffer) | the same stream fed whole (Stream) |
//!
//! The result set is `tds_stream::result_set(10_000)` (the generator the
//! oracle tests check against tedious) in 4 KiB packets. Every decode turns
//! every value into its [`SqlValue`] (streamed values: their pieces) and folds
//! it into a [`Seen`]; `main` checks that every feeding and both modes arrive
//! at the same [`Seen`] before anything is timed.
//!
//! The peer for throughput is npm tedious, which runs in Node: `main` writes
//! the packets to `target/tds-bench.bin` (and their sizes to
//! `target/tds-bench.json`) for `scripts/bench-tedious`, and `scripts/bench`
//! sets the two side by side.

#[path = "../tests/support/tds_stream.rs"]
#[allow(dead_code)]
mod tds_stream;

use std::path::PathBuf;

use bumpalo::Bump;
use divan::{AllocProfiler, Bencher, black_box};
use leanwire_native::core::tds::{
    Event, LargeValues, Metadata, Reader, SqlValue, Status, TdsVersion, WholePackets,
};
use leanwire_native::tds::{BlockingRead, StreamOptions, TdsStream};

#[global_allocator]
static ALLOC: AllocProfiler = AllocProfiler::system();

/// Rows in the result set.
const ROWS: u32 = 10_000;

/// The packet size (SQL Server's default) and the chunk size of the 4 KiB rows.
const PACKET: usize = 4096;

/// The row buffer that Assemble mode gathers split values in.
const ROW_BUF: usize = 64 * 1024;

/// Sizes of each large value in the `plp_1byte` rows.
const PLP_SIZES: [usize; 3] = [1_000, 100_000, 10_000_000];

fn main() {
    check_feedings_agree();
    write_peer_input();
    divan::main();
}

/// The result set of [`ROWS`] rows, in packets.
fn result_set() -> Vec<u8> {
    tds_stream::packets(&tds_stream::result_set(ROWS), PACKET)
}

/// One row with an nvarchar(max) and a varbinary(max) value of `size` bytes
/// each (PLP, in 8000-byte chunks as SQL Server sends them), then DONE, in
/// packets.
fn plp_row(size: usize) -> Vec<u8> {
    const COLLATION: [u8; 5] = [0x09, 0x04, 0xd0, 0x00, 0x34];
    let mut tokens = vec![0x81, 2, 0];
    for (name, type_info) in [
        ("text", &[0xe7, 0xff, 0xff][..]),
        ("blob", &[0xa5, 0xff, 0xff][..]),
    ] {
        tokens.extend(0u32.to_le_bytes()); // UserType
        tokens.extend(1u16.to_le_bytes()); // Flags: fNullable
        tokens.extend(type_info);
        if name == "text" {
            tokens.extend(COLLATION);
        }
        tokens.push(name.len() as u8);
        tokens.extend(name.encode_utf16().flat_map(u16::to_le_bytes));
    }
    tokens.push(0xd1);
    let text: Vec<u8> = (0..size / 2)
        .flat_map(|i| u16::from(b'a' + (i % 26) as u8).to_le_bytes())
        .collect();
    let blob: Vec<u8> = (0..size).map(|i| (i * 7) as u8).collect();
    for value in [text, blob] {
        tokens.extend((value.len() as u64).to_le_bytes());
        for chunk in value.chunks(8000) {
            tokens.extend((chunk.len() as u32).to_le_bytes());
            tokens.extend(chunk);
        }
        tokens.extend(0u32.to_le_bytes());
    }
    tds_stream::done(&mut tokens, 1);
    tds_stream::packets(&tokens, PACKET)
}

/// What a decode saw. Every feeding and both modes see the same.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
struct Seen {
    rows: u64,
    values: u64,
    /// Every value's digest, folded in order.
    sum: u64,
    /// Bytes of text and binary values.
    octets: u64,
}

impl Seen {
    fn fold(&mut self, digest: u64) {
        self.values += 1;
        self.sum = self.sum.wrapping_mul(31).wrapping_add(digest);
    }

    /// Text or binary: its length and first byte.
    fn octets(&mut self, len: usize, first: Option<u8>) {
        self.octets += len as u64;
        self.fold((len as u64) << 8 | u64::from(first.unwrap_or(0)));
    }

    fn value(&mut self, value: SqlValue<'_>) {
        let digest = match value {
            SqlValue::Null => 0x9e37_79b9,
            SqlValue::Int(n) => n as u64,
            SqlValue::BigInt(n) => n as u64,
            SqlValue::Decimal(d) => d.magnitude as u64 ^ u64::from(d.negative),
            SqlValue::DateTime2(t) => u64::from(t.date.days) << 40 ^ t.time.units,
            SqlValue::Guid(g) => {
                let n = g.to_u128();
                (n >> 64) as u64 ^ n as u64
            }
            SqlValue::NText(text) => {
                let bytes = text.as_bytes();
                return self.octets(bytes.len(), bytes.first().copied());
            }
            SqlValue::Binary(bytes) => return self.octets(bytes.len(), bytes.first().copied()),
            other => panic!("no bench input has {other:?}"),
        };
        self.fold(digest);
    }
}

/// How the packets reach the reader.
#[derive(Copy, Clone, Debug)]
enum Feed {
    /// Each packet's payload whole, from [`WholePackets`] with a buffer of
    /// the packet size: straight from the chunk when the packet lies in it,
    /// else joined in the buffer.
    WholePackets,
    /// Each piece of payload as the de-framer cuts it ([`WholePackets`]
    /// with no buffer), so a packet split across chunks reaches the reader
    /// in pieces.
    Pieces,
}

/// A decoder's reusable parts: the metadata arena, the row buffer and the
/// packet buffer.
struct Decoder {
    bump: Bump,
    buf: Vec<u8>,
    packet: Vec<u8>,
}

impl Decoder {
    fn new() -> Decoder {
        Decoder {
            bump: Bump::with_capacity(16 * 1024),
            buf: vec![0; ROW_BUF],
            packet: vec![0; PACKET],
        }
    }

    /// Decodes the packets in `stream`, fed `chunk` bytes at a time through
    /// `feed`, visiting every value.
    fn decode(&mut self, stream: &[u8], chunk: usize, mode: LargeValues, feed: Feed) -> Seen {
        self.bump.reset();
        let mut meta = Metadata::new(&self.bump);
        let packet_buf = match feed {
            Feed::WholePackets => &mut self.packet[..],
            Feed::Pieces => &mut [],
        };
        let mut packets = WholePackets::new(packet_buf);
        let mut reader = Reader::new(TdsVersion::V7_4);
        reader.set_large_values(mode);
        let mut seen = Seen::default();
        // A streamed value: its length so far and first byte.
        let mut large = (0usize, None);
        for mut input in stream.chunks(chunk) {
            while let Status::Complete(payload) = packets.next(&mut input).expect("packets") {
                let mut bytes = payload.bytes;
                loop {
                    if let Some(row) = reader.whole_row(&mut bytes, &meta, &mut self.buf) {
                        row.values().for_each(|value| seen.value(value.get()));
                        seen.rows += 1;
                        continue;
                    }
                    let Status::Complete(event) = reader
                        .next(&mut bytes, &mut meta, &mut self.buf)
                        .expect("a token stream leanwire reads")
                    else {
                        break;
                    };
                    match event {
                        Event::Value { value, .. } => seen.value(value.get()),
                        Event::ValueStart { .. } => large = (0, None),
                        Event::ValueChunk { bytes, .. } => {
                            large.0 += bytes.len();
                            large.1 = large.1.or(bytes.first().copied());
                        }
                        Event::ValueEnd { .. } => seen.octets(large.0, large.1),
                        Event::RowEnd => seen.rows += 1,
                        _ => {}
                    }
                }
                if payload.message_end {
                    reader
                        .finish()
                        .expect("the message ends at a token boundary");
                }
            }
        }
        packets
            .finish()
            .expect("the stream ends at a packet boundary");
        seen
    }
}

/// Fails, before anything is timed, unless every feeding and both modes see
/// the same rows and values.
fn check_feedings_agree() {
    let mut decoder = Decoder::new();
    let stream = result_set();
    let ours = decoder.decode(&stream, stream.len(), LargeValues::Assemble, Feed::Pieces);
    assert_eq!(ours.rows, u64::from(ROWS), "every row decoded");
    // NBCROW's NULL columns are values too.
    assert_eq!(ours.values, u64::from(ROWS) * 8, "every value seen");
    for mode in [LargeValues::Assemble, LargeValues::Stream] {
        for feed in [Feed::WholePackets, Feed::Pieces] {
            for chunk in [stream.len(), PACKET, 1, 7, 4095] {
                assert_eq!(
                    decoder.decode(&stream, chunk, mode, feed),
                    ours,
                    "{mode:?} in {chunk}-byte chunks, {feed:?}"
                );
            }
        }
    }
    let mut tds = data_reader(&[]);
    assert!(!tds.open_sync().expect("an empty source"));
    for _ in 0..2 {
        assert_eq!(read_rows(&mut tds, &stream), ours, "TdsStream");
    }
    for size in PLP_SIZES {
        let stream = plp_row(size);
        let whole = decoder.decode(&stream, stream.len(), LargeValues::Stream, Feed::Pieces);
        assert_eq!((whole.rows, whole.values), (1, 2));
        assert_eq!(whole.octets, 2 * size as u64, "both values whole");
        for feed in [Feed::WholePackets, Feed::Pieces] {
            assert_eq!(decoder.decode(&stream, 1, LargeValues::Stream, feed), whole);
        }
    }
}

/// A [`TdsStream`] over `stream` in reads of [`PACKET`] bytes.
fn data_reader(stream: &[u8]) -> TdsStream<BlockingRead<&[u8]>> {
    let options = StreamOptions {
        input_len: PACKET,
        row_buffer_len: ROW_BUF,
        ..StreamOptions::default()
    };
    TdsStream::with_options(BlockingRead(stream), options)
}

/// Reads the packets in `stream` through `tds`, which read its last source
/// to its end, visiting every value of every row.
fn read_rows<'s>(tds: &mut TdsStream<BlockingRead<&'s [u8]>>, stream: &'s [u8]) -> Seen {
    *tds.get_mut() = BlockingRead(stream);
    tds.next_response()
        .expect("the last response was read to its end");
    let mut seen = Seen::default();
    while tds.read_row_sync().expect("a token stream leanwire reads") {
        for column in 0..tds.columns().len() {
            seen.value(tds.get::<SqlValue>(column).expect("a value"));
        }
        seen.rows += 1;
    }
    assert!(!tds.next_result_sync().expect("the end of the response"));
    seen
}

/// The workspace's `target` directory.
fn target_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../target")
}

/// Writes the result set for `scripts/bench-tedious`, and the sizes that
/// `scripts/bench-table` turns medians into throughput with.
fn write_peer_input() {
    let dir = target_dir();
    std::fs::create_dir_all(&dir).expect("a target directory");
    let stream = result_set();
    let tokens = tds_stream::result_set(ROWS);
    std::fs::write(dir.join("tds-bench.bin"), &stream).expect("target/tds-bench.bin written");
    let plp: serde_json::Map<String, serde_json::Value> = PLP_SIZES
        .iter()
        .map(|&size| (size.to_string(), plp_row(size).len().into()))
        .collect();
    let sizes = serde_json::json!({
        "rows": ROWS,
        "packet_bytes": stream.len(),
        "token_bytes": tokens.len(),
        "plp_stream_bytes": plp,
    });
    std::fs::write(dir.join("tds-bench.json"), sizes.to_string())
        .expect("target/tds-bench.json written");
}

/// Benchmarks `chunk`-byte feeding of the result set in `mode`, through
/// `feed`.
fn bench_result_set(bencher: Bencher, chunk: Option<usize>, mode: LargeValues, feed: Feed) {
    let stream = result_set();
    let chunk = chunk.unwrap_or(stream.len());
    let mut decoder = Decoder::new();
    bencher.bench_local(move || decoder.decode(black_box(&stream), chunk, mode, feed));
}

/// The baseline every result-set row is measured against: the whole buffer
/// at once, Assemble mode.
fn whole_buffer(bencher: Bencher) {
    bench_result_set(bencher, None, LargeValues::Assemble, Feed::WholePackets);
}

mod decode_whole {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        bench_result_set(bencher, None, LargeValues::Assemble, Feed::WholePackets);
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        whole_buffer(bencher);
    }
}

mod decode_4k {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        bench_result_set(
            bencher,
            Some(4096),
            LargeValues::Assemble,
            Feed::WholePackets,
        );
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        whole_buffer(bencher);
    }
}

mod decode_1byte {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        bench_result_set(bencher, Some(1), LargeValues::Assemble, Feed::WholePackets);
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        whole_buffer(bencher);
    }
}

mod decode_1byte_pieces {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        bench_result_set(bencher, Some(1), LargeValues::Assemble, Feed::Pieces);
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        whole_buffer(bencher);
    }
}

mod stream_whole {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        bench_result_set(bencher, None, LargeValues::Stream, Feed::WholePackets);
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        whole_buffer(bencher);
    }
}

mod stream_4k {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        bench_result_set(bencher, Some(4096), LargeValues::Stream, Feed::WholePackets);
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        whole_buffer(bencher);
    }
}

mod stream_1byte {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        bench_result_set(bencher, Some(1), LargeValues::Stream, Feed::WholePackets);
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        whole_buffer(bencher);
    }
}

mod data_reader {
    use super::*;

    #[divan::bench]
    fn leanwire(bencher: Bencher) {
        // The stream outlives the reader, which borrows it from decode to decode.
        let stream: &'static [u8] = Box::leak(result_set().into_boxed_slice());
        let mut tds = data_reader(&[]);
        tds.open_sync().expect("an empty source");
        bencher.bench_local(move || read_rows(&mut tds, black_box(stream)));
    }

    #[divan::bench]
    fn peer(bencher: Bencher) {
        whole_buffer(bencher);
    }
}

mod plp_1byte {
    use super::*;

    #[divan::bench(args = PLP_SIZES)]
    fn leanwire(bencher: Bencher, size: usize) {
        let stream = plp_row(size);
        let mut decoder = Decoder::new();
        bencher.bench_local(move || {
            decoder.decode(black_box(&stream), 1, LargeValues::Stream, Feed::Pieces)
        });
    }

    #[divan::bench(args = PLP_SIZES)]
    fn peer(bencher: Bencher, size: usize) {
        let stream = plp_row(size);
        let mut decoder = Decoder::new();
        bencher.bench_local(move || {
            decoder.decode(
                black_box(&stream),
                stream.len(),
                LargeValues::Stream,
                Feed::Pieces,
            )
        });
    }
}
