//! Every TDS vector: the tedious and pytds records of `vectors.json`, the
//! pytds fixtures, the 14-type stream against tedious and FreeTDS, and the
//! pcaps. Each stream is also read one byte at a time and with large values
//! streamed, and must read the same.

mod support {
    // The chunking and robustness tests use the stream list; here only the
    // runner.
    #[allow(dead_code)]
    pub mod tds_cases;
}

use support::tds_cases::{DELIBERATELY_DIFFERENT, OUT_OF_SCOPE, run_all, run_all_counted};

#[test]
fn every_record_matches_its_expectation() {
    let (ran, failures, counts) = run_all_counted();
    println!("checked, by token or value type:");
    for (name, n) in &counts {
        println!("  {name:<40} {n}");
    }
    println!("out of scope: {OUT_OF_SCOPE:?}");
    println!("deliberately different: {DELIBERATELY_DIFFERENT:?}");
    assert!(
        failures.is_empty(),
        "{} failed:\n{}",
        failures.len(),
        failures.join("\n")
    );
    // 112 records, 10 pytds fixtures, the types stream, the pcaps.
    assert_eq!(ran, 112 + 10 + 1 + 1);
    for token in [
        "COLMETADATA",
        "ROW",
        "NBCROW",
        "DONE",
        "DONEPROC",
        "DONEINPROC",
        "ENVCHANGE",
        "INFO",
        "LOGINACK",
        "ORDER",
        "FEATUREEXTACK",
        "FEDAUTHINFO",
        "SSPI",
        "RETURNSTATUS",
    ] {
        assert!(
            counts.get(token).is_some_and(|&n| n > 0),
            "no {token} checked"
        );
    }
}

#[test]
fn the_shared_runner_passes_everything() {
    let (ran, failures) = run_all();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(ran, 124);
}
