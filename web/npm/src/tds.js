// TDS, the SQL Server wire protocol (web/src/tds.rs writes the results read here).

/**
 * Reading SQL Server responses (TDS) from JavaScript.
 *
 * `TdsReader` is fed the server's bytes in pieces of any size and gives
 * back tokens: `{ token: "COLMETADATA", columns }`, `{ token: "ROW", values }`,
 * `{ token: "DONE", status, curcmd, rowcount }`, ... Each `feed` is one call
 * into WebAssembly, which decodes every token those bytes complete.
 * `tokens(source)` and `rows(source)` read a whole stream: any async
 * iterable of byte chunks (a Node stream, an async generator, an array) or
 * a web `ReadableStream`.
 *
 * Values are what tedious (with `useUTC: true`) gives for the same column:
 *
 * | SQL type | value | with `values: "exact"` |
 * |---|---|---|
 * | tinyint, smallint, int | number | the same |
 * | bigint | string (decimal digits) | bigint |
 * | bit | boolean | the same |
 * | real, float | number | the same |
 * | decimal, numeric | number (as tedious computes it) | string, exact (`"12345.6789"`) |
 * | money, smallmoney | number | string, exact, four decimals (`"123.4567"`) |
 * | char, varchar, text, nchar, nvarchar, ntext, xml | string | the same |
 * | uniqueidentifier | string, uppercase (lowercase with `lowerCaseGuids: true`) | the same |
 * | date | Date at UTC midnight | the same |
 * | datetime, smalldatetime | Date (UTC; datetime's 1/300 s rounded to ms) | the same |
 * | time | Date on 1970-01-01 UTC, truncated to ms | string (`"13:14:15.1234567"`) |
 * | datetime2 | Date (UTC), truncated to ms | string (`"2024-02-29T13:14:15.1234567"`) |
 * | datetimeoffset | Date of its UTC instant, truncated to ms | string, local time and offset (`"2024-02-29T08:14:15.1234567-05:00"`) |
 * | binary, varbinary, image, UDT | Buffer in Node, Uint8Array elsewhere | the same |
 * | sql_variant | the value of its inner type | the same |
 * | NULL | null | the same |
 *
 * Every failure throws a LeanwireError whose `kind` names the defect
 * (`"UnexpectedEof"`, `"UnknownToken"`, `"TruncatedPacket"`, ...) and whose
 * `offset` is the byte offset in the token stream (packet headers not
 * counted), the same offset `decodeTds` and `leanwire tds decode` report.
 */

import { LeanwireError } from "./errors.js";
import { wasm, ensureReady, putBytes, putString, tapeAt, textUtf16, fail, lastError } from "./shared.js";
import { TapeState, readTape } from "./tds/tape.js";

/** Bits of `tdsOpen`'s flags (web/src/tds.rs). */
const TOKENS_ONLY = 1;
const EXACT = 2;
const LOWER_GUIDS = 4;

function valuesFlag(values) {
  if (values === undefined || values === "tedious") return 0;
  if (values === "exact") return EXACT;
  throw new LeanwireError(`unknown values mode ${JSON.stringify(values)}: use "tedious" or "exact"`, "UnknownValues", 0);
}

/**
 * Decodes a server's whole TDS response: the tokens that `TdsReader.next`
 * gives, in one array. Options are `TdsReader`'s, and `chunk` feeds the
 * reader that many bytes at a time (the result is the same). Throws a
 * LeanwireError at the first defect, with its offset in the token stream.
 */
export function decodeTds(bytes, options = {}) {
  const reader = new TdsReader(options);
  const chunk = options?.chunk || bytes.length || 1;
  const tokens = [];
  for (let at = 0; at < bytes.length; at += chunk) {
    reader.feed(bytes.subarray(at, at + chunk));
    for (let token; (token = reader.next()) !== null; ) tokens.push(token);
  }
  reader.finish();
  return tokens;
}

const readers =
  typeof FinalizationRegistry === "function" ? new FinalizationRegistry((handle) => wasm.tdsClose(handle)) : null;

/**
 * Reads a TDS response fed in pieces: `feed` bytes as they arrive, then
 * call `next` until it returns `null`, which means it needs more bytes,
 * and `finish` at the end. Or hand the whole stream to `tokens` or `rows`.
 * The reader resumes exactly where the last piece ended.
 *
 * Options: `tokensOnly` (the input has no 8-byte packet headers),
 * `tdsVersion` (`"7.1"` to `"7.4"`, until a LOGINACK says otherwise),
 * `values` (`"tedious"`, the default, or `"exact"`; see the table above),
 * `lowerCaseGuids`, and `arenaLimit`: the most bytes of memory one result
 * set's column metadata may take (default 16 MiB); a stream that needs more
 * throws a LeanwireError of kind `"ArenaFull"`.
 */
export class TdsReader {
  #handle;
  #state;
  #ready = [];
  #taken = 0;
  #error = null;

