// leanwire/dns-packet: the API of dns-packet 5.6.1.

/** Bytes: a `Buffer` under Node (when the input is one), a `Uint8Array` elsewhere. */
export type Bytes = Uint8Array;

export type RecordClass = "IN" | "CS" | "CH" | "HS" | "ANY" | `UNKNOWN_${number}`;

export type RecordType =
  | "A" | "AAAA" | "AFSDB" | "APL" | "AXFR" | "CAA" | "CDNSKEY" | "CDS" | "CERT" | "CNAME" | "DHCID"
  | "DLV" | "DNAME" | "DNSKEY" | "DS" | "HINFO" | "HIP" | "IXFR" | "IPSECKEY" | "KEY" | "KX" | "LOC"
  | "MX" | "NAPTR" | "NS" | "NSEC" | "NSEC3" | "NSEC3PARAM" | "NULL" | "OPT" | "PTR" | "RRSIG" | "RP"
  | "SIG" | "SOA" | "SPF" | "SRV" | "SSHFP" | "TA" | "TKEY" | "TLSA" | "TSIG" | "TXT" | "ANY"
  | `UNKNOWN_${number}`;

export interface Question {
  name: string;
  type: RecordType | string;
  class?: RecordClass | string;
}

export interface SoaData {
  mname: string;
  rname: string;
  serial?: number;
  refresh?: number;
  retry?: number;
  expire?: number;
  minimum?: number;
}

export interface SrvData {
  priority?: number;
  weight?: number;
  port?: number;
  target: string;
}

export interface CaaData {
  flags?: number;
  tag: string;
  value: string;
  issuerCritical?: boolean;
}

export interface MxData {
  preference?: number;
  exchange: string;
}

export interface HinfoData {
  cpu: string;
  os: string;
}

export interface DnskeyData {
  flags: number;
  algorithm: number;
  key: Bytes;
}

export interface RrsigData {
  typeCovered: RecordType | string;
  algorithm: number;
  labels: number;
  originalTTL: number;
  expiration: number;
  inception: number;
  keyTag: number;
  signersName: string;
  signature: Bytes;
}

export interface RpData {
  mbox?: string;
  txt?: string;
}

export interface NsecData {
  nextDomain: string;
  rrtypes: (RecordType | string)[];
}

export interface Nsec3Data {
  algorithm: number;
  flags: number;
  iterations: number;
  salt: Bytes;
  nextDomain: Bytes;
  rrtypes: (RecordType | string)[];
}

export interface DsData {
  keyTag: number;
  algorithm: number;
  digestType: number;
  digest: Bytes;
}

export interface SshfpData {
  algorithm: number;
  hash: number;
  fingerprint: string;
}

export interface NaptrData {
  order?: number;
  preference?: number;
  flags: string;
  services: string;
  regexp: string;
  replacement: string;
}

export interface TlsaData {
  usage: number;
  selector: number;
  matchingType: number;
  certificate: Bytes;
}

/** An EDNS option as decoded; the fields after `data` depend on the code. */
export interface DecodedOption {
  code: number;
  type: string | null;
  data: Bytes;
  family?: number;
  sourcePrefixLength?: number;
  scopePrefixLength?: number;
  ip?: string;
  timeout?: number;
  tags?: number[];
}

/** An EDNS option to encode: raw `data`, or the fields of a known code. */
export interface EncodedOption {
  code: number | string;
  data?: Bytes;
  family?: number;
  sourcePrefixLength?: number;
  scopePrefixLength?: number;
  ip?: string;
  timeout?: number;
  length?: number;
  tags?: number[];
}

export type TxtData = string | Bytes | (string | Bytes)[];

/** Record data as decoded, by type. */
export type DecodedData =
  | string
  | Bytes
  | Bytes[]
  | SoaData
  | SrvData
  | CaaData
  | MxData
  | HinfoData
  | DnskeyData
  | RrsigData
  | RpData
  | NsecData
  | Nsec3Data
  | DsData
  | SshfpData
  | NaptrData
  | TlsaData;

export interface BaseAnswer {
  name: string;
  type: RecordType | string;
  class?: RecordClass | string;
  ttl?: number;
  flush?: boolean;
}

export interface DataAnswer extends BaseAnswer {
  data: DecodedData | TxtData;
}

export interface OptAnswer {
  name: ".";
  type: "OPT";
  udpPayloadSize?: number;
  extendedRcode?: number;
  ednsVersion?: number;
  flags?: number;
  flag_do?: boolean;
  options?: (DecodedOption | EncodedOption)[];
}

export type Answer = DataAnswer | OptAnswer;

/** A record as `decode` returns it. */
export type DecodedAnswer =
  | (Required<Omit<BaseAnswer, "class">> & { class: RecordClass; data: DecodedData })
  | (Required<Omit<OptAnswer, "options">> & { options: DecodedOption[] });

