import { describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/auth/context";
import * as templates from "@/lib/templates";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { securityCases } from "@/lib/testing/security-cases";

type Version = { id: string; templateId: string; version: number; revision: number; name: string; kind: string; createdAt: string; content?: Record<string, unknown> };
type Page<T> = { items: T[]; nextCursor?: string };
type Detail = { path?: string; message: string };

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const content = (label: string) => ({
  composition: {
    root: { type: "container", children: [{ type: "text", text: label }, { type: "text", text: { path: ["total"], format: { type: "number", locale: "ja-JP" } } }] },
    footer: `<span>${label} {{pageNumber}}/{{totalPages}}</span>`,
  },
  settings: { locale: "en-US", margins: { topMm: 12 } },
});

async function create(w: TestWorkspace, name = "Published", label = "r1"): Promise<{ id: string }> {
  const res = await api("/v1/templates", { key: w.key, body: { name, content: content(label) } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function save(w: TestWorkspace, id: string, label: string, expectedRevision: number) {
  const res = await api(`/v1/templates/${id}/draft`, { method: "PUT", key: w.key, body: { content: content(label), expectedRevision } });
  expect(res.status, res.text).toBe(200);
}

const publish = (w: TestWorkspace, id: string, expectedRevision: unknown) => api<Version>(`/v1/templates/${id}/versions`, { key: w.key, body: { expectedRevision } });
const versions = (w: TestWorkspace, id: string, query = "") => api<Page<Version>>(`/v1/templates/${id}/versions${query}`, { key: w.key });
const getVersion = (w: TestWorkspace, id: string) => api<Version>(`/v1/template-versions/${id}`, { key: w.key });
const paths = (e: { details?: unknown }) => ((e.details ?? []) as Detail[]).map((d) => d.path);

describe("POST /v1/templates/{id}/versions", () => {
  it("publishes the current draft: 201, version 1 from revision N, readable with its content", async () => {
    const w = await createTestWorkspace();
    const t = await create(w);
    await save(w, t.id, "r2", 1);
    await save(w, t.id, "r3", 2);
    const res = await publish(w, t.id, 3);
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^tv_[0-9A-Za-z]+$/),
      templateId: t.id,
      version: 1,
      revision: 3,
      name: "Published",
      kind: "component",
      contentOnly: false,
      createdAt: expect.stringMatching(ISO),
    });
    expect(Math.abs(Date.parse(res.body.createdAt) - Date.now())).toBeLessThan(60_000);

    const read = await getVersion(w, res.body.id);
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual({ ...res.body, content: content("r3") });

    // Publishing does not touch the draft.
    const draft = await api(`/v1/templates/${t.id}/draft`, { key: w.key });
    expect(draft.body).toMatchObject({ draftRevision: 3, content: content("r3") });
  });

  it("numbers versions 1, 2, 3 per template, independently of other templates", async () => {
    const w = await createTestWorkspace();
    const [a, b] = [await create(w, "A"), await create(w, "B")];
    expect((await publish(w, a.id, 1)).body.version).toBe(1);
    expect((await publish(w, b.id, 1)).body.version).toBe(1);
    await save(w, a.id, "a2", 1);
    const second = await publish(w, a.id, 2);
    expect(second.body).toMatchObject({ version: 2, revision: 2 });
    // Publishing the same revision again makes another version of it.
    const third = await publish(w, a.id, 2);
    expect(third.status, third.text).toBe(201);
    expect(third.body).toMatchObject({ version: 3, revision: 2 });
  });

  it("answers 409 CONFLICT for a stale or future revision and creates no version", async () => {
    const w = await createTestWorkspace();
    const t = await create(w);
    await save(w, t.id, "r2", 1);
    for (const expectedRevision of [1, 3]) {
      const e = expectError(await publish(w, t.id, expectedRevision), 409, "CONFLICT");
      expect(e.message).toContain("2");
    }
    expect((await versions(w, t.id)).body.items).toEqual([]);
  });

  it("publishes concurrent requests with the current revision as distinct, consecutive versions", async () => {
    const w = await createTestWorkspace();
    const t = await create(w);
    await save(w, t.id, "r2", 1);
    const results = await Promise.all(Array.from({ length: 5 }, () => publish(w, t.id, 2)));
    for (const r of results) expect(r.status, r.text).toBe(201);
    expect(results.map((r) => r.body.version).sort()).toEqual([1, 2, 3, 4, 5]);
    expect(new Set(results.map((r) => r.body.id)).size).toBe(5);
    for (const r of results) expect(r.body.revision).toBe(2);
    const listed = await versions(w, t.id, "?order=asc");
    expect(listed.body.items.map((v) => v.version)).toEqual([1, 2, 3, 4, 5]);
  });

  it("refuses a bad body naming the field", async () => {
    const w = await createTestWorkspace();
    const t = await create(w);
    for (const [body, path] of [
      [{}, "expectedRevision"],
      [{ expectedRevision: 0 }, "expectedRevision"],
      [{ expectedRevision: "1" }, "expectedRevision"],
      [{ expectedRevision: 1.5 }, "expectedRevision"],
      [{ expectedRevision: 1, name: "v1" }, "name"],
    ] as const) {
      const e = expectError(await api(`/v1/templates/${t.id}/versions`, { key: w.key, body }), 400, "BAD_REQUEST");
      expect(paths(e), JSON.stringify(body)).toContain(path);
    }
    expect((await versions(w, t.id)).body.items).toEqual([]);
  });

  it("answers 404 for an unknown or another workspace's template and creates nothing there", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const theirs = await create(other, "Theirs");
    expectError(await publish(w, "tpl_unknown", 1), 404, "NOT_FOUND");
    expectError(await publish(w, theirs.id, 1), 404, "NOT_FOUND");
    expectError(await versions(w, theirs.id), 404, "NOT_FOUND");
    expect((await versions(other, theirs.id)).body.items).toEqual([]);
  });

  it("lets a key with only template:publish publish, and refuses one without it with 403", async () => {
    const w = await createTestWorkspace();
    const t = await create(w);
    const only = await w.newKey(["template:publish"]);
    const res = await api<Version>(`/v1/templates/${t.id}/versions`, { key: only.secret, body: { expectedRevision: 1 } });
    expect(res.status, res.text).toBe(201);
    const without = await w.newKey(["template:read", "template:write"]);
    const e = expectError(await api(`/v1/templates/${t.id}/versions`, { key: without.secret, body: { expectedRevision: 1 } }), 403, "FORBIDDEN");
    expect(e.message).toContain("template:publish");
    expect((await versions(w, t.id)).body.items).toHaveLength(1);
  });

  describe("security", () => {
    securityCases({
      scope: "template:publish",
      request: async (w, key) => {
        const t = await templates.createTemplate(systemCtx(w.id, "test"), { name: "s", content: content("s") });
        return api(`/v1/templates/${t.id}/versions`, { key, body: { expectedRevision: 1 } });
      },
      crossWorkspace: async (w, other) => {
        const t = await templates.createTemplate(systemCtx(other.id, "test"), { name: "s", content: content("s") });
        return publish(w, t.id, 1);
      },
    });
  });
});

