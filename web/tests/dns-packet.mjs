// leanwire/dns-packet against dns-packet 5.6.1 itself, on every DNS message
// vector: decoding, encoding, the per-type codecs, and the errors thrown
// for every truncation and for corrupted bytes.
//
//   scripts/build-web && node web/tests/dns-packet.mjs

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { isDeepStrictEqual, inspect } from "node:util";
import { fileURLToPath } from "node:url";
import { seeded } from "./seeded.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const peer = createRequire(`${root}www/package.json`)("dns-packet");
const lw = await import("../pkg/dns-packet.node.js");

/** The one error leanwire throws where dns-packet reads past the end and carries on. */
const OVERRUN = "Record data runs past the end of the buffer";

let passed = 0;
const failures = [];
const overruns = { truncated: 0, corrupted: 0 };

function check(ok, what, detail) {
  if (ok) {
    passed++;
  } else {
    failures.push(`${what}${detail === undefined ? "" : `\n    ${detail}`}`);
  }
}

function show(value) {
  return inspect(value, { depth: 6, breakLength: Infinity }).slice(0, 600);
}

/** `{ value }` or `{ error }` of a call. */
function attempt(fn) {
  try {
    return { value: fn() };
  } catch (error) {
    return { error: `${error.constructor.name}: ${error.message}` };
  }
}

function same(a, b) {
  return isDeepStrictEqual(a, b);
}

function loadVectors() {
  const vectors = [];
  const seen = new Set();
  const add = (file, hex) => {
    hex = hex.trim().toLowerCase();
    if (seen.has(hex)) return;
    seen.add(hex);
    vectors.push({ file, buf: Buffer.from(hex, "hex") });
  };
  const { messages } = JSON.parse(readFileSync(`${root}core/tests/vectors/dns/messages.json`, "utf8"));
  for (const m of messages) add(m.file, m.hex);
  return vectors;
}

/** Decodes with both; checks values, byte counts and errors. Returns dns-packet's outcome. */
function compareDecode(what, buf, offset) {
  const theirs = attempt(() => peer.decode(buf, offset));
  const theirBytes = peer.decode.bytes;
  const ours = attempt(() => lw.decode(buf, offset));
  if (theirs.error !== undefined || ours.error !== undefined) {
    check(theirs.error === ours.error, `${what}: errors`, `dns-packet ${theirs.error ?? "ok"} | leanwire ${ours.error ?? "ok"}`);
  } else {
    check(same(ours.value, theirs.value), `${what}: decoded`, `dns-packet ${show(theirs.value)}\n    leanwire   ${show(ours.value)}`);
    check(lw.decode.bytes === theirBytes, `${what}: decode.bytes`, `${theirBytes} vs ${lw.decode.bytes}`);
  }
  return theirs;
}

/** Like compareDecode, but an overrun where dns-packet carried on is the documented difference. */
function compareBroken(what, buf, kind) {
  const theirs = attempt(() => peer.decode(buf));
  const theirBytes = peer.decode.bytes;
  const ours = attempt(() => lw.decode(buf));
  if (ours.error === `RangeError: ${OVERRUN}` && theirs.error === undefined) {
    overruns[kind]++;
    return;
  }
  if (theirs.error !== undefined || ours.error !== undefined) {
    check(theirs.error === ours.error, `${what}: errors`, `dns-packet ${theirs.error ?? "ok"} | leanwire ${ours.error ?? "ok"}`);
  } else {
    check(same(ours.value, theirs.value), `${what}: decoded`, `dns-packet ${show(theirs.value)}\n    leanwire   ${show(ours.value)}`);
    check(lw.decode.bytes === theirBytes, `${what}: decode.bytes`, `${theirBytes} vs ${lw.decode.bytes}`);
  }
}

function compareEncode(what, buf) {
  const packet = () => peer.decode(buf);
  const theirs = attempt(() => peer.encode(packet()));
  if (theirs.error !== undefined) return;
  const ours = attempt(() => lw.encode(packet()));
  check(same(ours.value, theirs.value), `${what}: encode`, `dns-packet ${show(theirs.value)}\n    leanwire   ${show(ours.value ?? ours.error)}`);
  check(lw.encode.bytes === peer.encode.bytes, `${what}: encode.bytes`);
  check(lw.encodingLength(packet()) === peer.encodingLength(packet()), `${what}: encodingLength`);
  // Into a caller's buffer, at an offset.
  const into = Buffer.alloc(theirs.value.length + 9, 0xaa);
  const theirInto = Buffer.alloc(theirs.value.length + 9, 0xaa);
  lw.encode(packet(), into, 5);
  peer.encode(packet(), theirInto, 5);
  check(into.equals(theirInto), `${what}: encode into a buffer at an offset`);
  // And it decodes back the same at that offset.
  compareDecode(`${what} at offset 5`, theirInto, 5);

  const stream = attempt(() => lw.streamEncode(packet()));
  check(same(stream.value, peer.streamEncode(packet())), `${what}: streamEncode`);
  check(lw.streamEncode.bytes === peer.streamEncode.bytes, `${what}: streamEncode.bytes`);
  const ourStream = lw.streamDecode(stream.value);
  check(same(ourStream, peer.streamDecode(stream.value)), `${what}: streamDecode`);
  check(lw.streamDecode.bytes === peer.streamDecode.bytes, `${what}: streamDecode.bytes`);
  check(lw.streamDecode(stream.value.subarray(0, stream.value.length - 1)) === null, `${what}: streamDecode of too few bytes`);
}

