/**
 * What /v1/mcp checks of a request before the protocol sees it, as pure functions of its headers
 * (docs/api.md, MCP server): the Host and Origin against DNS rebinding, and where the key is.
 */
import { forbidden, unauthorized } from "../errors";
import { isLocalhostName } from "../net/addresses";

type Headers = Pick<globalThis.Headers, "get">;

/** A host name (no port) that always means this machine: localhost, 127.0.0.0/8, ::1. */
export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return isLocalhostName(h) || /^127(\.\d{1,3}){3}$/.test(h) || h === "::1";
}

/** The host and port of a Host header or an origin's authority, as the URL parser reads them; null when it is not one. */
function authority(value: string, protocol: string): { hostname: string; port: string } | null {
  const u = URL.parse(`${protocol}//${value}`);
  if (!u || u.username || u.password || u.pathname !== "/" || u.search || u.hash) return null;
  return { hostname: u.hostname.toLowerCase(), port: u.port };
}

/**
 * DNS-rebinding protection (MCP transport spec: servers MUST validate Origin). The Host must be
 * PUBLIC_URL's host and port; an installation whose PUBLIC_URL is itself on loopback (a developer's,
 * the tests') also answers its port under any loopback name, since a browser can only reach that
 * from the same machine. An Origin, when sent, must be PUBLIC_URL's origin or, on such a loopback
 * installation, a loopback origin of the same port. Otherwise 403 FORBIDDEN.
 */
export function assertHostAndOrigin(headers: Headers, publicUrl: string) {
  const pub = new URL(publicUrl);
  const loopbackInstall = isLoopbackHost(pub.hostname);
  const same = (a: { hostname: string; port: string } | null) =>
    a !== null && a.port === pub.port && (a.hostname === pub.hostname.toLowerCase() || (loopbackInstall && isLoopbackHost(a.hostname)));

  const host = headers.get("host");
  if (host === null || !same(authority(host, pub.protocol))) {
    throw forbidden(`The Host header ${host === null ? "is missing" : `names ${JSON.stringify(host.slice(0, 200))}`}; this MCP server answers only at ${pub.host}`);
  }
  const origin = headers.get("origin");
  if (origin === null) return;
  const o = URL.parse(origin);
  const ok = o !== null && o.protocol === pub.protocol && o.origin === origin.replace(/\/$/, "") && same(authority(o.host, o.protocol));
  if (!ok) throw forbidden(`Requests from the web origin ${JSON.stringify(origin.slice(0, 200))} are refused; only ${pub.origin} may call this MCP server from a browser`);
}

/**
 * The API key of a request: the x-api-key header as everywhere in /v1, or `Authorization: Bearer
 * <key>`, which MCP clients send when configured with a token. Both given and different is a
 * mistake worth naming rather than guessing; returns null when neither is sent.
 */
export function keyOf(headers: Headers): string | null {
  const header = headers.get("x-api-key");
  const auth = headers.get("authorization");
  const bearer = auth === null ? null : (/^Bearer\s+(\S+)\s*$/i.exec(auth)?.[1] ?? null);
  if (header !== null && bearer !== null && header !== bearer) throw unauthorized("x-api-key and Authorization: Bearer name different keys; send one key");
  return header ?? bearer;
}
