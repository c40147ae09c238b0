// Node ESM, by package name, with no init call.
import * as leanwire from "leanwire";
import init from "leanwire";
import { checkLeanwire } from "./checks.mjs";

const passed = checkLeanwire(leanwire);
await init(); // harmless under Node
console.log(`node esm: ${passed + checkLeanwire(leanwire)} checks passed`);
