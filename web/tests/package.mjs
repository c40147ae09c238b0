// Checks the built npm package (web/pkg, optimized by wasm-opt) in Node: the
// artifact users install must give the CLI's reports byte for byte and parse
// without touching the heap.
//
//   node web/tests/package.mjs
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = (path) => fileURLToPath(new URL(path, import.meta.url));
const leanwire = await import(here("../pkg/leanwire.js"));
leanwire.initSync({ module: readFileSync(here("../pkg/leanwire_bg.wasm")) });

const golden = readFileSync(here("../../native/tests/golden/actor_parse.tsv"), "utf8").trim().split("\n");
for (const line of golden) {
  const [dialect, want] = line.split("\t");
  const { input } = JSON.parse(want);
  assert.equal(JSON.stringify(leanwire.parseActorPath(input, dialect)), want, `${dialect} ${input}`);
}

const run = leanwire.benchmark("parse", "akka.tcp://system@127.0.0.1:1337/parent/child#1", 10_000);
assert.equal(run.allocations, 0);
assert.deepEqual(leanwire.splitNameAndUid("foo#11241311"), { name: "foo", uid: 11241311 });
assert.throws(() => leanwire.splitNameAndUid("foo#bar"), /uid is not a number at byte 4/);
assert.throws(() => leanwire.parseActorPath("akka://a", "scala"), /unknown dialect/);
console.log(`package: ${golden.length} golden reports match, parse makes 0 heap allocations`);
