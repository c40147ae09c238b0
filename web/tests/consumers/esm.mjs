// Node ESM, by package name, with no init call.
import * as leanwire from "leanwire";
import init from "leanwire";
import * as dnsPacketExports from "leanwire/dns-packet";
// As ESM code imports dns-packet itself, a CommonJS module.
import dnsPacket from "leanwire/dns-packet";
import { checkDnsPacket, checkLeanwire } from "./checks.mjs";

if (dnsPacket.decode !== dnsPacketExports.decode || dnsPacket.encode !== dnsPacketExports.encode) {
  throw new Error("node esm: the default export of leanwire/dns-packet is not its exports");
}
const passed = checkLeanwire(leanwire);
await init(); // harmless under Node
console.log(`node esm: ${passed + checkLeanwire(leanwire) + checkDnsPacket(dnsPacket)} checks passed`);
