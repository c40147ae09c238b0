// leanwire for browsers and bundlers: `await init()` once, then call anything.
import load, { initSync as loadSync } from "./wasm/leanwire.js";
import { attach } from "./src/shared.js";

export * from "./src/api.js";

let loading = null;

/**
 * Instantiates the WebAssembly module; later calls return the same promise.
 * With no argument it fetches `leanwire_bg.wasm` beside this file, which
 * bundlers such as Vite resolve and copy. Also accepts what the
 * wasm-bindgen `init` accepts: a URL, a Response, bytes or a
 * `WebAssembly.Module`.
 */
export default function init(input) {
  loading ??= load(input === undefined ? undefined : { module_or_path: input }).then(attach);
  return loading;
}

/** Instantiates the module synchronously from its bytes or a `WebAssembly.Module`. */
export function initSync(module) {
  attach(loadSync({ module }));
}
