// End-to-end test of the visualizer in Debian's Chromium, driven by
// playwright-core, against the wasm-opt'd package that `scripts/build-web` made.
//
//   node www/e2e.mjs
import assert from "node:assert/strict";
import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";

const CHROMIUM = process.env.CHROMIUM ?? "/usr/bin/chromium";

const server = await serve(0);
const url = `http://127.0.0.1:${server.address().port}/`;
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const problems = [];
let passed = 0;

async function step(name, body) {
  await body();
  passed += 1;
  console.log(`ok - ${name}`);
}

try {
  const page = await browser.newPage();
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console error: ${m.text()}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));

  await page.goto(url);
  await page.waitForSelector("#status[data-ready=true]", { timeout: 20_000 });
  const field = (name) => page.textContent(`#result dd[data-field="${name}"]`);

  await step("parses a typed Akka.NET path", async () => {
    await page.fill("#path", "AKKA.tcp://Sys@Host.Example:2552/user/worker#42");
    await page.selectOption("#dialect", "dotnet");
    await page.click("#parse");
    assert.equal(await field("protocol"), "akka.tcp");
    assert.equal(await field("system"), "Sys");
    assert.equal(await field("host"), "host.example");
    assert.equal(await field("port"), "2552");
    assert.equal(await field("elements"), '"user" / "worker"');
    assert.equal(await field("uid"), "42");
    assert.equal(await field("to_serialization_format"), "akka.tcp://Sys@host.example:2552/user/worker#42");
  });

  await step("the JVM dialect keeps case", async () => {
    await page.selectOption("#dialect", "jvm");
    await page.click("#parse");
    assert.equal(await field("protocol"), "AKKA.tcp");
    assert.equal(await field("host"), "Host.Example");
  });

  await step("a bad path shows what and where", async () => {
    await page.fill("#path", "akka://sys@host/user");
    await page.click("#parse");
    assert.equal(await field("error"), "remote address needs `host:port` at byte 15");
  });

  await step("leanwire parses with zero heap allocations, the peer does not", async () => {
    await page.fill("#path", "akka.tcp://system@127.0.0.1:1337/parent/child#1");
    await page.selectOption("#dialect", "dotnet");
    await page.fill("#iterations", "20000");
    await page.click("#run");
    await page.waitForSelector("#bench[data-done]", { timeout: 60_000 });
    const cell = (op, col) => page.textContent(`#bench tr[data-op="${op}"] td[data-col="${col}"]`);
    assert.equal(await cell("leanwire-parse", "allocs"), "0");
    assert.equal(await cell("leanwire-parse", "bytes"), "0");
    assert.equal(await cell("leanwire-parse", "arena"), "0");
    assert.equal(await cell("leanwire-arena", "allocs"), "0");
    assert.ok(Number(await cell("leanwire-arena", "arena")) > 0, "the arena path uses arena bytes");
    assert.ok(Number(await cell("peer-url", "allocs")) >= 1, "url::Url::parse allocates");
    for (const op of ["leanwire-parse", "leanwire-arena", "peer-url"]) {
      assert.match(await cell(op, "time"), /^\d+(\.\d)? ns$/);
    }
    assert.equal(await page.locator("#chart .bar").count(), 6);
  });

  await step("decodes a DNS sample and shows its records", async () => {
    await page.selectOption("#dns-sample", { label: "gen_b_aaaa.hex" });
    const rows = page.locator('#dns-result table[data-section="answer"] tr');
    assert.equal(await rows.count(), 2);
    assert.equal(await rows.nth(0).locator("td").nth(4).textContent(), "2606:2800:21f:cb07:6820:80da:af6b:8b2c");
    assert.match(await page.textContent("#dns-header"), /NOERROR · flags qr rd ra/);
  });

  await step("a cut DNS message shows what and where", async () => {
    const hex = await page.inputValue("#dns-hex");
    await page.fill("#dns-hex", hex.slice(0, 60));
    await page.click("#dns-decode");
    assert.equal(await page.textContent("#dns-error"), "message ends inside a field at byte 30");
    await page.fill("#dns-hex", hex);
    await page.click("#dns-decode");
  });

  await step("leanwire decodes DNS with zero heap allocations, hickory-proto does not", async () => {
    await page.fill("#dns-iterations", "5000");
    await page.click("#dns-run");
    await page.waitForSelector("#dns-bench[data-done]", { timeout: 60_000 });
    const cell = (op, col) => page.textContent(`#dns-bench tr[data-op="${op}"] td[data-col="${col}"]`);
    assert.equal(await cell("leanwire-dns", "allocs"), "0");
    assert.equal(await cell("leanwire-dns", "bytes"), "0");
    assert.ok(Number(await cell("peer-hickory", "allocs")) >= 1, "hickory-proto allocates");
    assert.equal(await page.locator("#dns-chart .bar").count(), 4);
  });

  await step("steps through a TDS stream in small chunks", async () => {
    await page.selectOption("#tds-sample", { label: "generated result set, 12 rows in packets" });
    await page.fill("#tds-chunk", "7");
    await page.click("#tds-step");
    assert.equal(await page.getAttribute("#tds-progress", "data-fed"), "7");
    await page.click("#tds-run");
    assert.equal(await page.getAttribute("#tds-progress", "data-rows"), "12");
    assert.match(await page.textContent("#tds-progress"), /complete$/);
    const last = await page.textContent("#tds-tokens li:last-child");
    assert.equal(JSON.parse(last).rowcount, 12);
  });

  await step("a cut TDS stream says where it ended", async () => {
    await page.selectOption("#tds-sample", { label: "types_tokens cut inside a ROW" });
    await page.click("#tds-run");
    assert.match(await page.textContent("#tds-progress"), /ended: stream ends inside a token in ROW column 7/);
  });

  await step("decoding TDS rows makes no heap allocation", async () => {
    await page.selectOption("#tds-sample", { label: "generated result set, 12 rows in packets" });
    await page.fill("#tds-iterations", "200");
    await page.click("#tds-measure");
    await page.waitForSelector("#tds-bench[data-done]", { timeout: 60_000 });
    for (const chunk of ["whole", "4k", "chosen"]) {
      assert.equal(await page.textContent(`#tds-bench tr[data-chunk="${chunk}"] td[data-col="allocs"]`), "0");
    }
  });

  assert.deepEqual(problems, []);
  console.log(`e2e: ${passed} steps passed`);
} finally {
  await browser.close();
  server.close();
}
