import dns from "node:dns/promises";
import net from "node:net";

/**
 * spec: Events > Allowed webhook URLs. A URL is refused for its scheme (http only self-hosted),
 * credentials, a localhost name, or a host that is, or resolves to, an address outside the public
 * internet; a name that does not resolve is refused too. Every address a name resolves to is
 * checked (one private address is enough to refuse), and the delivery connects to an address this
 * check passed (see `deliver.ts`), so a name that resolves differently a moment later (DNS
 * rebinding) cannot reach a private address.
 */

export type UrlPolicy = {
  /** Hosted service: https only, private addresses never. */
  hosted: boolean;
  /** Self-hosted only (WEBHOOK_ALLOW_PRIVATE_NETWORKS): private, loopback and localhost allowed. */
  allowPrivate: boolean;
};

/** Resolves a host name to all its addresses (IPv4 and IPv6); injectable for tests. */
export type Resolver = (host: string) => Promise<string[]>;

export const systemResolver: Resolver = async (host) => (await dns.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Why a URL is refused, or the addresses it may be reached at. */
export type UrlCheck = { ok: true; url: URL; addresses: string[] } | { ok: false; reason: string };

/** The checks that need no DNS: scheme, credentials, localhost names, and literal addresses. */
export function checkUrlShape(raw: string, policy: UrlPolicy): { ok: true; url: URL } | { ok: false; reason: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: "is not a valid URL" };
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return { ok: false, reason: "must use https (or http on a self-hosted installation)" };
  if (url.protocol === "http:" && policy.hosted) return { ok: false, reason: "must use https" };
  if (url.username || url.password) return { ok: false, reason: "must not contain credentials" };
  const host = hostOf(url);
  if (!host) return { ok: false, reason: "has no host" };
  const privateAllowed = policy.allowPrivate && !policy.hosted;
  if (!privateAllowed && (host === "localhost" || host.endsWith(".localhost"))) return { ok: false, reason: "must not point at localhost" };
  if (net.isIP(host)) {
    const why = privateAllowed ? metadataAddress(host) : refusedAddress(host);
    if (why) return { ok: false, reason: `points at a ${why} address (${host})` };
  }
  return { ok: true, url };
}

/** The full check: shape, then every address the host resolves to. */
export async function checkWebhookUrl(raw: string, policy: UrlPolicy, resolve: Resolver = systemResolver): Promise<UrlCheck> {
  const shape = checkUrlShape(raw, policy);
  if (!shape.ok) return shape;
  const host = hostOf(shape.url);
  if (net.isIP(host)) return { ok: true, url: shape.url, addresses: [host] };
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return { ok: false, reason: `host ${host} does not resolve` };
  }
  if (addresses.length === 0) return { ok: false, reason: `host ${host} does not resolve` };
  const privateAllowed = policy.allowPrivate && !policy.hosted;
  for (const a of addresses) {
    const why = privateAllowed ? metadataAddress(a) : refusedAddress(a);
    if (why) return { ok: false, reason: `host ${host} resolves to a ${why} address (${a})` };
  }
  return { ok: true, url: shape.url, addresses };
}

