// A bump arena drawn as its chunks, with each allocation as a block labelled
// by what it holds. `step` shows the arena as it was after the first n
// allocations, so the picture can fill up as the input is read.

import { element } from "./dom.js";

/** The kind of a block, for its colour: the first word of its label. */
const kind = (label) => label.split(/[\s:([]/)[0].toLowerCase().replace(/[^a-z]/g, "") || "other";

/**
 * Draws `layout` (what `pathArena` or `tdsArena` returns) into `container`
 * and returns `step(n)`, which shows only the first `n` allocations.
 */
export function drawArena(container, layout) {
  const blocks = layout.blocks; // in allocation order
  const chunks = layout.chunks.map((chunk) => {
    const box = element("div", "", { className: "arena-chunk", role: "img" });
    box.setAttribute("aria-label", `chunk ${chunk.index}: ${chunk.used} of ${chunk.size ?? "?"} bytes used`);
    const caption = element("p", `chunk ${chunk.index} · ${chunk.size ?? "?"} B · ${chunk.used} B used`, { className: "arena-caption" });
    return { chunk, box, caption };
  });
  const cells = blocks.map((block) => {
    // bumpalo hands out a chunk from its end downwards: the used bytes sit
    // at the chunk's top, and the first allocation at the far right.
    const chunk = layout.chunks[block.chunk];
    const size = chunk.size ?? chunk.used;
    const base = size - chunk.used;
    const cell = element("div", block.size * 600 >= size * 40 ? block.label : "", {
      className: `arena-block block-${kind(block.label)}`,
      title: `${block.label} · ${block.size} B at +${block.offset}`,
    });
    cell.style.left = `${(100 * (base + block.offset)) / size}%`;
    cell.style.width = `${Math.max(0.4, (100 * block.size) / size)}%`;
    chunks[block.chunk].box.append(cell);
    return cell;
  });
  const legend = element("ol", "", { className: "arena-legend" });
  legend.append(
    ...blocks.map((b) => {
      const item = element("li", ` ${b.label} — ${b.size} B`);
      item.prepend(element("span", "", { className: `swatch block-${kind(b.label)}` }));
      return item;
    }),
  );
  container.replaceChildren(...chunks.flatMap(({ caption, box }) => [caption, box]), legend);
  container.dataset.blocks = String(blocks.length);

  return function step(n) {
    cells.forEach((cell, i) => cell.classList.toggle("pending", i >= n));
    [...legend.children].forEach((item, i) => item.classList.toggle("pending", i >= n));
    container.dataset.shown = String(Math.min(n, blocks.length));
  };
}

/**
 * How many of `layout`'s blocks (in allocation order) fit in `used` arena
 * bytes: what the arena held when that many bytes were in use.
 */
export function blocksWithin(layout, used) {
  const blocks = layout.blocks; // in allocation order
  let total = 0;
  let n = 0;
  for (const block of blocks) {
    total += block.size;
    if (total > used) break;
    n += 1;
  }
  return n;
}
