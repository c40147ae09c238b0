// Reads the TDS tape: web/src/tds/tape.rs (records) and web/src/tds/values.rs
// (value records) document the layouts read here.

import { LeanwireError } from "../errors.js";
import { u8, u32 } from "../shared.js";

const f64 = new Float64Array(1);
const f64Words = new Uint32Array(f64.buffer);
const f32 = new Float32Array(1);
const f32Words = new Uint32Array(f32.buffer);

const TWO_32 = 0x100000000;
const DAY_MS = 86400000;
/** Days from 0001-01-01 and from 1900-01-01 to 1970-01-01. */
const DAYS_0001 = 719162;
const DAYS_1900 = 25567;
const THREE_AND_A_THIRD = 3 + 1 / 3;
const POW10 = Array.from({ length: 39 }, (_, scale) => Math.pow(10, scale));

const bytesOf =
  typeof Buffer === "function" ? (at, len) => Buffer.from(u8.subarray(at, at + len)) : (at, len) => u8.slice(at, at + len);

const DONE_NAMES = ["DONE", "DONEPROC", "DONEINPROC"];
const DONE_BITS = [
  [0x1, "MORE"],
  [0x2, "ERROR"],
  [0x4, "INXACT"],
  [0x10, "COUNT"],
  [0x20, "ATTN"],
  [0x80, "RPCINBATCH"],
  [0x100, "SRVERROR"],
];
const doneStatuses = new Map();

/** The names of the DONE status bits that are set, one frozen array per combination. */
function doneStatus(bits) {
  let names = doneStatuses.get(bits);
  if (names === undefined) {
    names = Object.freeze(DONE_BITS.filter(([bit]) => bits & bit).map(([, name]) => name));
    doneStatuses.set(bits, names);
  }
  return names;
}

function bigintOf(low, high) {
  return (BigInt(high | 0) << 32n) | BigInt(low);
}

/**
 * The state a reader keeps between tapes: the row or return value being
 * read, the current columns, and how values are given.
 */
export class TapeState {
  constructor(exact) {
    this.exact = exact;
    this.row = null;
    this.rowKind = 0;
    this.column = 0;
    this.returnValue = null;
    this.columns = [];
  }
}

/**
 * Reads the records in words `[at, end)` of the tape, with `text` the
 * decoded text area, pushing each completed token onto `out`. Returns the
 * LeanwireError of a FAIL record, or null.
 */
