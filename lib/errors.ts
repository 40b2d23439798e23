import type { ZodError } from "zod";

/** The spec's error codes, each once, with its status and whether a retry may succeed (spec: Errors). */
export const errorCodes = {
  BAD_REQUEST: { status: 400, retryable: false },
  UNAUTHORIZED: { status: 401, retryable: false },
  FORBIDDEN: { status: 403, retryable: false },
  NOT_FOUND: { status: 404, retryable: false },
  CONFLICT: { status: 409, retryable: false },
  ASSET_INVALID: { status: 400, retryable: false },
  UNSUPPORTED_FEATURE: { status: 400, retryable: false },
  LIMIT_EXCEEDED: { status: 400, retryable: false },
  QUOTA_EXCEEDED: { status: 402, retryable: false },
  LICENSE_REQUIRED: { status: 403, retryable: false },
  RATE_LIMITED: { status: 429, retryable: true },
  RENDER_FAILED: { status: 422, retryable: false },
  RENDER_TIMEOUT: { status: 504, retryable: true },
  INTERNAL: { status: 500, retryable: false },
} as const;

export type ErrorCode = keyof typeof errorCodes;

export type ErrorDetail = { path?: string; message: string };

export type AppErrorOptions = {
  details?: ErrorDetail[];
  status?: number;
  retryable?: boolean;
  renderId?: string;
  headers?: Record<string, string>;
  /** A conflict's view of the resource as it is now (a stale draft: its revision and who saved it), so a client can say what happened. */
  current?: Record<string, unknown>;
  /** What a failed sandbox run (a Handlebars template's code) logged before it failed; previews answer it as the x-folio-console header. */
  console?: readonly { step: string; level: string; message: string }[];
};

/** The one error type of Folio. Domain code throws it; lib/http turns it into the envelope. */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly retryable: boolean;
  readonly details?: ErrorDetail[];
  readonly renderId?: string;
  readonly headers?: Record<string, string>;
  readonly current?: Record<string, unknown>;
  readonly console?: readonly { step: string; level: string; message: string }[];

  constructor(code: ErrorCode, message: string, options: AppErrorOptions = {}) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.status = options.status ?? errorCodes[code].status;
    this.retryable = options.retryable ?? errorCodes[code].retryable;
    this.details = options.details;
    this.renderId = options.renderId;
    this.headers = options.headers;
    this.current = options.current;
    this.console = options.console;
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

export const badRequest = (message: string, details?: ErrorDetail[]) => new AppError("BAD_REQUEST", message, { details });

/** Names the value in both message and details, as decisions.md asks. */
export const invalidValue = (path: string, message: string) =>
  new AppError("BAD_REQUEST", `${path}: ${message}`, { details: [{ path, message }] });

export const unauthorized = (message = "A valid API key is required in the x-api-key header") =>
  new AppError("UNAUTHORIZED", message);

export const forbidden = (message: string) => new AppError("FORBIDDEN", message);

/** 404 for unknown IDs and for IDs of another workspace alike: existence is never revealed. */
export const notFound = (resource: string, id?: string) =>
  new AppError("NOT_FOUND", id ? `No ${resource} with id ${id}` : `No such ${resource}`);

export const conflict = (message: string, options: AppErrorOptions = {}) => new AppError("CONFLICT", message, options);

export const limitExceeded = (message: string, options: AppErrorOptions = {}) => new AppError("LIMIT_EXCEEDED", message, options);

export const rateLimited = (message: string, retryAfterSeconds?: number) =>
  new AppError("RATE_LIMITED", message, retryAfterSeconds === undefined ? {} : { headers: { "retry-after": String(retryAfterSeconds) } });

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
export function flattenIssues(issues: readonly Issue[], prefix: readonly PropertyKey[] = []): { path: PropertyKey[]; issue: Issue }[] {
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
