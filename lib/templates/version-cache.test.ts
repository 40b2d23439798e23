import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "../db/client";
import { templates } from "../db/schema";
import { createTestWorkspace, type TestWorkspace } from "../testing/factories";
import { api, expectError } from "../testing/http";

// Published versions kept in the server's memory (lib/templates/version-cache.ts): a render by a
// version already read is served without the database, but a deleted template's versions answer
// 404 at once, whether the server deleted it or another process did, and no workspace is served
// another's version.

async function publishedVersion(w: TestWorkspace) {
  const t = await api("/v1/templates", { key: w.key, body: { name: "Kept in memory", kind: "handlebars", content: { templateHtml: "<p>Hello {{name}}</p>" } } });
  expect(t.status, JSON.stringify(t.body)).toBe(201);
  const v = await api(`/v1/templates/${t.body.id}/versions`, { key: w.key, body: { expectedRevision: 1 } });
  expect(v.status, JSON.stringify(v.body)).toBe(201);
  return { templateId: t.body.id as string, versionId: v.body.id as string };
}

const renderVersion = (w: TestWorkspace, versionId: string) => api("/v1/renders", { key: w.key, body: { templateVersionId: versionId, data: { name: "Ada" }, test: true } });

describe("published versions in the server's memory", () => {
  it("a template deleted through the API: its version answers 404 on the very next render", async () => {
    const w = await createTestWorkspace();
    const { templateId, versionId } = await publishedVersion(w);
    for (let i = 0; i < 2; i++) expect((await renderVersion(w, versionId)).status).toBe(202);
    expect((await api(`/v1/templates/${templateId}`, { key: w.key, method: "DELETE" })).status).toBe(200);
    expectError(await renderVersion(w, versionId), 404, "NOT_FOUND");
  });

  it("a template deleted by another process (its workspace's deletion, the admin CLI): the server hears it and answers 404", async () => {
    const w = await createTestWorkspace();
    const { templateId, versionId } = await publishedVersion(w);
    for (let i = 0; i < 2; i++) expect((await renderVersion(w, versionId)).status).toBe(202);
    await db().delete(templates).where(eq(templates.id, templateId));
    await expect.poll(async () => (await renderVersion(w, versionId)).status, { timeout: 5000, interval: 50 }).toBe(404);
  });

  it("a version read for one workspace is not found for another", async () => {
    const [a, b] = [await createTestWorkspace(), await createTestWorkspace()];
    const { versionId } = await publishedVersion(a);
    expect((await renderVersion(a, versionId)).status).toBe(202);
    expectError(await renderVersion(b, versionId), 404, "NOT_FOUND");
  });
});
