// An annotated hex dump: each byte is coloured by the part of the message it
// belongs to, and pointing at a byte (or focusing its field in the list)
// highlights its field and names it.

import { element } from "./dom.js";

/** Where a span is, in words. */
function describe(span) {
  const where = span.record === null ? span.section : `${span.section} ${span.record + 1}`;
  const range = span.end - span.start === 1 ? `byte ${span.start}` : `bytes ${span.start}–${span.end - 1}`;
  return `${range} · ${where} · ${span.field}${span.text ? `: ${span.text}` : ""}`;
}

/**
 * Draws `bytes` into `dump`, annotated by `layout` (what `dnsLayout`
 * returns), and lists the fields in `list`; `info` names the field under the
 * pointer.
 */
export function hexDump({ dump, list, info }, bytes, layout) {
  const owner = new Int32Array(bytes.length).fill(-1);
  layout.spans.forEach((span, i) => owner.fill(i, span.start, span.end));
  /** The byte cells of each span, by the span's index. */
  const cells = layout.spans.map(() => []);
  const lines = [];
  for (let line = 0; line < bytes.length; line += 16) {
    const row = element("div", "", { className: "hex-line" });
    row.append(element("span", line.toString(16).padStart(4, "0"), { className: "hex-offset" }));
    for (let at = line; at < Math.min(bytes.length, line + 16); at++) {
      const span = layout.spans[owner[at]];
      const cell = element("span", bytes[at].toString(16).padStart(2, "0"), {
        className: `hex-byte part-${span.section}`,
      });
      cell.dataset.offset = String(at);
      cell.dataset.span = String(owner[at]);
      if (layout.error && at === layout.error.offset) cell.classList.add("hex-defect");
      cells[owner[at]].push(cell);
      row.append(cell);
    }
    lines.push(row);
  }
  dump.replaceChildren(...lines);

  let lit = -1;
  /** Lights the field at `index` (-1: none), and only the cells that change. */
  const mark = (index, on) => {
    for (const cell of cells[index] ?? []) cell.classList.toggle("lit", on);
    list.children[index]?.classList.toggle("lit", on);
  };
  const light = (index) => {
    if (index === lit) return;
    mark(lit, false);
    mark(index, true);
    lit = index;
    info.textContent = describe(layout.spans[index]);
  };
  dump.onmouseover = (event) => {
    const span = event.target.dataset?.span;
    if (span !== undefined) light(Number(span));
  };
  list.replaceChildren(
    ...layout.spans.map((span, i) => {
      const item = element("li", describe(span), { tabIndex: 0, className: `part-${span.section}` });
      item.dataset.span = String(i);
      item.onmouseenter = () => light(i);
      item.onfocus = () => light(i);
      return item;
    }),
  );
  if (layout.error) {
    list.append(element("li", `defect at byte ${layout.error.offset}: ${layout.error.message}`, { className: "error" }));
  }
}
