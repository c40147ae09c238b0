//! `leanwire_core::dns` for JavaScript.

use leanwire_core::dns::{Class, EdnsParams, MessageBuilder, NameBuf, Rtype};
use leanwire_core::report::DnsMessageReport;
use serde::Deserialize;
use wasm_bindgen::prelude::*;

use crate::{js_error, to_js};

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &str = r#"
/** What `decodeDnsMessage` returns: the same keys as `leanwire dns decode`. */
export type DnsMessageReport =
  | {
      ok: true;
      header: { id: number; qr: boolean; opcode: string; aa: boolean; tc: boolean; rd: boolean;
                ra: boolean; ad: boolean; cd: boolean; rcode: string };
      question: { name: string; type: string; class: string }[];
      answer: DnsRecordReport[];
      authority: DnsRecordReport[];
      additional: DnsRecordReport[];
      edns: { version: number; payload: number; do: boolean;
              options: { code: number; name: string | null; text: string }[] } | null;
    }
  | { ok: false; error: string };

/** A record of a decoded message; `rdata` is the presentation format. */
export type DnsRecordReport = { name: string; ttl: number; class: string; type: string; rdata: string };

/** Options of `buildDnsQuery`. */
export type DnsQueryOptions = {
  /** Add an EDNS(0) OPT record with a 1232-byte payload size (default true). */
  edns?: boolean;
  /** Set the DO bit to ask for DNSSEC records (default false; implies edns). */
  dnssec?: boolean;
  /** The message ID (default 0, as RFC 8484 recommends for DNS over HTTPS). */
  id?: number;
};
"#;

/// Decodes a DNS message. Returns a plain object with exactly the keys that
/// `leanwire dns decode` prints; a bad message gives `ok: false` and an
/// `error` that names the defect and its byte offset.
#[wasm_bindgen(js_name = decodeDnsMessage, unchecked_return_type = "DnsMessageReport")]
pub fn decode_dns_message(bytes: &[u8]) -> Result<JsValue, JsError> {
    to_js(&DnsMessageReport::decode(bytes))
}

/// The options object of [`build_dns_query`].
#[derive(Deserialize, Default)]
#[serde(default)]
struct QueryOptions {
    edns: Option<bool>,
    dnssec: bool,
    id: u16,
}

/// Builds a recursive query for `name` and `type` (a mnemonic such as
/// `"AAAA"` or `"TYPE65"`), ready to send as DNS over HTTPS [RFC 8484].
#[wasm_bindgen(js_name = buildDnsQuery)]
pub fn build_dns_query(
    name: &str,
    #[wasm_bindgen(js_name = type)] qtype: &str,
    #[wasm_bindgen(unchecked_optional_param_type = "DnsQueryOptions")] options: JsValue,
) -> Result<Vec<u8>, JsError> {
    let options: QueryOptions = if options.is_undefined() || options.is_null() {
        QueryOptions::default()
    } else {
        serde_wasm_bindgen::from_value(options).map_err(js_error)?
    };
    let qtype = Rtype::from_mnemonic(qtype)
        .ok_or_else(|| js_error(format_args!("unknown record type {qtype:?}")))?;
    let name = NameBuf::from_text(name).map_err(js_error)?;
    let mut buf = [0u8; 512];
    let mut builder = MessageBuilder::new(&mut buf).map_err(js_error)?;
    builder.header_mut().id = options.id;
    builder.header_mut().rd = true;
    builder
        .push_question(&name.as_name(), qtype, Class::In)
        .map_err(js_error)?;
    if options.edns.unwrap_or(true) || options.dnssec {
        builder
            .push_edns(&EdnsParams {
                dnssec_ok: options.dnssec,
                ..EdnsParams::default()
            })
            .map_err(js_error)?;
    }
    Ok(builder.finish().map_err(js_error)?.to_vec())
}
