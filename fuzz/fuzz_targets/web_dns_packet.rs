//! The npm package's dns-packet decoder and encoder on arbitrary bytes, as
//! JavaScript drives them: the input buffer holds the bytes, and each item
//! (a message, a question, a record, the data of a type, a name, an EDNS
//! option) is decoded at an offset the first bytes choose; the same bytes
//! are then read as an encoding tape. No panic and no hang. (A failure's
//! offset is where dns-packet's read would have started, which a bad pointer
//! can put past the end, as in dns-packet's own `RangeError`s.)
#![no_main]

use leanwire_web::dns_packet::{dns_packet_decode, dns_packet_encode};
use leanwire_web::shared::{FAILED, last_output, put_input};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&[what, at, rtype], bytes)) = data.split_first_chunk::<3>() else {
        return;
    };
    let len = put_input(bytes);
    let what = u32::from(what % 7);
    let at = u32::from(at).min(len);
    if dns_packet_decode(len, at, what, u32::from(rtype)) == FAILED {
        let (_, text) = last_output();
        assert!(
            text.contains(&0),
            "a failure names its kind, then its message"
        );
    }
    dns_packet_decode(len, 0, 0, 0);
    dns_packet_encode(len, what, u32::from(rtype));
});
