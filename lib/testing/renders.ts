import { expect } from "vitest";
import { db } from "../db/client";
import { newId } from "../db/ids";
import { eq } from "drizzle-orm";
import { renderInputs, renders, workspaces } from "../db/schema";
import { insertRenderRows } from "../renders/repository";
import { api, type ApiOptions } from "./http";
import { checkAnswer } from "./openapi";

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
  const bytes = new Uint8Array(await res.arrayBuffer());
  // A refusal answers the error envelope: it must fit the OpenAPI document like every other answer.
  if (res.headers.get("content-type")?.includes("application/json")) {
    await checkAnswer("GET", new URL(url).pathname, res.status, res.headers.get("content-type"), JSON.parse(new TextDecoder().decode(bytes)));
  }
  return { status: res.status, headers: res.headers, bytes };
}

/**
 * A document whose page stays open in Chromium for `ms` without work (settings.waitFor.delayMs: an
 * idle timer), then shows `text`: for tests that need a real page mid-render (to kill its
 * browser, say). A render that only needs to stay active is better held (lib/testing/held-renders.ts).
 */
export function idleDocument(ms: number, text = "idle") {
  return { html: `<p>${text}</p>`, settings: { waitFor: { delayMs: ms } } };
}

/**
 * A document whose render holds a worker's render slot, idle, until it is cancelled (or its time
 * limit ends it): its page waits for window.folioReady, which it never sets. For tests that need
 * the slots full or a render that cannot end before the test cancels it.
 */
export function slotHoldingDocument(text = "holding a slot") {
  return { html: `<p>${text}</p>`, settings: { waitFor: { flag: true } } };
}

/**
 * A document that keeps its render busy for `ms` (a busy loop in a script), then shows `text`.
 * It burns a core while it runs: only for tests of a page that works (time limits, cancelling a
 * busy page); see idleDocument and held renders for the rest.
 */
export function slowHtml(ms: number, text = "slow") {
  return `<p>${text}</p><script>const end = Date.now() + ${ms}; while (Date.now() < end) {}</script>`;
}

const heldRows = new Map<string, Promise<string>>();

/**
 * A render row of the workspace that no worker will ever take or end: processing under a lease an
 * hour long, as if a live worker held it. Written directly, so it exists even when the workspace's
 * key is revoked or the workspace suspended (security cases). One per workspace, made once.
 */
export function heldRender(workspaceId: string): Promise<string> {
  let p = heldRows.get(workspaceId);
  if (!p) {
    const id = newId("rnd");
    p = db()
      .transaction(async (tx) => {
        await tx.insert(renders).values({
          id,
          workspaceId,
          source: "document",
          format: "pdf",
          state: "processing",
          attempts: 1,
          startedAt: new Date(),
          leaseExpiresAt: new Date(Date.now() + 3_600_000),
        });
        await tx.insert(renderInputs).values({ renderId: id, payload: { document: { html: "<p>held</p>" } } });
      })
      .then(() => id);
    heldRows.set(workspaceId, p);
  }
  return p;
}

export type SeedRender = { state: "processing" | "succeeded" | "failed" | "cancelled"; test?: boolean; templateId?: string };

/**
 * Render rows of the workspace in given states, written directly in one statement, newest last
 * (one second apart). No worker takes them: none is queued, and a processing one holds an hour's
 * lease as if a live worker had it. Returns their ids in the order given.
 */
export async function seedRenders(workspaceId: string, rows: SeedRender[]): Promise<string[]> {
  const now = Date.now();
  const values = rows.map((r, i) => {
    const createdAt = new Date(now - (rows.length - i) * 1000);
    const ended = r.state !== "processing";
    return {
      id: newId("rnd"),
      workspaceId,
      source: r.templateId ? "templateVersion" : "document",
      templateId: r.templateId,
      format: "pdf" as const,
      state: r.state,
      test: r.test ?? false,
      attempts: 1,
      createdAt,
      updatedAt: createdAt,
      startedAt: createdAt,
      finishedAt: ended ? createdAt : undefined,
      leaseExpiresAt: ended ? undefined : new Date(now + 3_600_000),
      pageCount: r.state === "succeeded" ? 1 : undefined,
      outputBytes: r.state === "succeeded" ? 1000 : undefined,
      durationMs: r.state === "succeeded" ? 100 : undefined,
      error: r.state === "failed" ? { code: "RENDER_FAILED", diagnostic: "document_invalid", message: "seeded failure" } : undefined,
    };
  });
  await insertRenderRows(db(), values);
  return values.map((v) => v.id);
}

/**
 * Raises (or sets) a workspace's render allowances, as a platform administrator would: for tests
 * that create more renders at once than the defaults admit (10 active, 60 a minute).
 */
export async function setAllowances(workspaceId: string, allowances: { maxActiveRenders?: number; rendersPerMinute?: number }) {
  await db().update(workspaces).set(allowances).where(eq(workspaces.id, workspaceId));
}
