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

use leanwire_core::tds::{CodePage, Collation};
use support::tds_cases::{DELIBERATELY_DIFFERENT, OUT_OF_SCOPE, hex, run_all, run_all_counted};

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

/// tedious's collations: its code page tables by SortId and by language id,
/// what it reads from each of a spread of collations, and how its decoder
/// reads the upper half of each single-byte page.
const TEDIOUS_CODE_PAGES: &str = include_str!("vectors/tds/tedious_code_pages.json");

fn tedious_page(name: &serde_json::Value) -> CodePage {
    match name.as_str() {
        None => CodePage::Unknown,
        Some("utf-8") => CodePage::Utf8,
        Some(cp) => CodePage::Windows(cp.strip_prefix("CP").unwrap().parse().unwrap()),
    }
}

#[test]
fn every_collation_reads_as_tedious_reads_it() {
    let pages: serde_json::Value = serde_json::from_str(TEDIOUS_CODE_PAGES).unwrap();
    let table = |name: &str, id: u32| tedious_page(&pages[name][id.to_string()]);
    for sort_id in 1..=u8::MAX {
        let collation = Collation::from_bytes([0x09, 0x04, 0, 0, sort_id]);
        let expected = table("bySortId", sort_id.into());
        assert_eq!(collation.code_page(), expected, "sort id {sort_id}");
    }
    for language in 0..=u16::MAX {
        let [low, high] = language.to_le_bytes();
        let collation = Collation::from_bytes([low, high, 0, 0, 0]);
        let expected = table("byLanguageId", language.into());
        assert_eq!(collation.code_page(), expected, "language 0x{language:04x}");
    }
    let collations = pages["collations"].as_array().unwrap();
    assert!(collations.len() > 1000);
    for case in collations {
        let bytes: [u8; 5] = hex(case[0].as_str().unwrap()).try_into().unwrap();
        let collation = Collation::from_bytes(bytes);
        assert_eq!(collation.code_page(), tedious_page(&case[1]), "{case}");
        let fields = [
            collation.lcid(),
            collation.flags().into(),
            collation.version().into(),
        ];
        assert_eq!(
            fields.map(u64::from),
            [2, 3, 4].map(|i| case[i].as_u64().unwrap()),
            "{case}"
        );
        assert_eq!(collation.to_bytes(), bytes);
        for (name, bit) in pages["flags"].as_object().unwrap() {
            let set = u64::from(collation.flags()) & bit.as_u64().unwrap() != 0;
            let ours = match name.as_str() {
                "IGNORE_CASE" => collation.ignore_case(),
                "IGNORE_ACCENT" => collation.ignore_accent(),
                "IGNORE_KANA" => collation.ignore_kana(),
                "IGNORE_WIDTH" => collation.ignore_width(),
                "BINARY" => collation.binary(),
                "BINARY2" => collation.binary2(),
                "UTF8" => collation.utf8(),
                other => panic!("tedious has a flag leanwire does not: {other}"),
            };
            assert_eq!(ours, set, "{name} of {case}");
        }
    }
}

#[test]
fn single_byte_pages_decode_as_tedious_does() {
    let pages: serde_json::Value = serde_json::from_str(TEDIOUS_CODE_PAGES).unwrap();
    let decoded = pages["decoded"].as_object().unwrap();
    assert_eq!(decoded.len(), 12);
    for (number, chars) in decoded {
        let page = CodePage::Windows(number.parse().unwrap());
        assert!(page.is_decoded(), "{page}");
        let chars = chars.as_array().unwrap();
        assert_eq!(chars.len(), 128);
        for (byte, expected) in (0x80..=0xFF).zip(chars) {
            let mut text = String::new();
            page.decode_to(&[b'a', byte, b'z'], &mut text).unwrap();
            let expected = char::from_u32(expected.as_u64().unwrap() as u32).unwrap();
            assert_eq!(text, format!("a{expected}z"), "{page} 0x{byte:02x}");
        }
    }
}
