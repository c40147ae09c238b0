// The allocation visualizer. The npm package `leanwire` (../pkg, the very
// build that npm ships) parses what the visitor types; this page's own build
// (../pkg-peers) adds the loops inside wasm, the Rust peers, the counting
// allocator and the arena layouts. Timings run in ./worker.js.
import init, { parseActorPath, decodeDnsMessage, buildDnsQuery, TdsReader } from "../pkg/index.js";
import { wasm as packageWasm } from "../pkg/src/shared.js";
import initPeers, { dnsLayout, pathArena, tdsArena } from "../pkg-peers/leanwire_peers.js";
import dnsSamples from "../dns-samples.json";
import tdsSamples from "../tds-samples.json";
import { SECTIONS, counts } from "./sections.js";
import { toHex, fromHex, parseBytes } from "./bytes.js";
import { barChart, lineChart, COLORS } from "./charts.js";
import { hexDump } from "./hexdump.js";
import { drawArena, blocksWithin } from "./arena.js";
import { tokenView } from "./tds-view.js";
import { time } from "./measure.js";
import { fail } from "./failure.js";
import { element } from "./dom.js";

const $ = (id) => document.getElementById(id);

const [, peers] = await Promise.all([init(), initPeers()]);

// --- State in the URL --------------------------------------------------------

const state = new URLSearchParams(location.hash.slice(1));
/** Writes the inputs into the URL, so that a link gives the same page. */
function keep(values) {
  for (const [key, value] of Object.entries(values)) {
    if (value === null || value === "") state.delete(key);
    else state.set(key, String(value));
  }
  history.replaceState(null, "", `#${state}`);
}

// --- Measuring, in the worker --------------------------------------------------

const worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
const waiting = new Map();
let nextId = 0;
worker.onmessage = ({ data }) => {
  const { resolve, reject } = waiting.get(data.id);
  waiting.delete(data.id);
  if (data.error) reject(new Error(data.error));
  else resolve(data.rows);
};
worker.onerror = (event) => {
  fail("the measuring worker failed", event.message);
  for (const { reject } of waiting.values()) reject(new Error(event.message));
  waiting.clear();
};
/** Rows of `section` measured on `input` by the worker. */
function measureInWorker(section, input) {
  return new Promise((resolve, reject) => {
    const id = nextId++;
    waiting.set(id, { resolve, reject });
    worker.postMessage({ id, section, input });
  });
}

// --- Memory over a run, on this thread -------------------------------------------

const yieldToPage = () => new Promise((resolve) => setTimeout(resolve, 0));
const heapUsed = () => performance.memory?.usedJSHeapSize ?? null;
const SLICES = 60;

/**
 * Runs each implementation `total` times in slices, yielding between them,
 * and samples the JavaScript heap and the memory of the wasm module the
 * implementation runs in. `impl.slice(n)` runs n operations and returns the
 * heap bytes it counted, or null for JavaScript calls.
 */
async function memoryRun(impls, total, draw) {
  const per = Math.max(1, Math.round(total / SLICES));
  const xs = Array.from({ length: SLICES + 1 }, (_, i) => i * per);
  const heap = impls.map(() => new Array(SLICES + 1).fill(null));
  const linear = impls.map(() => new Array(SLICES + 1).fill(null));
  const perOp = impls.map(() => new Array(SLICES + 1).fill(null));
  const results = [];
  for (const [k, impl] of impls.entries()) {
    let counted = 0;
    let grown = 0;
    let last = heapUsed();
    heap[k][0] = last === null ? null : last / 2 ** 20;
    const linearKiB = () => (impl.memory() === null ? null : impl.memory().buffer.byteLength / 2 ** 10);
    linear[k][0] = linearKiB();
    for (let i = 1; i <= SLICES; i++) {
      counted += impl.slice(per) ?? 0;
      const now = heapUsed();
      if (now !== null) {
        grown += Math.max(0, now - last);
        last = now;
        heap[k][i] = now / 2 ** 20;
      }
      linear[k][i] = linearKiB();
      perOp[k][i] = (impl.counted ? counted : grown) / (i * per);
      if (i % 6 === 0 || i === SLICES) draw(xs, heap, linear, perOp);
      await yieldToPage();
    }
    results.push({ id: impl.id, countedPerOp: impl.counted ? counted / (per * SLICES) : null, jsHeapPerOp: grown / (per * SLICES) });
  }
  // Chromium reports the heap in coarse steps unless started with
  // --enable-precise-memory-info: then no figure has bytes below a KiB.
  const precise = heap.flat().some((mb) => mb !== null && Math.round(mb * 2 ** 20) % 1024 !== 0);
  return { results, precise };
}

