// Serves the built page (www/dist, made by `scripts/build-web`) on 127.0.0.1
// only. Used by `scripts/demo` and the end-to-end test; the package tests
// serve a fresh project's folder with it too.
//
//   node www/serve.mjs [PORT]        (default 8080; 0 picks a free port)
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize, sep } from "node:path";
import { fileURLToPath } from "node:url";

const dist = fileURLToPath(new URL("dist/", import.meta.url));

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".wasm": "application/wasm",
  ".ts": "text/plain; charset=utf-8",
};

/**
 * Starts the server and resolves to it once it listens. It serves `root`
 * (www/dist by default), and its node_modules only when `modules` is set.
 */
export function serve(port = 8080, { root = dist, modules = false } = {}) {
  const server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url, "http://localhost").pathname);
    const file = normalize(join(root, path.endsWith("/") ? path + "index.html" : path));
    // Only files under the root are served.
    if (!file.startsWith(root) || (!modules && file.includes(`${sep}node_modules${sep}`))) {
      res.writeHead(403).end("forbidden");
      return;
    }
    try {
      const body = await readFile(file);
      res.writeHead(200, { "content-type": TYPES[extname(file)] ?? "application/octet-stream", "cache-control": "no-store" });
      res.end(body);
    } catch {
      res.writeHead(404, { "content-type": "text/plain" }).end("not found");
    }
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await serve(Number(process.argv[2] ?? 8080));
  console.log(`leanwire visualizer: http://127.0.0.1:${server.address().port}/  (Ctrl-C stops it)`);
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
}
