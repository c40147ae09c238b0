// Encoding: packets are flattened here into the tape that
// web/src/dns_packet/encode.rs reads, one call per encode. The tape is
// `u32` words (the first is their count) followed by one area of bytes
// holding every string, as UTF-8, and every byte field.

import { wasm, putBytes, tapeAt } from "../shared.js";
import * as shared from "../shared.js";
import { typeCode, classCode, optionCode } from "./tables.js";
import { encodeV4, encodeV6, encodeIp, familyOf } from "./ip.js";

const NodeBuffer = globalThis.Buffer;
const utf8 = new TextEncoder();

export { MESSAGE, QUESTION, ANSWER, DATA, NAME, MAIL_NAME, OPTION } from "./decode.js";

/** The codec dns-packet's `record(type)` picks, by the type it decodes. */
const CODECS = {
  A: 1, PTR: 12, CNAME: 5, DNAME: 39, TXT: 16, NULL: 10, AAAA: 28, SRV: 33, HINFO: 13, CAA: 257,
  NS: 2, SOA: 6, MX: 15, OPT: 41, DNSKEY: 48, RRSIG: 46, RP: 17, NSEC: 47, NSEC3: 50, SSHFP: 44,
  DS: 43, NAPTR: 35, TLSA: 52,
};

/** Remembers a lookup by mnemonic, for the first few hundred mnemonics seen. */
function remembered(lookup) {
  const known = new Map();
  return (name) => {
    let code = known.get(name);
    if (code === undefined) {
      code = lookup(name);
      if (known.size < 512 && typeof name === "string") known.set(name, code);
    }
    return code;
  };
}

/** The codec number for a type mnemonic: 0 is `unknown`. */
export const codecOf = remembered((type) => CODECS[type.toUpperCase()] ?? 0);
const typeNumber = remembered(typeCode);
const classNumber = remembered(classCode);

/** A `Buffer` under Node, else a `Uint8Array`, of `len` zero bytes. */
export function alloc(len) {
  return NodeBuffer ? NodeBuffer.alloc(len) : new Uint8Array(len);
}

/** What dns-packet accepts as bytes: a `Buffer` (a `Uint8Array` where there is no `Buffer`). */
export function isBytes(value) {
  return NodeBuffer ? NodeBuffer.isBuffer(value) : value instanceof Uint8Array;
}

/** `Buffer.from(text)`: its UTF-8 bytes. */
export function fromString(text) {
  return NodeBuffer ? NodeBuffer.from(text) : utf8.encode(text);
}

// The tape being written: words, and the byte area.
let words = new Uint32Array(256);
let w = 1;
let area = new Uint8Array(4096);
let n = 0;
let wordBytes = new Uint8Array(words.buffer);
let joined = new Uint8Array(words.buffer.byteLength + area.length);

function word(value) {
  if (w === words.length) {
    const grown = new Uint32Array(words.length * 2);
    grown.set(words);
    words = grown;
    wordBytes = new Uint8Array(words.buffer);
  }
  words[w++] = value;
}

function room(len) {
  if (n + len > area.length) {
    const grown = new Uint8Array(Math.max(area.length * 2, n + len));
    grown.set(area.subarray(0, n));
    area = grown;
  }
}

/** Pushes `text` as UTF-8 into the area and its range onto the tape. */
function string(text) {
  const len = text.length;
  room(len * 3);
  const start = n;
  let i = 0;
  for (; i < len; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0x80) break;
    area[n++] = c;
  }
  if (i < len) n += utf8.encodeInto(text.substring(i), area.subarray(n)).written;
  word(start);
  word(n);
}

/** Pushes bytes into the area and their range onto the tape. */
function bytes(data) {
  const len = data.length;
  room(len);
  area.set(data, n);
  word(n);
  n += len;
  word(n);
}

const scratch = NodeBuffer ? NodeBuffer.alloc(4) : null;

/** The error Node's `writeUInt…` throws for a value out of range. */
function outOfRange(value, width, max) {
  if (scratch !== null) {
    try {
      if (width === 1) scratch.writeUInt8(value, 0);
      else if (width === 2) scratch.writeUInt16BE(value, 0);
      else scratch.writeUInt32BE(value, 0);
    } catch (error) {
      return error;
    }
  }
  const range = width === 4 ? ">= 0 and < 2 ** 32" : `>= 0 and <= ${max}`;
  return new RangeError(`The value of "value" is out of range. It must be ${range}. Received ${value}`);
}

function u8(value) {
  value = +value;
  if (value > 0xff || value < 0) throw outOfRange(value, 1, 0xff);
  word(value >>> 0);
}

