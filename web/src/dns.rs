//! `leanwire_core::dns` for JavaScript, read by the package's `src/dns.js`.

use leanwire_core::dns::{Class, EdnsParams, MessageBuilder, NameBuf, Rtype};
use leanwire_core::report::DnsMessageReport;
use wasm_bindgen::prelude::*;

use crate::shared::{Output, with_input, with_text_input};

/// Decodes the DNS message in the input buffer into the text area as the
/// JSON report that `leanwire dns decode` prints; the tape is empty.
#[wasm_bindgen(js_name = dnsReport)]
pub fn dns_report(len: u32) -> i32 {
    with_input(len, |input, out| {
        let report = DnsMessageReport::decode(input);
        let json = serde_json::to_string(&report).unwrap_or_default();
        out.text.extend_from_slice(json.as_bytes());
        0
    })
}

/// Builds a recursive query for the name in the input buffer and the type
/// `qtype`, with an EDNS(0) OPT record when `edns` is 1 and the DO bit when
/// `dnssec` is 1. The query's bytes are the text area.
#[wasm_bindgen(js_name = dnsBuildQuery)]
pub fn dns_build_query(len: u32, qtype: u32, id: u32, edns: u32, dnssec: u32) -> i32 {
    with_text_input(len, |name, out| {
        let mut buf = [0u8; 512];
        let built = (|| {
            let name = NameBuf::from_text(name)?;
            let mut builder = MessageBuilder::new(&mut buf)?;
            builder.header_mut().id = id as u16;
            builder.header_mut().rd = true;
            builder.push_question(&name.as_name(), Rtype::from(qtype as u16), Class::In)?;
            if edns == 1 || dnssec == 1 {
                builder.push_edns(&EdnsParams {
                    dnssec_ok: dnssec == 1,
                    ..EdnsParams::default()
                })?;
            }
            builder.finish().map(<[u8]>::len)
        })();
        match built {
            Ok(len) => {
                out.text.extend_from_slice(&buf[..len]);
                0
            }
            Err(error) => out.fail(error.kind(), error.offset(), error),
        }
    })
}

/// Looks up a record type's mnemonic (in the input buffer): returns its
/// number, or fails when the mnemonic is unknown.
#[wasm_bindgen(js_name = dnsTypeCode)]
pub fn dns_type_code(len: u32) -> i32 {
    with_input(len, |input, out: &mut Output| {
        match core::str::from_utf8(input)
            .ok()
            .and_then(Rtype::from_mnemonic)
        {
            Some(rtype) => i32::from(u16::from(rtype)),
            None => out.fail_named(
                "UnknownType",
                0,
                format_args!("unknown record type `{}`", String::from_utf8_lossy(input)),
            ),
        }
    })
}
