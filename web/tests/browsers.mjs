// Loads a fresh project's Vite build (dist/) and its plain module-script
// page (plain/) in headless Chromium, and checks that each ran the package
// checks with no console error. Driven by scripts/test-package.
//
//   node web/tests/browsers.mjs PROJECT_DIR
import { createRequire } from "node:module";
import { serve } from "../../www/serve.mjs";

const { chromium } = createRequire(new URL("../../www/package.json", import.meta.url))("playwright-core");

const root = process.argv[2].replace(/\/?$/, "/");
const server = await serve(0, { root, modules: true });
const base = `http://127.0.0.1:${server.address().port}`;
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
let failed = false;
try {
  for (const page of ["dist/index.html", "plain/index.html"]) {
    const tab = await browser.newPage();
    const problems = [];
    tab.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
    tab.on("console", (m) => m.type() === "error" && problems.push(`console error: ${m.text()}`));
    tab.on("response", (r) => r.status() >= 400 && problems.push(`HTTP ${r.status()}: ${r.url()}`));
    await tab.goto(`${base}/${page}`);
    await tab.waitForSelector("#result[data-done=true]", { timeout: 30_000 });
    const result = await tab.textContent("#result");
    console.log(`chromium ${page}: ${result}`);
    if (!/checks passed$/.test(result) || problems.length > 0) {
      failed = true;
      for (const problem of problems) console.error(`  ${problem}`);
    }
    await tab.close();
  }
} finally {
  await browser.close();
  server.close();
}
if (failed) process.exit(1);
