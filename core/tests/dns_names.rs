//! `vectors/dns/third_party/names.json`: one test per case, named after the
//! defect it catches.

mod support {
    // This file uses only the name checks of the shared runner.
    #[allow(dead_code)]
    pub mod dns_cases;
}

macro_rules! name_cases {
    ($($test:ident => $case:literal,)*) => {
        $(
            #[test]
            fn $test() {
                support::dns_cases::check_name_case($case).unwrap();
            }
        )*

        #[test]
        fn every_case_has_a_test() {
            let cases: Vec<serde_json::Value> =
                serde_json::from_str(support::dns_cases::NAMES_JSON).unwrap();
            let named = [$($case),*];
            for case in &cases {
                assert!(named.contains(&case["name"].as_str().unwrap()), "untested: {}", case["name"]);
            }
        }
    };
}

name_cases! {
    rfc1035_flat_name => "F.ISI.ARPA @20",
    rfc1035_label_then_pointer => "FOO.F.ISI.ARPA @40 (ptr->20)",
    rfc1035_pointer_into_the_middle_of_a_name => "ARPA @64 (ptr->26, mid-name)",
    rfc1035_root => "root @92",
    empty_domain => "empty domain",
    pointer_into_the_middle_of_a_label => "compression pointer into the middle of a label",
    too_long_after_pointer_expansion => "too long by pointer (matryoshka >255 after expansion)",
    labels_overlapping_backward_pointers => "long by pointer (matryoshka <=255)",
    truncated_name => "truncated name",
    name_without_root_label => "non-absolute name",
    pointer_cycle_to_itself => "compression pointer cycle (self)",
    pointer_cycle_through_labels => "compression pointer cycle (too long)",
    forward_pointer => "forward compression pointer",
    reserved_label_type_10 => "reserved label type 0b10",
    reserved_label_type_01 => "reserved label type 0b01",
    root_at_an_offset => "root",
    flat_name => "flat",
    pointer_to_the_start => "copy (pointer to start)",
    one_pointer => "once",
    two_pointers => "twice",
    short_buffer_mid_label => "short buffer mid-label",
    short_buffer_at_label_end => "short buffer at end of label",
    pointer_beyond_the_end => "pointer beyond end of buffer",
    pointer_to_itself => "pointer to itself",
    pointer_forward => "pointer forward",
    bad_label_header_0xbf => "bad label header 0xbf",
    name_of_255_octets_through_a_pointer => "long name 255 octets via pointer: OK",
    name_of_256_octets_through_a_pointer => "long name 256 octets via pointer: error",
    pointer_back_to_the_name_start => "long name through recursion (ptr to name start)",
    single_step_infinite_recursion => "single-step infinite recursion",
    label_containing_a_dot => "TestNameWithDotsUnpack: label containing '.'",
}
