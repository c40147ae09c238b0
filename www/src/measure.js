// Timing by batches: each sample is a batch of calls long enough for
// `performance.now()` (coarsened to 0.1 ms or more in browsers) to resolve it,
// and the implementations of one operation are sampled in turn, so that
// a burst of noise lands on all of them alike.

/** The median of `values`. */
export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/**
 * How many operations make `runs(n)`, which runs n of them, take about
 * `targetMs`.
 */
function size(runs, targetMs) {
  const timed = (n) => {
    const start = performance.now();
    runs(n);
    return performance.now() - start;
  };
  for (let n = 1; ; n *= 4) {
    let ms = timed(n);
    if (ms > targetMs / 4 || n >= 1 << 24) {
      // A pause (a collection, another process) can stretch one batch many
      // times over, which would size the samples too short for the timer
      // to see: the batch counts at its fastest of three.
      ms = Math.min(ms, timed(n), timed(n));
      return Math.max(1, Math.round((n * targetMs) / Math.max(ms, 0.01)));
    }
  }
}

/** Runs `call` until it is compiled and warm: 200 times, or 50 ms if that comes first. */
function warm(call) {
  const until = performance.now() + 50;
  for (let i = 0; i < 200 && performance.now() < until; i++) call();
}

/**
 * The median nanoseconds per call of each of `calls`, from `samples`
 * interleaved batches of about `targetMs` each.
 */
export function race(calls, { samples = 15, targetMs = 8 } = {}) {
  calls.forEach(warm);
  const sizes = calls.map((call) => size((n) => {
    for (let i = 0; i < n; i++) call();
  }, targetMs));
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
 * The median of `samples` calls, each of about `targetMs`, with the counts
 * of the last.
 */
export function inWasm(run, { samples = 5, targetMs = 20 } = {}) {
  const iterations = size(run, targetMs);
  const times = [];
  let counts;
  for (let s = 0; s < samples; s++) {
    const start = performance.now();
    counts = run(iterations);
    times.push(((performance.now() - start) * 1e6) / iterations);
  }
  return { ns: median(times), iterations, counts };
}

/** Nanoseconds as a person reads them: three significant digits in ns, µs or ms. */
export function time(ns) {
  if (ns >= 999.5e3) return `${(ns / 1e6).toPrecision(3)} ms`;
  if (ns >= 999.5) return `${(ns / 1e3).toPrecision(3)} µs`;
  return `${ns.toPrecision(3)} ns`;
}
