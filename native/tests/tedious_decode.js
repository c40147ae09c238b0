// Independent decoder oracle: feed TDS response bytes to the published npm `tedious` token parser.
// usage: node tedious_decode.js <hex|@file> [tdsVersion=7_4] [--packets]   (--packets: input has 8-byte TDS packet headers)
// needs: npm install tedious   (tested with tedious 19.2.2 on node 20)
//
// A copy of shared/vectors/tds/tools/tedious_decode.js for native/tests/tds_oracles.rs, with one change:
// `@file` reads the hex from a file, since a stream of a few hundred rows is longer than Linux lets one
// argument be (128 KiB).
const SP = require('tedious/lib/token/stream-parser'); const Parser = SP.default || SP;
const DB = require('tedious/lib/debug'); const Debug = DB.default || DB;
let [hex, ver = '7_4', flag] = process.argv.slice(2);
if (hex.startsWith('@')) hex = require('fs').readFileSync(hex.slice(1), 'utf8');
let buf = Buffer.from(hex.replace(/\s+/g, ''), 'hex');
if (flag === '--packets' || ver === '--packets') {
  if (ver === '--packets') ver = '7_4';
  const parts = []; let off = 0;
  while (off + 8 <= buf.length) { const len = buf.readUInt16BE(off + 2); parts.push(buf.subarray(off + 8, off + len)); off += len; }
  buf = Buffer.concat(parts);
}
const chunks = Array.from(buf, (b) => Buffer.from([b]));   // 1 byte at a time, to exercise resumption
function plain(v) {
  if (v === undefined) return undefined;
  if (typeof v === 'bigint') return v.toString();
  if (Buffer.isBuffer(v)) return { hex: v.toString('hex') };
  if (v instanceof Date) return { date: v.toISOString(), nanosecondsDelta: v.nanosecondsDelta };
  if (Array.isArray(v)) return v.map(plain);
  if (v && typeof v === 'object') {
    if (typeof v.declaration === 'function') return v.name;           // data type object
    const o = {}; for (const k of Object.keys(v)) { if (k === 'metadata' || k === 'handlerName') continue; const p = plain(v[k]); if (p !== undefined) o[k] = p; }
    return o;
  }
  return v;
}
(async () => {
  const out = [];
  for await (const t of Parser.parseTokens(chunks, new Debug(), { tdsVersion: ver, useUTC: true, lowerCaseGuids: true })) {
    out.push({ token: t.name, ...plain(t) });
  }
  console.log(JSON.stringify(out, null, 1));
})().catch((e) => { console.error('ERROR', e.message); process.exit(1); });
