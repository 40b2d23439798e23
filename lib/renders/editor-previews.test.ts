import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db, withTx, type Executor } from "@/lib/db/client";
import { newId } from "@/lib/db/ids";
import { renders, workspaces } from "@/lib/db/schema";
import { supersedeEditorPreviews } from "@/lib/renders/statements";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api } from "@/lib/testing/http";

/**
 * The console editor's live previews apart from production (docs/architecture.md, Editor
 * previews; docs/api.md): a signed-in person's preview is a test render with an allowance of its
 * own, never counted against the workspace's render allowances or documents, kept out of the
 * renders list unless asked for, and coalesced per person.
 */

const content = (label: string) => ({ composition: { root: { type: "text", text: { parts: [`${label} for `, { path: ["customer"] }] } } } });

async function workspaceWithTemplate(limits: Partial<typeof workspaces.$inferInsert>) {
  const w = await createTestWorkspace();
  if (Object.keys(limits).length) await db().update(workspaces).set(limits).where(eq(workspaces.id, w.id));
  const t = await api("/v1/templates", { key: w.key, body: { name: "Edited", content: content("Draft") } });
  expect(t.status, t.text).toBe(201);
  const { cookie, userId } = await w.signIn("content_editor");
  return { w, templateId: t.body.id as string, cookie, userId };
}

/** One preview as the console's pane asks for it: the unsaved content, page 1 as PNG, with the person's session. */
const editorPreview = (cookie: string, templateId: string, label: string) =>
  api(`/v1/templates/${templateId}/preview`, { cookie, body: { content: content(label), data: { customer: "Initech" }, format: "png", image: { page: 1, scale: 1 } } });

const created = (s: number) => s === 200 || s === 201 || s === 202;

async function previewsInARow(cookie: string, templateId: string, n: number) {
  const ids: string[] = [];
  for (let i = 0; i < n; i++) {
    const res = await editorPreview(cookie, templateId, `Edit ${i}`);
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    ids.push(res.headers.get("x-render-id")!);
  }
  return ids;
}

describe("editor previews", () => {
  it("many previews in a row leave the workspace's API renders, live and test, admitted with the same limits", async () => {
    const { w, templateId, cookie } = await workspaceWithTemplate({ rendersPerMinute: 3, maxActiveRenders: 3 });
    // More previews than both the workspace's allowance (3 a minute) and the test allowance (3 here).
    await previewsInARow(cookie, templateId, 6);

    const live = [];
    for (let i = 0; i < 4; i++) live.push(await api("/v1/renders", { key: w.key, body: { document: { html: `<p>live ${i}</p>` } } }));
    expect(live.slice(0, 3).map((r) => created(r.status))).toEqual([true, true, true]);
    expect(live[3]!.status).toBe(429);
    const tests = [];
    for (let i = 0; i < 4; i++) tests.push(await api("/v1/renders", { key: w.key, body: { document: { html: `<p>test ${i}</p>` }, test: true } }));
    expect(tests.slice(0, 3).map((r) => created(r.status))).toEqual([true, true, true]);
    expect(tests[3]!.status).toBe(429);
  });

  it("are test renders kept out of the renders list by default and listed with source=editorPreview", async () => {
    const { w, templateId, cookie } = await workspaceWithTemplate({});
    const ids = await previewsInARow(cookie, templateId, 2);
    const api1 = await api("/v1/renders", { key: w.key, body: { document: { html: "<p>api</p>" } } });
    expect(created(api1.status), api1.text).toBe(true);

    const all = await api("/v1/renders?limit=100", { key: w.key });
    expect(all.status).toBe(200);
    expect(all.body.items.map((r: { id: string }) => r.id)).toEqual([api1.body.id]);
    const previews = await api("/v1/renders?limit=100&source=editorPreview", { key: w.key });
    expect(previews.body.items.map((r: { id: string }) => r.id).sort()).toEqual([...ids].sort());
    for (const r of previews.body.items) expect(r).toMatchObject({ source: "editorPreview", test: true, templateId });
    // The console's Renders page lists the same way.
    const page = await api("/renders", { cookie });
    expect(page.text).not.toContain(ids[0]);
    expect((await api("/renders?source=editorPreview", { cookie })).text).toContain(ids[0]);
  });

  it("count neither in documents this month nor in the test renders of the day, and are counted in usage as test renders", async () => {
    const { w, templateId, cookie } = await workspaceWithTemplate({ documentsPerMonth: null });
    await previewsInARow(cookie, templateId, 3);
    const limits = await api("/v1/render-limits", { key: w.key });
    expect(limits.body).toMatchObject({ documentsThisMonth: 0, testRendersToday: 0 });
    const usage = await api("/v1/usage", { key: w.key });
    expect(usage.status, usage.text).toBe(200);
    // spec: Test renders: they still appear in usage, as test renders.
    expect(JSON.stringify(usage.body)).toContain('"testRenders":3');
  });

  it("coalesce per person: a newer preview supersedes the person's waiting one, and a second waiting one is refused", async () => {
    const { w, userId } = await workspaceWithTemplate({});
    const other = newId("usr");
    // why a transaction: rows it writes stay invisible to the workers, so the waiting preview stays queued while we look.
    await withTx(async (tx) => {
      const ex = tx as Executor;
      const admit = async (editor: string) =>
        (await ex.execute<{ r: { code: string; retryAfter?: number } | null }>(sql`select folio_admit_editor_preview(${w.id}, ${editor}) as r`))[0]!.r;
      const waiting = newId("rnd");
      await ex.insert(renders).values({ id: waiting, workspaceId: w.id, test: true, source: "editorPreview", format: "png", options: { editor: userId }, turn: 0 });
      expect(await admit(userId)).toMatchObject({ code: "RATE_LIMITED", retryAfter: 1 });
      expect(await admit(other)).toBeNull();
      await supersedeEditorPreviews(ex, w.id, userId);
      const [row] = await ex.select().from(renders).where(and(eq(renders.id, waiting)));
      expect(row!.state).toBe("cancelled");
      expect(await admit(userId)).toBeNull();
      throw new Rollback();
    }).catch((e: unknown) => {
      if (!(e instanceof Rollback)) throw e;
    });
  });

  it("refuse past 120 a minute with 429 and Retry-After, while the workspace's API renders are still admitted", async () => {
    const { w, templateId, cookie } = await workspaceWithTemplate({});
    const now = Date.now();
    await db()
      .insert(renders)
      .values(
        Array.from({ length: 120 }, (_, i) => ({
          id: newId("rnd"),
          workspaceId: w.id,
          test: true,
          source: "editorPreview",
          format: "png" as const,
          state: "succeeded" as const,
          attempts: 1,
          createdAt: new Date(now - 30_000 + i),
          updatedAt: new Date(now - 30_000 + i),
          finishedAt: new Date(now - 30_000 + i),
        })),
      );
    const refused = await editorPreview(cookie, templateId, "one more");
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(refused.body.error.message).toContain("editor preview");
    const live = await api("/v1/renders", { key: w.key, body: { document: { html: "<p>still admitted</p>" } } });
    expect(created(live.status), live.text).toBe(true);
  });
});

class Rollback extends Error {}
