import { ZodError } from "zod";
import { AppError, errorCodes, type ErrorDetail } from "../errors";
import type { Logger } from "pino";

type Envelope = {
  error: { code: string; message: string; retryable: boolean; details?: ErrorDetail[]; renderId?: string };
};

/** Dot-joined JSON path with array indexes as numbers: items.3.data (decisions.md: Response conventions). */
export function joinPath(path: readonly PropertyKey[]): string {
  return path.map(String).join(".");
}

type Issue = ZodError["issues"][number];

/** An issue saying the value has the wrong shape for a union branch altogether (not a wrong field inside it). */
const isShapeMismatch = (i: Issue) =>
  i.path.length === 0 && (i.code === "invalid_type" || i.code === "unrecognized_keys" || i.code === "invalid_union");

/**
 * A union that matched no branch reports every branch's issues. The caller meant the branch its
 * value has the shape of (a binding, not a string), so name that branch's issues: the branch with
 * fewest shape mismatches, then the one that got deepest into the value.
 */
function flattenIssues(issues: readonly Issue[], prefix: readonly PropertyKey[]): { path: PropertyKey[]; issue: Issue }[] {
  return issues.flatMap((issue) => {
    const at = [...prefix, ...issue.path];
    if (issue.code !== "invalid_union" || !issue.errors.length) return [{ path: at, issue }];
    const score = (branch: Issue[]) => [branch.filter(isShapeMismatch).length, -Math.max(0, ...branch.map((i) => i.path.length))] as const;
    let best = issue.errors[0]!;
    for (const branch of issue.errors.slice(1)) {
      const [m, d] = score(branch);
      const [bm, bd] = score(best);
      if (m < bm || (m === bm && d < bd)) best = branch;
    }
    return flattenIssues(best, at);
  });
}

/** A ZodError as BAD_REQUEST naming every bad value. Unknown fields are named one by one. */
export function fromZodError(err: ZodError, prefix: readonly PropertyKey[] = []): AppError {
  const details: ErrorDetail[] = [];
  for (const { path: at, issue } of flattenIssues(err.issues, prefix)) {
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) details.push({ path: joinPath([...at, key]), message: "is not a known field" });
    } else if (issue.code === "invalid_key" && issue.issues[0]) {
      // A record key that fails its own schema: zod keeps that schema's message one level down.
      details.push({ path: joinPath(at) || undefined, message: issue.issues[0].message });
    } else {
      details.push({ path: joinPath(at) || undefined, message: issue.message });
    }
  }
  const first = details[0];
  const message = first ? (first.path ? `${first.path}: ${first.message}` : first.message) : "Invalid request";
  return new AppError("BAD_REQUEST", details.length > 1 ? `${message} (and ${details.length - 1} more)` : message, { details });
}

/**
 * The only place that builds the error envelope. Unknown errors are logged with the request id
 * and answered as INTERNAL without internals.
 */
export function toErrorResponse(err: unknown, requestId: string, logger: Logger): Response {
  let e: AppError;
  if (err instanceof AppError) e = err;
  else if (err instanceof ZodError) e = fromZodError(err);
  else {
    logger.error({ err, requestId }, "unexpected error");
    e = new AppError("INTERNAL", `Internal error; quote request id ${requestId} when reporting it`);
  }
  const body: Envelope = { error: { code: e.code, message: e.message, retryable: e.retryable } };
  if (e.details?.length) body.error.details = e.details;
  if (e.renderId) body.error.renderId = e.renderId;
  return Response.json(body, { status: e.status, headers: { ...e.headers, "x-request-id": requestId } });
}

export { errorCodes };
