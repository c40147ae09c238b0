// DNS messages (web/src/dns.rs writes the results read here).

import { LeanwireError } from "./errors.js";
import { wasm, putBytes, putString, text, textView, fail } from "./shared.js";

/**
 * Decodes a DNS message into the report that `leanwire dns decode` prints:
 * a view for debugging, with every RDATA in presentation format.
 * A malformed message gives `{ ok: false, error }`.
 */
export function decodeDnsMessage(bytes) {
  const len = putBytes(bytes);
  wasm.dnsReport(len);
  return JSON.parse(text());
}

/**
 * Builds a recursive query for `name` and `type` (a mnemonic such as
 * `"AAAA"` or `"TYPE65"`), ready to send as DNS over HTTPS (RFC 8484).
 */
export function buildDnsQuery(name, type, options = {}) {
  const { edns = true, dnssec = false, id = 0 } = options ?? {};
  if (!Number.isInteger(id) || id < 0 || id > 0xffff) {
    throw new LeanwireError(`id ${id} is not a 16-bit message ID`, "InvalidId", 0);
  }
  let len = putString(String(type));
  const code = wasm.dnsTypeCode(len);
  if (code < 0) fail();
  len = putString(name);
  if (wasm.dnsBuildQuery(len, code, id, edns || dnssec ? 1 : 0, dnssec ? 1 : 0) < 0) fail();
  return textView().slice();
}