  constructor(options = {}) {
    const { tokensOnly = false, tdsVersion, values, lowerCaseGuids = false, arenaLimit = 16777216 } = options ?? {};
    const flags = (tokensOnly ? TOKENS_ONLY : 0) | valuesFlag(values) | (lowerCaseGuids ? LOWER_GUIDS : 0);
    ensureReady();
    const version = putString(tdsVersion === undefined ? "7.4" : String(tdsVersion));
    this.#handle = wasm.tdsOpen(flags, version, Math.min(arenaLimit, 0xffffffff));
    if (this.#handle === 0) fail();
    this.#state = new TapeState(values === "exact");
    readers?.register(this, this.#handle, this);
  }

  /** The columns of the current result set (those of the last COLMETADATA). */
  get columns() {
    return this.#state.columns;
  }

  /** Takes in the next piece of the stream, decoding every token it completes. */
  feed(bytes) {
    if (this.#error !== null) return;
    if (this.#handle === 0) throw new LeanwireError("the reader is finished", "Finished", 0);
    const len = putBytes(bytes);
    const words = wasm.tdsFeed(this.#handle, len);
    if (words < 0) fail();
    if (this.#taken === this.#ready.length) {
      this.#ready.length = 0;
      this.#taken = 0;
    }
    if (words === 0) return;
    const at = tapeAt();
    this.#error = readTape(this.#state, at, at + words, textUtf16(), this.#ready);
  }

  /** The next token, or `null` when the bytes fed so far are used up. Throws at a defect. */
  next() {
    if (this.#taken < this.#ready.length) return this.#ready[this.#taken++];
    if (this.#error !== null) throw this.#error;
    return null;
  }

  /** Says the stream is over: throws if it stopped inside a packet or a token. */
  finish() {
    if (this.#error !== null) throw this.#error;
    if (this.#handle === 0) return;
    const failed = wasm.tdsFinish(this.#handle) < 0;
    const error = failed ? lastError() : null;
    this.#close();
    if (error !== null) {
      this.#error = error;
      throw error;
    }
  }

  #close() {
    wasm.tdsClose(this.#handle);
    readers?.unregister(this);
    this.#handle = 0;
  }

  /**
   * Every token of `source`, an async iterable of byte chunks (a Node
   * stream, an async generator, an array) or a web `ReadableStream`:
   * `for await (const token of reader.tokens(stream))`. Calls `finish` at
   * the end; throws a LeanwireError on a bad stream.
   */
  tokens(source) {
    return new Pull(this, source, (token) => token);
  }

  /**
   * The rows of every result set of `source` (as `tokens` takes it), each
   * an array of values in column order; `reader.columns` describes the
   * current result set's columns. Other tokens, ERROR and INFO included,
   * are passed over: read them with `tokens`.
   */
  rows(source) {
    return new Pull(this, source, rowValues);
  }
}

function rowValues(token) {
  return token.values !== undefined && token.token !== "RETURNVALUE" ? token.values : undefined;
}

/**
 * The async iterator behind `tokens` and `rows`. While tokens of the
 * bytes fed so far are left, `next` answers with an already resolved
 * promise, so a row costs one await of the caller's loop and no generator
 * machinery; only when they run out does it wait for the next chunk.
 */
class Pull {
  constructor(reader, source, pick) {
    this.reader = reader;
    this.source = source;
    this.chunks = null;
    this.pick = pick;
    this.done = false;
  }

  [Symbol.asyncIterator]() {
    return this;
  }

  next() {
    if (!this.done) {
      let value;
      try {
        value = this.take();
      } catch (error) {
        this.done = true;
        return Promise.reject(error);
      }
      if (value !== undefined) return Promise.resolve({ value, done: false });
    }
    return this.pull();
  }

  /** The next value of the tokens decoded so far, or undefined. */
  take() {
    for (let token; (token = this.reader.next()) !== null; ) {
      const value = this.pick(token);
      if (value !== undefined) return value;
    }
    return undefined;
  }

  async pull() {
    this.chunks ??= chunks(this.source)[Symbol.asyncIterator]();
    while (!this.done) {
      const chunk = await this.chunks.next();
      if (chunk.done) {
        this.done = true;
        this.reader.finish();
        break;
      }
      this.reader.feed(chunk.value);
      const value = this.take();
      if (value !== undefined) return { value, done: false };
    }
    return { value: undefined, done: true };
  }

  async return(value) {
    this.done = true;
    await this.chunks?.return?.();
    return { value, done: true };
  }
}

/** The chunks of an async iterable, an iterable or a web ReadableStream. */
async function* chunks(source) {
  if (source !== null && typeof source === "object" && typeof source.getReader === "function" && !(Symbol.asyncIterator in source)) {
    const reader = source.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      reader.releaseLock();
    }
  }
  yield* source;
}
