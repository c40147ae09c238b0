// The allocation visualizer: parses and decodes with the npm package
// `leanwire` (./pkg) and measures it next to its peers from the page's own
// build (./pkg-peers).
import init, { parseActorPath, decodeDnsMessage, TdsReader } from "./pkg/index.js";
import initPeers, { benchmark, benchmarkTds, peerBenchmark } from "./pkg-peers/leanwire_peers.js";

const $ = (id) => document.getElementById(id);
const element = (tag, text, props = {}) => Object.assign(document.createElement(tag), { textContent: text ?? "" }, props);

const [samples, tdsSamples] = await Promise.all([
  fetch("./dns-samples.json").then((r) => r.json()),
  fetch("./tds-samples.json").then((r) => r.json()),
  init(),
  initPeers(),
]);
$("status").textContent = "ready";
$("status").dataset.ready = "true";

/** The actor-path rows of the measurement: which module runs what. */
const ACTOR_OPERATIONS = [
  { id: "leanwire-parse", label: "leanwire ActorPath::parse", kind: "ours", run: (input, n, d) => benchmark("parse", input, n, d) },
  { id: "leanwire-arena", label: "leanwire PathNode::parse", kind: "ours", run: (input, n, d) => benchmark("arena", input, n, d) },
  { id: "peer-url", label: "url::Url::parse", kind: "peer", run: (input, n) => peerBenchmark("parse", input, n) },
];

/** The DNS rows: leanwire's decode next to hickory-proto's. */
const DNS_OPERATIONS = [
  { id: "leanwire-dns", label: "leanwire Message::parse", kind: "ours", run: (hex, n) => benchmark("dns_decode", hex, n) },
  { id: "peer-hickory", label: "hickory-proto Message::from_vec", kind: "peer", run: (hex, n) => peerBenchmark("dns_decode", hex, n) },
];

function showParse() {
  let fields;
  try {
    const path = parseActorPath($("path").value, $("dialect").value);
    fields = [
      ["protocol", path.address.protocol],
      ["system", path.address.system],
      ["host", path.address.host ?? "—"],
      ["port", path.address.port ?? "—"],
      ["elements", path.elements.map((e) => JSON.stringify(e)).join(" / ") || "(root)"],
      ["uid", path.uid ?? "—"],
      ["to_string", path.toString()],
      ["to_serialization_format", path.toSerializationFormat()],
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
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Runs `op` three times and keeps the median time and its counts. */
function measure(op, input, n, dialect) {
  const runs = [];
  for (let i = 0; i < 3; i++) {
    const start = performance.now();
    const run = op.run(input, n, dialect);
    const ns = ((performance.now() - start) * 1e6) / n;
    runs.push({ ns, allocs: run.allocations / n, bytes: run.bytes / n, arena: run.arenaBytesPerOp });
    run.free();
  }
  const ns = median(runs.map((r) => r.ns));
  return { ...runs.find((r) => r.ns === ns), ns };
}

const fmt = (x, digits = 1) => (Number.isInteger(x) ? String(x) : x.toFixed(digits));

/** Fills a results table and its bar chart. */
function showRuns(table, chart, rows) {
  table.tBodies[0].replaceChildren(
    ...rows.map(({ op, result, error }) => {
      const tr = element("tr", "", { className: op.kind });
      tr.dataset.op = op.id;
      const cells = error
        ? [op.label, error, "", "", ""]
        : [op.label, `${fmt(result.ns)} ns`, fmt(result.allocs, 2), fmt(result.bytes), fmt(result.arena)];
      ["operation", "time", "allocs", "bytes", "arena"].forEach((name, i) => {
        const td = element("td", cells[i]);
        td.dataset.col = name;
        tr.append(td);
      });
      return tr;
    }),
  );
  table.hidden = false;

  const ok = rows.filter((r) => !r.error);
  chart.replaceChildren();
  for (const [title, key, unit] of [["time per op", "ns", "ns"], ["heap bytes per op", "bytes", "B"]]) {
    chart.append(element("h3", title));
    const max = Math.max(1e-9, ...ok.map((r) => r.result[key]));
    for (const { op, result } of ok) {
      const bar = element("div", "", { className: `bar ${op.kind}` });
      bar.style.width = `${(100 * result[key]) / max}%`;
      chart.append(element("span", `${op.label.replace("leanwire ", "")}: ${fmt(result[key])} ${unit}`, { className: "bar-label" }), bar);
    }
  }
  chart.hidden = false;
  table.dataset.done = String(Number(table.dataset.done ?? 0) + 1);
}

/** Measures `operations` on `input` after the button has had time to paint as busy. */
function runAll(button, table, chart, operations, input, n, dialect) {
  button.disabled = true;
  setTimeout(() => {
    const rows = operations.map((op) => {
      try {
        return { op, result: measure(op, input, Math.max(100, n), dialect) };
      } catch (error) {
        return { op, error: `cannot run: ${error.message}` };
      }
    });
    showRuns(table, chart, rows);
    button.disabled = false;
  }, 0);
}

function showDns() {
  const hex = $("dns-hex").value.replace(/\s+/g, "");
  const bytes = /^([0-9a-fA-F]{2})*$/.test(hex) ? Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16)) : null;
  const report = bytes ? decodeDnsMessage(bytes) : { ok: false, error: "not hex" };
  const out = $("dns-result");
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

for (const [i, m] of samples.messages.entries()) {
  $("dns-sample").append(element("option", m.file, { value: String(i) }));
}
const pickSample = () => {
  $("dns-hex").value = samples.messages[Number($("dns-sample").value)].hex;
  showDns();
};

$("parse-form").addEventListener("submit", (event) => {
  event.preventDefault();
  showParse();
});
$("run-form").addEventListener("submit", (event) => {
  event.preventDefault();
  runAll($("run"), $("bench"), $("chart"), ACTOR_OPERATIONS, $("path").value, Number($("iterations").value) || 100000, $("dialect").value);
});
$("dns-sample").addEventListener("change", pickSample);
$("dns-form").addEventListener("submit", (event) => {
  event.preventDefault();
  showDns();
});
$("dns-run-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const hex = $("dns-hex").value.replace(/\s+/g, "");
  runAll($("dns-run"), $("dns-bench"), $("dns-chart"), DNS_OPERATIONS, hex, Number($("dns-iterations").value) || 20000);
});

// --- TDS: step through a stream, any chunk size at a time.
const hexToBytes = (hex) => Uint8Array.from(hex.match(/../g) ?? [], (h) => parseInt(h, 16));
const tds = { reader: null, bytes: new Uint8Array(), fed: 0, tokens: 0, rows: 0 };

for (const [i, sample] of tdsSamples.cases.entries()) {
  $("tds-sample").append(element("option", sample.name, { value: String(i) }));
}

function tdsReset() {
  const sample = tdsSamples.cases[Number($("tds-sample").value)];
  tds.reader = new TdsReader({ tokensOnly: sample.tokens_only });
  tds.bytes = hexToBytes(sample.hex);
  tds.fed = 0;
  tds.tokens = 0;
  tds.rows = 0;
  $("tds-tokens").replaceChildren();
  tdsProgress();
}

function tdsProgress(ended) {
  const state = ended ?? (tds.fed < tds.bytes.length ? "reading" : "all bytes fed");
  $("tds-progress").textContent =
    `fed ${tds.fed} of ${tds.bytes.length} bytes · ${tds.tokens} tokens · ${tds.rows} rows · ${state}`;
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
      $("tds-tokens").append(element("li", JSON.stringify(token)));
      tds.tokens += 1;
      if (token.token === "ROW" || token.token === "NBCROW") tds.rows += 1;
    }
  } catch (error) {
    $("tds-tokens").append(element("li", `${error.message} (offset ${error.offset})`, { className: "error" }));
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
  $("tds-tokens").lastElementChild?.scrollIntoView({ block: "nearest" });
  return tds.fed < tds.bytes.length;
}

