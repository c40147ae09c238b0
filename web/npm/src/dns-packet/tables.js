// The mnemonics of dns-packet 5.6.1 (types.js, classes.js, rcodes.js,
// opcodes.js, optioncodes.js; MIT, Copyright (c) 2016 Mathias Buus), with
// the same fallbacks for numbers and names they do not know.

function typeNameUncached(type) {
  switch (type) {
    case 1: return "A"
    case 10: return "NULL"
    case 28: return "AAAA"
    case 18: return "AFSDB"
    case 42: return "APL"
    case 257: return "CAA"
    case 60: return "CDNSKEY"
    case 59: return "CDS"
    case 37: return "CERT"
    case 5: return "CNAME"
    case 49: return "DHCID"
    case 32769: return "DLV"
    case 39: return "DNAME"
    case 48: return "DNSKEY"
    case 43: return "DS"
    case 55: return "HIP"
    case 13: return "HINFO"
    case 45: return "IPSECKEY"
    case 25: return "KEY"
    case 36: return "KX"
    case 29: return "LOC"
    case 15: return "MX"
    case 35: return "NAPTR"
    case 2: return "NS"
    case 47: return "NSEC"
    case 50: return "NSEC3"
    case 51: return "NSEC3PARAM"
    case 12: return "PTR"
    case 46: return "RRSIG"
    case 17: return "RP"
    case 24: return "SIG"
    case 6: return "SOA"
    case 99: return "SPF"
    case 33: return "SRV"
    case 44: return "SSHFP"
    case 32768: return "TA"
    case 249: return "TKEY"
    case 52: return "TLSA"
    case 250: return "TSIG"
    case 16: return "TXT"
    case 252: return "AXFR"
    case 251: return "IXFR"
    case 41: return "OPT"
    case 255: return "ANY"
  }
  return "UNKNOWN_" + type
}

export function typeCode(name) {
  switch (name.toUpperCase()) {
    case "A": return 1
    case "NULL": return 10
    case "AAAA": return 28
    case "AFSDB": return 18
    case "APL": return 42
    case "CAA": return 257
    case "CDNSKEY": return 60
    case "CDS": return 59
    case "CERT": return 37
    case "CNAME": return 5
    case "DHCID": return 49
    case "DLV": return 32769
    case "DNAME": return 39
    case "DNSKEY": return 48
    case "DS": return 43
    case "HIP": return 55
    case "HINFO": return 13
    case "IPSECKEY": return 45
    case "KEY": return 25
    case "KX": return 36
    case "LOC": return 29
    case "MX": return 15
    case "NAPTR": return 35
    case "NS": return 2
    case "NSEC": return 47
    case "NSEC3": return 50
    case "NSEC3PARAM": return 51
    case "PTR": return 12
    case "RRSIG": return 46
    case "RP": return 17
    case "SIG": return 24
    case "SOA": return 6
    case "SPF": return 99
    case "SRV": return 33
    case "SSHFP": return 44
    case "TA": return 32768
    case "TKEY": return 249
    case "TLSA": return 52
    case "TSIG": return 250
    case "TXT": return 16
    case "AXFR": return 252
    case "IXFR": return 251
    case "OPT": return 41
    case "ANY": return 255
    case "*": return 255
  }
  if (name.toUpperCase().startsWith("UNKNOWN_")) return parseInt(name.slice(8))
  return 0
}

function classNameUncached(klass) {
  switch (klass) {
    case 1: return "IN"
    case 2: return "CS"
    case 3: return "CH"
    case 4: return "HS"
    case 255: return "ANY"
  }
  return "UNKNOWN_" + klass
}

export function classCode(name) {
  switch (name.toUpperCase()) {
    case "IN": return 1
    case "CS": return 2
    case "CH": return 3
    case "HS": return 4
    case "ANY": return 255
  }
  return 0
}

function rcodeNameUncached(rcode) {
  switch (rcode) {
    case 0: return "NOERROR"
    case 1: return "FORMERR"
    case 2: return "SERVFAIL"
    case 3: return "NXDOMAIN"
    case 4: return "NOTIMP"
    case 5: return "REFUSED"
    case 6: return "YXDOMAIN"
    case 7: return "YXRRSET"
    case 8: return "NXRRSET"
    case 9: return "NOTAUTH"
    case 10: return "NOTZONE"
    case 11: return "RCODE_11"
    case 12: return "RCODE_12"
    case 13: return "RCODE_13"
    case 14: return "RCODE_14"
    case 15: return "RCODE_15"
  }
  return "RCODE_" + rcode
}

