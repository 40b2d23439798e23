import { expect } from "vitest";
import { api, type ApiOptions } from "./http";

/** POSTs a caller-HTML render and returns the answer. */
export function createRender(key: string, body: Record<string, unknown>, opts: ApiOptions = {}) {
  return api("/v1/renders", { ...opts, key, body });
}

/** Polls GET /v1/renders/{id} until the state matches (default: any final state). */
export async function waitForState(key: string, id: string, states = ["succeeded", "failed", "cancelled"], opts: ApiOptions & { timeout?: number } = {}) {
  let last: { state: string } | undefined;
  await expect
    .poll(
      async () => {
        last = (await api(`/v1/renders/${id}`, { ...opts, key })).body;
        return states.includes(last!.state);
      },
      { timeout: opts.timeout ?? 30_000, interval: 100 },
    )
    .toBe(true);
  return last as { state: string; result?: { downloadUrl?: string; pageCount: number; outputBytes: number }; error?: { code: string; diagnostic: string; message: string } };
}

/** Downloads a URL and returns the bytes with status and headers. */
export async function download(url: string) {
  const res = await fetch(url);
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

/** A document that keeps its render busy for `ms` (a busy loop in a script), then shows `text`. */
export function slowHtml(ms: number, text = "slow") {
  return `<p>${text}</p><script>const end = Date.now() + ${ms}; while (Date.now() < end) {}</script>`;
}
