// End-to-end test of the visualizer in Debian's Chromium, driven by
// playwright-core, against the page that `scripts/build-web` bundled into
// www/dist around the wasm-opt'd npm package.
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
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--enable-precise-memory-info"],
});
const problems = [];
let passed = 0;

async function step(name, body) {
  await body();
  passed += 1;
  console.log(`ok - ${name}`);
}

/** Opens the page, collecting every console error, page error and failed request. */
async function open(at = url) {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  page.on("console", (m) => m.type() === "error" && problems.push(`console error: ${m.text()}`));
  page.on("requestfailed", (r) => problems.push(`request failed: ${r.url()}`));
  page.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
  await page.goto(at);
  await page.waitForSelector("#status[data-ready=true]", { timeout: 30_000 });
  return page;
}

/**
 * Whether the chart in `selector` drew data: its container counts the points
 * it was given, and its canvas holds pixels of leanwire's series colour.
 */
async function assertChart(page, selector, minPoints) {
  const points = Number(await page.getAttribute(selector, "data-points"));
  assert.ok(points >= minPoints, `${selector} plots ${points} points, expected at least ${minPoints}`);
  const painted = await page.$eval(`${selector} canvas`, (canvas) => {
    const { data } = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      const [r, g, b, a] = [data[i], data[i + 1], data[i + 2], data[i + 3]];
      if (a > 200 && Math.abs(r - 29) < 24 && Math.abs(g - 111) < 24 && Math.abs(b - 184) < 24) n += 1;
    }
    return n;
  });
  assert.ok(painted >= 20, `${selector} has ${painted} pixels in leanwire's colour`);
}

