// Node CommonJS: require() gives a package that works at once.
const leanwire = require("leanwire");
const dnsPacket = require("leanwire/dns-packet");
const { checkDnsPacket, checkLeanwire } = require("./checks.mjs");

console.log(`node cjs: ${checkLeanwire(leanwire) + checkDnsPacket(dnsPacket)} checks passed`);
