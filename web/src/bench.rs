//! The measuring loop behind the visualizer page: it runs one operation many
//! times inside WebAssembly, so that the page times the operation and not the
//! crossing into and out of JavaScript.

use bumpalo::Bump;
use leanwire_core::actor::{ActorPath, PathNode, split_name_and_uid};
use leanwire_core::dns::Message;
use wasm_bindgen::prelude::*;

use crate::alloc::{alloc_stats, reset_alloc_stats};
use crate::js_error;

/// What one [`benchmark`] call counted, in total over its iterations.
#[wasm_bindgen]
#[derive(Copy, Clone, Debug)]
pub struct BenchmarkRun {
    /// How many times the operation ran.
    pub iterations: u32,
    /// Heap allocations (`alloc` and `realloc` calls), in total.
    pub allocations: u32,
    /// Heap bytes asked for, in total.
    pub bytes: u32,
    /// Arena bytes that one run of the operation used (0 for arena-free ops).
    #[wasm_bindgen(js_name = arenaBytesPerOp)]
    pub arena_bytes_per_op: u32,
    /// `Bump::allocated_bytes()`: the arena's chunk memory at the end.
    #[wasm_bindgen(js_name = arenaAllocatedBytes)]
    pub arena_allocated_bytes: u32,
}

/// Runs `op` on `input` `iterations` times and counts heap and arena use.
///
/// `op` is `"parse"` (the zero-copy `ActorPath` view), `"arena"` (a
/// `PathNode` chain built in a reused arena), `"name_uid"`
/// (`split_name_and_uid`) or `"dns_decode"` (a DNS message given in hex,
/// decoded with every name and every RDATA read). Time it from JavaScript
/// with `performance.now()`.
#[wasm_bindgen]
pub fn benchmark(
    op: &str,
    input: &str,
    iterations: u32,
    #[wasm_bindgen(js_name = dialect, unchecked_optional_param_type = "Dialect")]
    dialect_name: Option<String>,
) -> Result<BenchmarkRun, JsError> {
    let dialect = dialect(dialect_name)?;
    // The first chunk is made here, so the loop measures a warm, reused arena.
    let mut arena = Bump::with_capacity(4096);
    // Check the input once, outside the counted loop, so a bad input is an
    // error rather than a silent measurement of the error path.
    let message = match op {
        "parse" | "arena" => ActorPath::parse(input, dialect)
            .map(|_| Vec::new())
            .map_err(js_error)?,
        "name_uid" => split_name_and_uid(input, dialect)
            .map(|_| Vec::new())
            .map_err(js_error)?,
        "dns_decode" => {
            let bytes = hex_bytes(input)?;
            dns_work(&bytes).map_err(js_error)?;
            bytes
        }
        _ => {
            return Err(js_error(format_args!(
                "unknown op {op:?}: use parse, arena, name_uid or dns_decode"
            )));
        }
    };
    let mut arena_bytes_per_op = 0;
    reset_alloc_stats();
    for _ in 0..iterations {
        match op {
            "parse" => {
                core::hint::black_box(ActorPath::parse(core::hint::black_box(input), dialect).ok());
            }
            "arena" => {
                arena.reset();
                let node = PathNode::parse(&arena, core::hint::black_box(input), dialect).ok();
                core::hint::black_box(node.map(PathNode::depth));
                arena_bytes_per_op = arena.allocated_bytes() - arena.chunk_capacity();
            }
            "dns_decode" => {
                core::hint::black_box(dns_work(core::hint::black_box(&message)).ok());
            }
            _ => {
                core::hint::black_box(
                    split_name_and_uid(core::hint::black_box(input), dialect).ok(),
                );
            }
        }
    }
    let stats = alloc_stats();
    Ok(BenchmarkRun {
        iterations,
        allocations: stats.allocations,
        bytes: stats.bytes,
        arena_bytes_per_op: u32::try_from(arena_bytes_per_op).unwrap_or(u32::MAX),
        arena_allocated_bytes: u32::try_from(arena.allocated_bytes()).unwrap_or(u32::MAX),
    })
}

/// Reads the optional `dialect` argument: `"dotnet"` (the default) or `"jvm"`.
pub(crate) fn dialect(name: Option<String>) -> Result<leanwire_core::actor::Dialect, JsError> {
    match name.as_deref() {
        None => Ok(leanwire_core::actor::Dialect::DotNet),
        Some(name) => leanwire_core::actor::Dialect::from_name(name).ok_or_else(|| {
            js_error(format_args!(
                "unknown dialect {name:?}: use \"dotnet\" or \"jvm\""
            ))
        }),
    }
}

/// Decodes a DNS message and reads every name and every RDATA in it, as the
/// peer's loop does: the checksum is the number of labels and records seen.
pub(crate) fn dns_work(bytes: &[u8]) -> leanwire_core::dns::Result<usize> {
    let message = Message::parse(bytes)?;
    let mut seen = 0;
    for q in message.questions() {
        seen += q.name.labels().count();
    }
    for record in message
        .answers()
        .chain(message.authority())
        .chain(message.additional())
    {
        seen += record.name.labels().count() + 1;
        record.data()?;
    }
    Ok(seen)
}

