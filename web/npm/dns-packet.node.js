// leanwire/dns-packet for Node: a drop-in for dns-packet 5.6.1, usable by
// `import` and by `require` (the module is instantiated synchronously by
// ./node.js, so there is no top-level await).
import "./node.js";
import * as dnsPacket from "./src/dns-packet/index.js";

export * from "./src/dns-packet/index.js";
// dns-packet is a CommonJS module, which ESM code imports as a default:
// `import dnsPacket from "leanwire/dns-packet"` works as it does there.
export default dnsPacket;
