// Uses every export of the package with the types written out, so that
// `tsc --strict` checks the declarations; scripts/test-package then runs the
// compiled file, so the declarations must also match what the code returns.
import init, {
  initSync, LeanwireError, ActorPath, parseActorPath, splitNameAndUid, isValidPathElement,
  checkActorName, buildDnsQuery, decodeDnsMessage, decodeTds, TdsReader,
} from "leanwire";
import type {
  ActorAddress, Dialect, NameAndUid, DnsQueryOptions, DnsMessageReport, DnsRecordReport,
  TdsOptions, TdsToken, TdsValue, TdsExactValue, TdsColumn,
} from "leanwire";

import dnsPacket from "leanwire/dns-packet";
import type { DecodedPacket, Packet } from "leanwire/dns-packet";

function check(condition: boolean, what: string): void {
  if (!condition) throw new Error(`types.mts: ${what}`);
}

await init();
initSync(new Uint8Array(0)); // a no-op once the module is instantiated (always, under Node)

const dialect: Dialect = "jvm";
const path: ActorPath = parseActorPath("akka.tcp://sys@host:2552/user/a#7", "dotnet");
const address: ActorAddress = path.address;
const host: string | null = address.host;
const port: number | null = address.port;
const elements: string[] = path.elements;
const uid: number | null = path.uid;
const printed: string = path.toString() + path.toSerializationFormat();
check(host === "host" && port === 2552 && elements.length === 2 && uid === 7 && printed.length > 0, "parseActorPath");
check(path instanceof ActorPath && path.dialect === "dotnet", "ActorPath");

const pair: NameAndUid = splitNameAndUid("worker#42", dialect);
check(pair.name === "worker" && pair.uid === 42, "splitNameAndUid");
const valid: boolean = isValidPathElement("a(b)", dialect);
check(!valid, "isValidPathElement");
checkActorName("worker") satisfies void;
try {
  checkActorName(null, "dotnet");
  check(false, "a null name throws");
} catch (error) {
  check(error instanceof LeanwireError && error.kind === "NullName", "checkActorName(null)");
}

try {
  parseActorPath("akka://sys@host/user");
  check(false, "a bad path throws");
} catch (error) {
  check(error instanceof LeanwireError, "LeanwireError");
  if (error instanceof LeanwireError) {
    const kind: string = error.kind;
    const offset: number = error.offset;
    const message: string = error.message;
    check(kind === "MissingPort" && offset === 15 && message.includes("host:port"), "error fields");
  }
}

const options: DnsQueryOptions = { dnssec: true, id: 7, edns: true };
const query: Uint8Array = buildDnsQuery("example.com", "HTTPS", options);
const report: DnsMessageReport = decodeDnsMessage(query);
if (report.ok) {
  const answers: DnsRecordReport[] = report.answer;
  const name: string = report.question[0].name;
  const dnssecOk: boolean | undefined = report.edns?.do;
  check(answers.length === 0 && name === "example.com." && dnssecOk === true, "decodeDnsMessage");
} else {
  const error: string = report.error;
  check(false, error);
}

const tdsOptions: TdsOptions = { tokensOnly: true, tdsVersion: "7.4", arenaLimit: 1 << 20 };
const done = new Uint8Array([0xfd, 0x10, 0, 0xc1, 0, 1, 0, 0, 0, 0, 0, 0, 0]);
const tokens: TdsToken[] = decodeTds(done, tdsOptions);
check(tokens.length === 1 && tokens[0].token === "DONE", "decodeTds");
const reader = new TdsReader(tdsOptions);
reader.feed(done);
const token: TdsToken | null = reader.next();
if (token !== null && token.token === "DONE") {
  const rowcount: number = token.rowcount;
  check(rowcount === 1 && reader.next() === null, "TdsReader");
} else {
  check(false, "TdsReader gives the DONE token");
}
reader.finish();
const columns: TdsColumn[] = reader.columns;
check(columns.length === 0, "no columns before COLMETADATA");

// A ROW of an int and an nvarchar, read as tedious gives them and exactly.
const response = new Uint8Array([
  0x81, 2, 0, 0, 0, 0, 0, 0, 0, 0x38, 2, 0x69, 0, 0x64, 0, 0, 0, 0, 0, 1, 0, 0xe7, 20, 0, 9, 4, 0xd0, 0, 0x34,
  4, 0x6e, 0, 0x61, 0, 0x6d, 0, 0x65, 0, 0xd1, 42, 0, 0, 0, 4, 0, 0x68, 0, 0x69, 0,
]);
async function* pieces(): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < response.length; at += 5) yield response.subarray(at, at + 5);
}
const rows: TdsValue[][] = [];
for await (const row of new TdsReader({ tokensOnly: true }).rows(pieces())) rows.push(row);
check(JSON.stringify(rows) === '[[42,"hi"]]', "rows()");
const exact = new TdsReader({ tokensOnly: true, values: "exact" });
for await (const token of exact.tokens(pieces())) {
  if (token.token === "ROW") {
    const values: TdsExactValue[] = token.values;
    check(values[0] === 42 && values[1] === "hi", "exact values");
  }
}
const outgoing: Packet = {
  type: "query",
  id: 1,
  flags: dnsPacket.RECURSION_DESIRED,
  questions: [{ type: "A", name: "google.com" }],
};
const wire: Uint8Array = dnsPacket.encode(outgoing);
const length: number = dnsPacket.encodingLength(outgoing);
const decoded: DecodedPacket = dnsPacket.decode(wire);
const read: number = dnsPacket.decode.bytes;
check(wire.length === length && read === length && decoded.questions[0].name === "google.com", "dns-packet");
const mx: Uint8Array = dnsPacket.mx.encode({ preference: 10, exchange: "mail.example.com" });
const exchange: string = dnsPacket.mx.decode(mx).exchange;
check(exchange === "mail.example.com" && dnsPacket.mx.encode.bytes === mx.length, "dns-packet codecs");

console.log("types: every export used with its declared types");
