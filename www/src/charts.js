// Charts drawn with uPlot. Every chart keeps the number of points it last
// drew in its container's `data-points`, so a test can tell a chart with
// data from an empty frame.
import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";

/** The colours of leanwire and of its peers, one per series. */
export const COLORS = {
  leanwire: ["#1d6fb8", "#0b3d6b", "#5aa3e0"],
  peer: ["#c2570c", "#8f3a00", "#e9965a"],
};

function width(container) {
  return Math.max(280, Math.min(container.clientWidth || 640, 900));
}

/** The plot drawn in each container, and the observer that keeps it as wide as the container. */
const drawn = new WeakMap();

/** Draws `plot` into `container` in place of what it held, and keeps it sized. */
function place(container, make) {
  const old = drawn.get(container);
  if (old) {
    old.observer.disconnect();
    old.plot.destroy();
  }
  container.replaceChildren();
  const plot = make();
  const observer = new ResizeObserver(() => plot.setSize({ width: width(container), height: plot.height }));
  observer.observe(container);
  drawn.set(container, { plot, observer });
  return plot;
}

function count(container, data) {
  const points = data.slice(1).reduce((n, ys) => n + ys.filter((y) => y !== null && y !== undefined && Number.isFinite(y)).length, 0);
  container.dataset.points = String(points);
}

/**
 * A line chart over `series` ({label, color}). `set(data)` redraws it from
 * uPlot's columns: `[xs, ys0, ys1, …]`, with `null` where a series has no point.
 */
export function lineChart(container, { title, x, y, series, logX = false, height = 240 }) {
  const plot = place(container, () => new uPlot(
    {
      title,
      width: width(container),
      height,
      scales: { x: { time: false, distr: logX ? 3 : 1, log: 2 } },
      axes: [{ label: x }, { label: y, size: 64 }],
      series: [{ label: x }, ...series.map((s) => ({ label: s.label, stroke: s.color, width: 2, spanGaps: true, points: { show: logX } }))],
      legend: { live: false },
    },
    [[], ...series.map(() => [])],
    container,
  ));
  container.dataset.points = "0";
  return {
    set(data) {
      plot.setData(data);
      count(container, data);
    },
  };
}

/**
 * A bar chart of `bars` ({label, value, who}), leanwire's bars and the
 * peers' in their own colours.
 */
export function barChart(container, { title, unit, bars, height = 300 }) {
  const labels = bars.map((b) => b.label);
  const xs = bars.map((_, i) => i);
  const pick = (who) => bars.map((b) => (b.who === who && Number.isFinite(b.value) ? b.value : null));
  const data = [xs, pick("leanwire"), pick("peer")];
  const bar = uPlot.paths.bars({ size: [0.6, 80] });
  const plot = place(container, () => new uPlot(
    {
      title,
      width: width(container),
      height,
      scales: { x: { time: false, range: [-0.5, bars.length - 0.5] }, y: { range: (_, min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: [
        { values: (_, ticks) => ticks.map((t) => labels[t] ?? ""), splits: () => xs, gap: 4, size: 110, rotate: -35 },
        { label: unit, size: 64 },
      ],
      series: [
        { label: "operation" },
        { label: "leanwire", fill: COLORS.leanwire[0], stroke: COLORS.leanwire[0], paths: bar, points: { show: false } },
        { label: "peer", fill: COLORS.peer[0], stroke: COLORS.peer[0], paths: bar, points: { show: false } },
      ],
      legend: { show: true, live: false },
    },
    data,
    container,
  ));
  count(container, data);
  return plot;
}
