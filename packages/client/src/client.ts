import { errorFromResponse, FolioError } from "./errors.js";
import type { AnswerOf, BatchRequest, BatchSummary, BodyOf, Method, ParamsOf, Path, PathsWith, QueryOf, Render, RenderRequest } from "./types.js";

export type FolioOptions = {
  /** The API key; default the FOLIO_API_KEY environment variable. */
  apiKey?: string;
  /** The service's address; default FOLIO_URL, else http://localhost:3000. */
  baseUrl?: string;
  /** Retries of one call after a retryable error or no answer (the API's retry rules); default 3. */
  maxRetries?: number;
  /** The longest Retry-After the client waits; a longer one is thrown to the caller. Default 60 s. */
  maxRetryWaitMs?: number;
  /** Another fetch (tests, proxies); default the global fetch. */
  fetch?: typeof fetch;
};

export type CallOptions = {
  signal?: AbortSignal;
  /**
   * An Idempotency-Key for a POST that takes one: a string of yours, or `true` for one the client
   * makes. The same key is sent on every retry of the call, so a render POST whose answer was lost
   * is retried without making a second render (without a key it is not retried then).
   */
  idempotencyKey?: string | true;
};

type RequestOptions<P extends Path, M extends Method> = CallOptions & {
  params?: ParamsOf<P, M>;
  query?: QueryOf<P, M> | Record<string, string | number | boolean | undefined>;
  body?: BodyOf<P, M>;
};

export type WaitOptions = {
  /** How long to wait in all; default 10 minutes. Past it, FolioError RENDER_TIMEOUT. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with each state the wait sees (a progress line). */
  onProgress?: (state: string) => void;
};

const TEN_MINUTES = 10 * 60_000;
const SERVER_WAIT_MAX = 60_000;
/** States of a render that has not ended; any other (an ended one, or one this version does not know) ends a wait. */
const RUNNING = new Set(["queued", "processing"]);
export const hasEnded = (state: string) => !RUNNING.has(state);

/**
 * Folio's API. Every endpoint is reachable, typed, through `get`/`post`/`put`/`patch`/`delete`
 * (by path, as the OpenAPI document names it); the main ones have helpers: `renders`, `batches`,
 * `templates`. Retries follow the API's rules: only errors the server marks retryable, after its
 * Retry-After when it sends one; after no answer, a GET always, a POST only with an Idempotency-Key.
 * Unknown response fields and enum values pass through untouched.
 */
export class Folio {
  readonly baseUrl: string;
  private readonly apiKey?: string;
  private readonly maxRetries: number;
  private readonly maxRetryWaitMs: number;
  private readonly fetcher: typeof fetch;

