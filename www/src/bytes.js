// Bytes as people paste them: hex (spaces and line breaks allowed) or base64.

/** `bytes` as lowercase hex. */
export function toHex(bytes) {
  if (typeof bytes.toHex === "function") return bytes.toHex();
  let hex = "";
  for (const b of bytes) hex += b.toString(16).padStart(2, "0");
  return hex;
}

/** The bytes of `hex`; throws a SyntaxError naming the first bad digit's position. */
export function fromHex(hex) {
  if (typeof Uint8Array.fromHex === "function") {
    try {
      return Uint8Array.fromHex(hex);
    } catch {
      // Fall through for the position of the defect.
    }
  }
  const bad = hex.search(/[^0-9a-fA-F]/);
  if (bad >= 0) throw new SyntaxError(`not hex: ${JSON.stringify(hex[bad])} at digit ${bad}`);
  if (hex.length % 2 !== 0) throw new SyntaxError(`odd number of hex digits (${hex.length})`);
  return Uint8Array.from({ length: hex.length / 2 }, (_, i) => parseInt(hex.substr(2 * i, 2), 16));
}

/** The bytes of pasted text: hex if it is all hex digits (after whitespace), else base64 or base64url. */
export function parseBytes(text) {
  const compact = text.replace(/\s+/g, "");
  if (/^[0-9a-fA-F]*$/.test(compact)) return fromHex(compact);
  const b64 = compact.replace(/-/g, "+").replace(/_/g, "/");
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(b64)) {
    throw new SyntaxError(`neither hex nor base64: ${JSON.stringify(b64[b64.search(/[^A-Za-z0-9+/=]/)])} at character ${b64.search(/[^A-Za-z0-9+/=]/)}`);
  }
  const binary = atob(b64.padEnd(Math.ceil(b64.length / 4) * 4, "="));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}