/** Every record's data through `record(type)`, `answer` and `question`, against dns-packet's. */
function compareCodecs(what, buf) {
  const packet = peer.decode(buf);
  for (const q of packet.questions) {
    const theirs = Buffer.alloc(peer.question.encodingLength(q));
    peer.question.encode(q, theirs);
    const out = Buffer.alloc(lw.question.encodingLength(q));
    check(lw.question.encode(q, out) === q, `${what}: question.encode returns the question`);
    check(same(out, theirs), `${what}: question.encode ${q.name}`);
    check(same(lw.question.decode(out), peer.question.decode(out)), `${what}: question.decode`);
    check(lw.question.decode.bytes === peer.question.decode.bytes, `${what}: question.decode.bytes`);
    check(same(lw.name.encode(q.name), peer.name.encode(q.name)), `${what}: name.encode ${q.name}`);
    check(lw.name.encodingLength(q.name) === peer.name.encodingLength(q.name), `${what}: name.encodingLength`);
  }
  for (const a of [...packet.answers, ...packet.authorities, ...packet.additionals]) {
    const label = `${what}: ${a.type} ${a.name}`;
    const theirAnswer = attempt(() => peer.answer.encode(a));
    if (theirAnswer.error !== undefined) continue;
    const ourAnswer = attempt(() => lw.answer.encode(a));
    check(same(ourAnswer.value, theirAnswer.value), `${label}: answer.encode`, `${show(theirAnswer.value)}\n    ${show(ourAnswer.value ?? ourAnswer.error)}`);
    check(lw.answer.encode.bytes === peer.answer.encode.bytes, `${label}: answer.encode.bytes`);
    check(lw.answer.encodingLength(a) === peer.answer.encodingLength(a), `${label}: answer.encodingLength`);
    check(same(lw.answer.decode(theirAnswer.value), peer.answer.decode(theirAnswer.value)), `${label}: answer.decode`);
    check(lw.answer.decode.bytes === peer.answer.decode.bytes, `${label}: answer.decode.bytes`);
    const data = a.type === "OPT" ? a.options : a.data;
    const theirCodec = peer.record(a.type);
    const ourCodec = lw.record(a.type);
    const theirData = theirCodec.encode(data);
    check(same(ourCodec.encode(data), theirData), `${label}: record(type).encode`);
    check(ourCodec.encode.bytes === theirCodec.encode.bytes, `${label}: record(type).encode.bytes`);
    check(ourCodec.encodingLength(data) === theirCodec.encodingLength(data), `${label}: record(type).encodingLength`);
    check(same(ourCodec.decode(theirData), theirCodec.decode(theirData)), `${label}: record(type).decode`);
    check(ourCodec.decode.bytes === theirCodec.decode.bytes, `${label}: record(type).decode.bytes`);
    if (a.type === "OPT") {
      for (const o of a.options) {
        const encoded = peer.option.encode(o);
        check(same(lw.option.encode(o), encoded), `${label}: option.encode`);
        check(same(lw.option.decode(encoded), peer.option.decode(encoded)), `${label}: option.decode`);
        check(lw.option.encodingLength(o) === peer.option.encodingLength(o), `${label}: option.encodingLength`);
      }
    }
  }
}

/** Names at an offset of a buffer, read by both, plain and in mail form. */
function compareNames() {
  const file = `${root}core/tests/vectors/dns/third_party/names.json`;
  const names = JSON.parse(readFileSync(file, "utf8"));
  for (const entry of names) {
    const buf = Buffer.from(entry.hex, "hex");
    for (const options of [undefined, { mail: true }]) {
      const what = `names.json ${entry.name}${options ? " (mail)" : ""}`;
      const theirs = attempt(() => peer.name.decode(buf, entry.start, options));
      const ours = attempt(() => lw.name.decode(buf, entry.start, options));
      check(same(ours, theirs), `${what}: name.decode`, `dns-packet ${show(theirs)} | leanwire ${show(ours)}`);
      if (theirs.error === undefined) check(lw.name.decode.bytes === peer.name.decode.bytes, `${what}: name.decode.bytes`);
    }
  }
  return names.length;
}