describe("version immutability", () => {
  it("keeps a published version byte for byte when the draft changes and the template is renamed", async () => {
    const w = await createTestWorkspace();
    const t = await create(w, "Invoice", "original");
    const v1 = await publish(w, t.id, 1);
    expect(v1.status, v1.text).toBe(201);
    const before = await getVersion(w, v1.body.id);
    expect(before.status, before.text).toBe(200);
    expect(before.body).toMatchObject({ name: "Invoice", revision: 1, content: content("original") });

    await save(w, t.id, "changed", 1);
    const renamed = await api(`/v1/templates/${t.id}`, { method: "PATCH", key: w.key, body: { name: "Invoice renamed", description: "new" } });
    expect(renamed.status, renamed.text).toBe(200);
    const v2 = await publish(w, t.id, 2);
    expect(v2.status, v2.text).toBe(201);
    await save(w, t.id, "changed again", 2);

    const after = await getVersion(w, v1.body.id);
    expect(after.status).toBe(200);
    expect(after.text).toBe(before.text);
    expect(after.body).toMatchObject({ name: "Invoice", version: 1, revision: 1, content: content("original") });

    const second = await getVersion(w, v2.body.id);
    expect(second.body).toMatchObject({ name: "Invoice renamed", version: 2, revision: 2, content: content("changed") });

    const listed = await versions(w, t.id, "?order=asc");
    expect(listed.body.items.map((v) => [v.version, v.name, v.revision])).toEqual([
      [1, "Invoice", 1],
      [2, "Invoice renamed", 2],
    ]);
  });

  it("answers 404 for the versions of a deleted template", async () => {
    const w = await createTestWorkspace();
    const t = await create(w);
    const v = await publish(w, t.id, 1);
    expect(v.status).toBe(201);
    expect((await getVersion(w, v.body.id)).status).toBe(200);
    expect((await api(`/v1/templates/${t.id}`, { method: "DELETE", key: w.key })).status).toBe(200);
    expectError(await getVersion(w, v.body.id), 404, "NOT_FOUND");
    expectError(await versions(w, t.id), 404, "NOT_FOUND");
  });
});