export function rcodeCode(code) {
  switch (code.toUpperCase()) {
    case "NOERROR": return 0
    case "FORMERR": return 1
    case "SERVFAIL": return 2
    case "NXDOMAIN": return 3
    case "NOTIMP": return 4
    case "REFUSED": return 5
    case "YXDOMAIN": return 6
    case "YXRRSET": return 7
    case "NXRRSET": return 8
    case "NOTAUTH": return 9
    case "NOTZONE": return 10
    case "RCODE_11": return 11
    case "RCODE_12": return 12
    case "RCODE_13": return 13
    case "RCODE_14": return 14
    case "RCODE_15": return 15
  }
  return 0
}

function opcodeNameUncached(opcode) {
  switch (opcode) {
    case 0: return "QUERY"
    case 1: return "IQUERY"
    case 2: return "STATUS"
    case 3: return "OPCODE_3"
    case 4: return "NOTIFY"
    case 5: return "UPDATE"
    case 6: return "OPCODE_6"
    case 7: return "OPCODE_7"
    case 8: return "OPCODE_8"
    case 9: return "OPCODE_9"
    case 10: return "OPCODE_10"
    case 11: return "OPCODE_11"
    case 12: return "OPCODE_12"
    case 13: return "OPCODE_13"
    case 14: return "OPCODE_14"
    case 15: return "OPCODE_15"
  }
  return "OPCODE_" + opcode
}

export function opcodeCode(code) {
  switch (code.toUpperCase()) {
    case "QUERY": return 0
    case "IQUERY": return 1
    case "STATUS": return 2
    case "OPCODE_3": return 3
    case "NOTIFY": return 4
    case "UPDATE": return 5
    case "OPCODE_6": return 6
    case "OPCODE_7": return 7
    case "OPCODE_8": return 8
    case "OPCODE_9": return 9
    case "OPCODE_10": return 10
    case "OPCODE_11": return 11
    case "OPCODE_12": return 12
    case "OPCODE_13": return 13
    case "OPCODE_14": return 14
    case "OPCODE_15": return 15
  }
  return 0
}

function optionNameUncached(type) {
  switch (type) {
    case 1: return "LLQ"
    case 2: return "UL"
    case 3: return "NSID"
    case 5: return "DAU"
    case 6: return "DHU"
    case 7: return "N3U"
    case 8: return "CLIENT_SUBNET"
    case 9: return "EXPIRE"
    case 10: return "COOKIE"
    case 11: return "TCP_KEEPALIVE"
    case 12: return "PADDING"
    case 13: return "CHAIN"
    case 14: return "KEY_TAG"
    case 26946: return "DEVICEID"
  }
  if (type < 0) {
    return null
  }
  return `OPTION_${type}`
}

export function optionCode(name) {
  if (typeof name === "number") {
    return name
  }
  if (!name) {
    return -1
  }
  switch (name.toUpperCase()) {
    case "OPTION_0": return 0
    case "LLQ": return 1
    case "UL": return 2
    case "NSID": return 3
    case "OPTION_4": return 4
    case "DAU": return 5
    case "DHU": return 6
    case "N3U": return 7
    case "CLIENT_SUBNET": return 8
    case "EXPIRE": return 9
    case "COOKIE": return 10
    case "TCP_KEEPALIVE": return 11
    case "PADDING": return 12
    case "CHAIN": return 13
    case "KEY_TAG": return 14
    case "DEVICEID": return 26946
    case "OPTION_65535": return 65535
  }
  const m = name.match(/_(\d+)$/)
  if (m) {
    return parseInt(m[1], 10)
  }
  return -1
}

/** Remembers `name` of each code: codes below 512 in an array, the rest in a map. */
function cached(name) {
  const small = new Array(512).fill(null);
  const large = new Map();
  return (code) => {
    if (code >= 0 && code < 512) return (small[code] ??= name(code));
    let text = large.get(code);
    if (text === undefined) {
      text = name(code);
      large.set(code, text);
    }
    return text;
  };
}

/** A type's mnemonic: `"A"`, or `"UNKNOWN_65280"`. */
export const typeName = cached(typeNameUncached);
/** A class's mnemonic: `"IN"`, or `"UNKNOWN_7"`. */
export const className = cached(classNameUncached);
/** An RCODE's mnemonic. */
export const rcodeName = cached(rcodeNameUncached);
/** An OPCODE's mnemonic. */
export const opcodeName = cached(opcodeNameUncached);
/** An EDNS option code's mnemonic, or `null` for a negative code. */
export const optionName = cached(optionNameUncached);
