// leanwire/dns-packet for Node: a drop-in for dns-packet 5.6.1, usable by
// `import` and by `require` (the module is instantiated synchronously by
// ./node.js, so there is no top-level await).
import "./node.js";

export * from "./src/dns-packet/index.js";
