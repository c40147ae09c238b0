// Types of the npm package `leanwire`. `web/tests/types.ts` uses every
// export and compiles under `tsc --strict`, and the package tests run the
// same calls, so these declarations and the code cannot drift apart.

/** What every leanwire function throws. */
export class LeanwireError extends Error {
  constructor(message: string, kind: string, offset: number);
  readonly name: "LeanwireError";
  /** The defect, such as `"MissingPort"`, `"ShortInput"` or `"InvalidStream"`. */
  readonly kind: string;
  /** The byte offset in the input where the defect was found. */
  readonly offset: number;
}

/** `"dotnet"` (Akka.NET, the default) or `"jvm"` (Akka JVM and Pekko). */
export type Dialect = "dotnet" | "jvm";

/** The address of an actor path. */
export interface ActorAddress {
  /** The protocol, such as `"akka.tcp"`; Akka.NET reads it in lowercase. */
  protocol: string;
  /** The actor system's name. */
  system: string;
  /** The host, or `null` for a local address; Akka.NET reads it in lowercase. */
  host: string | null;
  /** The port, or `null`. */
  port: number | null;
}

/** A parsed actor path. */
export class ActorPath {
  private constructor();
  /** The text that was parsed. */
  readonly input: string;
  /** The dialect it was parsed in. */
  readonly dialect: Dialect;
  readonly address: ActorAddress;
  /** The element names, root first. */
  readonly elements: string[];
  /** The uid after `#`, or `null`. */
  readonly uid: number | null;
  /** Akka's `ToString()`: the path without its uid. */
  toString(): string;
  /** Akka's `ToSerializationFormat()`: the path with its uid. */
  toSerializationFormat(): string;
}

/** Parses an actor path; throws a LeanwireError naming the defect and its byte offset. */
export function parseActorPath(path: string, dialect?: Dialect): ActorPath;

/** An actor name and the uid after its `#`. */
export interface NameAndUid {
  name: string;
  uid: number | null;
}

/** Splits `name#uid` as Akka's `GetNameAndUid` does. */
export function splitNameAndUid(name: string, dialect?: Dialect): NameAndUid;

/** Whether `name` is a valid path element (`ActorPath.IsValidPathElement`). */
export function isValidPathElement(name: string, dialect?: Dialect): boolean;

/** Checks an actor name as `ActorOf` does; throws a LeanwireError with Akka's own message. */
export function checkActorName(name: string | null, dialect?: Dialect): void;

/** Options of `buildDnsQuery`. */
export interface DnsQueryOptions {
  /** Add an EDNS(0) OPT record with a 1232-byte payload size (default true). */
  edns?: boolean;
  /** Set the DO bit to ask for DNSSEC records (default false; implies edns). */
  dnssec?: boolean;
  /** The message ID (default 0, as RFC 8484 recommends for DNS over HTTPS). */
  id?: number;
}

/** Builds a recursive query for `name` and `type` (a mnemonic such as `"AAAA"` or `"TYPE65"`). */
export function buildDnsQuery(name: string, type: string, options?: DnsQueryOptions): Uint8Array;

/** A record in a `DnsMessageReport`; `rdata` is in presentation format. */
export interface DnsRecordReport {
  name: string;
  ttl: number;
  class: string;
  type: string;
  rdata: string;
}

/** What `decodeDnsMessage` returns: the same keys as `leanwire dns decode`. */
export type DnsMessageReport =
  | {
      ok: true;
      header: {
        id: number; qr: boolean; opcode: string; aa: boolean; tc: boolean; rd: boolean;
        ra: boolean; ad: boolean; cd: boolean; rcode: string;
      };
      question: { name: string; type: string; class: string }[];
      answer: DnsRecordReport[];
      authority: DnsRecordReport[];
      additional: DnsRecordReport[];
      edns: {
        version: number; payload: number; do: boolean;
        options: { code: number; name: string | null; text: string }[];
      } | null;
    }
  | { ok: false; error: string };

/** Decodes a DNS message into the debugging report that `leanwire dns decode` prints. */
export function decodeDnsMessage(bytes: Uint8Array): DnsMessageReport;

/** Options of `TdsReader` and `decodeTds`. */
export interface TdsOptions {
  /** The input is a bare token stream, without 8-byte packet headers (default false). */
  tokensOnly?: boolean;
  /** `"7.1"`, `"7.2"`, `"7.3"` or `"7.4"` (the default), until a LOGINACK says otherwise. */
  tdsVersion?: "7.1" | "7.2" | "7.3" | "7.4";
  /** The most bytes one result set's column metadata may take (default 16 MiB); past it, a LeanwireError of kind `"ArenaFull"`. */
  arenaLimit?: number;
}

/**
 * Decodes a whole TDS response: the tokens `TdsReader.next` gives, in one
 * array; `chunk` feeds the reader that many bytes at a time. Throws a
 * LeanwireError at the first defect.
 */
export function decodeTds<M extends TdsValuesMode = "tedious">(
  bytes: Uint8Array,
  options?: TdsReaderOptions<M> & { chunk?: number },
): TdsToken<TdsValueOf<M>>[];

