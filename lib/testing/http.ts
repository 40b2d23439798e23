import { inject } from "vitest";
import { checkAnswer } from "./openapi";

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- tests read whatever JSON came back
export type ApiResponse<T = any> = { status: number; headers: Headers; body: T; text: string };

export type ApiOptions = {
  method?: string;
  key?: string;
  cookie?: string;
  /** An object is sent as JSON; a string as is (with the given content type). */
  body?: unknown;
  headers?: Record<string, string>;
  baseUrl?: string;
  /**
   * The Origin sent with `cookie` on an unsafe request, as the console's browser sends it: the
   * server's own origin unless `headers` name another; null sends none.
   */
  origin?: string | null;
  /** Skips the OpenAPI check of the answer (only for answers that are deliberately not the API's). */
  unchecked?: boolean;
};

const SAFE_METHODS = ["GET", "HEAD", "OPTIONS"];

/** One real HTTP request to the server under test; parses JSON answers. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function api<T = any>(path: string, opts: ApiOptions = {}): Promise<ApiResponse<T>> {
  const baseUrl = opts.baseUrl ?? inject("baseUrl");
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.key) headers["x-api-key"] = opts.key;
  let body: string | undefined;
  if (opts.body !== undefined) {
    body = typeof opts.body === "string" ? opts.body : JSON.stringify(opts.body);
    headers["content-type"] ??= "application/json";
  }
  const method = opts.method ?? (body ? "POST" : "GET");
  if (opts.cookie) {
    headers.cookie = opts.cookie;
    if (!SAFE_METHODS.includes(method) && opts.origin !== null) headers.origin ??= opts.origin ?? new URL(baseUrl).origin;
  }
  const res = await fetch(`${baseUrl}${path}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = undefined;
  if (res.headers.get("content-type")?.includes("application/json")) parsed = JSON.parse(text);
  // Every answer must fit the OpenAPI document (lib/testing/openapi.ts); opts.unchecked for the few
  // requests that are not the API's (a path outside /v1 sent through this helper is not checked anyway).
  if (!opts.unchecked) await checkAnswer(method, new URL(`${baseUrl}${path}`).pathname, res.status, res.headers.get("content-type"), parsed);
  return { status: res.status, headers: res.headers, body: parsed as T, text };
}

/** Asserts the spec's error envelope and returns the error. */
export function expectError(res: ApiResponse, status: number, code: string) {
  const e = (res.body as { error?: { code: string; message: string; retryable: boolean; details?: unknown[] } })?.error;
  if (res.status !== status || !e || e.code !== code || typeof e.message !== "string" || typeof e.retryable !== "boolean") {
    throw new Error(`expected ${status} ${code}, got ${res.status}: ${res.text.slice(0, 500)}`);
  }
  return e;
}
