import init, * as leanwire from "leanwire";
import dnsPacket from "leanwire/dns-packet";
import { checkDnsPacket, checkLeanwire } from "../checks.mjs";

const result = document.getElementById("result");
try {
  await init();
  result.textContent = `vite: ${checkLeanwire(leanwire) + checkDnsPacket(dnsPacket)} checks passed`;
} catch (error) {
  result.textContent = `FAILED: ${error.stack ?? error}`;
}
result.dataset.done = "true";
