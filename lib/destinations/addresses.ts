/**
 * Which IP addresses count as "on the public internet" (spec: Storage destination > endpoint, and
 * the same list as Allowed webhook URLs): private, loopback, link-local (cloud metadata included),
 * shared, reserved, documentation and multicast ranges are not. Pure.
 */
import { parseCidr, parseIp } from "../config";

const notPublic = [
  // IPv4
  "0.0.0.0/8", // "this network"
  "10.0.0.0/8", // private
  "100.64.0.0/10", // shared (carrier-grade NAT)
  "127.0.0.0/8", // loopback
  "169.254.0.0/16", // link-local, cloud metadata (169.254.169.254)
  "172.16.0.0/12", // private
  "192.0.0.0/24", // IETF protocol assignments
  "192.0.2.0/24", // documentation
  "192.88.99.0/24", // 6to4 relay (deprecated)
  "192.168.0.0/16", // private
  "198.18.0.0/15", // benchmarking
  "198.51.100.0/24", // documentation
  "203.0.113.0/24", // documentation
  "224.0.0.0/4", // multicast
  "240.0.0.0/4", // reserved, broadcast
  // IPv6 (IPv4-mapped addresses are parsed as IPv4)
  "::/128", // unspecified
  "::1/128", // loopback
  "64:ff9b::/96", // NAT64: reaches IPv4 addresses of any kind
  "64:ff9b:1::/48", // local NAT64
  "100::/64", // discard
  "2001::/23", // IETF protocol assignments
  "2001:db8::/32", // documentation
  "2002::/16", // 6to4: embeds IPv4 addresses of any kind
  "3fff::/20", // documentation
  "5f00::/16", // segment routing
  "fc00::/7", // unique local (fd00:ec2::254 is a cloud metadata address)
  "fe80::/10", // link-local
  "fec0::/10", // site-local (deprecated)
  "ff00::/8", // multicast
].map((c) => parseCidr(c)!);

function inRange(ip: Uint8Array, range: { bytes: Uint8Array; prefix: number }) {
  if (ip.length !== range.bytes.length) return false;
  let bits = range.prefix;
  for (let i = 0; bits > 0; i++, bits -= 8) {
    const mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
    if ((ip[i]! & mask) !== (range.bytes[i]! & mask)) return false;
  }
  return true;
}

/** True for an address on the public internet; false for every range above and for text that is no address. */
export function isPublicAddress(address: string): boolean {
  const ip = parseIp(address.replace(/^\[|\]$/g, "").replace(/%.*$/, ""));
  if (!ip) return false;
  return !notPublic.some((r) => inRange(ip, r));
}

/** The host of a URL is an IP literal (IPv6 in brackets included). */
export const isIpLiteral = (host: string) => parseIp(host.replace(/^\[|\]$/g, "")) !== null;

/** Error code of a connection refused because its host resolved to an address that is not public. */
export const NOT_PUBLIC = "EFOLIO_NOT_PUBLIC";