export function readTape(state, at, end, text, out) {
  const w = u32;
  const exact = state.exact;
  while (at < end) {
    const kind = w[at];
    if (kind < 32) {
      let value;
      switch (kind) {
        case 0:
          value = null;
          at += 1;
          break;
        case 1:
          value = w[at + 1] | 0;
          at += 2;
          break;
        case 2: {
          const low = w[at + 1];
          const high = w[at + 2] | 0;
          const n = high * TWO_32 + low;
          if (exact) value = Number.isSafeInteger(n) ? BigInt(n) : bigintOf(low, high);
          else value = Number.isSafeInteger(n) ? "" + n : bigintOf(low, high).toString();
          at += 3;
          break;
        }
        case 3:
          value = w[at + 1] !== 0;
          at += 2;
          break;
        case 4:
          f64Words[0] = w[at + 1];
          f64Words[1] = w[at + 2];
          value = f64[0];
          at += 3;
          break;
        case 5:
          f32Words[0] = w[at + 1];
          value = f32[0];
          at += 2;
          break;
        case 6: {
          const head = w[at + 1];
          const magnitude =
            w[at + 2] + TWO_32 * w[at + 3] + TWO_32 * TWO_32 * w[at + 4] + TWO_32 * TWO_32 * TWO_32 * w[at + 5];
          value = (magnitude * (head & 0x100 ? -1 : 1)) / POW10[head & 0xff];
          at += 6;
          break;
        }
        case 7:
          value = (w[at + 2] + TWO_32 * (w[at + 1] | 0)) / 10000;
          at += 3;
          break;
        case 9:
          value = new Date(((w[at + 1] | 0) - DAYS_1900) * DAY_MS + Math.round(w[at + 2] * THREE_AND_A_THIRD));
          at += 3;
          break;
        case 10:
          value = new Date((w[at + 1] - DAYS_1900) * DAY_MS + w[at + 2] * 60000);
          at += 3;
          break;
        case 11:
          value = new Date((w[at + 1] - DAYS_0001) * DAY_MS);
          at += 2;
          break;
        case 12:
          value = new Date(Math.trunc((w[at + 1] + TWO_32 * w[at + 2]) / 10000));
          at += 3;
          break;
        case 13:
          value = new Date((w[at + 1] - DAYS_0001) * DAY_MS + Math.trunc((w[at + 2] + TWO_32 * w[at + 3]) / 10000));
          at += 4;
          break;
        case 15:
          value = text.substring(w[at + 1], w[at + 2]);
          at += 3;
          break;
        case 16: {
          const len = w[at + 1];
          value = bytesOf((at + 2) * 4, len);
          at += 2 + ((len + 3) >>> 2);
          break;
        }
        default:
          throw new LeanwireError(`unknown value record ${kind}`, "InvalidTape", at);
      }
      const row = state.row;
      if (row !== null) {
        row[state.column++] = value;
      } else if (state.returnValue !== null) {
        state.returnValue.value = value;
        out.push(state.returnValue);
        state.returnValue = null;
      }
      continue;
    }
    switch (kind) {
      case 32:
        state.rowKind = w[at + 1];
        state.row = new Array(w[at + 2]);
        state.column = 0;
        at += 3;
        break;
      case 33:
        out.push({ token: state.rowKind === 1 ? "NBCROW" : "ROW", values: state.row });
        state.row = null;
        at += 1;
        break;
      case 34:
        at = colMetadata(state, at, text, out);
        break;
      case 35:
        out.push({
          token: DONE_NAMES[w[at + 1]],
          status: doneStatus(w[at + 2]),
          curcmd: w[at + 3],
          rowcount: w[at + 4] + TWO_32 * w[at + 5],
        });
        at += 6;
        break;
      case 36:
        out.push({
          token: w[at + 1] === 1 ? "ERROR" : "INFO",
          number: w[at + 2] | 0,
          state: w[at + 3],
          class: w[at + 4],
          message: text.substring(w[at + 5], w[at + 6]),
          server: text.substring(w[at + 7], w[at + 8]),
          procedure: text.substring(w[at + 9], w[at + 10]),
          line: w[at + 11] | 0,
        });
        at += 12;
        break;
      case 37: {
        const type = text.substring(w[at + 1], w[at + 2]);
        const [next, afterNew] = envValue(at + 3, text);
        const [old, afterOld] = envValue(afterNew, text);
        out.push({ token: "ENVCHANGE", type, new: next, old });
        at = afterOld;
        break;
      }
      case 38:
        out.push({
          token: "LOGINACK",
          interface: w[at + 1],
          tdsVersion: text.substring(w[at + 2], w[at + 3]),
          progName: text.substring(w[at + 4], w[at + 5]),
          progVersion: text.substring(w[at + 6], w[at + 7]),
        });
        at += 8;
        break;
      case 39:
        out.push({ token: "RETURNSTATUS", value: w[at + 1] | 0 });
        at += 2;
        break;
      case 40:
        state.returnValue = {
          token: "RETURNVALUE",
          ordinal: w[at + 1],
          name: text.substring(w[at + 2], w[at + 3]),
          status: w[at + 4],
          value: null,
        };
        at += 5;
        break;
      case 41: {
        const count = w[at + 1];
        out.push({ token: "ORDER", columns: Array.from(w.subarray(at + 2, at + 2 + count)) });
        at += 2 + count;
        break;
      }
      case 42:
        out.push({ token: text.substring(w[at + 1], w[at + 2]), text: text.substring(w[at + 3], w[at + 4]) });
        at += 5;
        break;
      case 43:
        return new LeanwireError(text.substring(w[at + 4], w[at + 5]), text.substring(w[at + 2], w[at + 3]), w[at + 1]);
      default:
        throw new LeanwireError(`unknown tape record ${kind}`, "InvalidTape", at);
    }
  }
  return null;
}

function colMetadata(state, at, text, out) {
  const w = u32;
  const count = w[at + 1];
  const columns = new Array(count);
  at += 2;
  for (let i = 0; i < count; i++, at += 10) {
    const length = w[at + 7];
    columns[i] = {
      name: text.substring(w[at], w[at + 1]),
      type: text.substring(w[at + 2], w[at + 3]),
      sqlType: text.substring(w[at + 4], w[at + 5]),
      nullable: (w[at + 6] & 1) === 1,
      length: length === 0xffffffff ? null : length,
      precision: w[at + 8],
      scale: w[at + 9],
    };
  }
  state.columns = columns;
  out.push({ token: "COLMETADATA", columns });
  return at;
}

/** An ENVCHANGE value at `at`: `[value, where the next record starts]`. */
function envValue(at, text) {
  const w = u32;
  switch (w[at]) {
    case 0:
      return [text.substring(w[at + 1], w[at + 2]), at + 3];
    case 1: {
      const len = w[at + 1];
      return [bytesOf((at + 2) * 4, len), at + 2 + ((len + 3) >>> 2)];
    }
    default:
      return [{ protocol: w[at + 1], port: w[at + 2], server: text.substring(w[at + 3], w[at + 4]) }, at + 5];
  }
}
