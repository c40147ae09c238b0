// A defect that stops the page, shown where a visitor sees it.

const status = () => document.getElementById("status");

/** Shows `error` under the page's title, after `what`, and marks the page as failed. */
export function fail(what, error) {
  const box = document.getElementById("failure");
  box.hidden = false;
  box.append(Object.assign(document.createElement("p"), { textContent: `${what}: ${error?.message ?? error}` }));
  status().textContent = "failed";
  status().dataset.ready = "failed";
}