describe("GET /v1/templates/{id}/versions", () => {
  it("pages 5 versions by 2 in both orders, each once, without content", async () => {
    const w = await createTestWorkspace();
    const t = await create(w, "Paged", "r1");
    for (let r = 1; r <= 5; r++) {
      if (r > 1) await save(w, t.id, `r${r}`, r - 1);
      expect((await publish(w, t.id, r)).status).toBe(201);
    }
    const walk = async (order: string) => {
      const pages: number[][] = [];
      const items: Version[] = [];
      let cursor: string | undefined;
      do {
        const res = await versions(w, t.id, `?limit=2${order}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        expect(res.status, res.text).toBe(200);
        pages.push(res.body.items.map((v) => v.version));
        items.push(...res.body.items);
        cursor = res.body.nextCursor;
        expect(pages.length).toBeLessThan(10);
      } while (cursor);
      return { pages, items };
    };
    const desc = await walk("&order=desc");
    expect(desc.pages).toEqual([[5, 4], [3, 2], [1]]);
    const asc = await walk("&order=asc");
    expect(asc.pages).toEqual([[1, 2], [3, 4], [5]]);
    expect((await walk("")).pages).toEqual(desc.pages);
    for (const v of asc.items) {
      expect(v).toEqual({
        id: expect.stringMatching(/^tv_/),
        templateId: t.id,
        version: v.version,
        revision: v.version,
        name: "Paged",
        kind: "component",
        contentOnly: false,
        createdAt: expect.stringMatching(ISO),
      });
      const full = await getVersion(w, v.id);
      expect(full.body).toEqual({ ...v, content: content(`r${v.version}`) });
    }
    expect(new Set(asc.items.map((v) => v.id)).size).toBe(5);
  });

  it("refuses a bad cursor, order or limit naming the query field", async () => {
    const w = await createTestWorkspace();
    const t = await create(w);
    for (const [q, path] of [
      ["cursor=%%%", "query.cursor"],
      ["cursor=bm9wZQ", "query.cursor"],
      ["order=sideways", "query.order"],
      ["limit=0", "query.limit"],
      ["limit=101", "query.limit"],
    ]) {
      const e = expectError(await versions(w, t.id, `?${q}`), 400, "BAD_REQUEST");
      expect(paths(e), q).toContain(path);
    }
  });
});

describe("GET /v1/template-versions/{id}", () => {
  it("answers 404 for an unknown id and for another workspace's version", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const theirs = await create(other);
    const v = await publish(other, theirs.id, 1);
    expect(v.status).toBe(201);
    expectError(await getVersion(w, "tv_unknown"), 404, "NOT_FOUND");
    expectError(await getVersion(w, v.body.id), 404, "NOT_FOUND");
    expect((await getVersion(other, v.body.id)).status).toBe(200);
  });

  describe("security", () => {
    const versionOf = async (w: TestWorkspace) => {
      const ctx = systemCtx(w.id, "test");
      const t = await templates.createTemplate(ctx, { name: "s", content: content("s") });
      return templates.publish(ctx, t.id, 1);
    };
    securityCases({
      scope: "template:read",
      request: async (w, key) => api(`/v1/template-versions/${(await versionOf(w)).id}`, { key }),
      crossWorkspace: async (w, other) => getVersion(w, (await versionOf(other)).id),
    });
  });
});
