//! The peers that the visualizer page runs next to leanwire, on the same
//! input and counted by the same allocator. Built only with the `peers`
//! feature, so the npm package does not carry them.

use wasm_bindgen::prelude::*;

use crate::alloc::{alloc_stats, reset_alloc_stats};
use crate::bench::{BenchmarkRun, hex_bytes};
use crate::js_error;

/// Runs the peer of `op` on `input` `iterations` times and counts heap use.
///
/// No Rust crate parses Akka paths, so `url::Url::parse` of the same string
/// stands in for `"parse"` and `"arena"`; `"name_uid"` is `split_once('#')`
/// then `str::parse::<i32>`; `"dns_decode"` is hickory-proto's
/// `Message::from_vec`, reading every record's name and RDATA.
#[wasm_bindgen(js_name = peerBenchmark)]
pub fn peer_benchmark(op: &str, input: &str, iterations: u32) -> Result<BenchmarkRun, JsError> {
    let message = match op {
        "parse" | "arena" => url::Url::parse(input)
            .map(|_| Vec::new())
            .map_err(js_error)?,
        "name_uid" => Vec::new(),
        "dns_decode" => {
            let bytes = hex_bytes(input)?;
            hickory_work(&bytes).map_err(js_error)?;
            bytes
        }
        _ => {
            return Err(js_error(format_args!(
                "unknown op {op:?}: use parse, arena, name_uid or dns_decode"
            )));
        }
    };
    reset_alloc_stats();
    for _ in 0..iterations {
        let input = core::hint::black_box(input);
        match op {
            "name_uid" => {
                let split = input
                    .split_once('#')
                    .map(|(name, uid)| (name, uid.parse::<i32>().ok()));
                core::hint::black_box(split);
            }
            "dns_decode" => {
                core::hint::black_box(hickory_work(core::hint::black_box(&message)).ok());
            }
            _ => {
                core::hint::black_box(url::Url::parse(input).ok());
            }
        }
    }
    let stats = alloc_stats();
    Ok(BenchmarkRun {
        iterations,
        allocations: stats.allocations,
        bytes: stats.bytes,
        arena_bytes_per_op: 0,
        arena_allocated_bytes: 0,
    })
}

/// hickory-proto's decode, reading every name and RDATA as `dns_work` does.
fn hickory_work(bytes: &[u8]) -> Result<usize, hickory_proto::serialize::binary::DecodeError> {
    let message = hickory_proto::op::Message::from_vec(bytes)?;
    let mut seen = 0;
    for q in &message.queries {
        seen += usize::from(q.name.num_labels());
    }
    for record in message
        .answers
        .iter()
        .chain(&message.authorities)
        .chain(&message.additionals)
    {
        seen += usize::from(record.name.num_labels()) + 1;
        core::hint::black_box(&record.data);
    }
    Ok(seen)
}
