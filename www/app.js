// The allocation visualizer: parses with the npm package `leanwire` (./pkg)
// and measures it next to its peer from the page's own build (./pkg-peers).
import init, { parseActorPath, benchmark } from "./pkg/leanwire.js";
import initPeers, { peerBenchmark } from "./pkg-peers/leanwire_peers.js";

const $ = (id) => document.getElementById(id);

await Promise.all([init(), initPeers()]);
$("status").textContent = "ready";
$("status").dataset.ready = "true";

/** The rows of the measurement: which module runs what. */
const OPERATIONS = [
  { id: "leanwire-parse", label: "leanwire ActorPath::parse", kind: "ours", run: (input, n, d) => benchmark("parse", input, n, d) },
  { id: "leanwire-arena", label: "leanwire PathNode::parse", kind: "ours", run: (input, n, d) => benchmark("arena", input, n, d) },
  { id: "peer-url", label: "url::Url::parse", kind: "peer", run: (input, n) => peerBenchmark("parse", input, n) },
];

function showParse() {
  const report = parseActorPath($("path").value, $("dialect").value);
  const fields = report.ok
    ? [
        ["protocol", report.address.protocol],
        ["system", report.address.system],
        ["host", report.address.host ?? "—"],
        ["port", report.address.port ?? "—"],
        ["elements", report.elements.map((e) => JSON.stringify(e)).join(" / ") || "(root)"],
        ["uid", report.uid ?? "—"],
        ["to_string", report.to_string],
        ["to_serialization_format", report.to_serialization_format],
      ]
    : [["error", report.error]];
  $("result").replaceChildren(
    ...fields.flatMap(([name, value]) => {
      const dt = document.createElement("dt");
      dt.textContent = name;
      const dd = document.createElement("dd");
      dd.dataset.field = name;
      dd.textContent = String(value);
      if (name === "error") dd.className = "error";
      return [dt, dd];
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

function showRuns(rows) {
  const body = $("bench").tBodies[0];
  body.replaceChildren(
    ...rows.map(({ op, result, error }) => {
      const tr = document.createElement("tr");
      tr.className = op.kind;
      tr.dataset.op = op.id;
      const cells = error
        ? [op.label, error, "", "", ""]
        : [op.label, `${fmt(result.ns)} ns`, fmt(result.allocs, 2), fmt(result.bytes), fmt(result.arena)];
      const names = ["operation", "time", "allocs", "bytes", "arena"];
      cells.forEach((text, i) => {
        const td = document.createElement("td");
        td.dataset.col = names[i];
        td.textContent = text;
        tr.append(td);
      });
      return tr;
    }),
  );
  $("bench").hidden = false;

  const ok = rows.filter((r) => !r.error);
  const chart = $("chart");
  chart.replaceChildren();
  for (const [title, key, unit] of [["time per op", "ns", "ns"], ["heap bytes per op", "bytes", "B"]]) {
    const heading = document.createElement("h3");
    heading.textContent = title;
    chart.append(heading);
    const max = Math.max(1e-9, ...ok.map((r) => r.result[key]));
    for (const { op, result } of ok) {
      const label = document.createElement("span");
      label.className = "bar-label";
      label.textContent = `${op.label.replace("leanwire ", "")}: ${fmt(result[key])} ${unit}`;
      const bar = document.createElement("div");
      bar.className = `bar ${op.kind}`;
      bar.style.width = `${(100 * result[key]) / max}%`;
      chart.append(label, bar);
    }
  }
  chart.hidden = false;
}

$("parse-form").addEventListener("submit", (event) => {
  event.preventDefault();
  showParse();
});

$("run-form").addEventListener("submit", (event) => {
  event.preventDefault();
  const button = $("run");
  button.disabled = true;
  // Let the disabled button paint before the measurement takes the thread.
  setTimeout(() => {
    const input = $("path").value;
    const dialect = $("dialect").value;
    const n = Math.max(100, Number($("iterations").value) || 100000);
    const rows = OPERATIONS.map((op) => {
      try {
        return { op, result: measure(op, input, n, dialect) };
      } catch (error) {
        return { op, error: `cannot run: ${error.message}` };
      }
    });
    showRuns(rows);
    button.disabled = false;
    $("bench").dataset.done = String(Number($("bench").dataset.done ?? 0) + 1);
  }, 0);
});

showParse();
