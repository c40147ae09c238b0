// A seeded linear congruential generator (the constants of C's `rand`), so
// that the tests' random inputs are the same on every run.

/** A generator from `seed`: each call returns its next state, an integer in [0, 2^31). */
export function seeded(seed) {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state;
  };
}
