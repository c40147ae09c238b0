//! Counts heap traffic: the including test binary's global allocator is the
//! system allocator wrapped by `stats_alloc`.

use std::alloc::System;

use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<System> = &INSTRUMENTED_SYSTEM;

/// How many times `f` asked the heap for memory (`alloc` and `realloc`).
pub fn heap_allocations(f: impl FnOnce()) -> usize {
    let region = Region::new(GLOBAL);
    f();
    let change = region.change();
    change.allocations + change.reallocations
}
