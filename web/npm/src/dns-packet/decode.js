// Decoding: web/src/dns_packet/mod.rs writes the tapes read here, one call
// per decode, and the strings of a call are one text area decoded once.

import { wasm, u32, putBytes, tapeAt, text, lastError } from "../shared.js";
import { typeName, className, rcodeName, opcodeName, optionName } from "./tables.js";

/** What `dnsPacketDecode` decodes. */
export const MESSAGE = 0;
export const QUESTION = 1;
export const ANSWER = 2;
export const DATA = 3;
export const NAME = 4;
export const MAIL_NAME = 5;
export const OPTION = 6;

// The tape being read: the next word, the call's text, and the caller's buffer.
let at = 0;
let str = "";
let src = null;

function word() {
  return u32[at++];
}

function string() {
  const s = str.substring(u32[at], u32[at + 1]);
  at += 2;
  return s;
}

function bytes() {
  const b = src.subarray(u32[at], u32[at + 1]);
  at += 2;
  return b;
}

/**
 * Decodes `what` at `offset` of `buf`; returns the item and sets
 * `decoded.bytes` to the byte count dns-packet reports.
 */
export function decodeItem(buf, offset, what, rtype, read) {
  const len = putBytes(buf);
  if (wasm.dnsPacketDecode(len, offset, what, rtype) < 0) fail(buf);
  at = tapeAt();
  str = text();
  src = buf;
  const count = word();
  const item = read(rtype);
  src = null;
  decoded.bytes = count;
  return item;
}

/** The byte count of the last decode. */
export const decoded = { bytes: 0 };

/** Reads a whole message. */
export function message() {
  const id = word();
  const flags = word();
  const result = {
    id,
    type: flags & 0x8000 ? "response" : "query",
    flags: flags & 32767,
    flag_qr: ((flags >> 15) & 1) === 1,
    opcode: opcodeName((flags >> 11) & 0xf),
    flag_aa: ((flags >> 10) & 1) === 1,
    flag_tc: ((flags >> 9) & 1) === 1,
    flag_rd: ((flags >> 8) & 1) === 1,
    flag_ra: ((flags >> 7) & 1) === 1,
    flag_z: ((flags >> 6) & 1) === 1,
    flag_ad: ((flags >> 5) & 1) === 1,
    flag_cd: ((flags >> 4) & 1) === 1,
    rcode: rcodeName(flags & 0xf),
    questions: new Array(word()),
    answers: new Array(word()),
    authorities: new Array(word()),
    additionals: new Array(word()),
  };
  const questions = result.questions;
  for (let i = 0; i < questions.length; i++) questions[i] = question();
  readAnswers(result.answers);
  readAnswers(result.authorities);
  readAnswers(result.additionals);
  return result;
}

function readAnswers(list) {
  for (let i = 0; i < list.length; i++) list[i] = answer();
}

/** Reads a question. */
export function question() {
  const name = string();
  const type = typeName(word());
  return { name, type, class: className(word()) };
}

/** Reads a record. */
export function answer() {
  const name = string();
  const code = word();
  const type = typeName(code);
  if (code === 41) {
    const udpPayloadSize = word();
    const extendedRcode = word();
    const ednsVersion = word();
    const flags = word();
    return {
      name,
      type,
      udpPayloadSize,
      extendedRcode,
      ednsVersion,
      flags,
      flag_do: ((flags >> 15) & 1) === 1,
      options: data(41),
    };
  }
  const klass = word();
  const ttl = word();
  return { name, type, ttl, class: className(klass & 0x7fff), flush: (klass & 0x8000) !== 0, data: data(code) };
}

/** Reads a name. */
export function name() {
  return string();
}

