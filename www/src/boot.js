// Loads the page, so that a module or WebAssembly that fails to load is
// shown on the page rather than leaving "loading…" on screen.
import { fail } from "./failure.js";

addEventListener("error", (event) => fail("error", event.error ?? event.message));
addEventListener("unhandledrejection", (event) => fail("error", event.reason));

try {
  await import("./main.js");
} catch (error) {
  fail("the page cannot start", error);
}
