// TdsReader against tedious's token parser, on every TDS stream the
// repository has: the golden streams of `leanwire tds decode`, the captures
// and tedious's own token fixtures in core/tests/vectors/tds. Each stream is fed
// whole, one byte at a time and in random pieces; every feeding must give
// the same tokens, and the rows must hold the values tedious gives.
//
//   scripts/build-web && node web/tests/tds.mjs
import { deepStrictEqual, ok, strictEqual } from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { seeded } from "./seeded.mjs";

const root = new URL("../../", import.meta.url);
const { TdsReader, LeanwireError } = await import(new URL("web/pkg/node.js", root));
const require = createRequire(fileURLToPath(new URL("www/package.json", root)));
const StreamParser = require("tedious/lib/token/stream-parser");
const Parser = StreamParser.default ?? StreamParser;
const DebugModule = require("tedious/lib/debug");
const Debug = DebugModule.default ?? DebugModule;

const read = (path) => readFileSync(new URL(path, root), "utf8");
const vectors = new URL("core/tests/vectors/tds/", root);
let checks = 0;
let failures = 0;

function check(name, test) {
  try {
    test();
    checks += 1;
  } catch (error) {
    failures += 1;
    console.error(`FAIL ${name}: ${error.message.split("\n").slice(0, 12).join("\n")}`);
  }
}

async function checkAsync(name, test) {
  try {
    await test();
    checks += 1;
  } catch (error) {
    failures += 1;
    console.error(`FAIL ${name}: ${error.message.split("\n").slice(0, 12).join("\n")}`);
  }
}

// --- The streams ---------------------------------------------------------

/** `{ name, bytes, tokensOnly, version }` for every stream. */
function streams() {
  const out = [];
  const golden = JSON.parse(read("native/tests/golden/tds_decode.json"));
  for (const c of golden.cases) {
    out.push({ name: `golden: ${c.name}`, bytes: Buffer.from(c.hex, "hex"), tokensOnly: c.tokens_only, version: "7.4" });
  }
  const hex = readFileSync(new URL("pcap/types_tokens.hex", vectors), "utf8").replace(/\s+/g, "");
  out.push({ name: "capture: types_tokens.hex", bytes: Buffer.from(hex, "hex"), tokensOnly: true, version: "7.4" });
  const pytds = JSON.parse(readFileSync(new URL("pytds_unit_test_fixtures.json", vectors), "utf8"));
  for (const f of pytds) {
    out.push({ name: `pytds ${f.func}:${f.line}`, bytes: Buffer.from(f.hex, "hex"), tokensOnly: false, version: "7.4" });
  }
  const fixtures = JSON.parse(readFileSync(new URL("vectors.json", vectors), "utf8"));
  for (const f of fixtures) {
    const context = f.context ?? {};
    if (!f.layer.startsWith("token_stream") || context.colMetadata_before || f.expected.error !== null) continue;
    const version = (context.options?.tdsVersion ?? "7_4").replace("_", ".");
    out.push({ name: `tedious fixture: ${f.test}`, bytes: Buffer.from(f.hex, "hex"), tokensOnly: true, version });
  }
  return out;
}

/** The token stream inside packets. */
function payloads(bytes) {
  const parts = [];
  for (let at = 0; at + 8 <= bytes.length; ) {
    const length = bytes.readUInt16BE(at + 2);
    parts.push(bytes.subarray(at + 8, at + length));
    at += length;
  }
  return Buffer.concat(parts);
}

// --- Reading ----------------------------------------------------------------

/** Every token of `pieces`, and the error that stopped the reader. */
function leanwire(stream, pieces, options = {}) {
  const reader = new TdsReader({ tokensOnly: stream.tokensOnly, tdsVersion: stream.version, ...options });
  const tokens = [];
  try {
    for (const piece of pieces) {
      reader.feed(piece);
      for (let token; (token = reader.next()) !== null; ) tokens.push(token);
    }
    reader.finish();
  } catch (error) {
    return { tokens, error };
  }
  return { tokens, error: null };
}