/** Every byte set to a few values that break things in different ways (the first and last 512 of a long message). */
function compareCorruptions(what, buf) {
  for (let i = 0; i < buf.length; i++) {
    if (i === 512 && buf.length > 1024) i = buf.length - 512;
    for (const value of [0x00, 0xff, 0xc0, 0x3f, buf[i] ^ 0x01]) {
      if (value === buf[i]) continue;
      const broken = Buffer.from(buf);
      broken[i] = value;
      compareBroken(`${what}: byte ${i} = 0x${value.toString(16)}`, broken, "corrupted");
    }
  }
}

/** A message, decoded, encoded and through every codec, then cut at every byte and corrupted. */
function compareMessage(what, buf) {
  const theirs = compareDecode(what, buf);
  if (theirs.error === undefined) {
    compareEncode(what, buf);
    compareCodecs(what, buf);
  }
  for (let len = 0; len < buf.length; len++) {
    compareBroken(`${what}: first ${len} bytes`, buf.subarray(0, len), "truncated");
  }
  compareCorruptions(what, buf);
}

const vectors = loadVectors();
for (const { file, buf } of vectors) compareMessage(file, buf);

// Names beyond ASCII, among them a character outside the BMP (two UTF-16
// units), with more strings after it in the same message.
const wide = peer.encode({
  type: "response",
  id: 7,
  flags: peer.RECURSION_DESIRED,
  questions: [{ type: "CNAME", name: "😀.example" }],
  answers: [
    { type: "CNAME", name: "😀.example", data: "ü.😀.ß.example" },
    { type: "MX", name: "b.example", data: { preference: 5, exchange: "m😀il.example" } },
    { type: "SOA", name: "example", data: { mname: "ns.example", rname: "h😀st.master.example", serial: 1 } },
  ],
});
compareMessage("names beyond ASCII", wide);
check(lw.decode(wide).answers.map((a) => a.name).join(" ") === "😀.example b.example example", "names after a character outside the BMP");

// The record types and EDNS options no vector holds, from dns-packet's own encoder.
const rare = peer.encode({
  type: "response",
  id: 9,
  flags: peer.AUTHORITATIVE_ANSWER,
  questions: [{ type: "ANY", name: "example.com" }],
  answers: [
    { type: "SSHFP", name: "host.example.com", ttl: 60, data: { algorithm: 2, hash: 1, fingerprint: "123456789ABCDEF67890123456789ABCDEF67890" } },
    { type: "NAPTR", name: "example.com", data: { order: 100, preference: 10, flags: "U", services: "E2U+sip", regexp: "!^.*$!sip:info@example.com!", replacement: "." } },
    { type: "NAPTR", name: "example.com", data: { order: 100, preference: 20, flags: "S", services: "SIP+D2U", regexp: "", replacement: "_sip._udp.example.com" } },
    { type: "TLSA", name: "_443._tcp.example.com", data: { usage: 3, selector: 1, matchingType: 1, certificate: Buffer.alloc(32, 0x7e) } },
    { type: "HINFO", name: "example.com", data: { cpu: "NeXT", os: "UNIX" } },
    { type: "RP", name: "example.com", data: { mbox: "louie.trantor.umd.edu", txt: "LAM1.people.umd.edu" } },
    { type: "DNAME", name: "frobozz.example.com", data: "frobozz-division.acme.example" },
    {
      type: "NSEC3",
      name: "example.com",
      data: { algorithm: 1, flags: 0, iterations: 12, salt: Buffer.from("aabbccdd", "hex"), nextDomain: Buffer.alloc(20, 0x5a), rrtypes: ["A", "NS", "SOA", "RRSIG"] },
    },
    // With no types, the next hashed owner ends the data.
    { type: "NSEC3", name: "example.com", data: { algorithm: 1, flags: 1, iterations: 0, salt: Buffer.alloc(0), nextDomain: Buffer.alloc(20, 0x3c), rrtypes: [] } },
    { type: "NULL", name: "example.com", data: Buffer.from("00ff", "hex") },
  ],
  additionals: [
    {
      type: "OPT",
      name: ".",
      udpPayloadSize: 4096,
      flags: peer.DNSSEC_OK,
      options: [
        { code: 8, ip: "192.0.2.0", sourcePrefixLength: 24, scopePrefixLength: 0 },
        { code: 8, ip: "2001:db8::", sourcePrefixLength: 32 },
        { code: 11, timeout: 300 },
        { code: 11 },
        { code: 14, tags: [0x4f66, 0x9c1a] },
        { code: 12, length: 6 },
      ],
    },
  ],
});
compareMessage("rare types", rare);
check(
  same(lw.decode(rare).answers.map((a) => a.type), ["SSHFP", "NAPTR", "NAPTR", "TLSA", "HINFO", "RP", "DNAME", "NSEC3", "NSEC3", "NULL"]),
  "rare types: every answer read",
);

