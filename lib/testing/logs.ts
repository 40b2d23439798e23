import fs from "node:fs";
import { expect } from "vitest";

/** A pino line of a Folio process (the fields tests read). */
export type LogLine = {
  level: number;
  msg?: string;
  process?: string;
  signal?: string;
  renderId?: string;
  workspaceId?: string;
  requestId?: string;
  attempt?: number;
  state?: string;
  diagnostic?: string;
  ms?: Record<string, number>;
  err?: { message?: string };
};

/** The JSON lines of a process's log file (anything else it printed is skipped). */
export function logLines(file: string): LogLine[] {
  const text = fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "";
  return text.split("\n").flatMap((l) => {
    try {
      return [JSON.parse(l) as LogLine];
    } catch {
      return [];
    }
  });
}

/** Waits for the first line of the file that `match` accepts (log lines are written moments after the fact). */
export async function logLine(file: string, match: (l: LogLine) => boolean, timeout = 10_000): Promise<LogLine> {
  let found: LogLine | undefined;
  await expect.poll(() => (found = logLines(file).find(match)) !== undefined, { timeout, interval: 100 }).toBe(true);
  return found!;
}