export interface Packet {
  id?: number;
  type?: "query" | "response";
  flags?: number;
  questions?: Question[];
  answers?: Answer[];
  authorities?: Answer[];
  additionals?: Answer[];
}

/** A packet as `decode` returns it. */
export interface DecodedPacket {
  id: number;
  type: "query" | "response";
  flags: number;
  flag_qr: boolean;
  opcode: string;
  flag_aa: boolean;
  flag_tc: boolean;
  flag_rd: boolean;
  flag_ra: boolean;
  flag_z: boolean;
  flag_ad: boolean;
  flag_cd: boolean;
  rcode: string;
  questions: { name: string; type: RecordType; class: RecordClass }[];
  answers: DecodedAnswer[];
  authorities: DecodedAnswer[];
  additionals: DecodedAnswer[];
}

/** A byte count that the last call of a function recorded. */
export interface Counted {
  bytes: number;
}

/** A codec of dns-packet's shape. */
export interface Codec<In, Out = In> {
  encode: ((value: In, buf?: Bytes, offset?: number) => Bytes) & Counted;
  decode: ((buf: Bytes, offset?: number) => Out) & Counted;
  encodingLength(value: In): number;
}

export declare const encode: ((packet: Packet, buf?: Bytes, offset?: number) => Bytes) & Counted;
export declare const decode: ((buf: Bytes, offset?: number) => DecodedPacket) & Counted;
export declare function encodingLength(packet: Packet): number;
export declare const streamEncode: ((packet: Packet) => Bytes) & Counted;
export declare const streamDecode: ((buf: Bytes) => DecodedPacket | null) & Counted;

export declare const name: {
  encode: ((name: string, buf?: Bytes, offset?: number, options?: { mail?: boolean }) => Bytes) & Counted;
  decode: ((buf: Bytes, offset?: number, options?: { mail?: boolean }) => string) & Counted;
  encodingLength(name: string): number;
};

export declare const question: {
  encode: ((question: Question, buf?: Bytes, offset?: number) => Question) & Counted;
  decode: ((buf: Bytes, offset?: number) => { name: string; type: RecordType; class: RecordClass }) & Counted;
  encodingLength(question: Question): number;
};

export declare const answer: Codec<Answer, DecodedAnswer>;

export declare const a: Codec<string>;
export declare const aaaa: Codec<string>;
export declare const ns: Codec<string>;
export declare const ptr: Codec<string>;
export declare const cname: Codec<string>;
export declare const dname: Codec<string>;
export declare const soa: Codec<SoaData, Required<SoaData>>;
export declare const txt: Codec<TxtData, Bytes[]>;
declare const nullCodec: Codec<Bytes | string | undefined, Bytes>;
export { nullCodec as null };
export declare const unknown: Codec<Bytes>;
export declare const hinfo: Codec<HinfoData>;
export declare const srv: Codec<SrvData, Required<SrvData>>;
export declare const caa: Codec<CaaData, Required<CaaData>> & { ISSUER_CRITICAL: number };
export declare const mx: Codec<MxData, Required<MxData>>;
export declare const opt: Codec<(DecodedOption | EncodedOption)[], DecodedOption[]>;
export declare const option: Codec<DecodedOption | EncodedOption, DecodedOption>;
export declare const dnskey: Codec<DnskeyData> & {
  PROTOCOL_DNSSEC: number;
  ZONE_KEY: number;
  SECURE_ENTRYPOINT: number;
};
export declare const rrsig: Codec<RrsigData>;
export declare const rp: Codec<RpData, Required<RpData>>;
export declare const nsec: Codec<NsecData>;
export declare const nsec3: Codec<Nsec3Data>;
export declare const ds: Codec<DsData>;
export declare const sshfp: Codec<SshfpData> & {
  getFingerprintLengthForHashType(hashType: number): number | undefined;
};
export declare const naptr: Codec<NaptrData, Required<NaptrData>>;
export declare const tlsa: Codec<TlsaData>;

/** The codec of a record type's data, by mnemonic; `unknown` for types dns-packet does not know. */
export declare function record(type: string): Codec<DecodedData | TxtData | EncodedOption[], DecodedData | DecodedOption[]>;

export declare const AUTHORITATIVE_ANSWER: number;
export declare const TRUNCATED_RESPONSE: number;
export declare const RECURSION_DESIRED: number;
export declare const RECURSION_AVAILABLE: number;
export declare const AUTHENTIC_DATA: number;
export declare const CHECKING_DISABLED: number;
export declare const DNSSEC_OK: number;

/** Every export above, as `import dnsPacket from "leanwire/dns-packet"` gives it, the way ESM code imports dns-packet itself. */
declare const dnsPacket: typeof import("./dns-packet.js");
export default dnsPacket;