// NSEC3 data ending in a 2-byte type bitmap (an empty window 0), which
// dns-packet does not read: it counts the RDLENGTH field into the data.
{
  const data = { algorithm: 1, flags: 0, iterations: 1, salt: Buffer.alloc(0), nextDomain: Buffer.alloc(20, 0x3c), rrtypes: [] };
  const bare = peer.encode({ type: "response", answers: [{ type: "NSEC3", name: "example", data }] });
  const withBitmap = Buffer.concat([bare, Buffer.from([0, 0])]);
  // The record is the last: its RDLENGTH and data end the message.
  const rdlength = bare.length - peer.nsec3.encodingLength(data);
  withBitmap.writeUInt16BE(withBitmap.readUInt16BE(rdlength) + 2, rdlength);
  compareMessage("NSEC3 with an empty window", withBitmap);
}

// A name that points into the middle of a long one read before it, its
// labels adding up to 254 bytes (the most dns-packet reads) and to 255.
for (const second of [34, 35]) {
  const label = (len, byte) => [len, ...new Array(len).fill(byte)];
  const long = [0x61, 0x62, 0x63, 0x64].flatMap((byte) => label(60, byte));
  const bytes = Buffer.from([
    0, 1, 0x81, 0x80, 0, 1, 0, 1, 0, 0, 0, 0,
    ...long, 0, 0, 1, 0, 1,
    // Its owner: two labels, then the long name from its second label (offset 73).
    ...label(35, 0x78), ...label(second, 0x79), 0xc0, 73, 0, 1, 0, 1, 0, 0, 0, 60, 0, 4, 192, 0, 2, 1,
  ]);
  const total = 36 + second + 1 + 3 * 61;
  const theirs = compareDecode(`a pointer into a long name, ${total} bytes of labels`, bytes);
  check(total === 254 ? theirs.error === undefined : theirs.error === "Error: Cannot decode name (name too long)", `${total} bytes of labels: ${theirs.error ?? "read"}`);
}

// Random damage: up to four bytes changed at once, the message cut at a
// random length a third of the time, from a fixed seed.
const next = seeded(20261206);
/** A random integer from 0 to `n - 1`. */
const random = (n) => Math.floor((next() / 2147483648) * n);
const seeds = [...vectors.map((v) => v.buf), rare, rare, rare, rare];
for (let round = 0; round < 20000; round++) {
  const buf = Buffer.from(seeds[random(seeds.length)]);
  for (let changes = 1 + random(4); changes > 0; changes--) {
    const at = random(buf.length);
    buf[at] = [random(256), buf[at] ^ (1 << random(8)), [0x00, 0xff, 0xc0, 0x3f][random(4)], buf[random(buf.length)]][random(4)];
  }
  const cut = random(3) === 0 ? buf.subarray(0, random(buf.length + 1)) : buf;
  compareBroken(`random damage ${round}`, cut, "corrupted");
}

// Names across lines: dns-packet strips a dot at the start or end of each line.
for (const text of ["a.\n.b", "x.\ny.", ".a\nb.", "a\n.\nb", "a.b\n.c.", "\n."]) {
  check(same(lw.name.encode(text), peer.name.encode(text)), `name.encode ${JSON.stringify(text)}`);
  check(lw.name.encodingLength(text) === peer.name.encodingLength(text), `name.encodingLength ${JSON.stringify(text)}`);
}

const nameVectors = compareNames();

// The flags, and the names dns-packet exports.
for (const key of Object.keys(peer)) {
  check(key in lw, `export ${key}`);
  if (typeof peer[key] === "number") check(lw[key] === peer[key], `constant ${key}`);
}

for (const failure of failures.slice(0, 40)) console.error(`FAIL ${failure}`);
if (failures.length > 40) console.error(`… and ${failures.length - 40} more`);
console.log(
  `dns-packet: ${vectors.length} messages and ${nameVectors} names, ${passed} checks passed, ${failures.length} failed; ` +
    `${overruns.truncated} truncations and ${overruns.corrupted} corruptions where dns-packet read past the end and leanwire threw`,
);
process.exit(failures.length === 0 ? 0 : 1);