$("tds-sample").addEventListener("change", tdsReset);
$("tds-reset").addEventListener("click", tdsReset);
$("tds-step").addEventListener("click", tdsStep);
$("tds-run").addEventListener("click", () => {
  while (tdsStep());
});
$("tds-measure-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const sample = tdsSamples.cases[Number($("tds-sample").value)];
  if (sample.tokens_only) {
    $("tds-progress").textContent = "the measurement reads packets: pick a sample with packet headers";
    return;
  }
  const n = Math.max(10, Number($("tds-iterations").value) || 2000);
  const rows = [];
  for (const chunk of [sample.hex.length / 2, 4096, Math.max(1, Number($("tds-chunk").value) || 1)]) {
    const start = performance.now();
    const run = benchmarkTds(sample.hex, chunk, n);
    const seconds = (performance.now() - start) / 1000;
    const perRow = run.rows * n;
    rows.push({
      chunk,
      nsPerRow: (seconds * 1e9) / perRow,
      mbPerS: (run.tokenBytes * n) / seconds / 1e6,
      allocs: run.allocations / perRow,
      bytes: run.bytes / perRow,
    });
    run.free();
  }
  const body = $("tds-bench").tBodies[0];
  body.replaceChildren(
    ...rows.map((r, i) => {
      const tr = element("tr", "", { className: "ours" });
      tr.dataset.chunk = ["whole", "4k", "chosen"][i];
      const cells = [`${r.chunk} B`, `${fmt(r.nsPerRow)} ns`, fmt(r.mbPerS), fmt(r.allocs, 2), fmt(r.bytes)];
      ["chunk", "time", "mbps", "allocs", "bytes"].forEach((col, j) => {
        const td = element("td", cells[j]);
        td.dataset.col = col;
        tr.append(td);
      });
      return tr;
    }),
  );
  $("tds-bench").hidden = false;
  $("tds-bench").dataset.done = String(Number($("tds-bench").dataset.done ?? 0) + 1);
});

showParse();
pickSample();
tdsReset();