// --- Results: tables, charts, announcements ------------------------------------

const count = (x) => Math.round(x).toLocaleString("en");
const fmt = (x, digits = 1) => (x === null || x === undefined || Number.isNaN(x) ? "—" : Number.isInteger(x) ? String(x) : x.toFixed(digits));

/** Fills a results table; each row's ratio is to leanwire's row called the same way. */
function showRows(table, rows) {
  const base = (where) => rows.find((r) => r.who === "leanwire" && r.where === where && r.ns);
  table.tBodies[0].replaceChildren(
    ...rows.map((row) => {
      const tr = element("tr", "", { className: row.who });
      tr.dataset.op = row.id;
      const ratio = row.ns && base(row.where) ? `${(row.ns / base(row.where).ns).toFixed(2)}×` : "";
      const heapBytes = row.where === "wasm" ? fmt(row.bytes) : row.jsHeap === undefined ? "…" : row.jsHeap === null ? "—" : `≈ ${fmt(row.jsHeap, 0)} (JS heap)`;
      const cells = row.error
        ? [row.label, row.where === "js" ? "from JavaScript" : "inside wasm", `cannot run: ${row.error}`, "", "", "", ""]
        : [row.label, row.where === "js" ? "from JavaScript" : "inside wasm", time(row.ns), ratio,
          row.where === "wasm" ? fmt(row.allocs, 2) : "—", heapBytes, row.where === "wasm" ? fmt(row.arena) : "—"];
      ["operation", "where", "time", "ratio", "allocs", "bytes", "arena"].forEach((col, i) => {
        const td = element("td", cells[i]);
        td.dataset.col = col;
        tr.append(td);
      });
      return tr;
    }),
  );
  table.hidden = false;
}

/** One sentence per operation on how leanwire, called from JavaScript, compares with each JS peer. */
function announce(live, rows) {
  const sentences = rows
    .filter((r) => r.who === "leanwire" && r.where === "js" && r.ns)
    .map((ours) => {
      const rivals = rows.filter((r) => r.who === "peer" && r.where === "js" && r.op === ours.op && r.ns);
      return `${ours.label}: ${time(ours.ns)} per call from JavaScript${rivals.map((p) => `, ${(ours.ns / p.ns).toFixed(2)}× the time of ${p.label}`).join("")}.`;
    });
  live.textContent = sentences.length > 0 ? sentences.join(" ") : "leanwire could not run on this input.";
}

/** A row's name under its bar. */
const barLabel = (r) => `${r.label.replace(/^leanwire /, "")}${r.where === "wasm" ? " (wasm)" : ""}`;

/** The charts of a measured section: time and bytes per op as bars, memory over the run as lines. */
function sectionCharts(prefix, rows, impls) {
  const ok = rows.filter((r) => r.ns);
  barChart($(`${prefix}-time`), { title: "time per operation", unit: "ns", bars: ok.map((r) => ({ label: barLabel(r), value: r.ns, who: r.who })) });
  const series = impls.map((impl) => ({ label: impl.label, color: impl.color }));
  // Implementations in one module share its memory: one line per module.
  const modules = impls.flatMap((impl, k) => (impl.module && impls.findIndex((o) => o.module === impl.module) === k ? [k] : []));
  const heapCharts = {
    heap: lineChart($(`${prefix}-heap`), { title: "JavaScript heap over the run", x: "operations", y: "MiB", series }),
    wasm: lineChart($(`${prefix}-wasm`), {
      title: "wasm linear memory, while the first implementation in each module runs", x: "operations", y: "KiB",
      series: modules.map((k, i) => ({ label: impls[k].module, color: COLORS.leanwire[i] })),
    }),
    perOp: lineChart($(`${prefix}-per-op`), {
      title: "heap bytes per operation so far (wasm: counted; JS: heap growth)", x: "operations", y: "B / op", series,
    }),
  };
  return (xs, heap, linear, perOp) => {
    heapCharts.heap.set([xs, ...heap]);
    heapCharts.wasm.set([xs, ...modules.map((k) => linear[k])]);
    heapCharts.perOp.set([xs, ...perOp]);
  };
}