  constructor(options: FolioOptions = {}) {
    const env = (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env ?? {};
    this.apiKey = options.apiKey ?? env.FOLIO_API_KEY;
    this.baseUrl = (options.baseUrl ?? env.FOLIO_URL ?? "http://localhost:3000").replace(/\/+$/, "");
    this.maxRetries = options.maxRetries ?? 3;
    this.maxRetryWaitMs = options.maxRetryWaitMs ?? 60_000;
    this.fetcher = options.fetch ?? fetch;
  }

  get<P extends PathsWith<"get">>(path: P, options: RequestOptions<P, "get"> = {}): Promise<AnswerOf<P, "get">> {
    return this.json("get", path, options);
  }
  post<P extends PathsWith<"post">>(path: P, options: RequestOptions<P, "post"> = {}): Promise<AnswerOf<P, "post">> {
    return this.json("post", path, options);
  }
  put<P extends PathsWith<"put">>(path: P, options: RequestOptions<P, "put"> = {}): Promise<AnswerOf<P, "put">> {
    return this.json("put", path, options);
  }
  patch<P extends PathsWith<"patch">>(path: P, options: RequestOptions<P, "patch"> = {}): Promise<AnswerOf<P, "patch">> {
    return this.json("patch", path, options);
  }
  delete<P extends PathsWith<"delete">>(path: P, options: RequestOptions<P, "delete"> = {}): Promise<AnswerOf<P, "delete">> {
    return this.json("delete", path, options);
  }

  private async json<P extends Path, M extends Method>(method: M, path: P, options: RequestOptions<P, M>): Promise<AnswerOf<P, M>> {
    const res = await this.fetch(method, path, options as Parameters<Folio["fetch"]>[2]);
    return (await res.json()) as AnswerOf<P, M>;
  }

  /**
   * One call, raw: the successful Response (for files), after the retries the API's rules allow;
   * an error answer becomes a FolioError.
   */
  async fetch(method: Method, path: string, options: { params?: object; query?: object; body?: unknown; signal?: AbortSignal; idempotencyKey?: string | true } = {}): Promise<Response> {
    const url = this.url(path, options.params as Record<string, string> | undefined, options.query as Record<string, unknown> | undefined);
    const idempotencyKey = options.idempotencyKey === true ? crypto.randomUUID() : options.idempotencyKey;
    const headers: Record<string, string> = { accept: "application/json" };
    if (this.apiKey) headers["x-api-key"] = this.apiKey;
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    const verb = method.toUpperCase();
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetcher(url, { method: verb, headers, body, signal: options.signal });
      } catch (cause) {
        if (options.signal?.aborted) throw new FolioError("ABORTED", `${verb} ${path}: aborted`, 0, { cause });
        // spec: after no response, a GET can always be retried; a POST only with an Idempotency-Key.
        const safe = verb === "GET" || idempotencyKey !== undefined;
        const error = new FolioError("NETWORK", `${verb} ${path}: no answer from ${this.baseUrl} (${(cause as Error)?.message ?? cause})`, 0, { retryable: safe, cause });
        if (!safe || attempt >= this.maxRetries) throw error;
        await pause(backoff(attempt), options.signal);
        continue;
      }
      if (res.ok) return res;
      const error = await errorFromResponse(res);
      // spec: retry only when retryable is true, waiting the seconds of Retry-After when present.
      if (!error.retryable || attempt >= this.maxRetries) throw error;
      const wait = error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : backoff(attempt);
      if (wait > this.maxRetryWaitMs) throw error;
      await pause(wait, options.signal);
    }
  }

  private url(path: string, params?: Record<string, string>, query?: Record<string, unknown>): string {
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const v = params?.[name];
      if (v === undefined) throw new TypeError(`${path}: the path parameter ${name} is missing`);
      return encodeURIComponent(String(v));
    });
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) q.set(k, String(v));
    const s = q.toString();
    return `${this.baseUrl}${filled}${s ? `?${s}` : ""}`;
  }

  /** Renders: create, read, list, cancel, wait for the end, and the file. */
  readonly renders = {
    /** POST /v1/renders. With `waitMs` in the body the server waits up to that long first. */
    create: (body: RenderRequest, options: CallOptions = {}): Promise<Render> => this.post("/v1/renders", { body, ...options }) as Promise<Render>,
    get: (id: string, options: { waitMs?: number; signal?: AbortSignal } = {}): Promise<Render> =>
      this.get("/v1/renders/{id}", { params: { id }, query: options.waitMs ? { waitMs: options.waitMs } : undefined, signal: options.signal }) as Promise<Render>,
    list: (query: QueryOf<"/v1/renders", "get"> = {}, options: CallOptions = {}) => this.get("/v1/renders", { query, ...options }),
    cancel: (id: string, options: CallOptions = {}): Promise<Render> => this.post("/v1/renders/{id}/cancel", { params: { id }, ...options }) as Promise<Render>,
    /**
     * Waits for a render to end and returns it, whatever its end (succeeded, failed, cancelled):
     * each request waits on the server (`waitMs`, up to a minute), woken by the render's end, so
     * there is no polling. RENDER_TIMEOUT after `timeoutMs` (10 minutes by default).
     */
    waitFor: (id: string, options: WaitOptions = {}): Promise<Render> =>
      waitUntil(options, (waitMs) => this.renders.get(id, { waitMs, signal: options.signal }), (r) => ({
        progress: r.state,
        ended: hasEnded(r.state),
        stillRunning: `Render ${id} had not ended after %s (it is ${r.state}); wait again or cancel it`,
      })),
    /** create, then waitFor: the ended render. An Idempotency-Key is made when none is given, so a lost answer is retried safely. */
    createAndWait: async (body: RenderRequest, options: CallOptions & WaitOptions = {}): Promise<Render> => {
      const timeoutMs = options.timeoutMs ?? TEN_MINUTES;
      const started = Date.now();
      const first = await this.renders.create({ ...body, waitMs: Math.min(SERVER_WAIT_MAX, timeoutMs) } as RenderRequest, { signal: options.signal, idempotencyKey: options.idempotencyKey ?? true });
      options.onProgress?.(first.state);
      if (hasEnded(first.state)) return first;
      return this.renders.waitFor(first.id, { ...options, timeoutMs: Math.max(0, timeoutMs - (Date.now() - started)) });
    },
    /** The render's file as a Response (GET /v1/renders/{id}/file); 409 CONFLICT while it runs. */
    file: (id: string, options: CallOptions = {}): Promise<Response> => this.fetch("get", "/v1/renders/{id}/file", { params: { id }, signal: options.signal }),
  };

  /** Batches of up to 100 renders. */
  readonly batches = {
    create: (body: BatchRequest, options: CallOptions = {}): Promise<BatchSummary> => this.post("/v1/renders/batch", { body, ...options }) as Promise<BatchSummary>,
    get: (id: string, options: { waitMs?: number; signal?: AbortSignal } = {}): Promise<BatchSummary> =>
      this.get("/v1/renders/batch/{id}", { params: { id }, query: options.waitMs ? { waitMs: options.waitMs } : undefined, signal: options.signal }) as Promise<BatchSummary>,
    /**
     * Waits until every item has ended and returns the summary; RENDER_TIMEOUT after `timeoutMs`,
     * 10 minutes unless a longer one is given (spec: client libraries).
     */
    waitFor: (id: string, options: WaitOptions = {}): Promise<BatchSummary> =>
      waitUntil(options, (waitMs) => this.batches.get(id, { waitMs, signal: options.signal }), (b) => {
        const running = b.items.filter((i) => !hasEnded(i.state)).length;
        return {
          progress: `${b.items.length - running} of ${b.items.length} ended`,
          ended: running === 0,
          stillRunning: `Batch ${id} had not ended after %s (${running} of ${b.items.length} items still running)`,
        };
      }),
    /** The combined PDF of a batch whose items all succeeded, as a Response. */
    pdf: (id: string, options: CallOptions = {}): Promise<Response> => this.fetch("get", "/v1/renders/batch/{id}/pdf", { params: { id }, signal: options.signal }),
  };

  /** Templates: the common calls; every other one through get/post/put/patch/delete. */
  readonly templates = {
    list: (query: QueryOf<"/v1/templates", "get"> = {}, options: CallOptions = {}) => this.get("/v1/templates", { query, ...options }),
    get: (id: string, options: CallOptions = {}) => this.get("/v1/templates/{id}", { params: { id }, ...options }),
    create: (body: BodyOf<"/v1/templates", "post">, options: CallOptions = {}) => this.post("/v1/templates", { body, ...options }),
    /** Publishes the draft as a new version (needs the draft's revision). */
    publish: (id: string, body: BodyOf<"/v1/templates/{id}/versions", "post">, options: CallOptions = {}) => this.post("/v1/templates/{id}/versions", { params: { id }, body, ...options }),
    versions: (id: string, query: QueryOf<"/v1/templates/{id}/versions", "get"> = {}, options: CallOptions = {}) => this.get("/v1/templates/{id}/versions", { params: { id }, query, ...options }),
    dataSchema: (id: string, options: CallOptions = {}) => this.get("/v1/templates/{id}/data-schema", { params: { id }, ...options }),
  };
}

/**
 * Reads with the server waiting up to a minute each time (`waitMs`), until `look` says the thing
 * ended; RENDER_TIMEOUT (its `stillRunning` words, %s the time) once `timeoutMs` has passed.
 */
async function waitUntil<T>(options: WaitOptions, read: (waitMs: number) => Promise<T>, look: (value: T) => { progress: string; ended: boolean; stillRunning: string }): Promise<T> {
  const timeoutMs = options.timeoutMs ?? TEN_MINUTES;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read(Math.max(0, Math.min(SERVER_WAIT_MAX, deadline - Date.now())));
    const seen = look(value);
    options.onProgress?.(seen.progress);
    if (seen.ended) return value;
    if (deadline - Date.now() <= 0) throw new FolioError("RENDER_TIMEOUT", seen.stillRunning.replace("%s", `${Math.round(timeoutMs / 1000)} s`), 0, { retryable: true });
  }
}

/** Exponential back-off with jitter when the server names no time: about 0.5, 1, 2, 4 s. */
function backoff(attempt: number): number {
  const base = 500 * 2 ** attempt;
  return base / 2 + Math.random() * base;
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new FolioError("ABORTED", "aborted", 0));
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new FolioError("ABORTED", "aborted", 0));
    };
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
