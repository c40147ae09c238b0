//! Counts heap traffic on the calling thread: including `allocation-counter`
//! makes its counting allocator the test binary's global allocator.
//!
//! The counts are per thread, so the test harness's own threads, which
//! allocate while a test runs, never enter them.

/// How many times `f` asked the heap for memory on this thread (`alloc` and
/// `realloc`).
pub fn heap_allocations(f: impl FnOnce()) -> usize {
    let info = allocation_counter::measure(f);
    usize::try_from(info.count_total).expect("a count that fits in usize")
}

#[test]
fn an_allocation_on_this_thread_is_counted() {
    assert_eq!(
        heap_allocations(|| drop(std::hint::black_box(Box::new(1u8)))),
        1
    );
    let other = std::thread::spawn(|| {
        std::thread::park();
        drop(std::hint::black_box(Box::new(1u8)));
    });
    let seen = heap_allocations(|| {
        other.thread().unpark();
        other.join().unwrap();
    });
    assert_eq!(seen, 0, "another thread's allocation");
}
