// leanwire/dns-packet: the exports of dns-packet 5.6.1, each decode and
// encode one call into the wasm module (web/src/dns_packet/).

import * as dec from "./decode.js";
import * as enc from "./encode.js";
import { textView } from "../shared.js";

const NodeBuffer = globalThis.Buffer;

function start(offset) {
  return offset ? offset : 0;
}

/** Copies the last encode's bytes into `buf` at `offset`, or into a new buffer; returns it. */
function deliver(written, buf, offset) {
  const bytes = textView();
  if (!buf) {
    if (enc.encoded.length === written) {
      const out = NodeBuffer ? NodeBuffer.allocUnsafe(written) : new Uint8Array(written);
      out.set(bytes);
      return out;
    }
    buf = enc.alloc(enc.encoded.length);
  }
  buf.set(bytes, start(offset));
  return buf;
}

/**
 * A codec of dns-packet's shape: `encode(value, buf?, offset?)`,
 * `decode(buf, offset?)`, `encodingLength(value)`, each recording `.bytes`.
 */
function codec(what, code, flatten, read) {
  const self = {
    encode(value, buf, offset) {
      const written = enc.run(what, code, flatten, value);
      const out = deliver(written, buf, offset);
      self.encode.bytes = written;
      return out;
    },
    decode(buf, offset) {
      const value = dec.decodeItem(buf, start(offset), what, code, read);
      self.decode.bytes = dec.decoded.bytes;
      return value;
    },
    encodingLength(value) {
      enc.run(what, code, flatten, value);
      return enc.encoded.length;
    },
  };
  self.encode.bytes = 0;
  self.decode.bytes = 0;
  return self;
}

function rdata(code) {
  return codec(enc.DATA, code, enc.data, dec.data);
}

export const unknown = rdata(0);
export const ns = rdata(2);
export const soa = rdata(6);
export const txt = rdata(16);
export { nullCodec as null };
const nullCodec = rdata(10);
export const hinfo = rdata(13);
export const ptr = rdata(12);
export const cname = ptr;
export const dname = ptr;
export const srv = rdata(33);
export const caa = rdata(257);
caa.ISSUER_CRITICAL = 1 << 7;
export const mx = rdata(15);
export const a = rdata(1);
export const aaaa = rdata(28);
export const option = codec(enc.OPTION, 0, enc.option, dec.option);
export const opt = rdata(41);
export const dnskey = rdata(48);
dnskey.PROTOCOL_DNSSEC = 3;
dnskey.ZONE_KEY = 0x80;
dnskey.SECURE_ENTRYPOINT = 0x8000;
export const rrsig = rdata(46);
export const rp = rdata(17);
export const nsec = rdata(47);
export const nsec3 = rdata(50);
export const ds = rdata(43);
export const sshfp = rdata(44);
sshfp.getFingerprintLengthForHashType = function getFingerprintLengthForHashType(hashType) {
  switch (hashType) {
    case 1: return 20;
    case 2: return 32;
  }
};
export const naptr = rdata(35);
export const tlsa = rdata(52);

const byCodec = {
  1: a, 12: ptr, 5: cname, 39: dname, 16: txt, 10: nullCodec, 28: aaaa, 33: srv, 13: hinfo, 257: caa,
  2: ns, 6: soa, 15: mx, 41: opt, 48: dnskey, 46: rrsig, 17: rp, 47: nsec, 50: nsec3, 44: sshfp,
  43: ds, 35: naptr, 52: tlsa,
};

/** The codec for a record type's data, by mnemonic; `unknown` for the rest. */
export function record(type) {
  return byCodec[enc.codecOf(type)] ?? unknown;
}

/** Names: no compression when encoding; `{ mail: true }` for SOA rname and RP mbox. */
export const name = {
  encode(str, buf, offset, { mail = false } = {}) {
    const written = enc.run(mail ? enc.MAIL_NAME : enc.NAME, 0, enc.name, str);
    const out = deliver(written, buf, offset);
    name.encode.bytes = written;
    return out;
  },
  decode(buf, offset, { mail = false } = {}) {
    const value = dec.decodeItem(buf, start(offset), mail ? dec.MAIL_NAME : dec.NAME, 0, dec.name);
    name.decode.bytes = dec.decoded.bytes;
    return value;
  },
  encodingLength(n) {
    if (n === "." || n === "..") return 1;
    return byteLength(n.replace(/^\.|\.$/gm, "")) + 2;
  },
};
name.encode.bytes = 0;
name.decode.bytes = 0;

const utf8 = new TextEncoder();

function byteLength(text) {
  return NodeBuffer ? NodeBuffer.byteLength(text) : utf8.encode(text).length;
}

export const answer = codec(enc.ANSWER, 0, enc.answer, dec.answer);

const questionCodec = codec(enc.QUESTION, 0, enc.question, dec.question);
/** Questions; like dns-packet's, `question.encode` returns the question. */
export const question = {
  encode(q, buf, offset) {
    questionCodec.encode(q, buf, offset);
    question.encode.bytes = questionCodec.encode.bytes;
    return q;
  },
  decode(buf, offset) {
    const value = questionCodec.decode(buf, offset);
    question.decode.bytes = questionCodec.decode.bytes;
    return value;
  },
  encodingLength: questionCodec.encodingLength,
};
question.encode.bytes = 0;
question.decode.bytes = 0;

export const AUTHORITATIVE_ANSWER = 1 << 10;
export const TRUNCATED_RESPONSE = 1 << 9;
export const RECURSION_DESIRED = 1 << 8;
export const RECURSION_AVAILABLE = 1 << 7;
export const AUTHENTIC_DATA = 1 << 5;
export const CHECKING_DISABLED = 1 << 4;
export const DNSSEC_OK = 1 << 15;

/** Encodes a packet into `buf` at `offset`, or into a new buffer of its length. */
export function encode(result, buf, offset) {
  const written = enc.run(enc.MESSAGE, 0, enc.message, result);
  const allocing = !buf;
  const out = deliver(written, buf, offset);
  encode.bytes = written;
  if (allocing && written !== out.length) return out.slice(0, written);
  return out;
}
encode.bytes = 0;

/** Decodes the packet at `offset` of `buf`. */
export function decode(buf, offset) {
  const result = dec.decodeItem(buf, start(offset), dec.MESSAGE, 0, dec.message);
  decode.bytes = dec.decoded.bytes;
  return result;
}
decode.bytes = 0;

/** dns-packet's length of a packet. */
export function encodingLength(result) {
  enc.run(enc.MESSAGE, 0, enc.message, result);
  return enc.encoded.length;
}

/** A packet with its two-byte length in front, as sent over TCP. */
export function streamEncode(result) {
  const buf = encode(result);
  const combined = enc.alloc(buf.byteLength + 2);
  combined[0] = buf.byteLength >> 8;
  combined[1] = buf.byteLength & 0xff;
  combined.set(buf, 2);
  streamEncode.bytes = combined.byteLength;
  return combined;
}
streamEncode.bytes = 0;

/** Decodes a length-prefixed packet; `null` while the buffer is shorter than the prefix says. */
export function streamDecode(sbuf) {
  const len = readLength(sbuf);
  if (sbuf.byteLength < len + 2) return null;
  const result = decode(sbuf.subarray(2));
  streamDecode.bytes = decode.bytes;
  return result;
}
streamDecode.bytes = 0;

function readLength(sbuf) {
  if (typeof sbuf.readUInt16BE === "function") return sbuf.readUInt16BE(0);
  if (sbuf.length < 2) throw new RangeError("Attempt to access memory outside buffer bounds");
  return (sbuf[0] << 8) | sbuf[1];
}
