//! Every case of the Akka conformance vectors, each in the dialect it names.

mod support {
    pub mod actor_cases;
}

use support::actor_cases::{CASES_JSON, run};

#[test]
fn akka_conformance_vectors() {
    let report = run(CASES_JSON);
    println!("{}", report.table());
    for failure in &report.failures {
        println!("FAIL {failure}");
    }
    assert!(
        report.failures.is_empty(),
        "{} cases failed",
        report.failures.len()
    );
    // The wasm suites compare their counts with this same file, so every
    // target is seen to pass exactly the same cases.
    assert_eq!(report.table(), include_str!("support/actor_counts.txt"));
}
