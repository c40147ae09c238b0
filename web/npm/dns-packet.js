// leanwire/dns-packet for browsers and bundlers: a drop-in for dns-packet
// 5.6.1. The module is instantiated here, once, before anything is exported.
import init from "./index.js";
import * as dnsPacket from "./src/dns-packet/index.js";

await init();

export * from "./src/dns-packet/index.js";
// dns-packet is a CommonJS module, which ESM code imports as a default:
// `import dnsPacket from "leanwire/dns-packet"` works as it does there.
export default dnsPacket;
