import type { RenderRow } from "../db/schema";
import { log } from "../log";

/**
 * Milliseconds an attempt spent in each phase: in the queue since the render was created, in the
 * browser (waiting for a page included), storing its file, uploading it to the render's storage
 * destination (when it has one), and in the statement that ended it.
 */
export type Phases = { queued: number; render?: number; store?: number; upload?: number; end?: number };

/** What an attempt came to. `stopped`: the render ended elsewhere meanwhile (a cancel, or taken back). */
export type Outcome =
  | { state: "succeeded" }
  | { state: "failed"; diagnostic: string; err?: unknown }
  | { state: "queued"; err: unknown }
  | { state: "stopped" };

type Attempt = Pick<RenderRow, "id" | "workspaceId" | "requestId" | "attempts">;

// why warn: time-outs and crashed pages cost a page replacement and often the whole time limit;
// operators watch for them, while a document over a limit is the caller's business.
const WARNING_DIAGNOSTICS = new Set(["LIMIT_EXCEEDED", "render_process_exited"]);

/** The fields every line about a render carries; never its document or data. */
function about(r: Attempt) {
  return { renderId: r.id, workspaceId: r.workspaceId, requestId: r.requestId ?? undefined, attempt: r.attempts };
}

/**
 * One log line per attempt of the worker, with the request id of the render's creation so a
 * caller's request can be followed into the worker: info for an end, warn for a time-out, a crash
 * or a retry, error for a failure nobody expected (with the error).
 */
export function logAttempt(r: Attempt, outcome: Outcome, ms: Phases) {
  const { err, ...rest } = outcome as Outcome & { err?: unknown };
  const line = { ...about(r), ...rest, ms, ...(err === undefined ? {} : { err }) };
  switch (outcome.state) {
    case "succeeded":
      return log().info(line, "render ended");
    case "failed":
      if (err !== undefined) return log().error(line, "render failed unexpectedly");
      return WARNING_DIAGNOSTICS.has(outcome.diagnostic) ? log().warn(line, "render ended") : log().info(line, "render ended");
    case "queued":
      return log().warn(line, "render attempt failed; retrying");
    case "stopped":
      return log().info(line, "render attempt stopped: the render ended elsewhere");
  }
}

/** A render taken back from a worker that stopped renewing its lease: queued again, or failed after its last attempt. */
export function logTakenBack(r: Attempt, state: "queued" | "failed") {
  const failed = state === "failed" ? { diagnostic: "render_process_exited" } : {};
  log().warn({ ...about(r), state, ...failed }, "took back a render whose worker stopped");
}
