// The JavaScript half of the boundary (the Rust half is web/src/shared.rs).
//
// A call puts its input into the module's input buffer, calls one export
// that takes and returns numbers, and reads the result from memory: a tape
// of 32-bit words and a text area of UTF-8. Views over the memory are made
// once and remade only when the memory grows, which detaches the old buffer
// and leaves its views empty: `u8.length === 0` is the cheap test for it
// (reading `memory.buffer` costs more than the rest of a small call).

import { LeanwireError } from "./errors.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const utf16 = new TextDecoder("utf-16le");
/** Under Node, a Buffer over the memory decodes text without a decoder call's overhead. */
const NodeBuffer = typeof Buffer === "function" ? Buffer : null;

/** The module's exports, once it is instantiated. */
export let wasm = null;
let buffer = null;
/** Bytes and words of the module's memory. */
export let u8 = null;
export let u32 = null;
let nodeBytes = null;
let headerAt = 0;
let inputAt = 0;
let inputCap = 0;
let inputView = null;

/** Takes the exports of an instantiated module (the glue's `initSync`). */
export function attach(exports) {
  if (wasm !== null) return;
  wasm = exports;
  headerAt = exports.resultHeader() >>> 2;
  reserve(1024);
}

function refresh() {
  buffer = wasm.memory.buffer;
  u8 = new Uint8Array(buffer);
  u32 = new Uint32Array(buffer);
  nodeBytes = NodeBuffer === null ? null : NodeBuffer.from(buffer);
  inputView = u8.subarray(inputAt, inputAt + inputCap);
}

/** Throws unless the module is instantiated. */
export function ensureReady() {
  if (wasm === null) {
    throw new LeanwireError("leanwire is not initialized: call `await init()` first", "Uninitialized", 0);
  }
}

function reserve(len) {
  ensureReady();
  if (len > inputCap) {
    inputAt = wasm.reserveInput(len);
    inputCap = len;
  }
  refresh();
}

/** Writes `text` as UTF-8 into the input buffer; returns its length in bytes. */
export function putString(text) {
  const most = text.length * 3;
  if (most > inputCap || u8 === null || u8.length === 0) reserve(most);
  return encoder.encodeInto(text, inputView).written;
}

/** Copies `bytes` into the input buffer; returns their length. */
export function putBytes(bytes) {
  const len = bytes.length;
  if (len > inputCap || u8 === null || u8.length === 0) reserve(len);
  inputView.set(bytes);
  return len;
}

/** Where the last call's tape starts, as an index into `u32`. Call after every call into the module. */
export function tapeAt() {
  if (u32.length === 0) refresh();
  return u32[headerAt] >>> 2;
}

/** The last call's tape length in words. */
export function tapeLength() {
  return u32[headerAt + 1];
}

/** The last call's text area, decoded from UTF-8. */
export function text() {
  if (u8.length === 0) refresh();
  const at = u32[headerAt + 2];
  const end = at + u32[headerAt + 3];
  if (at === end) return "";
  return nodeBytes !== null ? nodeBytes.utf8Slice(at, end) : decoder.decode(u8.subarray(at, end));
}

/** The last call's text area, decoded from UTF-16LE (the TDS reader's). */
export function textUtf16() {
  if (u8.length === 0) refresh();
  const at = u32[headerAt + 2];
  const end = at + u32[headerAt + 3];
  if (at === end) return "";
  return nodeBytes !== null ? nodeBytes.ucs2Slice(at, end) : utf16.decode(u8.subarray(at, end));
}

/** The last call's text area as bytes: a view of the module's memory, valid until the next call. */
export function textView() {
  if (u8.length === 0) refresh();
  const at = u32[headerAt + 2];
  return u8.subarray(at, at + u32[headerAt + 3]);
}

/** The failure that the last call described, as a LeanwireError. */
export function lastError() {
  const offset = u32[tapeAt()];
  const all = text();
  const nul = all.indexOf("\0");
  return new LeanwireError(all.slice(nul + 1), all.slice(0, nul), offset);
}

/** Throws the failure that the last call described. */
export function fail() {
  throw lastError();
}
