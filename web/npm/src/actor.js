// Actor paths (web/src/actor.rs writes the tapes read here).

import { LeanwireError } from "./errors.js";
import { wasm, u32, putString, tapeAt, text, fail } from "./shared.js";

function dialectCode(dialect) {
  if (dialect === undefined || dialect === "dotnet") return 0;
  if (dialect === "jvm") return 1;
  throw new LeanwireError(`unknown dialect ${JSON.stringify(dialect)}: use "dotnet" or "jvm"`, "UnknownDialect", 0);
}

/** Kind 2 of a tape string: it is in the text area (see actor.rs). */
const IN_TEXT = 2;

/** A string of the tape at `at`: `[kind, start, end)`, in `input` or in the decoded `area`. */
function string(tape, input, area, at) {
  const start = tape[at + 1];
  const end = tape[at + 2];
  switch (tape[at]) {
    case 0: return input.substring(start, end);
    case 1: return input.substring(start, end).toLowerCase();
    case IN_TEXT: return area.substring(start, end);
    default: return null;
  }
}

/** A parsed actor path. Its fields are plain data; the two printing methods run the Rust printer. */
export class ActorPath {
  constructor(input, dialect, address, elements, uid) {
    /** The text that was parsed. */
    this.input = input;
    /** `"dotnet"` or `"jvm"`. */
    this.dialect = dialect;
    /** `{ protocol, system, host, port }`; host and port are `null` for a local address. */
    this.address = address;
    /** The element names, root first. */
    this.elements = elements;
    /** The uid after `#`, or `null`. */
    this.uid = uid;
  }

  /** Akka's `ToString()`: the path without its uid. */
  toString() {
    return format(this.input, this.dialect, 0);
  }

  /** Akka's `ToSerializationFormat()`: the path with its uid. */
  toSerializationFormat() {
    return format(this.input, this.dialect, 1);
  }
}

function format(input, dialect, withUid) {
  const len = putString(input);
  if (wasm.actorFormat(len, dialectCode(dialect), withUid) < 0) fail();
  return text();
}

/**
 * Parses an actor path, `protocol://system[@host:port]/elements[#uid]`.
 * Throws a LeanwireError that names the defect and its byte offset.
 */
export function parseActorPath(path, dialect) {
  const code = dialectCode(dialect);
  const len = putString(path);
  if (wasm.actorParse(len, path.length, code) < 0) fail();
  let at = tapeAt();
  // The memory's words, once tapeAt() has remade the views if the call grew it.
  const tape = u32;
  // Only the protocol and the host can need text of their own: decode it once, if at all.
  const area = tape[at] === IN_TEXT || tape[at + 6] === IN_TEXT ? text() : "";
  const address = {
    protocol: string(tape, path, area, at),
    system: path.substring(tape[at + 4], tape[at + 5]), // always kind 0, in the input
    host: string(tape, path, area, at + 6),
    port: tape[at + 9] === 1 ? tape[at + 10] : null,
  };
  const uid = tape[at + 11] === 1 ? tape[at + 12] | 0 : null;
  const count = tape[at + 13];
  const elements = new Array(count);
  at += 14;
  for (let i = 0; i < count; i++, at += 2) elements[i] = path.substring(tape[at], tape[at + 1]);
  return new ActorPath(path, code === 1 ? "jvm" : "dotnet", address, elements, uid);
}

/** Splits `name#uid` as Akka's `GetNameAndUid` does: `{ name, uid }`, `uid` null when absent. */
export function splitNameAndUid(name, dialect) {
  const code = dialectCode(dialect);
  const len = putString(name);
  if (wasm.actorSplitNameAndUid(len, name.length, code) < 0) fail();
  const at = tapeAt();
  return { name: name.substring(u32[at], u32[at + 1]), uid: u32[at + 2] === 1 ? u32[at + 3] | 0 : null };
}

/** Whether `name` is a valid path element (`ActorPath.IsValidPathElement`). */
export function isValidPathElement(name, dialect) {
  const code = dialectCode(dialect);
  const len = putString(name);
  return wasm.actorIsValidPathElement(len, code) === 1;
}

/** Checks an actor name as `ActorOf` does; throws a LeanwireError with Akka's own message. */
export function checkActorName(name, dialect) {
  const code = dialectCode(dialect);
  const isNull = name === null || name === undefined;
  const len = putString(isNull ? "" : name);
  if (wasm.actorCheckName(len, code, isNull ? 1 : 0) < 0) fail();
}
