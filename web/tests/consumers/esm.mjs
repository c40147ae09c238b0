// Node ESM, by package name, with no init call.
import * as leanwire from "leanwire";
import init from "leanwire";
import * as dnsPacket from "leanwire/dns-packet";
import { checkDnsPacket, checkLeanwire } from "./checks.mjs";

const passed = checkLeanwire(leanwire);
await init(); // harmless under Node
console.log(`node esm: ${passed + checkLeanwire(leanwire) + checkDnsPacket(dnsPacket)} checks passed`);