/** The bytes and allocations per op as bars, once the memory run has estimated the JS heap's share. */
function perOpCharts(prefix, rows) {
  const ok = rows.filter((r) => r.ns);
  barChart($(`${prefix}-bytes`), {
    title: "heap bytes per operation (wasm: counted; JS: heap growth)", unit: "B",
    bars: ok.map((r) => ({ label: barLabel(r), value: r.where === "wasm" ? r.bytes : r.jsHeap, who: r.who })),
  });
  barChart($(`${prefix}-allocs`), {
    title: "heap allocations per operation (counted in wasm)", unit: "allocations",
    bars: ok.filter((r) => r.where === "wasm").map((r) => ({ label: barLabel(r), value: r.allocs, who: r.who })),
  });
}

/** The measure buttons: one measurement at a time, so that none times or weighs another. */
const MEASURE_BUTTONS = ["actor-measure", "dns-measure", "tds-measure"];

/** Runs `measurement` with every measure button disabled. */
async function exclusively(measurement) {
  for (const id of MEASURE_BUTTONS) $(id).disabled = true;
  try {
    await measurement();
  } finally {
    for (const id of MEASURE_BUTTONS) $(id).disabled = false;
  }
}

/**
 * An implementation of a section (see sections.js) as the memory run
 * drives it: its label and colour in the charts, the wasm memory it runs
 * in (none for plain JavaScript), and `slice(n)`, which runs it n times and
 * returns the heap bytes counted, or null when it is called from JavaScript.
 */
function watched(impl, color) {
  if (impl.run) {
    return {
      id: impl.id, label: `${impl.label} (wasm)`, color, counted: true, module: "the page's own build",
      memory: () => peers.memory,
      slice: (n) => counts(impl.run(n)).bytes,
    };
  }
  return {
    id: impl.id, label: impl.label, color, counted: false, module: impl.who === "leanwire" ? "the npm package" : null,
    memory: () => (impl.who === "leanwire" ? packageWasm.memory : null),
    slice(n) {
      for (let i = 0; i < n; i++) impl.call();
      return null;
    },
  };
}

/**
 * Measures a section: timings in the worker, then memory over a run of
 * `total` operations here, of each implementation the worker could run.
 */
function measureSection(prefix, section, input, total) {
  const live = $(`${prefix}-live`);
  const table = $(`${prefix}-bench`);
  return exclusively(async () => {
    live.classList.remove("error");
    try {
      live.textContent = "timing in the worker…";
      const rows = await measureInWorker(section, input);
      showRows(table, rows);
      announce(live, rows);
      const used = { leanwire: 0, peer: 0 };
      const impls = SECTIONS[section](input)
        .filter((impl) => rows.some((row) => row.id === impl.id && !row.error))
        .map((impl) => watched(impl, COLORS[impl.who][used[impl.who]++ % COLORS[impl.who].length]));
      const draw = sectionCharts(prefix, rows, impls);
      const { results: memory, precise: heapPrecise } = await memoryRun(impls, total, draw);
      for (const row of rows.filter((r) => r.where === "js")) {
        const m = memory.find((r) => r.id === row.id);
        row.jsHeap = m && performance.memory && heapPrecise ? m.jsHeapPerOp : null;
      }
      showRows(table, rows);
      perOpCharts(prefix, rows);
      live.textContent += performance.memory
        ? heapPrecise ? "" : " The JavaScript heap is reported coarsely by this browser, so its chart moves in steps."
        : " This browser does not report its JavaScript heap, so that chart stays empty.";
      table.dataset.done = String(Number(table.dataset.done ?? 0) + 1);
    } catch (error) {
      live.textContent = `the measurement failed: ${error.message}`;
      live.classList.add("error");
    }
  });
}

// --- Actor paths -----------------------------------------------------------------

function showParse() {
  const path = $("path").value;
  const dialect = $("dialect").value;
  keep({ path, dialect });
  let fields;
  try {
    const parsed = parseActorPath(path, dialect);
    fields = [
      ["protocol", parsed.address.protocol],
      ["system", parsed.address.system],
      ["host", parsed.address.host ?? "—"],
      ["port", parsed.address.port ?? "—"],
      ["elements", parsed.elements.map((e) => JSON.stringify(e)).join(" / ") || "(root)"],
      ["uid", parsed.uid ?? "—"],
      ["to_string", parsed.toString()],
      ["to_serialization_format", parsed.toSerializationFormat()],
    ];
  } catch (error) {
    fields = [["error", error.message]];
  }
  $("result").replaceChildren(
    ...fields.flatMap(([name, value]) => {
      const dd = element("dd", String(value), { className: name === "error" ? "error" : "" });
      dd.dataset.field = name;
      return [element("dt", name), dd];
    }),
  );
  showPathArena();
}

