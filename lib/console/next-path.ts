/**
 * Where the console sends a person after sign-in. Pure: the sign-in form (browser) and the
 * server both use it.
 */

/** Set by lib/server/web.ts on every request to the path and query the browser asked for (a client's copy is overwritten). */
export const REQUEST_PATH_HEADER = "x-folio-path";

/**
 * `raw` if it is a path on the console's own origin ("/templates?q=a"), else "/". why: `next`
 * comes from the address bar, so an absolute URL, a protocol-relative "//evil.example" or
 * "/\\evil.example" (which browsers read as "//") would make the sign-in page an open redirect.
 */
export function safeNextPath(raw: string | null | undefined): string {
  if (!raw || raw.length > 2048 || !raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) return "/";
  // why: control characters (a tab or newline inside "//") are dropped by URL parsers.
  if (/[\u0000-\u001f\u007f]/.test(raw)) return "/";
  try {
    const base = "http://console.invalid";
    const url = new URL(raw, base);
    if (url.origin !== base) return "/";
    const path = `${url.pathname}${url.search}${url.hash}`;
    // Coming back to the sign-in page or to next-auth would loop.
    if (url.pathname === "/sign-in" || url.pathname.startsWith("/api/")) return "/";
    return path;
  } catch {
    return "/";
  }
}

/** The sign-in page's address that comes back to `path` afterwards. */
export function signInHref(path: string): string {
  const next = safeNextPath(path);
  return next === "/" ? "/sign-in" : `/sign-in?next=${encodeURIComponent(next)}`;
}
