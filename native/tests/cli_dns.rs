//! `leanwire dns decode`: the output contract, stdin mode and exit codes.

mod support {
    pub mod cli;
}

use support::cli::leanwire;

/// `hex<TAB>report` lines; `web/tests` checks `decodeDnsMessage` against the same file.
const GOLDEN: &str = include_str!("golden/dns_decode.tsv");

#[test]
fn decode_matches_the_golden_reports_from_stdin() {
    let (inputs, reports): (Vec<&str>, Vec<&str>) =
        GOLDEN.lines().filter_map(|l| l.split_once('\t')).unzip();
    assert!(inputs.len() > 50);
    let run = leanwire(&["dns", "decode", "-"], &(inputs.join("\n") + "\n"));
    let (status, stdout) = (run.status, run.stdout);
    assert_eq!(
        status,
        Some(0),
        "bad messages do not change the exit status"
    );
    assert_eq!(stdout.lines().collect::<Vec<_>>(), reports);
}

#[test]
fn decode_reports_opt_as_edns_not_as_a_record() {
    let golden = GOLDEN
        .lines()
        .find(|l| l.contains(r#""name":"NSID""#))
        .expect("an NSID response");
    let report: serde_json::Value =
        serde_json::from_str(golden.split_once('\t').unwrap().1).unwrap();
    assert_eq!(report["edns"]["payload"], 1232);
    assert_eq!(report["edns"]["options"][0]["code"], 3);
    let types: Vec<&str> = report["additional"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["type"].as_str().unwrap())
        .collect();
    assert!(!types.contains(&"OPT"), "{types:?}");
}

#[test]
fn decode_arguments_accept_spaces_and_name_bad_hex() {
    let run = leanwire(
        &[
            "dns",
            "decode",
            "12 34 81 80 00 00 00 00 00 00 00 00",
            "12g4",
        ],
        "",
    );
    let (status, stdout) = (run.status, run.stdout);
    assert_eq!(status, Some(0));
    let lines: Vec<serde_json::Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["header"]["id"], 0x1234);
    assert_eq!(lines[0]["question"], serde_json::json!([]));
    assert_eq!(lines[1]["error"], "invalid hex digit 'g' at byte 2");
}

#[test]
fn decode_without_input_is_a_usage_error() {
    assert_eq!(leanwire(&["dns", "decode"], "").status, Some(2));
}
