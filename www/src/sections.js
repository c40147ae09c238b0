// What each measured section runs: one list per section, read by the
// worker (which times each implementation) and by the page (which watches
// memory over a run of each). An implementation has `call`, one call from
// JavaScript, or `run(n)`, n iterations looped inside the page's wasm build.
import { parseActorPath } from "../pkg/index.js";
import * as ours from "../pkg/dns-packet.js";
import { benchmark, peerBenchmark } from "../pkg-peers/leanwire_peers.js";
import dnsPacket from "dns-packet";
import { Buffer } from "buffer";
import { regexSplit, urlSplit, readAll } from "./peers.js";
import { toHex } from "./bytes.js";

/** The counts of a wasm-bindgen run object, which is then freed. */
export function counts(run) {
  const plain = { iterations: run.iterations, allocations: run.allocations, bytes: run.bytes, arena: run.arenaBytesPerOp ?? 0 };
  run.free();
  return plain;
}

/** The implementations of each section, for its input. */
export const SECTIONS = {
  actor({ path, dialect }) {
    return [
      { id: "leanwire-js", op: "parse", label: "leanwire parseActorPath", who: "leanwire", call: () => readAll(parseActorPath(path, dialect)) },
      { id: "regex-js", op: "parse", label: "regex split", who: "peer", call: () => readAll(regexSplit(path)) },
      { id: "url-js", op: "parse", label: "new URL", who: "peer", call: () => readAll(urlSplit(path)) },
      { id: "leanwire-wasm", label: "leanwire ActorPath::parse", who: "leanwire", run: (n) => benchmark("parse", path, n, dialect) },
      { id: "arena-wasm", label: "leanwire PathNode::parse (arena)", who: "leanwire", run: (n) => benchmark("arena", path, n, dialect) },
      { id: "url-wasm", label: "url::Url::parse", who: "peer", run: (n) => peerBenchmark("parse", path, n) },
    ];
  },

  dns({ bytes: view }) {
    // dns-packet reads a Buffer (in browsers, the `buffer` package's); both decoders get the same one.
    const bytes = Buffer.from(view);
    const hex = toHex(view);
    let packet = null;
    try {
      packet = dnsPacket.decode(bytes);
    } catch {
      // dns-packet cannot read this message; its decode row says why.
    }
    const encode = packet === null ? [] : [
      { id: "leanwire-encode-js", op: "encode", label: "leanwire/dns-packet encode", who: "leanwire", call: () => ours.encode(packet) },
      { id: "dns-packet-encode-js", op: "encode", label: "dns-packet encode", who: "peer", call: () => dnsPacket.encode(packet) },
    ];
    return [
      { id: "leanwire-js", op: "decode", label: "leanwire/dns-packet decode", who: "leanwire", call: () => ours.decode(bytes) },
      { id: "dns-packet-js", op: "decode", label: "dns-packet decode", who: "peer", call: () => dnsPacket.decode(bytes) },
      ...encode,
      { id: "leanwire-wasm", label: "leanwire Message::parse", who: "leanwire", run: (n) => benchmark("dns_decode", hex, n) },
      { id: "hickory-wasm", label: "hickory-proto Message::from_vec", who: "peer", run: (n) => peerBenchmark("dns_decode", hex, n) },
    ];
  },
};
