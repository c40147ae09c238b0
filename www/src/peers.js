// The JavaScript a user would write instead of calling leanwire: the peers
// that the page and `scripts/bench-js` time leanwire against.

/** Akka's path grammar as one regular expression: protocol, system, host, port, elements, uid. */
export const AKKA = /^([A-Za-z][A-Za-z0-9+.-]*):\/\/([^@/#]+)(?:@([^:/#]+):(\d+))?((?:\/[^/#]*)*)(?:#(-?\d+))?$/;

/** An actor path split by `AKKA`, in the shape of leanwire's `ActorPath`; throws on no match. */
export function regexSplit(text) {
  const m = AKKA.exec(text);
  if (m === null) throw new SyntaxError(`not an actor path: ${text}`);
  return {
    address: { protocol: m[1], system: m[2], host: m[3] ?? null, port: m[4] === undefined ? null : Number(m[4]) },
    elements: m[5].split("/").filter((e) => e !== ""),
    uid: m[6] === undefined ? null : Number(m[6]),
  };
}

/** An actor path read through the WHATWG URL parser, in the shape of leanwire's `ActorPath`. */
export function urlSplit(text) {
  const u = new URL(text);
  return {
    address: { protocol: u.protocol.slice(0, -1), system: u.username, host: u.hostname || null, port: u.port === "" ? null : Number(u.port) },
    elements: u.pathname.split("/").filter((e) => e !== ""),
    uid: u.hash === "" ? null : Number(u.hash.slice(1)),
  };
}

/** Reads every field of a parsed path, as a caller would, so that lazy work is counted too. */
export function readAll(path) {
  const a = path.address;
  return a.protocol.length + a.system.length + (a.host?.length ?? 0) + (a.port ?? 0) + path.elements.length + (path.uid ?? 0);
}
