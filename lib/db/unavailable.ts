/**
 * Codes of failures that say the database cannot be reached or cannot serve now, as opposed to a
 * statement it refused: postgres.js's connection errors, Node's socket errors, and PostgreSQL's
 * connection exceptions (class 08), shutdowns (57P01-57P03), too many connections (53300) and a
 * statement cancelled by statement_timeout (57014).
 */
const UNAVAILABLE_CODES = new Set([
  "CONNECT_TIMEOUT", "CONNECTION_CLOSED", "CONNECTION_ENDED", "CONNECTION_DESTROYED",
  "ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "EPIPE",
  "57P01", "57P02", "57P03", "53300", "57014",
]);

/**
 * Whether an error (or one of its causes: drizzle wraps the driver's error) says the database is
 * unavailable: worth answering 503 with a retry, since the same request may succeed in seconds.
 */
export function isDatabaseUnavailable(err: unknown): boolean {
  for (let e = err, depth = 0; e instanceof Error && depth < 5; e = e.cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === "string" && (UNAVAILABLE_CODES.has(code) || code.startsWith("08"))) return true;
    if (e instanceof AggregateError && e.errors.some(isDatabaseUnavailable)) return true;
  }
  return false;
}
