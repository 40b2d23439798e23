import dns from "node:dns/promises";
import { addressRefusal, hostOf, isIpLiteral, isLocalhostName, type NetworkPolicy } from "../net/addresses";

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
  /** Self-hosted only (WEBHOOK_ALLOW_PRIVATE_NETWORKS): private, loopback and localhost allowed; cloud metadata and link-local never. */
  allowPrivate: boolean;
};

/** The addresses the policy opens (lib/net/addresses.ts holds the one rule). */
const networkPolicy = (policy: UrlPolicy): NetworkPolicy => ({ allowPrivate: policy.allowPrivate && !policy.hosted });

const a = (word: string) => (/^[aeiou]/.test(word) ? `an ${word}` : `a ${word}`);

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
  const network = networkPolicy(policy);
  if (!network.allowPrivate && isLocalhostName(host)) return { ok: false, reason: "must not point at localhost" };
  if (isIpLiteral(host)) {
    const why = addressRefusal(host, network);
    if (why) return { ok: false, reason: `points at ${a(why)} address (${host})` };
  }
  return { ok: true, url };
}

/** The full check: shape, then every address the host resolves to. */
export async function checkWebhookUrl(raw: string, policy: UrlPolicy, resolve: Resolver = systemResolver): Promise<UrlCheck> {
  const shape = checkUrlShape(raw, policy);
  if (!shape.ok) return shape;
  const host = hostOf(shape.url);
  if (isIpLiteral(host)) return { ok: true, url: shape.url, addresses: [host] };
  let addresses: string[];
  try {
    addresses = await resolve(host);
  } catch {
    return { ok: false, reason: `host ${host} does not resolve` };
  }
  if (addresses.length === 0) return { ok: false, reason: `host ${host} does not resolve` };
  const network = networkPolicy(policy);
  for (const address of addresses) {
    const why = addressRefusal(address, network);
    if (why) return { ok: false, reason: `host ${host} resolves to ${a(why)} address (${address})` };
  }
  return { ok: true, url: shape.url, addresses };
}

/**
 * What the audit log keeps of a webhook URL: its origin (scheme, host, port). why: members read
 * the audit log but may not manage webhooks, and a URL's path and query often hold a token.
 */
export function auditedUrl(raw: string): string {
  return URL.parse(raw)?.origin ?? "";
}
