/**
 * The one rule for IP addresses: parsing (IPv4, IPv6, the IPv4-mapped form) and which addresses
 * are on the public internet. Storage destinations and webhook URLs refuse what this module says
 * is not public (spec: Storage destination > endpoint; Events > Allowed webhook URLs), and the
 * rate limits' client address is parsed here too. Pure; imports nothing of Folio's, so every
 * folder may import it (lib/config.ts included).
 *
 * IPv6 forms that carry an IPv4 address are classified as that IPv4 address: IPv4-mapped
 * (::ffff:0:0/96) and NAT64 (64:ff9b::/96) reach exactly it; the deprecated IPv4-compatible
 * (::/96), IPv4-translated (::ffff:0:0:0/96), 6to4 (2002::/16) and Teredo (2001::/32) forms are
 * refused as that IPv4 address when it is not public, and as reserved otherwise (no receiver
 * needs them, and a relay on the way could deliver them anywhere).
 */

/** An address: 4 bytes (IPv4) or 16 (IPv6). */
export type IpBytes = Uint8Array;

/** Parses an IPv4 or IPv6 address into 4 or 16 bytes, or null; strict (no brackets, zones or short IPv4 forms). */
function parseRaw(s: string): IpBytes | null {
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(s)) {
    const parts = s.split(".").map(Number);
    return parts.every((p) => p <= 255) ? Uint8Array.from(parts) : null;
  }
  if (!s.includes(":") || !/^[0-9a-fA-F:.]+$/.test(s)) return null;
  let head = s;
  let tailV4: Uint8Array | null = null;
  const lastColon = s.lastIndexOf(":");
  if (s.slice(lastColon + 1).includes(".")) {
    tailV4 = parseRaw(s.slice(lastColon + 1));
    if (!tailV4 || tailV4.length !== 4) return null;
    head = s.slice(0, lastColon + 1) + "0:0";
  }
  const halves = head.split("::");
  if (halves.length > 2) return null;
  const toGroups = (x: string) => (x === "" ? [] : x.split(":"));
  const left = toGroups(halves[0]!);
  const right = halves.length === 2 ? toGroups(halves[1]!) : [];
  const fill = 8 - left.length - right.length;
  // "::" stands for at least one zero group (RFC 4291).
  if ((halves.length === 1 && fill !== 0) || (halves.length === 2 && fill < 1)) return null;
  const groups = [...left, ...Array<string>(halves.length === 2 ? fill : 0).fill("0"), ...right];
  if (groups.length !== 8 || groups.some((g) => !/^[0-9a-fA-F]{1,4}$/.test(g))) return null;
  const out = new Uint8Array(16);
  groups.forEach((g, i) => {
    const n = parseInt(g, 16);
    out[i * 2] = n >> 8;
    out[i * 2 + 1] = n & 0xff;
  });
  if (tailV4) out.set(tailV4, 12);
  return out;
}

const isMapped = (b: IpBytes) => b.length === 16 && b.subarray(0, 10).every((x) => x === 0) && b[10] === 0xff && b[11] === 0xff;

/**
 * Parses an IPv4 or IPv6 address into 4 or 16 bytes; IPv4-mapped IPv6 (how a dual-stack socket
 * shows an IPv4 peer) becomes the 4 bytes of its IPv4 address.
 */
export function parseIp(s: string): IpBytes | null {
  const raw = parseRaw(s);
  return raw && isMapped(raw) ? raw.slice(12) : raw;
}

export type IpRange = { bytes: IpBytes; prefix: number };

/** Parses "10.0.0.0/8", "::1" or "2001:db8::/32" into bytes and a prefix length. */
export function parseCidr(s: string): IpRange | null {
  const parts = s.split("/");
  if (parts.length > 2) return null;
  const [addr, prefixText] = parts;
  const bytes = parseIp(addr ?? "");
  if (!bytes) return null;
  const max = bytes.length * 8;
  const prefix = prefixText === undefined ? max : Number(prefixText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > max || (prefixText !== undefined && !/^\d+$/.test(prefixText))) return null;
  return { bytes, prefix };
}