/** How `TdsReader` gives values: as tedious does (the default), or exactly. */
export type TdsValuesMode = "tedious" | "exact";

/** Options of `TdsReader`. */
export interface TdsReaderOptions<M extends TdsValuesMode = "tedious"> extends TdsOptions {
  /** `"tedious"` (the default) or `"exact"`: bigint as `bigint`, decimal, money, time, datetime2 and datetimeoffset as exact strings. */
  values?: M;
  /** GUIDs in lowercase (default false: uppercase, as tedious gives them). */
  lowerCaseGuids?: boolean;
}

/**
 * A value of a row, as tedious gives it: number (int types, real, float,
 * decimal, money), string (bigint, text, GUIDs), boolean (bit), Date (date
 * and time types, UTC), bytes (binary types; a Buffer in Node) or null.
 */
export type TdsValue = null | boolean | number | string | Date | Uint8Array;

/** A value in exact mode: bigint columns as `bigint`, exact types as strings. */
export type TdsExactValue = TdsValue | bigint;

/** The value type of a values mode. */
export type TdsValueOf<M extends TdsValuesMode> = M extends "exact" ? TdsExactValue : TdsValue;

/** A column of a COLMETADATA token. */
export interface TdsColumn {
  name: string;
  /** The TYPE_INFO type as MS-TDS names it: `"INTN"`, `"NVARCHAR"`, ... */
  type: string;
  /** The SQL type: `"int"`, `"nvarchar(50)"`, `"decimal(18,4)"`, ... */
  sqlType: string;
  nullable: boolean;
  /** The maximum length in bytes; null for MAX and fixed-size types. */
  length: number | null;
  /** Precision of decimal and numeric columns, else 0. */
  precision: number;
  /** Scale of decimal, numeric and time columns, else 0. */
  scale: number;
}

/** A DONE status bit. */
export type TdsDoneStatus = "MORE" | "ERROR" | "INXACT" | "COUNT" | "ATTN" | "RPCINBATCH" | "SRVERROR";

/** An ENVCHANGE value: text, bytes, or a routing target. */
export type TdsEnvValue = string | Uint8Array | { protocol: number; port: number; server: string };

/** A token of a TDS response, told apart by `token`. */
export type TdsToken<V = TdsValue> =
  | { token: "COLMETADATA"; columns: TdsColumn[] }
  | { token: "ROW" | "NBCROW"; values: V[] }
  | { token: "DONE" | "DONEPROC" | "DONEINPROC"; status: readonly TdsDoneStatus[]; curcmd: number; rowcount: number }
  | {
      token: "ERROR" | "INFO";
      number: number;
      state: number;
      class: number;
      message: string;
      server: string;
      procedure: string;
      line: number;
    }
  | { token: "ENVCHANGE"; type: string; new: TdsEnvValue; old: TdsEnvValue }
  | { token: "LOGINACK"; interface: number; tdsVersion: string; progName: string; progVersion: string }
  | { token: "RETURNSTATUS"; value: number }
  | { token: "RETURNVALUE"; ordinal: number; name: string; status: number; value: V }
  | { token: "ORDER"; columns: number[] }
  | { token: "FEATUREEXTACK" | "SSPI" | "FEDAUTHINFO" | "SESSIONSTATE" | "TABNAME" | "COLINFO"; text: string };

/** What `tokens` and `rows` read: byte chunks from any async or sync iterable, or a web stream. */
export type TdsSource = AsyncIterable<Uint8Array> | Iterable<Uint8Array> | ReadableStream<Uint8Array>;

/** Reads a TDS response fed in pieces, resuming exactly where each piece ended. */
export class TdsReader<M extends TdsValuesMode = "tedious"> {
  constructor(options?: TdsReaderOptions<M>);
  /** The current result set's columns. */
  readonly columns: TdsColumn[];
  /** Takes in the next piece of the stream, decoding every token it completes. */
  feed(bytes: Uint8Array): void;
  /** The next token, or `null` when the bytes fed so far are used up; throws at a defect. */
  next(): TdsToken<TdsValueOf<M>> | null;
  /** Says the stream is over; throws if it stopped inside a packet or a token. */
  finish(): void;
  /** Every token of `source`; calls `finish` at the end; throws a LeanwireError on a bad stream. */
  tokens(source: TdsSource): AsyncIterableIterator<TdsToken<TdsValueOf<M>>>;
  /** The rows of every result set of `source`, as arrays of values. */
  rows(source: TdsSource): AsyncIterableIterator<TdsValueOf<M>[]>;
}

/**
 * Instantiates the WebAssembly module (browsers and bundlers); later calls
 * return the same promise. Under Node the module is ready on import and this
 * does nothing.
 */
export default function init(
  input?: string | URL | Request | Response | BufferSource | WebAssembly.Module,
): Promise<void>;

/** Instantiates the module synchronously from its bytes or a compiled module. */
export function initSync(module: BufferSource | WebAssembly.Module): void;