/** Reads the data of a record of type `code`. */
export function data(code) {
  switch (code) {
    case 1: case 28: case 2: case 12: case 5: case 39:
      return string();
    case 6:
      return {
        mname: string(),
        rname: string(),
        serial: word(),
        refresh: word(),
        retry: word(),
        expire: word(),
        minimum: word(),
      };
    case 16: {
      const list = new Array(word());
      for (let i = 0; i < list.length; i++) list[i] = bytes();
      return list;
    }
    case 13:
      return { cpu: string(), os: string() };
    case 33:
      return { priority: word(), weight: word(), port: word(), target: string() };
    case 257: {
      const flags = word();
      return { flags, tag: string(), value: string(), issuerCritical: (flags & 128) !== 0 };
    }
    case 15:
      return { preference: word(), exchange: string() };
    case 41: {
      const list = new Array(word());
      for (let i = 0; i < list.length; i++) list[i] = option();
      return list;
    }
    case 48:
      return { flags: word(), algorithm: word(), key: bytes() };
    case 46:
      return {
        typeCovered: typeName(word()),
        algorithm: word(),
        labels: word(),
        originalTTL: word(),
        expiration: word(),
        inception: word(),
        keyTag: word(),
        signersName: string(),
        signature: bytes(),
      };
    case 17:
      return { mbox: string(), txt: string() };
    case 47:
      return { nextDomain: string(), rrtypes: types() };
    case 50:
      return {
        algorithm: word(),
        flags: word(),
        iterations: word(),
        salt: bytes(),
        nextDomain: bytes(),
        rrtypes: types(),
      };
    case 43:
      return { keyTag: word(), algorithm: word(), digestType: word(), digest: bytes() };
    case 44:
      return { algorithm: word(), hash: word(), fingerprint: string() };
    case 35:
      return {
        order: word(),
        preference: word(),
        flags: string(),
        services: string(),
        regexp: string(),
        replacement: string(),
      };
    case 52:
      return { usage: word(), selector: word(), matchingType: word(), certificate: bytes() };
    default:
      return bytes();
  }
}

function types() {
  const list = new Array(word());
  for (let i = 0; i < list.length; i++) list[i] = typeName(word());
  return list;
}

/** Reads an EDNS option. */
export function option() {
  const code = word();
  const result = { code, type: optionName(code), data: bytes() };
  switch (code) {
    case 8:
      result.family = word();
      result.sourcePrefixLength = word();
      result.scopePrefixLength = word();
      result.ip = string();
      break;
    case 11: {
      const has = word();
      const timeout = word();
      if (has === 1) result.timeout = timeout;
      break;
    }
    case 14: {
      const tags = new Array(word());
      for (let i = 0; i < tags.length; i++) tags[i] = word();
      result.tags = tags;
      break;
    }
  }
  return result;
}

const nameFaults = {
  NameOverflow: "buffer overflow",
  NameTooLong: "name too long",
  NamePointer: "bad pointer",
  NameLabel: "bad label",
};

const readers = { 1: "readUInt8", 2: "readUInt16BE", 4: "readUInt32BE" };

/** Throws what dns-packet throws for the failure the last call described. */
function fail(buf) {
  const { kind, message: detail, offset } = lastError();
  switch (kind) {
    case "Range":
      throw rangeError(buf, offset, Number(detail));
    case "Header":
      throw new Error("Header must be 12 bytes");
    case "TxtOverflow":
      throw new Error("Buffer overflow");
    case "Protocol":
      throw new Error("Protocol must be 3");
    case "Overrun":
      throw new RangeError("Record data runs past the end of the buffer");
    default:
      throw new Error(`Cannot decode name (${nameFaults[kind]})`);
  }
}

/** The error Node's `buf.readUInt…` throws for a read of `width` bytes at `offset`. */
function rangeError(buf, offset, width) {
  const read = buf[readers[width]];
  if (typeof read === "function") {
    try {
      read.call(buf, offset);
    } catch (error) {
      return error;
    }
  }
  const last = buf.length - width;
  if (last < 0) return new RangeError("Attempt to access memory outside buffer bounds");
  return new RangeError(`The value of "offset" is out of range. It must be >= 0 and <= ${last}. Received ${offset}`);
}