let pathArenaTimer = null;

/** Leaves an arena's slider and count with nothing to show, when there is no arena. */
function forgetArena(slider, count) {
  slider.oninput = null;
  slider.max = "0";
  slider.value = "0";
  count.textContent = "";
}
function showPathArena() {
  clearInterval(pathArenaTimer);
  const container = $("path-arena");
  let layout;
  try {
    layout = JSON.parse(pathArena($("path").value, $("dialect").value));
  } catch (error) {
    container.replaceChildren(element("p", `no arena: ${error.message}`, { className: "error" }));
    forgetArena($("path-arena-step"), $("path-arena-count"));
    $("path-arena-play").onclick = null;
    return;
  }
  const step = drawArena(container, layout);
  const slider = $("path-arena-step");
  const show = (n) => {
    step(n);
    slider.value = String(n);
    $("path-arena-count").textContent = `${n} of ${layout.blocks.length} allocations · ${layout.arenaBytes} arena bytes in all`;
  };
  slider.max = String(layout.blocks.length);
  slider.oninput = () => {
    clearInterval(pathArenaTimer);
    show(Number(slider.value));
  };
  $("path-arena-play").onclick = () => {
    clearInterval(pathArenaTimer);
    let n = 0;
    show(0);
    pathArenaTimer = setInterval(() => {
      show(++n);
      if (n >= layout.blocks.length) clearInterval(pathArenaTimer);
    }, 300);
  };
  show(layout.blocks.length);
}

$("parse-form").addEventListener("submit", (event) => {
  event.preventDefault();
  showParse();
});
$("actor-measure-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const path = $("path").value;
  const dialect = $("dialect").value;
  const total = Math.max(1000, Number($("actor-ops").value) || 200000);
  measureSection("actor", "actor", { path, dialect }, total);
});

// --- DNS ---------------------------------------------------------------------------

let dnsBytes = new Uint8Array();

function showDns() {
  const text = $("dns-hex").value;
  const out = $("dns-result");
  try {
    dnsBytes = parseBytes(text);
  } catch (error) {
    // Nothing to measure until the text is a message again.
    dnsBytes = new Uint8Array();
    out.replaceChildren(element("p", error.message, { className: "error", id: "dns-error" }));
    return;
  }
  keep({ dns: toHex(dnsBytes) });
  const layout = JSON.parse(dnsLayout(dnsBytes));
  hexDump({ dump: $("dns-dump"), list: $("dns-fields"), info: $("dns-field") }, dnsBytes, layout);
  const report = decodeDnsMessage(dnsBytes);
  if (!report.ok) {
    out.replaceChildren(element("p", report.error, { className: "error", id: "dns-error" }));
    return;
  }
  const h = report.header;
  const flags = ["qr", "aa", "tc", "rd", "ra", "ad", "cd"].filter((f) => h[f]).join(" ");
  const parts = [element("p", `id ${h.id} · ${h.opcode} · ${h.rcode} · flags ${flags || "none"}`, { id: "dns-header" })];
  if (report.edns) {
    const options = report.edns.options.map((o) => o.text).join("; ");
    parts.push(element("p", `EDNS ${report.edns.version}, payload ${report.edns.payload}${report.edns.do ? ", DO" : ""}${options ? ` · ${options}` : ""}`));
  }
  for (const section of ["question", "answer", "authority", "additional"]) {
    const records = report[section];
    if (records.length === 0) continue;
    parts.push(element("h3", section));
    const table = element("table", "");
    table.dataset.section = section;
    for (const r of records) {
      const tr = element("tr", "");
      const cells = section === "question" ? [r.name, r.class, r.type] : [r.name, r.ttl, r.class, r.type, r.rdata];
      for (const cell of cells) tr.append(element("td", String(cell)));
      table.append(tr);
    }
    parts.push(table);
  }
  out.replaceChildren(...parts);
}

