import pino from "pino";
import { config } from "./config";

const globalKey = Symbol.for("folio.log");
const holder = globalThis as unknown as { [globalKey]?: pino.Logger; folioLogDestination?: ReturnType<typeof pino.destination> };

/** Writes out buffered log lines; call before process.exit. */
export function flushLogs() {
  try {
    holder.folioLogDestination?.flushSync();
  } catch {
    // nothing buffered, or the stream is gone
  }
}

/**
 * Structured JSON logs to stdout (stderr for the admin CLI, whose stdout is its answer).
 * Secrets never reach a log line: the redaction list is the last line of defence, not the first.
 */
export function log(): pino.Logger {
  let l = holder[globalKey];
  if (!l) {
    l = pino(
      {
        level: config().FOLIO_PROCESS === "cli" ? "warn" : config().LOG_LEVEL,
        base: { process: config().FOLIO_PROCESS },
        redact: {
          paths: [
            "secret", "*.secret", "password", "*.password", "apiKey", "headers[\"x-api-key\"]",
            // Invitation and password-reset links carry their token; none is ever logged on purpose.
            "token", "*.token", "link", "*.link", "currentPassword", "*.currentPassword", "newPassword", "*.newPassword",
          ],
          censor: "[redacted]",
        },
        // why: every `err` of every line goes through safeError, so no call site can forget it.
        serializers: { err: safeError },
        timestamp: pino.stdTimeFunctions.isoTime,
      },
      (holder.folioLogDestination = pino.destination({ fd: config().FOLIO_PROCESS === "cli" ? 2 : 1, sync: false })),
    );
    holder[globalKey] = l;
  }
  return l;
}

/** An error as a log line carries it: what it is and where it happened, never the data it was about. */
export type SafeError = {
  type: string;
  message: string;
  code?: string | number;
  stack?: string;
  [field: string]: unknown;
};

// Fields of an error that name what failed and never the values involved: Node's system errors
// (code, syscall, address, port), PostgreSQL's (severity, routine, constraint and table names).
const KEPT_FIELDS = ["code", "errno", "syscall", "address", "port", "status", "statusCode", "severity", "routine",
  "schema_name", "table_name", "column_name", "constraint_name", "constraint", "table", "column", "schema"] as const;

const MAX_CAUSES = 5;

/**
 * An error made safe for the log: its class, code, the names PostgreSQL gives (constraint, table,
 * column), the statement's text with its placeholders, its stack frames and its causes, but no
 * value a statement was given.
 *
 * why: drizzle's DrizzleQueryError puts every bound parameter in its message ("Failed query: ...
 * params: ...") and in `params`; postgres.js adds `parameters` and `args`; PostgreSQL's `detail`
 * repeats a key's or a row's values ("Key (email)=(...) already exists", "Failing row contains
 * ...") and its messages quote a refused value ("invalid input syntax for type integer: \"...\"").
 * A database outage would otherwise write callers' HTML and data, password hashes and sealed
 * secrets into the logs. So the fields kept are a list, not everything minus a list, and a stack
 * keeps its frames only (its first line repeats the message).
 */
export function safeError(err: unknown, depth = 0): SafeError {
  // A string is a message Folio's code chose (an aborted upload's reason).
  if (typeof err === "string") return { type: "string", message: safeMessage(err, false) };
  if (!(err instanceof Error)) {
    // A thrown object that is not an Error could hold anything a caller sent: its type only.
    return { type: err === null ? "null" : typeof err, message: "a value that is not an Error was thrown" };
  }
  const e = err as Error & Record<string, unknown>;
  const postgres = isPostgresError(e);
  const out: SafeError = { type: e.constructor?.name && e.constructor.name !== "Error" ? e.constructor.name : e.name, message: safeMessage(e.message, postgres) };
  for (const f of KEPT_FIELDS) {
    const v = e[f];
    if (typeof v === "string" || typeof v === "number") out[f] = v;
  }
  // drizzle's failed statement: its text has placeholders ($1) where the values went; the message
  // would only repeat it.
  if (typeof e.query === "string" && "params" in e) {
    out.message = "Failed query";
    out.query = e.query.slice(0, 2_000);
  }
  if (typeof e.stack === "string") out.stack = frames(e.stack);
  if (depth < MAX_CAUSES) {
    if (e.cause !== undefined) out.cause = safeError(e.cause, depth + 1);
    if (Array.isArray(e.errors)) out.errors = e.errors.slice(0, 5).map((x: unknown) => safeError(x, depth + 1));
  }
  return out;
}

/** An error in one line of text, as safeError keeps it: each message down its causes, and the innermost code. */
export function safeErrorText(err: unknown): string {
  const parts: string[] = [];
  let code: unknown;
  for (let e: SafeError | undefined = safeError(err); e; e = e.cause as SafeError | undefined) {
    parts.push(e.message);
    code = e.code ?? code;
  }
  return `${parts.join(": ")}${code === undefined ? "" : ` (${String(code)})`}`;
}

/** The text of an error message without the values drizzle or PostgreSQL put into it. */
function safeMessage(message: string, postgres: boolean): string {
  let m = message.replace(/\nparams: [\s\S]*$/, ""); // drizzle: "Failed query: <sql>\nparams: <values>"
  // PostgreSQL quotes a value it refuses; the names it quotes are in constraint_name, table_name...
  if (postgres) m = m.replace(/"(?:[^"]|"")*"/g, '"…"');
  return m.slice(0, 2_000);
}

const isPostgresError = (e: Error & Record<string, unknown>) =>
  e.name === "PostgresError" || (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code) && "severity" in e);

/** The stack's "at ..." lines: the first line of a stack is the name and the message again. */
function frames(stack: string): string {
  return stack
    .split("\n")
    .filter((l) => /^\s+at /.test(l))
    .slice(0, 30)
    .join("\n");
}

/**
 * Makes console.error and console.warn print errors as safeError does, for what Folio does not log
 * itself: Next.js prints an error thrown while rendering a console page with console.error, whole.
 */
export function sanitizeConsole() {
  for (const level of ["error", "warn"] as const) {
    const print = console[level].bind(console);
    console[level] = (...args: unknown[]) =>
      print(...args.map((a) => (a instanceof Error ? JSON.stringify(safeError(a)) : typeof a === "string" ? safeMessage(a, false) : a)));
  }
}
