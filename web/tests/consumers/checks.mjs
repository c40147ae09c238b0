// The checks every way of loading the package runs: Node ESM, Node
// CommonJS, a Vite build and a plain module script in Chromium. They use no
// Node API, so the same file runs everywhere; each returns how many passed.

function equal(got, want, what) {
  const [a, b] = [JSON.stringify(got), JSON.stringify(want)];
  if (a !== b) throw new Error(`${what}: got ${a}, want ${b}`);
}

function throws(call, LeanwireError, kind, offset, what) {
  try {
    call();
  } catch (error) {
    if (!(error instanceof LeanwireError) || !(error instanceof Error)) throw new Error(`${what}: threw ${error}`);
    equal([error.name, error.kind, error.offset], ["LeanwireError", kind, offset], what);
    return;
  }
  throw new Error(`${what}: did not throw`);
}

const hex = (text) => Uint8Array.from(text.match(/../g), (pair) => parseInt(pair, 16));

/** The package's own API. */
export function checkLeanwire(leanwire) {
  const { LeanwireError } = leanwire;
  let passed = 0;
  const pass = () => (passed += 1);

  const path = leanwire.parseActorPath("akka.tcp://sys@Host:2552/user/a#7");
  equal(path.address, { protocol: "akka.tcp", system: "sys", host: "host", port: 2552 }, "address");
  equal([path.elements, path.uid], [["user", "a"], 7], "elements and uid");
  equal([String(path), path.toSerializationFormat()],
    ["akka.tcp://sys@host:2552/user/a", "akka.tcp://sys@host:2552/user/a#7"], "printing");
  pass();
  const jvm = leanwire.parseActorPath("akka://Sys/ü/b", "jvm");
  equal([jvm.address.host, jvm.elements, jvm.uid], [null, ["ü", "b"], null], "a local JVM path with non-ASCII");
  // A host that lowercases beyond ASCII comes from the text area, not the input.
  const folded = leanwire.parseActorPath("AKKA.tcp://sÿs@HÖST.example:1/ç#-5");
  equal([folded.address, folded.elements, folded.uid],
    [{ protocol: "akka.tcp", system: "sÿs", host: "höst.example", port: 1 }, ["ç"], -5], "non-ASCII case folding");
  // Character by character, as .NET lowercases: a final capital sigma is σ, not toLowerCase's ς.
  equal(leanwire.parseActorPath("akka.tcp://s@ΟΔΟΣ:1/a").address.host, "οδοσ", "a final sigma");
  pass();
  throws(() => leanwire.parseActorPath("akka://sys@host/user"), LeanwireError, "MissingPort", 15, "missing port");
  throws(() => leanwire.parseActorPath("akka://a", "scala"), LeanwireError, "UnknownDialect", 0, "bad dialect");
  pass();
  equal(leanwire.splitNameAndUid("foo#11241311"), { name: "foo", uid: 11241311 }, "name#uid");
  equal(leanwire.splitNameAndUid("fé\u{1f600}#7"), { name: "fé\u{1f600}", uid: 7 }, "a non-ASCII name#uid");
  throws(() => leanwire.splitNameAndUid("foo#bar"), LeanwireError, "InvalidUid", 4, "bad uid");
  equal([leanwire.isValidPathElement("a(b)"), leanwire.isValidPathElement("a(b)", "jvm")], [true, false], "elements");
  throws(() => leanwire.checkActorName("$system"), LeanwireError, "LeadingDollar", 0, "actor name");
  pass();

  const query = leanwire.buildDnsQuery("www.example.com", "A", { id: 4660 });
  equal(Array.from(query), Array.from(hex(
    "12340100000100000000000103777777076578616d706c6503636f6d000001000100002904d0000000000000")), "query");
  const report = leanwire.decodeDnsMessage(query);
  equal([report.ok, report.question[0].name, report.edns.payload], [true, "www.example.com.", 1232], "report");
  throws(() => leanwire.buildDnsQuery("a..b", "A"), LeanwireError, "EmptyLabel", 2, "empty label");
  pass();

  // One response packet: COLMETADATA (id int, name nvarchar(10)), a ROW (42, "hi"), DONE.
  const payload = hex("810200000000000000380269006400000000000100e714000904d00034046e00"
    + "61006d006500d12a000000040068006900fd1000c1000100000000000000");
  const packet = new Uint8Array(8 + payload.length);
  packet.set([0x04, 0x01, 0, packet.length, 0, 0, 1, 0]);
  packet.set(payload, 8);
  const tokens = leanwire.decodeTds(packet);
  equal(tokens.map((t) => t.token), ["COLMETADATA", "ROW", "DONE"], "TDS tokens");
  equal(tokens[1].values, [42, "hi"], "TDS row");
  const reader = new leanwire.TdsReader();
  const seen = [];
  for (let at = 0; at < packet.length; at += 7) {
    reader.feed(packet.subarray(at, at + 7));
    for (let token; (token = reader.next()) !== null; ) seen.push(token.token);
  }
  reader.finish();
  equal(seen, ["COLMETADATA", "ROW", "DONE"], "TdsReader in pieces");
  const cut = new leanwire.TdsReader();
  cut.feed(packet.subarray(0, 20));
  throws(() => cut.finish(), LeanwireError, "TruncatedPacket", 20, "a stream cut short");
  pass();
  return passed;
}

/** `leanwire/dns-packet`, used as dns-packet's README uses dns-packet. */
export function checkDnsPacket(dnsPacket) {
  let passed = 0;
  const query = dnsPacket.encode({
    type: "query",
    id: 1,
    flags: dnsPacket.RECURSION_DESIRED,
    questions: [{ type: "A", name: "google.com" }],
  });
  equal(Array.from(query), Array.from(hex("00010100000100000000000006676f6f676c6503636f6d0000010001")), "query bytes");
  equal(dnsPacket.encode.bytes, 28, "encode.bytes");
  passed += 1;
  const response = dnsPacket.encode({
    type: "response",
    id: 7,
    flags: dnsPacket.AUTHORITATIVE_ANSWER,
    questions: [{ type: "MX", name: "example.com" }],
    answers: [
      { type: "MX", name: "example.com", ttl: 300, data: { preference: 10, exchange: "mail.example.com" } },
      { type: "TXT", name: "example.com", data: ["v=spf1 -all"] },
      { type: "AAAA", name: "example.com", data: "2001:db8::1" },
    ],
  });
  const packet = dnsPacket.decode(response);
  equal([packet.id, packet.type, packet.flag_aa, packet.rcode], [7, "response", true, "NOERROR"], "header");
  equal(packet.answers[0].data, { preference: 10, exchange: "mail.example.com" }, "MX");
  equal(new TextDecoder().decode(packet.answers[1].data[0]), "v=spf1 -all", "TXT");
  equal(packet.answers[2].data, "2001:db8::1", "AAAA");
  equal(dnsPacket.decode.bytes, response.length, "decode.bytes");
  passed += 1;
  const streamed = dnsPacket.streamEncode({ type: "query", questions: [{ type: "A", name: "a.b" }] });
  equal(dnsPacket.streamDecode(streamed).questions, [{ name: "a.b", type: "A", class: "IN" }], "stream");
  passed += 1;
  let message = null;
  try {
    dnsPacket.decode(response.subarray(0, 5));
  } catch (error) {
    message = error.message;
  }
  equal(message, "Header must be 12 bytes", "dns-packet's error");
  passed += 1;
  return passed;
}
