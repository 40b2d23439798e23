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
        timestamp: pino.stdTimeFunctions.isoTime,
      },
      (holder.folioLogDestination = pino.destination({ fd: config().FOLIO_PROCESS === "cli" ? 2 : 1, sync: false })),
    );
    holder[globalKey] = l;
  }
  return l;
}
