// Times leanwire/dns-packet against dns-packet 5.6.1 in one process on the
// same inputs: the median ns per decode and per encode (of dns-packet's own
// decoded object) for each DNS message vector, the two taking turns so that
// both see the same load.
//
//   scripts/build-web && node web/tests/dns-packet-bench.mjs [name filter]

import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../../", import.meta.url));
const peer = createRequire(`${root}www/package.json`)("dns-packet");
const lw = await import("../pkg/dns-packet.node.js");

const ROUNDS = 15;
const { messages } = JSON.parse(readFileSync(`${root}core/tests/vectors/dns/messages.json`, "utf8"));
const filter = process.argv[2] ?? "";

/** Nanoseconds per call of `fn`, over `iterations` calls. */
function time(fn, iterations) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < iterations; i++) fn();
  return Number(process.hrtime.bigint() - start) / iterations;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1];
}

/** Medians of `a` and `b`, timed in alternating rounds. */
function race(a, b, iterations) {
  time(a, iterations);
  time(b, iterations);
  const times = { a: [], b: [] };
  for (let round = 0; round < ROUNDS; round++) {
    times.a.push(time(a, iterations));
    times.b.push(time(b, iterations));
  }
  return [median(times.a), median(times.b)];
}

const ratios = { decode: [], encode: [] };
console.log("message".padEnd(48), "bytes", "  decode: dns-packet  leanwire  ratio", "  encode: dns-packet  leanwire  ratio");
for (const m of messages.filter((m) => m.file.includes(filter))) {
  const buf = Buffer.from(m.hex, "hex");
  const packet = peer.decode(buf);
  const iterations = Math.max(200, Math.floor(200000 / buf.length));
  const [pd, ld] = race(() => peer.decode(buf), () => lw.decode(buf), iterations);
  const [pe, le] = race(() => peer.encode(packet), () => lw.encode(packet), iterations);
  ratios.decode.push(ld / pd);
  ratios.encode.push(le / pe);
  const cell = (ns) => ns.toFixed(0).padStart(8);
  console.log(
    m.file.padEnd(48),
    String(buf.length).padStart(5),
    `${cell(pd)} ${cell(ld)}   ${(ld / pd).toFixed(2)}x`.padStart(37),
    `${cell(pe)} ${cell(le)}   ${(le / pe).toFixed(2)}x`.padStart(37),
  );
}
console.log(
  `median ratio over ${ratios.decode.length} messages: decode ${median(ratios.decode).toFixed(2)}x, encode ${median(ratios.encode).toFixed(2)}x of dns-packet's time`,
);
