//! The peers that the visualizer page runs next to leanwire, on the same
//! input and counted by the same allocator. Built only with the `peers`
//! feature, so the npm package does not carry them.

use wasm_bindgen::prelude::*;

use crate::alloc::{alloc_stats, reset_alloc_stats};
use crate::bench::BenchmarkRun;
use crate::js_error;

/// Runs the peer of `op` on `input` `iterations` times and counts heap use.
///
/// No Rust crate parses Akka paths, so `url::Url::parse` of the same string
/// stands in for `"parse"` and `"arena"`; `"name_uid"` is `split_once('#')`
/// then `str::parse::<i32>`.
#[wasm_bindgen(js_name = peerBenchmark)]
pub fn peer_benchmark(op: &str, input: &str, iterations: u32) -> Result<BenchmarkRun, JsError> {
    match op {
        "parse" | "arena" => url::Url::parse(input).map(drop).map_err(js_error)?,
        "name_uid" => {}
        _ => {
            return Err(js_error(format_args!(
                "unknown op {op:?}: use parse, arena or name_uid"
            )));
        }
    }
    reset_alloc_stats();
    for _ in 0..iterations {
        let input = core::hint::black_box(input);
        if op == "name_uid" {
            let split = input
                .split_once('#')
                .map(|(name, uid)| (name, uid.parse::<i32>().ok()));
            core::hint::black_box(split);
        } else {
            core::hint::black_box(url::Url::parse(input).ok());
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
