// Checks the built npm package (web/pkg, optimized by wasm-opt) in Node
// against what the `leanwire` command printed: every actor path of the
// golden file parses to the same fields, or fails with the same message.
//
//   node web/tests/package.mjs
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as leanwire from "../pkg/node.js";

const golden = readFileSync(new URL("../../native/tests/golden/actor_parse.tsv", import.meta.url), "utf8")
  .trim().split("\n");
for (const line of golden) {
  const [dialect, json] = line.split("\t");
  const want = JSON.parse(json);
  const what = `${dialect} ${want.input}`;
  if (!want.ok) {
    assert.throws(() => leanwire.parseActorPath(want.input, dialect),
      (error) => error instanceof leanwire.LeanwireError && error.message === want.error, what);
    continue;
  }
  const path = leanwire.parseActorPath(want.input, dialect);
  assert.deepEqual(path.address, want.address, what);
  assert.deepEqual([path.elements, path.uid], [want.elements, want.uid], what);
  assert.equal(path.toString(), want.to_string, what);
  assert.equal(path.toSerializationFormat(), want.to_serialization_format, what);
}
console.log(`package: ${golden.length} golden actor paths give the CLI's fields and errors`);
