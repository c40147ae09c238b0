//! Heap accounting: every allocation in this module's linear memory goes
//! through a counting wrapper around the system allocator.

use std::alloc::System;
use std::cell::Cell;

use stats_alloc::{INSTRUMENTED_SYSTEM, Stats, StatsAlloc};
use wasm_bindgen::prelude::*;

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

thread_local! {
    /// The counts at the last [`reset_alloc_stats`].
    static BASELINE: Cell<Stats> = Cell::new(Stats::default());
}

/// Heap use since the last [`reset_alloc_stats`].
#[wasm_bindgen]
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct AllocStats {
    /// Calls to `alloc` and `realloc`.
    pub allocations: u32,
    /// Calls to `dealloc`.
    pub deallocations: u32,
    /// Bytes asked for by `alloc`, plus the growth asked for by `realloc`.
    pub bytes: u32,
    /// Bytes allocated and not yet freed.
    #[wasm_bindgen(js_name = liveBytes)]
    pub live_bytes: i32,
}

/// Heap allocations, deallocations and bytes since the last
/// [`reset_alloc_stats`], counted by the module's global allocator.
#[wasm_bindgen(js_name = allocStats)]
pub fn alloc_stats() -> AllocStats {
    let now = GLOBAL.stats();
    let base = BASELINE.with(Cell::get);
    let grown = now.bytes_reallocated - base.bytes_reallocated;
    let narrow = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
    let allocated = now.bytes_allocated - base.bytes_allocated;
    let freed = now.bytes_deallocated - base.bytes_deallocated;
    AllocStats {
        allocations: narrow(
            (now.allocations - base.allocations) + (now.reallocations - base.reallocations),
        ),
        deallocations: narrow(now.deallocations - base.deallocations),
        bytes: narrow(allocated.saturating_add_signed(grown.max(0))),
        live_bytes: i32::try_from(allocated as isize - freed as isize + grown).unwrap_or(i32::MAX),
    }
}

/// Starts counting from zero.
#[wasm_bindgen(js_name = resetAllocStats)]
pub fn reset_alloc_stats() {
    BASELINE.with(|b| b.set(GLOBAL.stats()));
}
