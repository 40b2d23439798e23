import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db/client";
import { workspaces } from "@/lib/db/schema";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api } from "@/lib/testing/http";
import { pdfText } from "@/lib/testing/pdf";
import { download, waitForState } from "@/lib/testing/renders";
import { callAction } from "@/lib/testing/server-actions";

// Issue 24 item 5: the version list's "Render…" makes a real render of a published version with the
// person's data, through the verb of POST /v1/renders: the role's render:create, the workspace's
// allowances and its monthly documents apply as to an API render, and the render is listed with its file.

const FILE = "app/(console)/templates/[id]/actions.ts";
type Made = { id: string; state: string };

/** A template with a text bound to data.name, published as version 1. */
async function publishedVersion(w: TestWorkspace): Promise<{ templateId: string; versionId: string }> {
  const content = { composition: { root: { type: "container", children: [{ type: "text", text: "Hello" }, { type: "text", text: { path: ["name"] } }] } } };
  const t = await api("/v1/templates", { key: w.key, body: { name: "Letter", content } });
  expect(t.status, t.text).toBe(201);
  const v = await api(`/v1/templates/${t.body.id}/versions`, { key: w.key, body: { expectedRevision: 1 } });
  expect(v.status, v.text).toBe(201);
  return { templateId: t.body.id as string, versionId: v.body.id as string };
}

const renderVersion = (cookie: string, templateId: string, input: unknown) => callAction<Made>(FILE, "renderVersionAction", input, { cookie, page: `/templates/${templateId}` });

describe("renderVersionAction", () => {
  it("renders a published version with the person's data: listed in Renders, its PDF produced, counted as a document", async () => {
    const w = await createTestWorkspace();
    const { templateId, versionId } = await publishedVersion(w);
    const { cookie } = await w.signIn("member");

    const r = await renderVersion(cookie, templateId, { templateVersionId: versionId, data: { name: "Ada Lovelace" }, format: "pdf", test: false });
    if (!r.result.ok) throw new Error(r.result.error.message);
    expect(r.result.data.id).toMatch(/^rnd_/);

    const ended = await waitForState(w.key, r.result.data.id);
    expect(ended.state).toBe("succeeded");
    const file = await download(ended.result!.downloadUrl!);
    expect(file.headers.get("content-type")).toBe("application/pdf");
    expect(pdfText(file.bytes)).toContain("Ada Lovelace");

    const listed = await api("/v1/renders", { key: w.key });
    expect(listed.body.items).toEqual([expect.objectContaining({ id: r.result.data.id, source: "templateVersion", templateVersionId: versionId, test: false, format: "pdf" })]);
    const limits = await api("/v1/render-limits", { key: w.key });
    expect(limits.body, limits.text).toMatchObject({ documentsThisMonth: 1 });
  });

  it("lets a content editor render (the role has render:create) and makes an image when asked", async () => {
    const w = await createTestWorkspace();
    const { templateId, versionId } = await publishedVersion(w);
    const { cookie } = await w.signIn("content_editor");
    const r = await renderVersion(cookie, templateId, { templateVersionId: versionId, data: { name: "Grace" }, format: "png", test: true });
    if (!r.result.ok) throw new Error(r.result.error.message);
    const ended = await waitForState(w.key, r.result.data.id);
    expect(ended.state).toBe("succeeded");
    const got = await api(`/v1/renders/${r.result.data.id}`, { key: w.key });
    expect(got.body).toMatchObject({ format: "png", test: true, templateVersionId: versionId });
  });

  it("respects the workspace's monthly documents like an API render: refused past the allowance, a test render still admitted", async () => {
    const w = await createTestWorkspace();
    const { templateId, versionId } = await publishedVersion(w);
    await db().update(workspaces).set({ documentsPerMonth: 1 }).where(eq(workspaces.id, w.id));
    const { cookie } = await w.signIn("owner");
    const input = { templateVersionId: versionId, data: { name: "Ada" }, format: "pdf", test: false };
    const first = await renderVersion(cookie, templateId, input);
    expect(first.result, JSON.stringify(first.result)).toMatchObject({ ok: true });
    expect((await renderVersion(cookie, templateId, input)).result).toMatchObject({ ok: false, error: { code: "QUOTA_EXCEEDED" } });
    expect((await renderVersion(cookie, templateId, { ...input, test: true })).result).toMatchObject({ ok: true });
  });

  it("refuses another workspace's version (404), data that is not an object or misses what the version needs, an unknown format, no session, and a suspended workspace", async () => {
    const w = await createTestWorkspace();
    const { templateId, versionId } = await publishedVersion(w);
    const other = await createTestWorkspace();
    const { cookie: otherCookie } = await other.signIn("owner");
    expect((await renderVersion(otherCookie, templateId, { templateVersionId: versionId, data: {}, format: "pdf", test: false })).result).toMatchObject({ ok: false, error: { code: "NOT_FOUND" } });

    const { cookie } = await w.signIn("member");
    expect((await renderVersion(cookie, templateId, { templateVersionId: versionId, data: [1, 2], format: "pdf", test: false })).result).toMatchObject({ ok: false, error: { code: "BAD_REQUEST" } });
    // The version's own checks, as for an API render: its text needs data.name.
    expect((await renderVersion(cookie, templateId, { templateVersionId: versionId, data: {}, format: "pdf", test: false })).result).toMatchObject({ ok: false, error: { code: "BAD_REQUEST", details: [expect.objectContaining({ path: "name" })] } });
    expect((await renderVersion(cookie, templateId, { templateVersionId: versionId, data: {}, format: "docx", test: false })).result).toMatchObject({ ok: false, error: { code: "BAD_REQUEST" } });
    expect((await renderVersion("", templateId, { templateVersionId: versionId, data: {}, format: "pdf", test: false })).result).toMatchObject({ ok: false, error: { code: "UNAUTHORIZED" } });

    await w.suspend();
    expect((await renderVersion(cookie, templateId, { templateVersionId: versionId, data: {}, format: "pdf", test: false })).result).toMatchObject({ ok: false, error: { code: "FORBIDDEN" } });
    expect((await api("/v1/renders", { key: w.key })).body.items ?? []).toEqual([]);
  });
});
