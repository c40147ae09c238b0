// The page's measurements, off the main thread. Each request names a
// section and its input; the reply holds one row per implementation, timed
// two ways where both exist: called from JavaScript with the boundary
// included (what a user pays), and looped inside WebAssembly.
import init, { TdsReader } from "../pkg/index.js";
import initPeers, { benchmarkTds } from "../pkg-peers/leanwire_peers.js";
import { race, inWasm } from "./measure.js";
import { toHex } from "./bytes.js";
import { SECTIONS, counts } from "./sections.js";

const ready = Promise.all([init(), initPeers()]);

/** A row measured inside wasm: time per iteration and counted heap use per iteration. */
function wasmRow({ run, ...row }) {
  try {
    const { ns, iterations, counts: c } = inWasm((n) => counts(run(n)));
    return { ...row, where: "wasm", ns, allocs: c.allocations / iterations, bytes: c.bytes / iterations, arena: c.arena };
  } catch (error) {
    return { ...row, where: "wasm", error: error.message };
  }
}

/**
 * Rows called from JavaScript; those of one operation are raced against
 * each other. A call that throws on the input is reported, not timed.
 */
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
  for (const op of new Set(runnable.map((row) => row.op))) {
    const group = runnable.filter((row) => row.op === op);
    const times = race(group.map((row) => row.call));
    group.forEach((row, i) => (row.ns = times[i]));
  }
  return rows.map(({ call, ...row }) => ({ ...row, where: "js" }));
}

/** Times every implementation of a section on its input. */
function timed(implementations) {
  return [...jsRows(implementations.filter((impl) => impl.call)), ...implementations.filter((impl) => impl.run).map(wasmRow)];
}

const MEASURED = {
  actor: (input) => timed(SECTIONS.actor(input)),
  dns: (input) => timed(SECTIONS.dns(input)),

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
          if (token.token === "ROW" || token.token === "NBCROW") rows += 1;
        }
      }
      reader.finish();
      return { rows, tokens };
    };
    const whole = decodeFromJs(bytes.length);
    return chunks.map((size) => {
      const chunk = size === "whole" ? bytes.length : size;
      const [ns] = race([() => decodeFromJs(chunk)], { samples: 7, targetMs: 20 });
      const wasm = inWasm((n) => counts(benchmarkTds(hex, chunk, n, tokensOnly)), { samples: 3, targetMs: 20 });
      return { chunk: size, rows: whole.rows, tokens: whole.tokens, bytes: bytes.length, jsNs: ns, wasmNs: wasm.ns,
        wasmAllocs: wasm.counts.allocations / wasm.iterations };
    });
  },
};

self.onmessage = async ({ data: { id, section, input } }) => {
  try {
    await ready;
    self.postMessage({ id, rows: MEASURED[section](input) });
  } catch (error) {
    self.postMessage({ id, error: `${error.name}: ${error.message}` });
  }
};
