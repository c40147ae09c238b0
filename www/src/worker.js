// The page's measurements, off the main thread. Each request names a
// section and its input; the reply holds one row per implementation, timed
// two ways where both exist: called from JavaScript with the boundary
// included (what a user pays), and looped inside WebAssembly.
import init, { parseActorPath, TdsReader } from "../pkg/index.js";
import * as ours from "../pkg/dns-packet.js";
import initPeers, { benchmark, benchmarkTds, peerBenchmark } from "../pkg-peers/leanwire_peers.js";
import dnsPacket from "dns-packet";
import { Buffer } from "buffer";
import { regexSplit, urlSplit, readAll } from "./peers.js";
import { race, inWasm } from "./measure.js";
import { toHex } from "./bytes.js";

const ready = Promise.all([init(), initPeers()]);

/** The counts of a wasm-bindgen run object, which is then freed. */
function counts(run) {
  const plain = { iterations: run.iterations, allocations: run.allocations, bytes: run.bytes, arena: run.arenaBytesPerOp ?? 0 };
  run.free();
  return plain;
}

/** A row measured inside wasm: time per iteration and counted heap use per iteration. */
function wasmRow(row, run) {
  try {
    const { ns, iterations, counts: c } = inWasm((n) => counts(run(n)));
    return { ...row, where: "wasm", ns, allocs: c.allocations / iterations, bytes: c.bytes / iterations, arena: c.arena };
  } catch (error) {
    return { ...row, where: "wasm", error: error.message };
  }
}

/** Rows called from JavaScript, raced against each other; a call that throws on the input is reported, not timed. */
function jsRows(rows) {
  const runnable = rows.filter((row) => {
    try {
      row.call();
      return true;
    } catch (error) {
      row.error = error.message;
      return false;
    }
  });
  const times = race(runnable.map((row) => row.call));
  runnable.forEach((row, i) => (row.ns = times[i]));
  return rows.map(({ call, ...row }) => ({ ...row, where: "js" }));
}

const SECTIONS = {
  actor({ path, dialect }) {
    return [
      ...jsRows([
        { id: "leanwire-js", op: "parse", label: "leanwire parseActorPath", who: "leanwire", call: () => readAll(parseActorPath(path, dialect)) },
        { id: "regex-js", op: "parse", label: "regex split", who: "peer", call: () => readAll(regexSplit(path)) },
        { id: "url-js", op: "parse", label: "new URL", who: "peer", call: () => readAll(urlSplit(path)) },
      ]),
      wasmRow({ id: "leanwire-wasm", label: "leanwire ActorPath::parse", who: "leanwire" }, (n) => benchmark("parse", path, n, dialect)),
      wasmRow({ id: "arena-wasm", label: "leanwire PathNode::parse (arena)", who: "leanwire" }, (n) => benchmark("arena", path, n, dialect)),
      wasmRow({ id: "url-wasm", label: "url::Url::parse", who: "peer" }, (n) => peerBenchmark("parse", path, n)),
    ];
  },

  dns({ bytes: view }) {
    // dns-packet reads a Buffer (in browsers, the \`buffer\` package's); both decoders get the same one.
    const bytes = Buffer.from(view);
    const hex = toHex(view);
    let packet = null;
    try {
      packet = dnsPacket.decode(bytes);
    } catch {
      // dns-packet cannot read this message; its decode row says why.
    }
    const encodeRows = packet === null ? [] : [
      { id: "leanwire-encode-js", op: "encode", label: "leanwire/dns-packet encode", who: "leanwire", call: () => ours.encode(packet) },
      { id: "dns-packet-encode-js", op: "encode", label: "dns-packet encode", who: "peer", call: () => dnsPacket.encode(packet) },
    ];
    return [
      ...jsRows([
        { id: "leanwire-js", op: "decode", label: "leanwire/dns-packet decode", who: "leanwire", call: () => ours.decode(bytes) },
        { id: "dns-packet-js", op: "decode", label: "dns-packet decode", who: "peer", call: () => dnsPacket.decode(bytes) },
      ]),
      ...jsRows(encodeRows),
      wasmRow({ id: "leanwire-wasm", label: "leanwire Message::parse", who: "leanwire" }, (n) => benchmark("dns_decode", hex, n)),
      wasmRow({ id: "hickory-wasm", label: "hickory-proto Message::from_vec", who: "peer" }, (n) => peerBenchmark("dns_decode", hex, n)),
    ];
  },

  tds({ bytes, tokensOnly, chunks }) {
    const hex = toHex(bytes);
    const decodeFromJs = (chunk) => {
      const reader = new TdsReader({ tokensOnly });
      let rows = 0;
      let tokens = 0;
      for (let at = 0; at < bytes.length; at += chunk) {
        reader.feed(bytes.subarray(at, at + chunk));
        for (let token = reader.next(); token !== null; token = reader.next()) {
          tokens += 1;
          if (token.token === "ROW" || token.token === "NBCROW") rows += token.values.length > 0 ? 1 : 0;
        }
      }
      reader.finish();
      return { rows, tokens };
    };
    const whole = decodeFromJs(bytes.length);
    return chunks.map((size) => {
      const chunk = size === "whole" ? bytes.length : size;
      const [ns] = race([() => decodeFromJs(chunk)], { samples: 7, targetMs: 20 });
      const wasm = inWasm((n) => {
        const run = benchmarkTds(hex, chunk, n, tokensOnly);
        const c = { iterations: run.iterations, allocations: run.allocations, bytes: run.bytes };
        run.free();
        return c;
      }, { samples: 3, targetMs: 20 });
      return { chunk: size, rows: whole.rows, tokens: whole.tokens, bytes: bytes.length, jsNs: ns, wasmNs: wasm.ns,
        wasmAllocs: wasm.counts.allocations / wasm.iterations };
    });
  },
};

self.onmessage = async ({ data: { id, section, input } }) => {
  try {
    await ready;
    self.postMessage({ id, rows: SECTIONS[section](input) });
  } catch (error) {
    self.postMessage({ id, error: `${error.name}: ${error.message}` });
  }
};