function u16(value) {
  value = +value;
  if (value > 0xffff || value < 0) throw outOfRange(value, 2, 0xffff);
  word(value >>> 0);
}

function u32(value) {
  value = +value;
  if (value > 0xffffffff || value < 0) throw outOfRange(value, 4, 0);
  word(value >>> 0);
}

/** `buf[offset] = value`: no check, modulo 256. */
function octet(value) {
  word((+value >>> 0) & 0xff);
}

/**
 * Encodes what `flatten` pushes as item `what`, and returns the number of
 * bytes; `encoded.length` is dns-packet's `encodingLength` of it.
 */
export function run(what, codec, flatten, value) {
  w = 1;
  n = 0;
  flatten(value, codec);
  words[0] = w;
  const tapeBytes = w * 4;
  if (joined.length < tapeBytes + n) joined = new Uint8Array(2 * (tapeBytes + n));
  joined.set(wordBytes.subarray(0, tapeBytes));
  joined.set(area.subarray(0, n), tapeBytes);
  const len = putBytes(joined.subarray(0, tapeBytes + n));
  const written = wasm.dnsPacketEncode(len, what, codec);
  encoded.length = shared.u32[tapeAt()];
  return written;
}

/** dns-packet's `encodingLength` of the last encode. */
export const encoded = { length: 0 };



/** Flattens a whole packet. Like dns-packet, it adds the sections that are missing. */
export function message(result) {
  if (!result.questions) result.questions = [];
  if (!result.answers) result.answers = [];
  if (!result.authorities) result.authorities = [];
  if (!result.additionals) result.additionals = [];
  u16(result.id || 0);
  word(((result.flags || 0) & 32767) | (result.type === "response" ? 0x8000 : 0));
  u16(result.questions.length);
  u16(result.answers.length);
  u16(result.authorities.length);
  u16(result.additionals.length);
  for (const q of result.questions) question(q);
  for (const a of result.answers) answer(a);
  for (const a of result.authorities) answer(a);
  for (const a of result.additionals) answer(a);
}

/** Flattens a question. */
export function question(q) {
  string(q.name);
  u16(typeNumber(q.type));
  u16(classNumber(q.class === undefined ? "IN" : q.class));
}

/** Flattens a record. */
export function answer(a) {
  string(a.name);
  u16(typeNumber(a.type));
  const codec = codecOf(a.type);
  if (codec === 41) {
    if (a.name !== ".") throw new Error("OPT name must be root.");
    word(41);
    u16(a.udpPayloadSize || 4096);
    u8(a.extendedRcode || 0);
    u8(a.ednsVersion || 0);
    u16(a.flags || 0);
    options(a.options || []);
    return;
  }
  word(codec);
  let klass = classNumber(a.class === undefined ? "IN" : a.class);
  if (a.flush) klass |= 0x8000;
  u16(klass);
  u32(a.ttl || 0);
  data(a.data, codec);
}

/** Flattens a name. */
export function name(text) {
  string(text);
}

