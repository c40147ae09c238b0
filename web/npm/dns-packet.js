// leanwire/dns-packet for browsers and bundlers: a drop-in for dns-packet
// 5.6.1. The module is instantiated here, once, before anything is exported.
import init from "./index.js";

await init();

export * from "./src/dns-packet/index.js";
