import { config } from "../config";
import { inRange, parseCidr, parseIp, type IpRange } from "../net/addresses";

/** Set by lib/server/web.ts from the socket, after removing any copy the client sent. */
export const SOCKET_ADDRESS_HEADER = "x-folio-client-ip";

/** What the address needs of a request's headers: a fetch Request's, or a Node request's read alike. */
export type HeaderSource = Pick<Headers, "get">;

let trusted: IpRange[] | undefined;

function isTrusted(ip: Uint8Array) {
  trusted ??= config().TRUSTED_PROXY_RANGES.map((r) => parseCidr(r)!);
  return trusted.some((r) => inRange(ip, r));
}

/**
 * The client's address: the socket's, or behind a trusted proxy the nearest X-Forwarded-For hop
 * that is not itself a trusted proxy. X-Forwarded-For from anyone else is ignored.
 */
export function clientAddress(headers: HeaderSource): Uint8Array | null {
  const socket = parseIp(headers.get(SOCKET_ADDRESS_HEADER) ?? "");
  if (!socket || !isTrusted(socket)) return socket;
  const hops = (headers.get("x-forwarded-for") ?? "").split(",").map((h) => h.trim()).filter(Boolean);
  let client = socket;
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = parseIp(hops[i]!);
    if (!hop) break;
    client = hop;
    if (!isTrusted(hop)) break;
  }
  return client;
}

/** The rate-limit bucket of an address: IPv4 whole, IPv6 by its /64 (spec: Limits > Request rates). */
export function addressBucket(ip: Uint8Array | null): string {
  if (!ip) return "unknown";
  if (ip.length === 4) return ip.join(".");
  const groups: string[] = [];
  for (let i = 0; i < 8; i += 2) groups.push(((ip[i]! << 8) | ip[i + 1]!).toString(16));
  return `${groups.join(":")}::/64`;
}
