// Timing by batches: each sample is a batch of calls long enough for
// `performance.now()` (coarsened to 0.1 ms or more in browsers) to resolve it,
// and the implementations of one operation are sampled in turn, so that
// a burst of noise lands on all of them alike.

/** The median of `values`. */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Calls of `call` per batch so that one batch takes about `targetMs`. */
export function batchSize(call, targetMs) {
  for (let n = 1; ; n *= 4) {
    const start = performance.now();
    for (let i = 0; i < n; i++) call();
    const ms = performance.now() - start;
    if (ms > targetMs / 4 || n >= 1 << 22) return Math.max(1, Math.round((n * targetMs) / Math.max(ms, 0.01)));
  }
}

/**
 * The median nanoseconds per call of each of `calls`, from `samples`
 * interleaved batches of about `targetMs` each.
 */
export function race(calls, { samples = 15, targetMs = 8 } = {}) {
  for (const call of calls) for (let i = 0; i < 200; i++) call();
  const sizes = calls.map((call) => batchSize(call, targetMs));
  const times = calls.map(() => []);
  for (let s = 0; s < samples; s++) {
    calls.forEach((call, i) => {
      const n = sizes[i];
      const start = performance.now();
      for (let j = 0; j < n; j++) call();
      times[i].push(((performance.now() - start) * 1e6) / n);
    });
  }
  return times.map(median);
}

/**
 * Nanoseconds per iteration of a loop that runs inside WebAssembly:
 * `run(n)` runs n iterations in one call and returns what it counted.
 * The median of `samples` calls, each of about `targetMs`.
 */
export function inWasm(run, { samples = 5, targetMs = 20 } = {}) {
  let n = 16;
  let last;
  for (;;) {
    const start = performance.now();
    last = run(n);
    const ms = performance.now() - start;
    if (ms > targetMs / 4 || n >= 1 << 24) {
      n = Math.max(1, Math.round((n * targetMs) / Math.max(ms, 0.01)));
      break;
    }
    n *= 4;
  }
  const times = [];
  for (let s = 0; s < samples; s++) {
    const start = performance.now();
    last = run(n);
    times.push(((performance.now() - start) * 1e6) / n);
  }
  return { ns: median(times), iterations: n, counts: last };
}

/** Nanoseconds as a person reads them: three significant digits in ns, µs or ms. */
export function time(ns) {
  if (ns >= 999.5e3) return `${(ns / 1e6).toPrecision(3)} ms`;
  if (ns >= 999.5) return `${(ns / 1e3).toPrecision(3)} µs`;
  return `${ns.toPrecision(3)} ns`;
}