for (const [i, m] of dnsSamples.messages.entries()) {
  $("dns-sample").append(element("option", m.file, { value: String(i) }));
}
$("dns-sample").addEventListener("change", () => {
  const sample = dnsSamples.messages[Number($("dns-sample").value)];
  if (!sample) return;
  $("dns-hex").value = sample.hex;
  showDns();
});
// Text typed or pasted is no sample, and choosing the sample again restores it.
$("dns-hex").addEventListener("input", () => {
  $("dns-sample").value = "";
});
$("dns-form").addEventListener("submit", (event) => {
  event.preventDefault();
  showDns();
});
$("dns-build-form").addEventListener("submit", (event) => {
  event.preventDefault();
  try {
    const query = buildDnsQuery($("dns-name").value, $("dns-type").value, { dnssec: $("dns-dnssec").checked });
    $("dns-hex").value = toHex(query);
    $("dns-sample").value = "";
    keep({ qname: $("dns-name").value, qtype: $("dns-type").value });
    showDns();
  } catch (error) {
    $("dns-result").replaceChildren(element("p", error.message, { className: "error", id: "dns-error" }));
  }
});
$("dns-measure-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const total = Math.max(1000, Number($("dns-ops").value) || 50000);
  measureSection("dns", "dns", { bytes: dnsBytes }, total);
});

// --- TDS ---------------------------------------------------------------------------

const tds = { reader: null, bytes: new Uint8Array(), fed: 0, tokens: 0, rows: 0, view: tokenView($("tds-tokens")) };

for (const [i, sample] of tdsSamples.cases.entries()) {
  $("tds-sample").append(element("option", sample.name, { value: String(i) }));
}
const tdsSample = () => tdsSamples.cases[Number($("tds-sample").value)];

function tdsReset() {
  const sample = tdsSample();
  keep({ tds: $("tds-sample").value, chunk: $("tds-chunk").value });
  tds.reader = new TdsReader({ tokensOnly: sample.tokens_only });
  tds.bytes = fromHex(sample.hex);
  tds.fed = 0;
  tds.tokens = 0;
  tds.rows = 0;
  tds.view.reset();
  tdsProgress();
  showTdsArena();
}

function tdsProgress(ended) {
  const state = ended ?? (tds.fed < tds.bytes.length ? "reading" : "all bytes fed");
  $("tds-progress").textContent = `fed ${tds.fed} of ${tds.bytes.length} bytes · ${tds.tokens} tokens · ${tds.rows} rows · ${state}`;
  $("tds-progress").dataset.fed = String(tds.fed);
  $("tds-progress").dataset.rows = String(tds.rows);
}

function tdsStep() {
  if (tds.fed >= tds.bytes.length) return false;
  const chunk = Math.max(1, Number($("tds-chunk").value) || 1);
  tds.reader.feed(tds.bytes.subarray(tds.fed, tds.fed + chunk));
  tds.fed = Math.min(tds.bytes.length, tds.fed + chunk);
  let ended;
  try {
    for (let token = tds.reader.next(); token !== null; token = tds.reader.next()) {
      tds.view.add(token);
      tds.tokens += 1;
      if (token.token === "ROW" || token.token === "NBCROW") tds.rows += 1;
    }
  } catch (error) {
    $("tds-tokens").append(element("li", error.message, { className: "error" }));
    tds.fed = tds.bytes.length;
    ended = "stopped at a defect";
  }
  if (ended === undefined && tds.fed >= tds.bytes.length) {
    try {
      tds.reader.finish();
      ended = "complete";
    } catch (error) {
      ended = `ended: ${error.message}`;
    }
  }
  tdsProgress(ended);
  return tds.fed < tds.bytes.length;
}

function showTdsArena() {
  const sample = tdsSample();
  const container = $("tds-arena");
  let layout;
  try {
    layout = JSON.parse(tdsArena(tds.bytes, sample.tokens_only, 16));
  } catch (error) {
    container.replaceChildren(element("p", `no column metadata to show: ${error.message}`, { className: "error" }));
    forgetArena($("tds-arena-step"), $("tds-arena-count"));
    return;
  }
  const step = drawArena(container, layout);
  const slider = $("tds-arena-step");
  const frames = [{ fed: 0, used: 0 }, ...layout.frames];
  slider.max = String(Math.max(0, frames.length - 1));
  const show = (i) => {
    const frame = frames[i] ?? { fed: 0, used: 0 };
    step(blocksWithin(layout, frame.used));
    $("tds-arena-count").textContent = `${frame.fed} bytes fed · ${frame.used} arena bytes used`;
  };
  slider.oninput = () => show(Number(slider.value));
  slider.value = slider.max;
  show(frames.length - 1);
}

