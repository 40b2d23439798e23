import { errorFromResponse, FolioError } from "./errors.js";
import type { AnswerOf, BatchRequest, BodyOf, BatchSummary, IdempotentPath, Method, OptionsArg, Path, PathsWith, QueryOf, Render, RenderRequest, ReportRequest, RequestOptions } from "./types.js";
import { VERSION } from "./version.js";

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

/** Options of a call that only reads or changes state without taking an Idempotency-Key. */
export type ReadOptions = { signal?: AbortSignal };

export type CallOptions = ReadOptions & {
  /**
   * The Idempotency-Key of a POST that takes one (renders, batches, reports). The client makes one
   * for every such call anyway and sends it unchanged on each retry; give your own string to make
   * a repeat of the call in another process (after a crash) return what the first one created.
   * `true` is the default. Other endpoints take no key: giving one there is a TypeError.
   */
  idempotencyKey?: string | true;
};

/** The untyped options of `fetch`, the raw call every typed one goes through. */
export type FetchOptions = CallOptions & { params?: object; query?: object; body?: unknown };

export type WaitOptions = {
  /** How long to wait in all; default 10 minutes. Past it, FolioError RENDER_TIMEOUT. */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Called with each state the wait sees (a progress line). */
  onProgress?: (state: string) => void;
};

/** A report's file (POST /v1/reports/render) and what the server said about it. */
export type ReportFile = {
  bytes: Uint8Array;
  /** application/pdf, image/png, text/html, or the workbook's type. */
  contentType: string;
  /** The render that made it (pdf and png; html and xlsx make no render). */
  renderId?: string;
  /** The document's pages, when the server counted them. */
  pageCount?: number;
};

const TEN_MINUTES = 10 * 60_000;
const SERVER_WAIT_MAX = 60_000;
/** States of a render that has not ended; any other (an ended one, or one this version does not know) ends a wait. */
const RUNNING = new Set(["queued", "processing"]);
export const hasEnded = (state: string) => !RUNNING.has(state);

/**
 * The POSTs whose OpenAPI operation takes an Idempotency-Key (spec: Renders, rule 4), for `fetch`,
 * which is typed by string. why two checks: `satisfies` refuses a path the document does not key,
 * the line after it a keyed path missing here, so regenerated types (`npm run client:types`) that
 * key another endpoint stop the build until this list has it.
 */
