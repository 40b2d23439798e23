/** One problem of a refused request, as the server names it (`path` is the field, dot-joined). */
export type ErrorDetail = { path?: string; message: string };

/**
 * The one error the client throws. `code` is the server's (BAD_REQUEST, RATE_LIMITED, ...) or, for
 * what happened on this side, NETWORK (no answer), RENDER_TIMEOUT (a wait gave up) or ABORTED.
 * Branch on `code`; a code this version does not know still has the HTTP `status` (0 when the
 * server did not answer), as the API's versioning rules ask of clients.
 */
export class FolioError extends Error {
  override readonly name = "FolioError";
  readonly code: string;
  readonly status: number;
  readonly requestId?: string;
  readonly details: ErrorDetail[];
  /** Whether the same request may succeed later (the server's word, or ours for NETWORK). */
  readonly retryable: boolean;
  /** The server's Retry-After, in seconds, when it sent one. */
  readonly retryAfterSeconds?: number;

  constructor(code: string, message: string, status: number, more: { requestId?: string; details?: ErrorDetail[]; retryable?: boolean; retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(message, more.cause === undefined ? undefined : { cause: more.cause });
    this.code = code;
    this.status = status;
    this.requestId = more.requestId;
    this.details = more.details ?? [];
    this.retryable = more.retryable ?? false;
    this.retryAfterSeconds = more.retryAfterSeconds;
  }
}

/** The error of an answer that is not 2xx: the envelope's fields when it has them, else the status alone. */
export async function errorFromResponse(res: Response): Promise<FolioError> {
  const requestId = res.headers.get("x-request-id") ?? undefined;
  const retryAfter = retryAfterSeconds(res.headers.get("retry-after"));
  let body: unknown;
  try {
    body = await res.json();
  } catch {
    body = undefined;
  }
  const e = (body as { error?: Record<string, unknown> } | undefined)?.error;
  if (e && typeof e.code === "string" && typeof e.message === "string") {
    const details = Array.isArray(e.details) ? e.details.filter((d): d is ErrorDetail => typeof d === "object" && d !== null && typeof (d as ErrorDetail).message === "string") : [];
    return new FolioError(e.code, e.message, res.status, {
      requestId: typeof e.requestId === "string" ? e.requestId : requestId,
      details,
      retryable: e.retryable === true,
      retryAfterSeconds: retryAfter,
    });
  }
  // An answer without the envelope (a proxy's page): the status decides, as for an unknown code.
  const retryable = res.status === 429 || res.status === 502 || res.status === 503 || res.status === 504;
  return new FolioError(`HTTP_${res.status}`, `${res.status} ${res.statusText || "error"} from ${new URL(res.url || "http://x/").pathname}`, res.status, { requestId, retryable, retryAfterSeconds: retryAfter });
}

/** Retry-After as seconds: a number of seconds or an HTTP date. */
export function retryAfterSeconds(value: string | null): number | undefined {
  if (value === null || value.trim() === "") return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}