/** The chunk sizes the throughput chart compares, smallest first; sizes past the stream's length are its whole. */
const TDS_CHUNKS = [1, 16, 64, 512, 4096];
function tdsMeasure() {
  const live = $("tds-live");
  const bytes = tds.bytes;
  const chunks = [...TDS_CHUNKS.filter((size) => size < bytes.length), "whole"];
  return exclusively(() => tdsMeasured(live, bytes, chunks));
}

async function tdsMeasured(live, bytes, chunks) {
  live.classList.remove("error");
  live.textContent = "timing in the worker…";
  try {
    const rows = await measureInWorker("tds", { bytes, tokensOnly: tdsSample().tokens_only, chunks });
    const unit = rows[0].rows > 0 ? "rows" : "tokens";
    const rate = (r, ns) => (r[unit] * 1e9) / ns;
    const chart = lineChart($("tds-chart"), {
      title: "throughput by chunk size", x: "bytes per chunk (log)", y: "per second", logX: true,
      series: [{ label: "from JavaScript (TdsReader)", color: COLORS.leanwire[0] }, { label: "inside wasm", color: COLORS.leanwire[1] }],
    });
    // uPlot wants its x values in order; the whole stream may be shorter than the largest chunk.
    const plotted = [...rows].map((r) => ({ ...r, x: r.chunk === "whole" ? r.bytes : r.chunk })).sort((a, b) => a.x - b.x);
    chart.set([plotted.map((r) => r.x), plotted.map((r) => rate(r, r.jsNs)), plotted.map((r) => rate(r, r.wasmNs))]);
    $("tds-bench").tBodies[0].replaceChildren(
      ...rows.map((r) => {
        const tr = element("tr", "", { className: "leanwire" });
        tr.dataset.chunk = String(r.chunk);
        const cells = [r.chunk === "whole" ? `whole (${r.bytes} B)` : `${r.chunk} B`, time(r.jsNs), count(rate(r, r.jsNs)), time(r.wasmNs), count(rate(r, r.wasmNs)), fmt(r.wasmAllocs, 2)];
        for (const cell of cells) tr.append(element("td", cell));
        return tr;
      }),
    );
    $("tds-bench").hidden = false;
    const whole = rows.at(-1);
    const one = rows[0];
    live.textContent = `${count(rate(whole, whole.jsNs))} ${unit}/s from JavaScript on the whole stream; fed one byte at a time it takes ${(one.jsNs / whole.jsNs).toFixed(1)}× as long (${(one.wasmNs / whole.wasmNs).toFixed(1)}× inside wasm).`;
    $("tds-bench").dataset.done = String(Number($("tds-bench").dataset.done ?? 0) + 1);
  } catch (error) {
    live.textContent = `cannot measure this sample: ${error.message}`;
    live.classList.add("error");
  }
}

$("tds-sample").addEventListener("change", tdsReset);
$("tds-reset").addEventListener("click", tdsReset);
$("tds-step").addEventListener("click", tdsStep);
$("tds-chunk").addEventListener("change", () => keep({ chunk: $("tds-chunk").value }));
$("tds-run").addEventListener("click", () => {
  while (tdsStep());
});
$("tds-measure-form").addEventListener("submit", (event) => {
  event.preventDefault();
  tdsMeasure();
});

// --- Start from the URL's state -----------------------------------------------------

if (state.has("path")) $("path").value = state.get("path");
if (state.has("dialect")) $("dialect").value = state.get("dialect");
if (state.has("qname")) $("dns-name").value = state.get("qname");
if (state.has("qtype")) $("dns-type").value = state.get("qtype");
if (state.has("tds") && tdsSamples.cases[Number(state.get("tds"))]) $("tds-sample").value = state.get("tds");
if (state.has("chunk")) $("tds-chunk").value = state.get("chunk");
$("dns-hex").value = state.get("dns") ?? dnsSamples.messages[0].hex;
if (!state.has("dns")) $("dns-sample").value = "0";

showParse();
showDns();
tdsReset();
$("status").textContent = "ready";
$("status").dataset.ready = "true";