/** Flattens record data for `codec`, checking what dns-packet's encoder checks. */
export function data(d, codec) {
  switch (codec) {
    case 1:
      return bytes(encodeV4(d));
    case 28:
      return bytes(encodeV6(d));
    case 2: case 12: case 5: case 39:
      return string(d);
    case 6:
      string(d.mname);
      string(d.rname);
      u32(d.serial || 0);
      u32(d.refresh || 0);
      u32(d.retry || 0);
      u32(d.expire || 0);
      return u32(d.minimum || 0);
    case 16:
      return txt(d);
    case 10:
      if (typeof d === "string") d = fromString(d);
      return bytes(d || []);
    case 13:
      string(d.cpu);
      return string(d.os);
    case 33:
      u16(d.priority || 0);
      u16(d.weight || 0);
      u16(d.port || 0);
      return string(d.target);
    case 257:
      if (d.issuerCritical) d.flags = 128;
      u8(d.flags || 0);
      string(d.tag);
      return string(d.value);
    case 15:
      u16(d.preference || 0);
      return string(d.exchange);
    case 41:
      return options(d || []);
    case 48:
      if (!isBytes(d.key)) throw new Error("Key must be a Buffer");
      u16(d.flags);
      u8(d.algorithm);
      return bytes(d.key);
    case 46:
      if (!isBytes(d.signature)) throw new Error("Signature must be a Buffer");
      u16(typeCode(d.typeCovered));
      u8(d.algorithm);
      u8(d.labels);
      u32(d.originalTTL);
      u32(d.expiration);
      u32(d.inception);
      u16(d.keyTag);
      string(d.signersName);
      return bytes(d.signature);
    case 17:
      string(d.mbox || ".");
      return string(d.txt || ".");
    case 47:
      string(d.nextDomain);
      return types(d.rrtypes);
    case 50:
      if (!isBytes(d.salt)) throw new Error("salt must be a Buffer");
      if (!isBytes(d.nextDomain)) throw new Error("nextDomain must be a Buffer");
      u8(d.algorithm);
      u8(d.flags);
      u16(d.iterations);
      if (d.salt.length > 0xff) throw outOfRange(d.salt.length, 1, 0xff);
      bytes(d.salt);
      if (d.nextDomain.length > 0xff) throw outOfRange(d.nextDomain.length, 1, 0xff);
      bytes(d.nextDomain);
      return types(d.rrtypes);
    case 43:
      if (!isBytes(d.digest)) throw new Error("Digest must be a Buffer");
      u16(d.keyTag);
      u8(d.algorithm);
      u8(d.digestType);
      return bytes(d.digest);
    case 44:
      return sshfp(d);
    case 35:
      u16(d.order || 0);
      u16(d.preference || 0);
      string(d.flags);
      string(d.services);
      string(d.regexp);
      return string(d.replacement);
    case 52:
      if (!isBytes(d.certificate)) throw new Error("Certificate must be a Buffer");
      u8(d.usage);
      u8(d.selector);
      u8(d.matchingType);
      return bytes(d.certificate);
    default:
      return bytes(d);
  }
}

/** TXT: strings become Buffers in the caller's array, as dns-packet does. */
function txt(d) {
  if (!Array.isArray(d)) d = [d];
  for (let i = 0; i < d.length; i++) {
    if (typeof d[i] === "string") d[i] = fromString(d[i]);
    if (!isBytes(d[i])) throw new Error("Must be a Buffer");
  }
  word(d.length);
  for (let i = 0; i < d.length; i++) bytes(d[i]);
}

const FINGERPRINT_LENGTHS = { 1: 20, 2: 32 };

function sshfp(d) {
  octet(d.algorithm);
  octet(d.hash);
  const fingerprint = hexBytes(d.fingerprint.toUpperCase());
  if (fingerprint.length !== FINGERPRINT_LENGTHS[d.hash]) throw new Error("Invalid fingerprint length");
  bytes(fingerprint);
}

/** `Buffer.from(text, "hex")`: pairs of hex digits up to the first that is not. */
export function hexBytes(text) {
  if (NodeBuffer) return NodeBuffer.from(text, "hex");
  const out = [];
  for (let i = 0; i + 1 < text.length; i += 2) {
    const byte = parseInt(text.substring(i, i + 2), 16);
    if (!/^[0-9a-fA-F]{2}$/.test(text.substring(i, i + 2))) break;
    out.push(byte);
  }
  return Uint8Array.from(out);
}

function types(list) {
  word(list.length);
  for (let i = 0; i < list.length; i++) word(typeCode(list[i]));
}

function options(list) {
  word(list.length);
  for (let i = 0; i < list.length; i++) option(list[i]);
}

/** Flattens an EDNS option: `code declaredLength data`. */
export function option(o) {
  const code = optionCode(o.code);
  u16(code);
  if (o.data) {
    word(o.data.length + 4);
    return bytes(o.data);
  }
  switch (code) {
    case 8: {
      const spl = o.sourcePrefixLength || 0;
      const family = o.family || familyOf(o.ip);
      const ip = encodeIp(o.ip);
      const ipLen = Math.ceil(spl / 8);
      const body = new Uint8Array(4 + ipLen);
      body[0] = family >> 8;
      body[1] = family;
      body[2] = spl;
      body[3] = o.scopePrefixLength || 0;
      body.set(ip.subarray(0, ipLen), 4);
      word(ipLen + 8);
      return bytes(body);
    }
    case 11:
      word(typeof o.timeout === "number" ? 6 : 4);
      return bytes(o.timeout ? [o.timeout >> 8, o.timeout & 0xff] : []);
    case 12:
      word(o.length + 4);
      return bytes(new Uint8Array(o.length || 0));
    case 14: {
      word(4 + o.tags.length * 2);
      const body = new Uint8Array(o.tags.length * 2);
      o.tags.forEach((tag, i) => {
        body[2 * i] = tag >> 8;
        body[2 * i + 1] = tag;
      });
      return bytes(body);
    }
    default:
      throw new Error(`Unknown roption code: ${o.code}`);
  }
}