/** tedious's rows (arrays of values), its other tokens, and its error, if it stopped. */
async function tedious(stream) {
  const tokens = stream.tokensOnly ? stream.bytes : payloads(stream.bytes);
  const options = { tdsVersion: stream.version.replace(".", "_"), useUTC: true, lowerCaseGuids: false };
  const rows = [];
  const others = [];
  try {
    for await (const token of Parser.parseTokens([tokens], new Debug(), options)) {
      if (token.name === "ROW" || token.name === "NBCROW") rows.push(token.columns.map((c) => c.value));
      else others.push(token);
    }
  } catch (error) {
    return { rows, others, error };
  }
  return { rows, others, error: null };
}

/** A value in a form that `deepStrictEqual` compares as tedious and leanwire mean it. */
function plain(value) {
  if (value instanceof Date) return { date: value.getTime() };
  if (value instanceof Uint8Array) return { bytes: Buffer.from(value).toString("hex") };
  if (Array.isArray(value)) return value.map(plain);
  if (typeof value === "bigint") return { bigint: value.toString() };
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

const rowsOf = (tokens) => tokens.filter((t) => t.token === "ROW" || t.token === "NBCROW").map((t) => t.values);

const next = seeded(7);
/** A random integer from 1 to `most`. */
const random = (most) => 1 + (next() % most);

function split(bytes, size) {
  const out = [];
  for (let at = 0; at < bytes.length; ) {
    const n = typeof size === "function" ? size() : size;
    out.push(bytes.subarray(at, at + n));
    at += n;
  }
  return out;
}

/** A TDS 7.4 token stream, not in packets. */
const tokenStream = (bytes) => ({ bytes, tokensOnly: true, version: "7.4" });

/** A PLP value of `chunks`: the total length, each chunk after its length, then the terminator. */
function plp(...chunks) {
  const total = Buffer.alloc(8);
  total.writeUInt32LE(chunks.reduce((sum, chunk) => sum + chunk.length, 0));
  const framed = chunks.map((chunk) => {
    const length = Buffer.alloc(4);
    length.writeUInt32LE(chunk.length);
    return Buffer.concat([length, chunk]);
  });
  return Buffer.concat([total, ...framed, Buffer.alloc(4)]);
}

// --- The other tokens, against tedious ------------------------------------------------

const hex = (bytes) => Buffer.from(bytes).toString("hex").toUpperCase();
const ENV_TYPES = { SQL_COLLATION: "COLLATION", BEGIN_TXN: "BEGIN_TRANSACTION", COMMIT_TXN: "COMMIT_TRANSACTION", ROLLBACK_TXN: "ROLLBACK_TRANSACTION" };
const LOGIN_INTERFACES = { SQL_DFLT: 0, SQL_TSQL: 1 };

/** tedious's token, other than a row, as leanwire's TdsReader gives it; null where leanwire has no token of its own. */
function fromTedious(t) {
  switch (t.name) {
    case "INFO":
    case "ERROR":
      return { token: t.name, number: t.number, state: t.state, class: t.class, message: t.message, server: t.serverName, procedure: t.procName, line: t.lineNumber };
    case "DONE":
    case "DONEPROC":
    case "DONEINPROC":
      // tedious gives the row count only with the COUNT bit.
      return { token: t.name, more: t.more, error: t.sqlError, attention: t.attention, serverError: t.serverError, curcmd: t.curCmd, rowcount: t.rowCount };
    case "ENVCHANGE": {
      // leanwire names the types as MS-TDS does, and gives a collation's
      // bytes where tedious decodes them; tedious gives a packet size as a number.
      const collation = t.type === "SQL_COLLATION";
      const value = (v) => (collation ? null : Buffer.isBuffer(v) ? hex(v) : String(v));
      return { token: "ENVCHANGE", type: ENV_TYPES[t.type] ?? t.type, new: value(t.newValue), old: value(t.oldValue) };
    }
    case "LOGINACK": {
      const v = t.progVersion;
      return {
        token: "LOGINACK",
        interface: LOGIN_INTERFACES[t.interface],
        // undefined for a version tedious does not know.
        tdsVersion: t.tdsVersion?.replace("_", ".").replace("_", ""),
        progName: t.progName.replace(/\0+$/, ""),
        progVersion: `${v.major}.${v.minor}.${(v.buildNumHi << 8) | v.buildNumLow}`,
      };
    }
    case "COLMETADATA":
      return {
        token: "COLMETADATA",
        columns: t.columns.map((c) => ({
          name: c.colName,
          type: c.type.type === "GUIDN" ? "GUID" : c.type.type,
          nullable: (c.flags & 1) === 1,
          // leanwire gives no length for a (max) type, where tedious gives 0xFFFF.
          length: c.dataLength === 0xffff ? null : c.dataLength,
          precision: c.precision,
          scale: c.scale,
        })),
      };
    case "ORDER":
      return { token: "ORDER", columns: t.orderColumns };
    case "RETURNSTATUS":
      return { token: "RETURNSTATUS", value: t.value };
    case "RETURNVALUE":
      return { token: "RETURNVALUE", ordinal: t.paramOrdinal, name: t.paramName, value: plain(t.value) };
    case "SSPICHALLENGE":
      return { token: "SSPI", text: `SSPI 0x${hex(t.ntlmpacketBuffer)}` };
    case "FEDAUTHINFO": {
      const utf16 = (text) => `0x${hex(Buffer.from(text, "utf16le"))}`;
      return { token: "FEDAUTHINFO", text: `FEDAUTHINFO SPN=${utf16(t.spn)} STSURL=${utf16(t.stsurl)}` };
    }
    case "FEATUREEXTACK":
      return { token: "FEATUREEXTACK" };
    default:
      return null;
  }
}
/** leanwire's token in the form of `fromTedious`'s, with what tedious leaves out (`peer`) left out. */
function comparable(t, peer) {
  switch (t.token) {
    case "DONE":
    case "DONEPROC":
    case "DONEINPROC": {
      const has = (name) => t.status.includes(name);
      return { token: t.token, more: has("MORE"), error: has("ERROR"), attention: has("ATTN"), serverError: has("SRVERROR"), curcmd: t.curcmd, rowcount: has("COUNT") ? t.rowcount : undefined };
    }
    case "ENVCHANGE": {
      const value = (v) => (t.type === "COLLATION" ? null : Buffer.isBuffer(v) ? hex(v) : v);
      return { token: "ENVCHANGE", type: t.type, new: value(t.new), old: value(t.old) };
    }
    case "COLMETADATA":
      return {
        token: "COLMETADATA",
        columns: t.columns.map((c, i) => {
          // tedious gives no length, precision or scale where the type has none.
          const theirs = peer?.columns?.[i] ?? {};
          const given = (key) => (theirs[key] === undefined ? undefined : c[key]);
          return { name: c.name, type: c.type, nullable: c.nullable, length: given("length"), precision: given("precision"), scale: given("scale") };
        }),
      };
    case "RETURNVALUE":
      return { ...t, value: plain(t.value) };
    case "FEATUREEXTACK":
      return { token: "FEATUREEXTACK" };
    default:
      return t;
  }
}

/**
 * leanwire's tokens other than rows against tedious's, up to where either
 * stopped; leanwire also gives an ENVCHANGE of a type it does not know
 * (`0XNN`), which tedious skips. Returns leanwire's tokens that were compared.
 */
function compareOthers(tokens, peerTokens) {
  const ours = tokens.filter((t) => t.token !== "ROW" && t.token !== "NBCROW" && !t.type?.startsWith("0X"));
  const theirs = peerTokens.map(fromTedious).filter((t) => t !== null);
  const n = Math.min(ours.length, theirs.length);
  deepStrictEqual(ours.slice(0, n).map((t, i) => comparable(t, theirs[i])), theirs.slice(0, n));
  return ours.slice(0, n);
}

// --- Every stream, every feeding, against tedious -----------------------------

/**
 * Streams where leanwire stops on purpose where tedious reads on (as
 * core/tests/support/tds_cases.rs records them): the defect and its offset.
 */
const DELIBERATE = {
  // pytds's fixture sends LOGINACK version 0x650B0003, which no server speaks.
  "pytds test_login_parsing:399": ["UnsupportedVersion", 333],
  // tedious's fixture writes ENVCHANGE Length 0 ahead of a 15-byte body.
  "tedious fixture: Token Stream Parser should parse envChange token": ["LengthMismatch", 3],
  "tedious fixture: Token Stream Parser should parse token split across buffers": ["LengthMismatch", 3],
  "tedious fixture: Token Stream Parser should parse token delivered one byte at a time": ["LengthMismatch", 3],
};

const all = streams();
let othersCompared = 0;
const kindsCompared = new Set();
for (const stream of all) {
  const whole = leanwire(stream, [stream.bytes]);
  check(`${stream.name}: fed 1 byte at a time`, () => {
    deepStrictEqual(plain(leanwire(stream, split(stream.bytes, 1))), plain(whole));
  });
  check(`${stream.name}: fed in random pieces`, () => {
    deepStrictEqual(plain(leanwire(stream, split(stream.bytes, () => random(64)))), plain(whole));
  });
  const peer = await tedious(stream);
  check(`${stream.name}: rows as tedious reads them`, () => {
    const deliberate = DELIBERATE[stream.name];
    if (deliberate !== undefined) {
      deepStrictEqual([whole.error?.kind, whole.error?.offset], deliberate);
      deepStrictEqual(plain(rowsOf(whole.tokens)), plain(peer.rows));
    } else if (peer.error === null) {
      strictEqual(whole.error, null, `leanwire failed: ${whole.error?.message}`);
      deepStrictEqual(plain(rowsOf(whole.tokens)), plain(peer.rows));
    } else {
      // A stream tedious cannot read: leanwire must stop too, and agree up to there.
      ok(whole.error instanceof LeanwireError, `tedious failed (${peer.error.message}), leanwire did not`);
      deepStrictEqual(plain(rowsOf(whole.tokens).slice(0, peer.rows.length)), plain(peer.rows));
    }
  });
  check(`${stream.name}: the other tokens as tedious reads them`, () => {
    for (const t of compareOthers(whole.tokens, peer.others)) {
      othersCompared += 1;
      kindsCompared.add(t.token);
    }
  });
}
ok(all.length >= 30, `only ${all.length} streams`);
check("the other tokens compared cover every kind the streams hold", () => {
  ok(othersCompared >= 50, `only ${othersCompared} tokens compared`);
  const kinds = ["COLMETADATA", "DONE", "DONEPROC", "DONEINPROC", "INFO", "ENVCHANGE", "LOGINACK", "ORDER", "RETURNSTATUS", "SSPI", "FEDAUTHINFO", "FEATUREEXTACK"];
  deepStrictEqual(kinds.filter((kind) => !kindsCompared.has(kind)), []);
});

// --- Exact values -----------------------------------------------------------------

const types = all.find((s) => s.name === "capture: types_tokens.hex");
check("exact values", () => {
  const { tokens, error } = leanwire(types, [types.bytes], { values: "exact" });
  strictEqual(error, null);
  const [row] = rowsOf(tokens);
  strictEqual(row[0], -1234567890123n, "bigint");
  strictEqual(row[1], "12345.6789", "decimal(38,4)");
  strictEqual(row[2], "6F9619FF-8B86-D011-B42D-00C04FC964FF", "uniqueidentifier");
  strictEqual(row[4], "13:14:15.1234567", "time(7)");
  strictEqual(row[5], "2024-02-29T13:14:15.456", "datetime2(3)");
  strictEqual(row[6], "2024-02-29T08:14:15.1234567-05:00", "datetimeoffset(7)");
  strictEqual(row[7], "123.4567", "money");
  strictEqual(row[8], 3.5, "float");
});
check("column lengths: the declared one, none for a (max) type or a type without one", () => {
  const [meta] = leanwire(types, [types.bytes]).tokens;
  deepStrictEqual(meta.columns.map((c) => c.length), [8, 17, 16, null, null, null, null, 8, 8, 1, 8, 16, null, 4]);
});
check("default values", () => {
  const [row] = rowsOf(leanwire(types, [types.bytes], { lowerCaseGuids: true }).tokens);
  strictEqual(row[0], "-1234567890123", "bigint");
  strictEqual(row[1], 12345.6789, "decimal(38,4)");
  strictEqual(row[2], "6f9619ff-8b86-d011-b42d-00c04fc964ff", "uniqueidentifier");
  strictEqual(row[3].toISOString(), "2024-02-29T00:00:00.000Z", "date");
  strictEqual(row[6].toISOString(), "2024-02-29T13:14:15.123Z", "datetimeoffset as UTC");
  strictEqual(row[9], true, "bit");
  ok(row[11] instanceof Buffer, "varbinary");
  strictEqual(row[12], "plp text", "nvarchar(max)");
});
await checkAsync("varbinary(max) and varchar(max) values, whole and in 1-byte pieces, as tedious reads them", async () => {
  // COLMETADATA (varbinary(max) `b`, varchar(max) `c`), a ROW with a
  // 5-byte and a 5-character PLP value in two chunks each, DONE.
  const inTwo = (bytes) => plp(bytes.subarray(0, 2), bytes.subarray(2));
  const bytes = Buffer.concat([
    // COLMETADATA, 2 columns: user type, flags (nullable), type info, name.
    Buffer.from("81" + "0200", "hex"),
    Buffer.from("00000000" + "0100" + "a5ffff" + "016200", "hex"),
    Buffer.from("00000000" + "0100" + "a7ffff0904d00034" + "016300", "hex"),
    // ORDER BY both columns.
    Buffer.from("a904000100" + "0200", "hex"),
    Buffer.from([0xd1]),
    inTwo(Buffer.from([1, 2, 3, 250, 255])),
    inTwo(Buffer.from("héllo", "latin1")),
    Buffer.from("fd1000c1000100000000000000", "hex"),
  ]);
  const stream = tokenStream(bytes);
  const peer = await tedious(stream);
  strictEqual(peer.error, null);
  for (const pieces of [[bytes], split(bytes, 1)]) {
    const { tokens, error } = leanwire(stream, pieces);
    strictEqual(error, null, error?.message);
    deepStrictEqual(plain(rowsOf(tokens)), plain(peer.rows));
    strictEqual(compareOthers(tokens, peer.others).length, 3);
  }
  deepStrictEqual(plain(peer.rows), [[{ bytes: "010203faff" }, "héllo"]]);
});
await checkAsync("money and decimal values past 32 bits, and negative ones, as tedious reads them", async () => {
  const bytes = Buffer.from(
    [
      // COLMETADATA, 2 columns: money `m` (MONEYN), decimal(38,4) `d` (DECIMALN).
      "810200",
      "00000000" + "0900" + "6e08" + "016d00",
      "00000000" + "0900" + "6a112604" + "016400",
      // 1,000,000.0000 and 10^26 + 0.0001; then -1.5 and -1,234,567,890,123,456.7890.
      "d1" + "08" + "0200000000e40b54" + "11" + "01" + "01000040eaed7446d09c2c9f0c000000",
      "d1" + "08" + "ffffffff68c5ffff" + "11" + "00" + "d20a1feb8ca954ab0000000000000000",
      "fd1000c1000200000000000000",
    ].join(""),
    "hex",
  );
  const stream = tokenStream(bytes);
  const peer = await tedious(stream);
  strictEqual(peer.error, null);
  const { tokens, error } = leanwire(stream, [bytes]);
  strictEqual(error, null, error?.message);
  deepStrictEqual(rowsOf(tokens), peer.rows);
  deepStrictEqual(peer.rows, [[1000000, 1e26], [-1.5, -1234567890123456.8]]);
  const exact = rowsOf(leanwire(stream, [bytes], { values: "exact" }).tokens);
  deepStrictEqual(exact, [["1000000.0000", "100000000000000000000000000.0001"], ["-1.5000", "-1234567890123456.7890"]]);
});
await checkAsync("long values in small pieces, as tedious reads them", async () => {
  // COLMETADATA: nvarchar(4000) `s`, nvarchar(max) `m`, nvarchar(max) `n`;
  // a ROW with an 8,000-byte value and two 20,000-byte PLP values; DONE.
  const text = (chars, from) => Buffer.from(Array.from({ length: chars }, (_, i) => String.fromCharCode(from + (i % 50))).join(""), "utf16le");
  const short = text(4000, 0x41);
  const bytes = Buffer.concat([
    Buffer.from("810300", "hex"),
    Buffer.from("00000000" + "0100" + "e7401f0904d00034" + "017300", "hex"),
    Buffer.from("00000000" + "0100" + "e7ffff0904d00034" + "016d00", "hex"),
    Buffer.from("00000000" + "0100" + "e7ffff0904d00034" + "016e00", "hex"),
    Buffer.from([0xd1, 0x40, 0x1f]),
    short,
    plp(text(10000, 0x61)),
    plp(text(10000, 0x3b1)),
    Buffer.from("fd1000c1000100000000000000", "hex"),
  ]);
  const stream = tokenStream(bytes);
  const peer = await tedious(stream);
  strictEqual(peer.error, null);
  for (const size of [bytes.length, 1000, 97]) {
    const { tokens, error } = leanwire(stream, split(bytes, size));
    strictEqual(error, null, error?.message);
    deepStrictEqual(rowsOf(tokens), peer.rows, `in pieces of ${size}`);
  }
  deepStrictEqual(peer.rows[0].map((v) => v.length), [4000, 10000, 10000]);
});
check("tokens tedious does not read: their names and their bytes", () => {
  const done = "fd000000000000000000000000";
  const first = (hex) => {
    const bad = tokenStream(Buffer.from(hex + done, "hex"));
    return leanwire(bad, [bad.bytes]).tokens[0];
  };
  // SESSIONSTATE: sequence 1, status 1, one entry (id 5, 2 bytes).
  deepStrictEqual(first("e409000000" + "01000000" + "01" + "0502aabb"), { token: "SESSIONSTATE", text: "SESSIONSTATE seq=1 status=1 entries=1" });
  deepStrictEqual(first("a40300" + "010203"), { token: "TABNAME", text: "TABNAME 0x010203" });
  deepStrictEqual(first("a50300" + "0a0bff"), { token: "COLINFO", text: "COLINFO 0x0A0BFF" });
});
check("a big bigint", () => {
  // COLMETADATA (bigint), ROW 2^62 + 1, DONE.
  const big = Buffer.from("8101000000000001002608016200d1080100000000000040fd0000c1000000000000000000", "hex");
  const stream = tokenStream(big);
  const read = leanwire(stream, [big]);
  strictEqual(read.error, null, read.error?.message);
  strictEqual(rowsOf(read.tokens)[0][0], "4611686018427387905");
  const exact = leanwire(stream, [big], { values: "exact" });
  strictEqual(exact.error, null, exact.error?.message);
  strictEqual(rowsOf(exact.tokens)[0][0], 4611686018427387905n);
});

// --- Sources ------------------------------------------------------------------------

const generated = all.find((s) => s.name.startsWith("golden: generated"));
const want = plain(leanwire(generated, [generated.bytes]).tokens);
const pieces = split(generated.bytes, 100);
async function collect(source) {
  const tokens = [];
  for await (const token of new TdsReader().tokens(source)) tokens.push(token);
  return plain(tokens);
}
await checkAsync("tokens() over an array", async () => deepStrictEqual(await collect(pieces), want));
await checkAsync("tokens() over an async generator", async () => {
  deepStrictEqual(await collect((async function* () { yield* pieces; })()), want);
});
await checkAsync("tokens() over a Node Readable", async () => deepStrictEqual(await collect(Readable.from(pieces)), want));
await checkAsync("tokens() over a web ReadableStream", async () => {
  const stream = new ReadableStream({
    start(controller) {
      for (const piece of pieces) controller.enqueue(new Uint8Array(piece));
      controller.close();
    },
  });
  deepStrictEqual(await collect(stream), want);
});
await checkAsync("rows() gives the rows", async () => {
  const rows = [];
  const reader = new TdsReader();
  for await (const values of reader.rows(Readable.from(pieces))) rows.push(values);
  deepStrictEqual(plain(rows), plain(rowsOf(leanwire(generated, [generated.bytes]).tokens)));
  strictEqual(reader.columns.map((c) => c.name).join(), "id,big,name,amount,ts,guid,note,body");
});

// --- Bad streams ---------------------------------------------------------------------

async function rejects(name, source, kind, offset, options = {}) {
  await checkAsync(name, async () => {
    let thrown = null;
    try {
      for await (const _ of new TdsReader(options).tokens(source)) void _;
    } catch (error) {
      thrown = error;
    }
    ok(thrown instanceof LeanwireError, `no LeanwireError: ${thrown}`);
    strictEqual(thrown.kind, kind);
    strictEqual(thrown.offset, offset);
  });
}
const golden = (name) => all.find((s) => s.name === `golden: ${name}`).bytes;
await rejects("a stream cut inside a ROW", [golden("types_tokens cut inside a ROW")], "UnexpectedEof", 400, { tokensOnly: true });
await rejects("a stream cut inside a ROW, in bytes", split(golden("types_tokens cut inside a ROW"), 1), "UnexpectedEof", 400, { tokensOnly: true });
await rejects("an unknown token", [golden("unknown token id")], "UnknownToken", 0, { tokensOnly: true });
await rejects("a packet cut short", [generated.bytes.subarray(0, 1000)], "TruncatedPacket", 1000);
// Token byte 0x99 where the fourth row should start, past rows read whole.
const corrupt = Buffer.from(payloads(generated.bytes));
const rowsStart = rowsOf(leanwire(generated, [generated.bytes]).tokens).length > 3 ? corrupt.indexOf(0xd1, 400) : -1;
corrupt[rowsStart] = 0x99;
await rejects("a bad token after whole rows", split(corrupt, 50), "UnknownToken", rowsStart, { tokensOnly: true });
check("tdsVersion takes core's version names and refuses others", () => {
  for (const tdsVersion of ["7.1", "7.2", "7.3", "7.3B", "7.4"]) new TdsReader({ tdsVersion }).finish();
  for (const tdsVersion of ["7_4", 74, "7.5", ""]) {
    let thrown = null;
    try {
      new TdsReader({ tdsVersion });
    } catch (error) {
      thrown = error;
    }
    ok(thrown instanceof LeanwireError && thrown.kind === "UnknownVersion", `${JSON.stringify(tdsVersion)}: ${thrown}`);
  }
});
check("next() throws after the tokens before a defect", () => {
  const reader = new TdsReader({ tokensOnly: true });
  reader.feed(corrupt);
  let tokens = 0;
  let thrown = null;
  try {
    while (reader.next() !== null) tokens += 1;
  } catch (error) {
    thrown = error;
  }
  ok(thrown instanceof LeanwireError && thrown.offset === rowsStart, "the defect, after the rows");
  ok(tokens >= 2, "tokens before the defect");
});

// --- The metadata arena --------------------------------------------------------------

/**
 * One narrow result set (an int column `a`, a ROW with 7, a DONE), then
 * `wide` result sets of `columns` unnamed int columns without rows, as
 * native/tests/support/tds_stream.rs writes them; and the offset of the
 * first wide COLMETADATA.
 */
function wideResultSets(wide, columns) {
  const done = (rows) => [0xfd, 0x10, 0, 0xc1, 0, rows, 0, 0, 0, 0, 0, 0, 0];
  const head = [0x81, 1, 0, 0, 0, 0, 0, 0, 0, 0x38, 1, 0x61, 0, 0xd1, 7, 0, 0, 0, ...done(1)];
  const set = [0x81, columns & 0xff, columns >> 8];
  for (let i = 0; i < columns; i++) set.push(0, 0, 0, 0, 0, 0, 0x38, 0);
  set.push(...done(0));
  const bytes = new Uint8Array(head.length + wide * set.length);
  bytes.set(head);
  for (let i = 0; i < wide; i++) bytes.set(set, head.length + i * set.length);
  return { bytes, first: head.length };
}
const hostile = wideResultSets(3, 4096);
await rejects("a COLMETADATA past arenaLimit", [hostile.bytes], "ArenaFull", hostile.first + 1, { tokensOnly: true, arenaLimit: 65536 });
check("result sets past arenaLimit in all are read one by one", () => {
  const { bytes } = wideResultSets(10, 512);
  const { tokens, error } = leanwire(tokenStream(bytes), split(bytes, 1000), { arenaLimit: 65536 });
  strictEqual(error, null, error?.message);
  strictEqual(tokens.filter((t) => t.token === "COLMETADATA").length, 11);
});
check("a COLMETADATA without metadata keeps the columns", () => {
  const { bytes, first } = wideResultSets(0, 0);
  const again = [0x81, 0xff, 0xff, 0xd1, 8, 0, 0, 0, 0xfd, 0x10, 0, 0xc1, 0, 1, 0, 0, 0, 0, 0, 0, 0];
  const stream = tokenStream(Buffer.concat([bytes.subarray(0, first), Buffer.from(again)]));
  const { tokens, error } = leanwire(stream, [stream.bytes]);
  strictEqual(error, null, error?.message);
  deepStrictEqual(rowsOf(tokens), [[7], [8]]);
});

ok(Object.keys(DELIBERATE).every((name) => all.some((s) => s.name === name)), "every deliberate difference is a stream");
console.log(`tds: ${checks} checks on ${all.length} streams (every one whole, in 1-byte and in random pieces, against tedious), ${failures} failed`);
process.exit(failures === 0 ? 0 : 1);