/** The URL's host without IPv6 brackets, lower case, without a trailing dot. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, "").toLowerCase().replace(/\.$/, "");
}

type Range = { net: string; bits: number; kind: string };

// why these: IANA special-purpose registries (IPv4 and IPv6); everything that is not the public internet.
const V4: Range[] = [
  { net: "0.0.0.0", bits: 8, kind: "reserved" },
  { net: "10.0.0.0", bits: 8, kind: "private" },
  { net: "100.64.0.0", bits: 10, kind: "shared" },
  { net: "127.0.0.0", bits: 8, kind: "loopback" },
  { net: "169.254.0.0", bits: 16, kind: "link-local" }, // includes cloud metadata 169.254.169.254
  { net: "172.16.0.0", bits: 12, kind: "private" },
  { net: "192.0.0.0", bits: 24, kind: "reserved" },
  { net: "192.0.2.0", bits: 24, kind: "documentation" },
  { net: "192.88.99.0", bits: 24, kind: "reserved" },
  { net: "192.168.0.0", bits: 16, kind: "private" },
  { net: "198.18.0.0", bits: 15, kind: "reserved" },
  { net: "198.51.100.0", bits: 24, kind: "documentation" },
  { net: "203.0.113.0", bits: 24, kind: "documentation" },
  { net: "224.0.0.0", bits: 4, kind: "multicast" },
  { net: "240.0.0.0", bits: 4, kind: "reserved" }, // includes broadcast 255.255.255.255
];

const V6: Range[] = [
  { net: "::", bits: 128, kind: "reserved" },
  { net: "::1", bits: 128, kind: "loopback" },
  { net: "64:ff9b:1::", bits: 48, kind: "reserved" },
  { net: "100::", bits: 64, kind: "reserved" },
  { net: "2001::", bits: 23, kind: "reserved" },
  { net: "2001:db8::", bits: 32, kind: "documentation" },
  { net: "2002::", bits: 16, kind: "reserved" }, // 6to4 can wrap any IPv4 address
  { net: "3fff::", bits: 20, kind: "documentation" },
  { net: "fc00::", bits: 7, kind: "private" }, // unique local, includes cloud metadata fd00:ec2::254
  { net: "fe80::", bits: 10, kind: "link-local" },
  { net: "fec0::", bits: 10, kind: "reserved" },
  { net: "ff00::", bits: 8, kind: "multicast" },
];

/**
 * Cloud metadata services (AWS, GCP, Azure, OpenStack: 169.254.169.254; AWS over IPv6:
 * fd00:ec2::254) hand out credentials to whatever asks from inside the machine: refused even where
 * private networks are allowed.
 */
export function metadataAddress(address: string): string | undefined {
  const a = address.replace(/%.*$/, "");
  if (!net.isIP(a)) return undefined;
  const bits = net.isIPv4(a) ? v4Bits(a) : v6Bits(a);
  const v4 = net.isIPv4(a) ? bits : bits >> 32n === 0xffffn ? bits & 0xffffffffn : undefined;
  if (v4 === v4Bits("169.254.169.254")) return "cloud metadata";
  if (net.isIPv6(a) && bits === v6Bits("fd00:ec2::254")) return "cloud metadata";
  return undefined;
}

/** The kind of a refused address ("private", "loopback", ...), or undefined for a public one. */
export function refusedAddress(address: string): string | undefined {
  const a = address.replace(/%.*$/, ""); // zone index of a link-local address
  const metadata = metadataAddress(a);
  if (metadata) return metadata;
  if (net.isIPv4(a)) return kindIn(V4, v4Bits(a), 32);
  if (!net.isIPv6(a)) return "invalid";
  const bits = v6Bits(a);
  // IPv4-mapped (::ffff:a.b.c.d), IPv4-compatible (::a.b.c.d) and NAT64 (64:ff9b::a.b.c.d) carry an IPv4 address: check that one.
  const top96 = bits >> 32n;
  if (top96 === 0xffffn || (top96 === 0n && bits > 1n) || top96 === 0x64ff9b0000000000000000n) {
    return kindIn(V4, bits & 0xffffffffn, 32) ?? (top96 === 0n ? "reserved" : undefined);
  }
  return kindIn(V6, bits, 128);
}

function kindIn(ranges: Range[], bits: bigint, width: number): string | undefined {
  for (const r of ranges) {
    const base = width === 32 ? v4Bits(r.net) : v6Bits(r.net);
    const shift = BigInt(width - r.bits);
    if (bits >> shift === base >> shift) return r.kind;
  }
  return undefined;
}

function v4Bits(a: string): bigint {
  return a.split(".").reduce((n, part) => (n << 8n) | BigInt(Number(part)), 0n);
}

function v6Bits(a: string): bigint {
  let s = a;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(s);
  if (v4) {
    const n = v4Bits(v4[1]!);
    s = s.slice(0, -v4[1]!.length) + `${((n >> 16n) & 0xffffn).toString(16)}:${(n & 0xffffn).toString(16)}`;
  }
  const [head, tail] = s.split("::") as [string, string | undefined];
  const h = head ? head.split(":") : [];
  const t = tail ? tail.split(":") : [];
  const groups = tail === undefined ? h : [...h, ...Array(8 - h.length - t.length).fill("0"), ...t];
  return groups.reduce((n, g) => (n << 16n) | BigInt(parseInt(g || "0", 16)), 0n);
}
