// The page's build: everything it loads (the npm package, the page's own
// wasm build, dns-packet and uPlot) is bundled into dist/, so the page
// works offline and needs no CDN.
import { defineConfig } from "vite";

export default defineConfig({
  root: import.meta.dirname,
  base: "./",
  logLevel: "warn",
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    chunkSizeWarningLimit: 1024,
  },
  worker: { format: "es" },
});