try {
  const page = await open();
  const field = (name) => page.textContent(`#result dd[data-field="${name}"]`);

  await step("parses a typed Akka.NET path and keeps it in the URL", async () => {
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
    const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
    assert.equal(hash.get("path"), "AKKA.tcp://Sys@Host.Example:2552/user/worker#42");
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

  await step("the PathNode arena shows the address and one node per element", async () => {
    await page.fill("#path", "akka.tcp://system@127.0.0.1:1337/parent/child#1");
    await page.selectOption("#dialect", "dotnet");
    await page.click("#parse");
    const labels = await page.$$eval("#path-arena .arena-legend li", (items) => items.map((i) => i.textContent.trim()));
    assert.equal(labels.filter((l) => l.startsWith("Address")).length, 1, labels.join("\n"));
    assert.equal(labels.filter((l) => l.startsWith("PathNode")).length, 3, labels.join("\n"));
    assert.ok((await page.locator("#path-arena .arena-block").count()) >= 4);
    const blocks = Number(await page.getAttribute("#path-arena", "data-blocks"));
    assert.equal(Number(await page.getAttribute("#path-arena", "data-shown")), blocks);
    await page.click("#path-arena-play");
    assert.ok(Number(await page.getAttribute("#path-arena", "data-shown")) < blocks, "the replay starts from an empty arena");
    await page.waitForFunction(() => {
      const arena = document.querySelector("#path-arena");
      return arena.dataset.shown === arena.dataset.blocks;
    }, null, { timeout: 10_000 });
  });

  await step("actor paths: leanwire from JS next to the regex split and new URL, and inside wasm", async () => {
    await page.fill("#actor-ops", "20000");
    await page.click("#actor-measure");
    await page.waitForSelector("#actor-bench[data-done]", { timeout: 120_000 });
    const cell = (op, col) => page.textContent(`#actor-bench tr[data-op="${op}"] td[data-col="${col}"]`);
    for (const op of ["leanwire-js", "regex-js", "url-js", "leanwire-wasm", "arena-wasm", "url-wasm"]) {
      assert.match(await cell(op, "time"), /^\d+(\.\d+)? (ns|µs)$/, `${op} ran`);
    }
    assert.match(await cell("regex-js", "ratio"), /^\d+\.\d\d×$/);
    assert.equal(await cell("leanwire-wasm", "allocs"), "0");
    assert.equal(await cell("leanwire-wasm", "bytes"), "0");
    assert.equal(await cell("arena-wasm", "allocs"), "0");
    assert.ok(Number(await cell("arena-wasm", "arena")) > 0, "the arena path uses arena bytes");
    assert.ok(Number(await cell("url-wasm", "allocs")) >= 1, "url::Url::parse allocates");
    assert.match(await cell("regex-js", "bytes"), /^≈ \d+ \(JS heap\)$/);
    assert.match(await page.textContent("#actor-live"), /the time of regex split/);
    await assertChart(page, "#actor-time", 6);
    await assertChart(page, "#actor-bytes", 4);
    // Six implementations over 61 samples; the wasm memory of two modules, the package and the page's build.
    await assertChart(page, "#actor-heap", 6 * 61);
    await assertChart(page, "#actor-wasm", 2 * 61);
    await assertChart(page, "#actor-per-op", 6 * 60);
    assert.equal(await page.getAttribute("#actor-allocs", "data-points"), "3");
  });

  await step("measuring again replaces the charts", async () => {
    await page.fill("#actor-ops", "1000");
    await page.click("#actor-measure");
    await page.waitForSelector('#actor-bench[data-done="2"]', { timeout: 120_000 });
    for (const chart of ["time", "heap", "wasm", "per-op", "bytes", "allocs"]) {
      assert.equal(await page.locator(`#actor-${chart} .uplot`).count(), 1, `#actor-${chart}`);
    }
  });

  await step("builds a DNS query and annotates every byte", async () => {
    await page.fill("#dns-name", "example.org");
    await page.selectOption("#dns-type", "MX");
    await page.click("#dns-build");
    assert.match(await page.textContent("#dns-result table[data-section=question]"), /example\.org\.INMX/);
    const bytes = await page.locator("#dns-dump .hex-byte").count();
    assert.ok(bytes > 12 + 13 + 4, `${bytes} bytes in the dump`);
    await page.hover('#dns-dump .hex-byte[data-offset="0"]');
    assert.match(await page.textContent("#dns-field"), /^bytes 0–1 · header · ID/);
    await page.hover('#dns-dump .hex-byte[data-offset="14"]');
    assert.match(await page.textContent("#dns-field"), /question 1 · name: example\.org\./);
    assert.equal(await page.locator("#dns-dump .hex-byte.lit").count(), 13);
    const hash = new URLSearchParams(new URL(page.url()).hash.slice(1));
    assert.equal(hash.get("qname"), "example.org");
  });

  await step("decodes a DNS sample, also pasted as base64, and shows its records", async () => {
    await page.selectOption("#dns-sample", { label: "gen_b_aaaa.hex" });
    const rows = page.locator('#dns-result table[data-section="answer"] tr');
    assert.equal(await rows.count(), 2);
    assert.equal(await rows.nth(0).locator("td").nth(4).textContent(), "2606:2800:21f:cb07:6820:80da:af6b:8b2c");
    assert.match(await page.textContent("#dns-header"), /NOERROR · flags qr rd ra/);
    const hex = await page.inputValue("#dns-hex");
    await page.fill("#dns-hex", Buffer.from(hex, "hex").toString("base64"));
    await page.click("#dns-decode");
    assert.equal(await rows.count(), 2);
    assert.ok((await page.locator("#dns-fields li").count()) > 10);
  });

  await step("a cut DNS message shows what and where, in the report and the dump", async () => {
    const hex = await page.inputValue("#dns-hex");
    await page.fill("#dns-hex", Buffer.from(hex, "base64").toString("hex").slice(0, 60));
    await page.click("#dns-decode");
    assert.equal(await page.textContent("#dns-error"), "message ends inside a field at byte 30");
    // The message ends at the defect, so the dump marks what could not be read.
    assert.ok((await page.locator("#dns-dump .hex-byte.part-unparsed").count()) > 0, "the dump shows the bytes left unread");
    assert.match(await page.textContent("#dns-fields li.error"), /^defect at byte \d+/);
    assert.equal(await page.inputValue("#dns-sample"), "", "edited text is no longer the sample");
    await page.selectOption("#dns-sample", { label: "gen_b_aaaa.hex" });
    assert.equal(await page.locator('#dns-result table[data-section="answer"] tr').count(), 2, "the sample is back");
  });

  await step("DNS: leanwire/dns-packet next to dns-packet from JS, and next to hickory-proto inside wasm", async () => {
    await page.fill("#dns-ops", "5000");
    await page.click("#dns-measure");
    await page.waitForSelector("#dns-bench[data-done]", { timeout: 120_000 });
    const cell = (op, col) => page.textContent(`#dns-bench tr[data-op="${op}"] td[data-col="${col}"]`);
    for (const op of ["leanwire-js", "dns-packet-js", "leanwire-encode-js", "dns-packet-encode-js", "leanwire-wasm", "hickory-wasm"]) {
      assert.match(await cell(op, "time"), /^\d+(\.\d+)? (ns|µs)$/, `${op} ran`);
    }
    assert.equal(await cell("leanwire-wasm", "allocs"), "0");
    assert.equal(await cell("leanwire-wasm", "bytes"), "0");
    assert.ok(Number(await cell("hickory-wasm", "allocs")) >= 1, "hickory-proto allocates");
    for (const op of ["leanwire-js", "dns-packet-js", "leanwire-encode-js", "dns-packet-encode-js"]) {
      assert.match(await cell(op, "bytes"), /^≈ \d+ \(JS heap\)$/, `${op} was weighed`);
    }
    assert.match(await page.textContent("#dns-live"), /the time of dns-packet decode/);
    await assertChart(page, "#dns-time", 6);
    await assertChart(page, "#dns-heap", 6 * 61);
    await assertChart(page, "#dns-wasm", 2 * 61);
    await assertChart(page, "#dns-per-op", 6 * 60);
    await assertChart(page, "#dns-bytes", 6);
  });

  await step("steps through a TDS stream in small chunks and shows it as tables", async () => {
    await page.selectOption("#tds-sample", { label: "generated result set, 12 rows in packets" });
    await page.fill("#tds-chunk", "7");
    await page.click("#tds-step");
    assert.equal(await page.getAttribute("#tds-progress", "data-fed"), "7");
    await page.click("#tds-run");
    assert.equal(await page.getAttribute("#tds-progress", "data-rows"), "12");
    assert.match(await page.textContent("#tds-progress"), /complete$/);
    assert.equal(await page.locator("#tds-tokens table.result-set tbody tr").count(), 12);
    assert.ok((await page.locator("#tds-tokens table.result-set th small").count()) >= 1, "columns show their SQL types");
    assert.match(await page.textContent("#tds-tokens li:last-child"), /^DONE · .*rowcount 12$/);
  });

  await step("the column metadata's arena fills up as the stream is read", async () => {
    assert.ok(Number(await page.getAttribute("#tds-arena", "data-blocks")) >= 2);
    const slider = page.locator("#tds-arena-step");
    await slider.fill("0");
    assert.equal(await page.getAttribute("#tds-arena", "data-shown"), "0");
    await slider.fill(await slider.getAttribute("max"));
    assert.equal(await page.getAttribute("#tds-arena", "data-shown"), await page.getAttribute("#tds-arena", "data-blocks"));
  });

  await step("a cut TDS stream says where it ended", async () => {
    await page.selectOption("#tds-sample", { label: "types_tokens cut inside a ROW" });
    await page.click("#tds-run");
    assert.match(await page.textContent("#tds-progress"), /ended: stream ends inside a token in ROW column 7/);
  });

  for (const label of ["types_tokens (tedious, tshark and FreeTDS decoded the same bytes)", "generated result set, 12 rows in packets"]) {
    await step(`TDS by chunk size, from JS and inside wasm, with no heap allocation: ${label}`, async () => {
      await page.selectOption("#tds-sample", { label });
      const done = Number((await page.getAttribute("#tds-bench", "data-done")) ?? 0);
      await page.click("#tds-measure");
      await page.waitForSelector(`#tds-bench[data-done="${done + 1}"]`, { timeout: 120_000 });
      // Both samples are shorter than 4096 bytes: that chunk size would be the whole stream.
      const chunks = await page.$$eval("#tds-bench tbody tr", (rows) => rows.map((row) => row.dataset.chunk));
      assert.deepEqual(chunks, ["1", "16", "64", "512", "whole"]);
      for (const chunk of chunks) {
        assert.equal(await page.textContent(`#tds-bench tr[data-chunk="${chunk}"] td:last-child`), "0");
      }
      await assertChart(page, "#tds-chart", 10);
      assert.equal(await page.locator("#tds-chart .uplot").count(), 1, "a new measurement replaces the chart");
    });
  }

  await step("a shared link opens the same inputs", async () => {
    // Every input differs from the page's defaults here.
    await page.fill("#path", "akka://shared/user/x");
    await page.selectOption("#dialect", "jvm");
    await page.click("#parse");
    const shared = await open(page.url());
    assert.equal(await shared.inputValue("#path"), "akka://shared/user/x");
    assert.equal(await shared.inputValue("#dialect"), "jvm");
    assert.equal(await shared.inputValue("#dns-name"), "example.org");
    assert.equal(await shared.inputValue("#tds-sample"), "1");
    assert.equal(await shared.inputValue("#tds-chunk"), "7");
    assert.equal(await shared.inputValue("#dns-hex"), await page.inputValue("#dns-hex"));
    await shared.close();
  });

  await step("a page whose WebAssembly cannot load says so", async () => {
    const broken = await browser.newPage();
    await broken.route("**/*.wasm", (route) => route.fulfill({ status: 404, body: "gone" }));
    await broken.goto(url);
    await broken.waitForSelector("#failure:not([hidden])", { timeout: 30_000 });
    assert.match(await broken.textContent("#failure"), /^the page cannot start: /);
    assert.equal(await broken.textContent("#status"), "failed");
    await broken.close();
  });

  assert.deepEqual(problems, []);
  console.log(`e2e: ${passed} steps passed`);
} finally {
  await browser.close();
  server.close();
}