/// The bytes of a hex string (whitespace allowed).
pub(crate) fn hex_bytes(text: &str) -> Result<Vec<u8>, JsError> {
    leanwire_core::hex::decode(text)
        .collect::<Result<_, _>>()
        .map_err(js_error)
}

/// What one [`benchmark_tds`] call counted, in total over its iterations.
#[wasm_bindgen]
#[derive(Copy, Clone, Debug)]
pub struct TdsRun {
    /// How many times the stream was decoded.
    pub iterations: u32,
    /// Rows in one decode of the stream.
    pub rows: u32,
    /// Token-stream bytes in one decode.
    #[wasm_bindgen(js_name = tokenBytes)]
    pub token_bytes: u32,
    /// Heap allocations (`alloc` and `realloc` calls), in total.
    pub allocations: u32,
    /// Heap bytes asked for, in total.
    pub bytes: u32,
}

/// Decodes a TDS response (given in hex) `iterations` times, fed `chunk`
/// bytes at a time through the de-framer and the reader, reading every
/// value, and counts rows and heap use. The response is packets, or bare
/// tokens without packet headers when `tokensOnly` (default `false`). The
/// column metadata goes into an arena made before the count starts and
/// reset between decodes.
#[wasm_bindgen(js_name = benchmarkTds)]
pub fn benchmark_tds(
    hex: &str,
    chunk: u32,
    iterations: u32,
    #[wasm_bindgen(js_name = tokensOnly)] tokens_only: Option<bool>,
) -> Result<TdsRun, JsError> {
    let bytes = hex_bytes(hex)?;
    let chunk = usize::try_from(chunk).unwrap_or(usize::MAX).max(1);
    let tokens_only = tokens_only.unwrap_or(false);
    let mut arena = Bump::with_capacity(64 * 1024);
    let mut row_buf = vec![0u8; 64 * 1024];
    // Once outside the count: a bad stream is an error, not a measurement.
    let (rows, token_bytes) =
        tds_work(&bytes, tokens_only, chunk, &arena, &mut row_buf).map_err(js_error)?;
    arena.reset();
    reset_alloc_stats();
    for _ in 0..iterations {
        core::hint::black_box(
            tds_work(
                core::hint::black_box(&bytes),
                tokens_only,
                chunk,
                &arena,
                &mut row_buf,
            )
            .ok(),
        );
        arena.reset();
    }
    let stats = alloc_stats();
    Ok(TdsRun {
        iterations,
        rows: u32::try_from(rows).unwrap_or(u32::MAX),
        token_bytes: u32::try_from(token_bytes).unwrap_or(u32::MAX),
        allocations: stats.allocations,
        bytes: stats.bytes,
    })
}

/// Decodes `bytes`, packets or (when `tokens_only`) bare tokens, `chunk`
/// bytes at a time, touching every value: the number of rows and
/// token-stream bytes.
fn tds_work(
    bytes: &[u8],
    tokens_only: bool,
    chunk: usize,
    arena: &Bump,
    row_buf: &mut [u8],
) -> leanwire_core::tds::Result<(usize, usize)> {
    use leanwire_core::tds::{Deframer, Metadata, Reader, Status, TdsVersion};
    let mut meta = Metadata::new(arena);
    let mut reader = Reader::new(TdsVersion::V7_4);
    let mut rows = 0;
    if tokens_only {
        for piece in bytes.chunks(chunk) {
            let mut tokens = piece;
            rows += tds_events(&mut reader, &mut tokens, &mut meta, row_buf)?;
        }
        reader.finish()?;
        return Ok((rows, bytes.len()));
    }
    let mut deframer = Deframer::new();
    let mut token_bytes = 0;
    for piece in bytes.chunks(chunk) {
        let mut input = piece;
        while let Status::Complete(payload) = deframer.next(&mut input)? {
            let mut tokens = payload.bytes;
            token_bytes += tokens.len();
            rows += tds_events(&mut reader, &mut tokens, &mut meta, row_buf)?;
            if payload.message_end {
                reader.finish()?;
            }
        }
    }
    deframer.finish()?;
    Ok((rows, token_bytes))
}

/// Reads every event in `tokens`, touching every value: the rows completed.
fn tds_events(
    reader: &mut leanwire_core::tds::Reader,
    tokens: &mut &[u8],
    meta: &mut leanwire_core::tds::Metadata<'_>,
    row_buf: &mut [u8],
) -> leanwire_core::tds::Result<usize> {
    use leanwire_core::tds::{Event, Status};
    let mut rows = 0;
    while let Status::Complete(event) = reader.next(tokens, meta, row_buf)? {
        match event {
            Event::Value { value, .. } => {
                core::hint::black_box(value.get());
            }
            Event::RowEnd => rows += 1,
            _ => {}
        }
    }
    Ok(rows)
}