const IDEMPOTENT_PATHS = ["/v1/renders", "/v1/renders/batch", "/v1/reports/render"] as const satisfies readonly IdempotentPath[];
const _everyIdempotentPathListed: [Exclude<IdempotentPath, (typeof IDEMPOTENT_PATHS)[number]>] extends [never] ? true : never = true;
const takesIdempotencyKey = (verb: string, path: string) => verb === "POST" && (IDEMPOTENT_PATHS as readonly string[]).includes(path.replace(/[?#].*$/, "").replace(/(.)\/+$/, "$1"));

const USER_AGENT = (() => {
  const node = (globalThis as { process?: { versions?: { node?: string } } }).process?.versions?.node;
  return `folio-client/${VERSION}${node ? ` node/${node}` : ""}`;
})();

/**
 * Folio's API. Every endpoint is reachable, typed, through `get`/`post`/`put`/`patch`/`delete`
 * (by path, as the OpenAPI document names it); the main ones have helpers: `renders`, `batches`,
 * `reports`, `templates`. JSON answers come back parsed, files (PDF, images, HTML) as bytes.
 * Retries follow the API's rules: only errors the server marks retryable (and INTERNAL), after its
 * Retry-After when it sends one; a request is sent again only when that cannot do a thing twice:
 * a GET, a POST with its Idempotency-Key (every POST that takes one gets one), or any request the
 * server refused with 429. Unknown response fields and enum values pass through untouched.
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

  get<P extends PathsWith<"get">>(path: P, ...[options]: OptionsArg<RequestOptions<P, "get">>): Promise<AnswerOf<P, "get">> {
    return this.answer("get", path, options);
  }
  post<P extends PathsWith<"post">>(path: P, ...[options]: OptionsArg<RequestOptions<P, "post">>): Promise<AnswerOf<P, "post">> {
    return this.answer("post", path, options);
  }
  put<P extends PathsWith<"put">>(path: P, ...[options]: OptionsArg<RequestOptions<P, "put">>): Promise<AnswerOf<P, "put">> {
    return this.answer("put", path, options);
  }
  patch<P extends PathsWith<"patch">>(path: P, ...[options]: OptionsArg<RequestOptions<P, "patch">>): Promise<AnswerOf<P, "patch">> {
    return this.answer("patch", path, options);
  }
  delete<P extends PathsWith<"delete">>(path: P, ...[options]: OptionsArg<RequestOptions<P, "delete">>): Promise<AnswerOf<P, "delete">> {
    return this.answer("delete", path, options);
  }

  /** The answer of a typed call: JSON parsed, anything else (a file) as its bytes. */
  private async answer<P extends Path, M extends Method>(method: M, path: P, options: RequestOptions<P, M> | undefined): Promise<AnswerOf<P, M>> {
    const res = await this.fetch(method, path, options as FetchOptions | undefined);
    return (isJson(res) ? await res.json() : new Uint8Array(await res.arrayBuffer())) as AnswerOf<P, M>;
  }

  /**
   * One call, raw: the successful Response (for files), after the retries the API's rules allow;
   * an error answer becomes a FolioError. A POST that takes an Idempotency-Key gets one here, so
   * this path is as safe to retry as the typed ones.
   */
  async fetch(method: Method, path: string, options: FetchOptions = {}): Promise<Response> {
    const verb = method.toUpperCase();
    const keyed = takesIdempotencyKey(verb, path);
    if (options.idempotencyKey !== undefined && !keyed) {
      throw new TypeError(`${verb} ${path} takes no Idempotency-Key; only POST ${IDEMPOTENT_PATHS.join(", ")} do`);
    }
    // why a key on every call that can take one (as Stripe's SDKs do): a retry after a lost answer,
    // a 503 or a 504 then returns what the first attempt made instead of rendering a second time.
    const idempotencyKey = keyed ? (typeof options.idempotencyKey === "string" ? options.idempotencyKey : crypto.randomUUID()) : undefined;
    const url = this.url(path, options.params as Record<string, unknown> | undefined, options.query as Record<string, unknown> | undefined);
    const headers: Record<string, string> = { accept: "application/json", "user-agent": USER_AGENT };
    if (this.apiKey) headers["x-api-key"] = this.apiKey;
    if (idempotencyKey) headers["idempotency-key"] = idempotencyKey;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    // spec: Other conventions > Retries. Sending again is safe when the server did nothing with the
    // request, or did and answers a repeat with the same result: a GET, or a request with its key.
    const resendable = verb === "GET" || idempotencyKey !== undefined;
    for (let attempt = 0; ; attempt++) {
      let res: Response;
      try {
        res = await this.fetcher(url, { method: verb, headers, body, signal: options.signal });
      } catch (cause) {
        if (options.signal?.aborted) throw new FolioError("ABORTED", `${verb} ${path}: aborted`, 0, { cause });
        const why = `${verb} ${path}: no answer from ${this.baseUrl} (${(cause as Error)?.message ?? cause})`;
        const error = new FolioError("NETWORK", resendable ? why : `${why}; it may have been carried out, so it was not sent again (this endpoint takes no Idempotency-Key)`, 0, { retryable: resendable, cause });
        if (!resendable || attempt >= this.maxRetries) throw error;
        await pause(backoff(attempt), options.signal);
        continue;
      }
      if (res.ok) return res;
      const error = await errorFromResponse(res);
      if (attempt >= this.maxRetries || !mayResend(error, resendable)) throw error;
      const wait = error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : backoff(attempt);
      if (wait > this.maxRetryWaitMs) throw error;
      await pause(wait, options.signal);
    }
  }

  private url(path: string, params?: Record<string, unknown>, query?: Record<string, unknown>): string {
    const filled = path.replace(/\{(\w+)\}/g, (_, name: string) => {
      const v = params?.[name];
      if (v === undefined || v === null || v === "") throw new TypeError(`${path}: the path parameter ${name} is missing (give it in params)`);
      return encodeURIComponent(String(v));
    });
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) q.set(k, String(v));
    const s = q.toString();
    return `${this.baseUrl}${filled}${s ? `?${s}` : ""}`;
  }

  /** Renders: create, read, list, cancel, wait for the end, and the file. */
  readonly renders = {
    /**
     * POST /v1/renders, with an Idempotency-Key (made when none is given), so a retry never makes
     * a second render. With `waitMs` in the body the server waits up to that long first.
     */
    create: (body: RenderRequest, options: CallOptions = {}): Promise<Render> => this.post("/v1/renders", { body, ...options }),
    get: (id: string, options: ReadOptions & { waitMs?: number } = {}): Promise<Render> =>
      this.get("/v1/renders/{id}", { params: { id }, query: options.waitMs ? { waitMs: options.waitMs } : undefined, signal: options.signal }),
    list: (query: QueryOf<"/v1/renders", "get"> = {}, options: ReadOptions = {}) => this.get("/v1/renders", { query, ...options }),
    /** Cancels a render that has not ended; 409 CONFLICT when it already has. Not retried after a lost answer. */
    cancel: (id: string, options: ReadOptions = {}): Promise<Render> => this.post("/v1/renders/{id}/cancel", { params: { id }, ...options }),
    /**
     * Waits for a render to end and returns it, whatever its end (succeeded, failed, cancelled):
     * each request waits on the server (`waitMs`, up to a minute), woken by the render's end, so
     * there is no polling. RENDER_TIMEOUT after `timeoutMs` (10 minutes by default).
     */
    waitFor: (id: string, options: WaitOptions = {}): Promise<Render> => this.waitForRender(id, options, Date.now()),
    /** create, then waitFor: the ended render. RENDER_TIMEOUT once `timeoutMs` has passed since the call. */
    createAndWait: async (body: RenderRequest, options: CallOptions & WaitOptions = {}): Promise<Render> => {
      const timeoutMs = options.timeoutMs ?? TEN_MINUTES;
      const started = Date.now();
      const first = await this.renders.create({ ...body, waitMs: Math.round(Math.min(SERVER_WAIT_MAX, timeoutMs)) }, { signal: options.signal, idempotencyKey: options.idempotencyKey });
      options.onProgress?.(first.state);
      if (hasEnded(first.state)) return first;
      return this.waitForRender(first.id, options, started);
    },
    /** The render's file as a Response (GET /v1/renders/{id}/file); 409 CONFLICT while it runs. */
    file: (id: string, options: ReadOptions = {}): Promise<Response> => this.fetch("get", "/v1/renders/{id}/file", { params: { id }, signal: options.signal }),
  };

  /** Batches of up to 100 renders. */
  readonly batches = {
    /** POST /v1/renders/batch (202, never waits), with an Idempotency-Key, so a retry never makes a second batch. */
    create: (body: BatchRequest, options: CallOptions = {}): Promise<BatchSummary> => this.post("/v1/renders/batch", { body, ...options }),
    get: (id: string, options: ReadOptions & { waitMs?: number } = {}): Promise<BatchSummary> =>
      this.get("/v1/renders/batch/{id}", { params: { id }, query: options.waitMs ? { waitMs: options.waitMs } : undefined, signal: options.signal }),
    /**
     * Waits until every item has ended and returns the summary; RENDER_TIMEOUT after `timeoutMs`,
     * 10 minutes unless a longer one is given (spec: client libraries).
     */
    waitFor: (id: string, options: WaitOptions = {}): Promise<BatchSummary> =>
      waitUntil(options, Date.now(), (waitMs) => this.batches.get(id, { waitMs, signal: options.signal }), (b) => {
        const running = b.items.filter((i) => !hasEnded(i.state)).length;
        return {
          progress: `${b.items.length - running} of ${b.items.length} ended`,
          ended: running === 0,
          stillRunning: `Batch ${id} had not ended after %s (${running} of ${b.items.length} items still running)`,
        };
      }),
    /** The combined PDF of a batch whose items all succeeded, as a Response. */
    pdf: (id: string, options: ReadOptions = {}): Promise<Response> => this.fetch("get", "/v1/renders/batch/{id}/pdf", { params: { id }, signal: options.signal }),
  };

  /** The Reports API: a published template by name, straight to a file. */
  readonly reports = {
    /**
     * POST /v1/reports/render: the newest published version of the template named `template.name`,
     * rendered and answered as the file. The server waits up to 95 s; a RENDER_TIMEOUT is retried
     * with the same Idempotency-Key, which waits again for the same render instead of making another.
     */
    render: async (body: ReportRequest, options: CallOptions = {}): Promise<ReportFile> => {
      const res = await this.fetch("post", "/v1/reports/render", { body, ...options });
      const pages = Number(res.headers.get("x-page-count") ?? Number.NaN);
      return {
        bytes: new Uint8Array(await res.arrayBuffer()),
        contentType: res.headers.get("content-type") ?? "application/octet-stream",
        renderId: res.headers.get("x-render-id") ?? undefined,
        pageCount: Number.isInteger(pages) ? pages : undefined,
      };
    },
  };

  /** Templates: the common calls; every other one through get/post/put/patch/delete. */
  readonly templates = {
    list: (query: QueryOf<"/v1/templates", "get"> = {}, options: ReadOptions = {}) => this.get("/v1/templates", { query, ...options }),
    get: (id: string, options: ReadOptions = {}) => this.get("/v1/templates/{id}", { params: { id }, ...options }),
    create: (body: BodyOf<"/v1/templates", "post">, options: ReadOptions = {}) => this.post("/v1/templates", { body, ...options }),
    /** Publishes the draft as a new version (needs the draft's revision). */
    publish: (id: string, body: BodyOf<"/v1/templates/{id}/versions", "post">, options: ReadOptions = {}) => this.post("/v1/templates/{id}/versions", { params: { id }, body, ...options }),
    versions: (id: string, query: QueryOf<"/v1/templates/{id}/versions", "get"> = {}, options: ReadOptions = {}) => this.get("/v1/templates/{id}/versions", { params: { id }, query, ...options }),
    dataSchema: (id: string, options: ReadOptions = {}) => this.get("/v1/templates/{id}/data-schema", { params: { id }, ...options }),
  };

  private waitForRender(id: string, options: WaitOptions, startedAt: number): Promise<Render> {
    return waitUntil(options, startedAt, (waitMs) => this.renders.get(id, { waitMs, signal: options.signal }), (r) => ({
      progress: r.state,
      ended: hasEnded(r.state),
      stillRunning: `Render ${id} had not ended after %s (it is ${r.state}); wait again or cancel it`,
    }));
  }
}

/**
 * Whether a failed attempt may be sent again. A 429 always: the server refused it before doing
 * anything (the rate limit and the render allowances are checked first). Otherwise only a request
 * that is safe to repeat, after an error the server marks retryable or an INTERNAL one (spec:
 * Errors, INTERNAL: "retry GET requests and requests with an Idempotency-Key a few times").
 */
function mayResend(error: FolioError, resendable: boolean): boolean {
  if (error.status === 429) return true;
  return resendable && (error.retryable || error.code === "INTERNAL");
}

const isJson = (res: Response) => /^application\/([\w.-]+\+)?json\b/i.test(res.headers.get("content-type") ?? "");

/**
 * Reads with the server waiting up to a minute each time (`waitMs`), until `look` says the thing
 * ended; RENDER_TIMEOUT (its `stillRunning` words, %s the time waited since `startedAt`) once
 * `timeoutMs` has passed since then.
 */
async function waitUntil<T>(options: WaitOptions, startedAt: number, read: (waitMs: number) => Promise<T>, look: (value: T) => { progress: string; ended: boolean; stillRunning: string }): Promise<T> {
  const deadline = startedAt + (options.timeoutMs ?? TEN_MINUTES);
  for (;;) {
    const value = await read(Math.round(Math.max(0, Math.min(SERVER_WAIT_MAX, deadline - Date.now()))));
    const seen = look(value);
    options.onProgress?.(seen.progress);
    if (seen.ended) return value;
    if (deadline - Date.now() <= 0) throw new FolioError("RENDER_TIMEOUT", seen.stillRunning.replace("%s", seconds(Date.now() - startedAt)), 0, { retryable: true });
  }
}

/** A duration for a person: "0.6 s", "12 s". */
const seconds = (ms: number) => (ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${Math.round(ms / 1000)} s`);

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