/** The address is in the range (both IPv4 or both IPv6). */
export function inRange(ip: IpBytes, range: IpRange): boolean {
  if (ip.length !== range.bytes.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((ip[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

/** What an address is; every kind but "public" is refused where only the public internet is allowed. */
export type AddressKind =
  | "public"
  | "private"
  | "shared"
  | "loopback"
  | "link-local"
  | "cloud metadata"
  | "unspecified"
  | "multicast"
  | "reserved"
  | "documentation"
  | "invalid";

export type AddressClass = {
  kind: AddressKind;
  /**
   * Refused even where private networks are allowed: cloud metadata services hand credentials
   * to whatever asks from inside the machine, and they live in link-local ranges (and AWS's
   * fd00:ec2::/32, Alibaba's and Azure's single addresses), which no object store or webhook
   * receiver needs.
   */
  alwaysRefused: boolean;
};

type Rule = { range: IpRange; kind: Exclude<AddressKind, "public" | "invalid">; always?: true };

/** Raw parse for the tables below: "::ffff:0:0/96" must stay 16 bytes. */
function rule(cidr: string, kind: Rule["kind"], always?: true): Rule {
  const [addr, prefix] = cidr.split("/");
  const bytes = parseRaw(addr!)!;
  return { range: { bytes, prefix: prefix === undefined ? bytes.length * 8 : Number(prefix) }, kind, always };
}

// why these: the IANA special-purpose address registries; the first match wins, so a narrower range comes first.
const V4_RULES: Rule[] = [
  rule("169.254.169.254/32", "cloud metadata", true), // AWS, GCP, Azure, Oracle, OpenStack, DigitalOcean
  rule("169.254.0.0/16", "link-local", true), // the metadata services' range (169.254.170.2 is ECS task credentials)
  rule("100.100.100.200/32", "cloud metadata", true), // Alibaba Cloud, inside the shared range
  rule("168.63.129.16/32", "cloud metadata", true), // Azure's WireServer (VM agent, health probes, DNS), a public address in Microsoft's range
  rule("0.0.0.0/8", "unspecified"), // "this network"; 0.0.0.0 connects to the local host
  rule("10.0.0.0/8", "private"),
  rule("100.64.0.0/10", "shared"), // carrier-grade NAT: the provider's network, not the internet
  rule("127.0.0.0/8", "loopback"),
  rule("172.16.0.0/12", "private"),
  rule("192.0.0.0/24", "reserved"), // IETF protocol assignments
  rule("192.0.2.0/24", "documentation"),
  rule("192.88.99.0/24", "reserved"), // 6to4 relay anycast (deprecated)
  rule("192.168.0.0/16", "private"),
  rule("198.18.0.0/15", "reserved"), // benchmarking
  rule("198.51.100.0/24", "documentation"),
  rule("203.0.113.0/24", "documentation"),
  rule("224.0.0.0/4", "multicast"),
  rule("240.0.0.0/4", "reserved"), // includes broadcast 255.255.255.255
];

const V6_RULES: Rule[] = [
  rule("::/128", "unspecified"),
  rule("::1/128", "loopback"),
  rule("64:ff9b:1::/48", "reserved", true), // local-use NAT64: where its IPv4 address sits depends on the network, so it cannot be checked
  rule("100::/64", "reserved"), // discard-only
  rule("2001:db8::/32", "documentation"),
  rule("2001::/23", "reserved"), // IETF protocol assignments
  rule("3fff::/20", "documentation"),
  rule("5f00::/16", "reserved"), // segment routing (SRv6) identifiers
  rule("fd00:ec2::/32", "cloud metadata", true), // AWS over IPv6 (fd00:ec2::254, and ::23 for time)
  rule("fc00::/7", "private"), // unique local
  rule("fe80::/10", "link-local", true), // OpenStack's metadata service is fe80::a9fe:a9fe
  rule("fec0::/10", "private"), // site-local (deprecated)
  rule("ff00::/8", "multicast"),
];

/** The global unicast block: IANA allocates public IPv6 addresses from it only. */
const GLOBAL_UNICAST = rule("2000::/3", "reserved").range;

const v4Class = (ip: IpBytes): AddressClass => {
  const r = V4_RULES.find((x) => inRange(ip, x.range));
  return r ? { kind: r.kind, alwaysRefused: !!r.always } : { kind: "public", alwaysRefused: false };
};

/** An IPv4 address in the IPv6 forms that carry one, and whether the form reaches exactly it. */
function embeddedV4(b: IpBytes): { v4: IpBytes; exact: boolean } | undefined {
  const zero = (from: number, to: number) => b.subarray(from, to).every((x) => x === 0);
  const last32 = b.slice(12);
  if (zero(0, 10) && b[10] === 0xff && b[11] === 0xff) return { v4: last32, exact: true }; // IPv4-mapped ::ffff:0:0/96
  if (b[0] === 0 && b[1] === 0x64 && b[2] === 0xff && b[3] === 0x9b && zero(4, 12)) return { v4: last32, exact: true }; // NAT64 64:ff9b::/96
  if (zero(0, 8) && b[8] === 0xff && b[9] === 0xff && zero(10, 12)) return { v4: last32, exact: false }; // IPv4-translated ::ffff:0:0:0/96
  if (zero(0, 12) && !zero(12, 15)) return { v4: last32, exact: false }; // IPv4-compatible ::/96 (not :: or ::1)
  if (b[0] === 0x20 && b[1] === 0x02) return { v4: b.slice(2, 6), exact: false }; // 6to4 2002::/16
  if (b[0] === 0x20 && b[1] === 0x01 && b[2] === 0 && b[3] === 0) return { v4: last32.map((x) => ~x & 0xff), exact: false }; // Teredo 2001::/32: the client's address, inverted
  return undefined;
}

/** The class of 4 or 16 address bytes (see the module comment for IPv4 inside IPv6). */
export function classifyBytes(b: IpBytes): AddressClass {
  if (b.length === 4) return v4Class(b);
  const embedded = embeddedV4(b);
  if (embedded) {
    const c = v4Class(embedded.v4);
    return embedded.exact || c.kind !== "public" ? c : { kind: "reserved", alwaysRefused: false };
  }
  const r = V6_RULES.find((x) => inRange(b, x.range));
  if (r) return { kind: r.kind, alwaysRefused: !!r.always };
  return inRange(b, GLOBAL_UNICAST) ? { kind: "public", alwaysRefused: false } : { kind: "reserved", alwaysRefused: false };
}

/**
 * The class of an address written as text: as a URL's host has it ("[::1]") or with a zone
 * ("fe80::1%eth0"). Text that is no address is "invalid" (and refused always).
 */
export function classifyAddress(text: string): AddressClass {
  const b = parseRaw(text.replace(/^\[(.*)\]$/, "$1").replace(/%.*$/, ""));
  return b ? classifyBytes(b) : { kind: "invalid", alwaysRefused: true };
}

/** Who may be reached: the public internet only, or (self-hosted, by setting) private networks too. */
export type NetworkPolicy = { allowPrivate: boolean };

/**
 * Why the address may not be reached under the policy ("loopback", "cloud metadata", ...), or
 * undefined when it may. Private networks allowed opens every kind but the always refused ones.
 */
export function addressRefusal(text: string, policy: NetworkPolicy): Exclude<AddressKind, "public"> | undefined {
  const c = classifyAddress(text);
  if (c.kind === "public") return undefined;
  return c.alwaysRefused || !policy.allowPrivate ? c.kind : undefined;
}

/** The host (a URL's hostname: IPv6 in brackets, IPv4 as the URL parser normalised it) is an IP address. */
export const isIpLiteral = (host: string) => parseRaw(host.replace(/^\[(.*)\]$/, "$1")) !== null;

/** A URL's host as a name or address: lower case, without IPv6 brackets or a trailing dot. */
export const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "");

/** localhost and its subdomains, which resolvers answer with loopback addresses without asking DNS. */
export const isLocalhostName = (host: string) => host === "localhost" || host.endsWith(".localhost");
