// leanwire for Node: the module is instantiated on import, so every
// function works at once; `init()` is kept, and does nothing more.
import { readFileSync } from "node:fs";
import { initSync as loadSync } from "./wasm/leanwire.js";
import { attach } from "./src/shared.js";

export * from "./src/api.js";

attach(loadSync({ module: readFileSync(new URL("./wasm/leanwire_bg.wasm", import.meta.url)) }));

/** Does nothing: under Node the module is ready when the import finishes. */
export default async function init() {}

/** Does nothing: under Node the module is ready when the import finishes. */
export function initSync() {}
