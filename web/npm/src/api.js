// Everything the package exports, whatever the runtime.
export { LeanwireError } from "./errors.js";
export { ActorPath, parseActorPath, splitNameAndUid, isValidPathElement, checkActorName } from "./actor.js";
export { decodeDnsMessage, buildDnsQuery } from "./dns.js";
export { decodeTds, TdsReader } from "./tds.js";
