//! Every DNS vector: messages against dnspython's readings and through
//! decode -> encode -> decode, and the SVCB wire/presentation pairs.

mod support {
    // `dns_names.rs` runs the name cases one test each.
    #[allow(dead_code)]
    pub mod dns_cases;
}

use support::dns_cases::{MESSAGES_JSON, SVCB_JSON, check_message, check_svcb, run_all};

#[test]
fn every_message_matches_dnspython_and_round_trips() {
    let messages: serde_json::Value = serde_json::from_str(MESSAGES_JSON).unwrap();
    let mut failures = Vec::new();
    let entries = messages["messages"].as_array().unwrap();
    for entry in entries {
        if let Err(e) = check_message(entry) {
            failures.push(format!("{}: {e}", entry["file"]));
        }
    }
    assert!(entries.len() >= 46);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn svcb_pairs_and_validity() {
    let cases: Vec<serde_json::Value> = serde_json::from_str(SVCB_JSON).unwrap();
    let failures: Vec<String> = cases
        .iter()
        .filter_map(|c| check_svcb(c).err().map(|e| format!("{}: {e}", c["name"])))
        .collect();
    assert_eq!(cases.len(), 25);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_shared_runner_passes_everything() {
    let (ran, failures) = run_all();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(ran, 46 + 31 + 25);
}
