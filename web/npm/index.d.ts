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
}

/** A JSON value, as the token reports hold them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** One token of a TDS response, as `leanwire tds decode` prints it. */
export interface TdsTokenReport {
  token: string;
  [field: string]: Json;
}

/** Decodes a whole TDS response; throws a LeanwireError at the first defect. */
export function decodeTds(bytes: Uint8Array, options?: TdsOptions & { chunk?: number }): TdsTokenReport[];

/** Reads a TDS response fed in pieces, resuming exactly where each piece ended. */
export class TdsReader {
  constructor(options?: TdsOptions);
  /** Takes in the next piece of the stream. */
  feed(bytes: Uint8Array): void;
  /** The next token, or `null` when the bytes fed so far are used up; throws at a defect. */
  next(): TdsTokenReport | null;
  /** Says the stream is over; throws if it stopped inside a packet or a token. */
  finish(): void;
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
