import { describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/auth/context";
import * as templates from "@/lib/templates";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { securityCases } from "@/lib/testing/security-cases";

type Draft = { templateId: string; draftRevision: number; content: Record<string, unknown>; updatedAt: string };
type Revision = { id: string; templateId: string; revision: number; content: Record<string, unknown>; createdAt: string; actor: { type: string; id: string } };
type Page<T> = { items: T[]; nextCursor?: string };
type Detail = { path?: string; message: string };

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const content = (label: string) => ({ composition: { root: { type: "container", children: [{ type: "text", text: label }] } }, settings: { locale: "fr-FR" } });

async function create(w: TestWorkspace, label = "r1"): Promise<{ id: string; updatedAt: string }> {
  const res = await api("/v1/templates", { key: w.key, body: { name: "Drafted", content: content(label) } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

const put = (w: TestWorkspace, id: string, body: unknown) => api<Draft>(`/v1/templates/${id}/draft`, { method: "PUT", key: w.key, body });
const getDraft = (w: TestWorkspace, id: string) => api<Draft>(`/v1/templates/${id}/draft`, { key: w.key });
const revisions = (w: TestWorkspace, id: string, query = "") => api<Page<Revision>>(`/v1/templates/${id}/revisions${query}`, { key: w.key });
const paths = (e: { details?: unknown }) => ((e.details ?? []) as Detail[]).map((d) => d.path);

/** Walks a paged list to its end, checking each page's size. */
async function walk(w: TestWorkspace, id: string, query: string, limit: number): Promise<{ pages: number[][]; items: Revision[] }> {
  const pages: number[][] = [];
  const items: Revision[] = [];
  let cursor: string | undefined;
  do {
    const res = await revisions(w, id, `?limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(limit);
    pages.push(res.body.items.map((r) => r.revision));
    items.push(...res.body.items);
    cursor = res.body.nextCursor;
    expect(pages.length).toBeLessThan(10);
  } while (cursor);
  return { pages, items };
}

describe("GET and PUT /v1/templates/{id}/draft", () => {
  it("reads the draft of a new template at revision 1", async () => {
    const w = await createTestWorkspace();
    const t = await create(w);
    const res = await getDraft(w, t.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ templateId: t.id, draftRevision: 1, content: content("r1"), updatedAt: t.updatedAt });
  });

  it("saves with the current revision: draftRevision 2, the content stored and read back", async () => {
    const w = await createTestWorkspace();
    const t = await create(w);
    const next = { composition: { root: { type: "text", text: { parts: ["Total: ", { path: ["total"], format: { type: "currency", currency: "EUR" } }] } } } };
    const res = await put(w, t.id, { content: next, expectedRevision: 1 });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ templateId: t.id, draftRevision: 2, content: next, updatedAt: expect.stringMatching(ISO) });
    expect(Date.parse(res.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(t.updatedAt));

    expect((await getDraft(w, t.id)).body).toEqual(res.body);
    const tpl = await api(`/v1/templates/${t.id}`, { key: w.key });
    expect(tpl.body).toMatchObject({ draftRevision: 2, draft: next, name: "Drafted" });

    const third = await put(w, t.id, { content: content("r3"), expectedRevision: 2 });
    expect(third.status, third.text).toBe(200);
    expect(third.body.draftRevision).toBe(3);
  });

  it("keeps sample data and translations with their keys in the order they were saved: the draft, its revision and the version published from it", async () => {
    const w = await createTestWorkspace();
    const made = await api<{ id: string }>("/v1/templates", { key: w.key, body: { name: "Ordered", kind: "handlebars", content: { templateHtml: "<p>{{zeta}}</p>" } } });
    expect(made.status, made.text).toBe(201);
    const data = { zeta: 1, alpha: { y: 1, x: 2 }, middle: [{ b: 1, a: 2 }] };
    const next = { templateHtml: "<p>{{zeta}}</p>", translations: { "en-US": { greeting: "Hi", farewell: "Bye" } }, sampleData: [{ name: "ordered", data }] };
    const saved = await put(w, made.body.id, { content: next, expectedRevision: 1 });
    expect(saved.status, saved.text).toBe(200);
    // Compared as text: toEqual would not see the order of keys.
    const order = JSON.stringify(next);
    expect(JSON.stringify((await getDraft(w, made.body.id)).body.content)).toBe(order);
    expect(JSON.stringify((await revisions(w, made.body.id, "?order=desc&limit=1")).body.items[0]!.content)).toBe(order);
    const version = await api<{ id: string; content: unknown }>(`/v1/templates/${made.body.id}/versions`, { key: w.key, body: { expectedRevision: 2 } });
    expect(version.status, version.text).toBe(201);
    expect(JSON.stringify((await api<{ content: unknown }>(`/v1/template-versions/${version.body.id}`, { key: w.key })).body.content)).toBe(order);
  });

  it("a stale save's 409 says who saved the current revision and when, so the console can reload or overwrite", async () => {
    const w = await createTestWorkspace();
    const t = await create(w);
    const [ann, bob] = await Promise.all([w.signIn("member"), w.signIn("admin")]);
    const first = await api<Draft>(`/v1/templates/${t.id}/draft`, { method: "PUT", cookie: ann.cookie, body: { content: content("ann"), expectedRevision: 1 } });
    expect(first.status, first.text).toBe(200);

    const res = await api(`/v1/templates/${t.id}/draft`, { method: "PUT", cookie: bob.cookie, body: { content: content("bob"), expectedRevision: 1 } });
    const e = expectError(res, 409, "CONFLICT") as ReturnType<typeof expectError> & { current?: Record<string, unknown> };
    expect(e.current).toEqual({
      draftRevision: 2,
      updatedAt: first.body.updatedAt,
      savedAt: expect.stringMatching(ISO),
      savedBy: { type: "user", id: ann.userId, email: ann.email },
    });
    expect(e.message).toContain(ann.email);
    expect(e.message).toContain("revision 2");

    // Overwrite: save again on the revision the conflict named.
    const over = await api<Draft>(`/v1/templates/${t.id}/draft`, { method: "PUT", cookie: bob.cookie, body: { content: content("bob"), expectedRevision: 2 } });
    expect(over.status, over.text).toBe(200);
    expect(over.body).toMatchObject({ draftRevision: 3, content: content("bob") });

    // A key's save names the key.
    const byKey = expectError(await put(w, t.id, { content: content("late"), expectedRevision: 2 }), 409, "CONFLICT") as { current?: Record<string, unknown> };
    expect(byKey.current).toMatchObject({ draftRevision: 3, savedBy: { type: "user", id: bob.userId } });
    expect((await put(w, t.id, { content: content("key"), expectedRevision: 3 })).status).toBe(200);
    const e2 = expectError(await api(`/v1/templates/${t.id}/draft`, { method: "PUT", cookie: ann.cookie, body: { content: content("x"), expectedRevision: 3 } }), 409, "CONFLICT");
    expect((e2 as { current?: Record<string, unknown> }).current).toMatchObject({ draftRevision: 4, savedBy: { type: "apiKey", id: w.keyId, name: "test key" } });
  });

  it("a content editor's session reads the draft but cannot save a change beyond content field values", async () => {
    const w = await createTestWorkspace();
    const t = await create(w);
    const editor = await w.signIn("content_editor");
    expect((await api(`/v1/templates/${t.id}/draft`, { cookie: editor.cookie })).status).toBe(200);
    const e = expectError(await api(`/v1/templates/${t.id}/draft`, { method: "PUT", cookie: editor.cookie, body: { content: content("no"), expectedRevision: 1 } }), 403, "FORBIDDEN");
    expect(e.message).toContain("template:write");
    expect((await getDraft(w, t.id)).body.draftRevision).toBe(1);
  });

  it("answers 409 CONFLICT for a stale or future revision and keeps the draft", async () => {
    const w = await createTestWorkspace();
    const t = await create(w);
    expect((await put(w, t.id, { content: content("r2"), expectedRevision: 1 })).status).toBe(200);
    for (const expectedRevision of [1, 3, 1000]) {
      const e = expectError(await put(w, t.id, { content: content("stale"), expectedRevision }), 409, "CONFLICT");
      expect(e.message).toContain("2");
      expect(e.retryable).toBe(false);
    }
    const d = await getDraft(w, t.id);
    expect(d.body).toMatchObject({ draftRevision: 2, content: content("r2") });
    expect((await revisions(w, t.id)).body.items.map((r) => r.revision)).toEqual([2, 1]);
  });

  it("validates the body and the content, naming the path, and keeps the draft", async () => {
    const w = await createTestWorkspace();
    const t = await create(w);
    const cases: [unknown, string][] = [
      [{ content: content("x") }, "expectedRevision"],
      [{ content: content("x"), expectedRevision: 0 }, "expectedRevision"],
      [{ content: content("x"), expectedRevision: 1.5 }, "expectedRevision"],
      [{ content: content("x"), expectedRevision: "1" }, "expectedRevision"],
      [{ content: content("x"), expectedRevision: 1, name: "x" }, "name"],
      [{ expectedRevision: 1 }, "content"],
      [{ content: { composition: { root: { type: "table", source: { path: ["rows"] }, columns: [] } } }, expectedRevision: 1 }, "content.composition.root.columns"],
      [{ content: { composition: { root: { type: "repeat", source: { path: ["rows"], fallback: [] }, children: [] } } }, expectedRevision: 1 }, "content.composition.root.source.fallback"],
      [{ content: { composition: { root: { type: "text", text: "a" }, components: { "a b": { name: "x", root: { type: "text", text: "a" } } } } }, expectedRevision: 1 }, "content.composition.components.a b"],
    ];
    for (const [body, path] of cases) {
      const e = expectError(await put(w, t.id, body), 400, "BAD_REQUEST");
      expect(paths(e), path).toContain(path);
    }
    expect((await getDraft(w, t.id)).body).toMatchObject({ draftRevision: 1, content: content("r1") });
    expect((await revisions(w, t.id)).body.items).toHaveLength(1);
  });

  it("answers 404 for an unknown or another workspace's template, changing nothing", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const theirs = await create(other, "theirs");
    expectError(await getDraft(w, "tpl_unknown"), 404, "NOT_FOUND");
    expectError(await put(w, "tpl_unknown", { content: content("x"), expectedRevision: 1 }), 404, "NOT_FOUND");
    expectError(await getDraft(w, theirs.id), 404, "NOT_FOUND");
    expectError(await put(w, theirs.id, { content: content("hijack"), expectedRevision: 1 }), 404, "NOT_FOUND");
    expectError(await revisions(w, theirs.id), 404, "NOT_FOUND");
    expect((await getDraft(other, theirs.id)).body).toMatchObject({ draftRevision: 1, content: content("theirs") });
  });

  it("lets exactly one of 10 concurrent saves with the same revision win", async () => {
    const w = await createTestWorkspace();
    const t = await create(w, "original");
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => put(w, t.id, { content: content(`racer ${i}`), expectedRevision: 1 })));

    const won = results.map((r, i) => [r, i] as const).filter(([r]) => r.status === 200);
    expect(won, results.map((r) => r.status).join(",")).toHaveLength(1);
    for (const r of results) if (r.status !== 200) expectError(r, 409, "CONFLICT");
    const [winner, i] = won[0]!;
    expect(winner.body).toMatchObject({ draftRevision: 2, content: content(`racer ${i}`) });

    expect((await getDraft(w, t.id)).body).toMatchObject({ draftRevision: 2, content: content(`racer ${i}`) });
    const history = (await revisions(w, t.id, "?order=asc")).body;
    expect(history.items.map((r) => [r.revision, r.content])).toEqual([
      [1, content("original")],
      [2, content(`racer ${i}`)],
    ]);
    expect(history.nextCursor).toBeUndefined();

    const audit = await api<Page<{ action: string; targetId: string }>>("/v1/audit-events?limit=100", { key: w.key });
    expect(audit.body.items.filter((e) => e.action === "template.draft.save")).toHaveLength(1);
  });

  describe("security of PUT", () => {
    securityCases({
      scope: "template:write",
      request: async (w, key) => {
        const t = await templates.createTemplate(systemCtx(w.id, "test"), { name: "s", content: content("s") });
        return api(`/v1/templates/${t.id}/draft`, { method: "PUT", key, body: { content: content("s2"), expectedRevision: 1 } });
      },
      crossWorkspace: async (w, other) => {
        const t = await templates.createTemplate(systemCtx(other.id, "test"), { name: "s", content: content("s") });
        return put(w, t.id, { content: content("s2"), expectedRevision: 1 });
      },
    });
  });

  describe("security of GET", () => {
    securityCases({
      scope: "template:read",
      request: async (w, key) => {
        const t = await templates.createTemplate(systemCtx(w.id, "test"), { name: "s", content: content("s") });
        return api(`/v1/templates/${t.id}/draft`, { key });
      },
    });
  });
});

describe("GET /v1/templates/{id}/revisions", () => {
  it("pages 5 revisions by 2 in both orders, each exactly once, with content and actor", async () => {
    const w = await createTestWorkspace();
    const t = await create(w, "r1");
    for (let r = 1; r < 5; r++) expect((await put(w, t.id, { content: content(`r${r + 1}`), expectedRevision: r })).status).toBe(200);

    const desc = await walk(w, t.id, "&order=desc", 2);
    expect(desc.pages).toEqual([[5, 4], [3, 2], [1]]);
    const asc = await walk(w, t.id, "&order=asc", 2);
    expect(asc.pages).toEqual([[1, 2], [3, 4], [5]]);
    const byDefault = await walk(w, t.id, "", 2);
    expect(byDefault.pages).toEqual(desc.pages);

    for (const r of asc.items) {
      expect(r).toEqual({
        id: expect.stringMatching(/^rev_[0-9A-Za-z]+$/),
        templateId: t.id,
        revision: r.revision,
        content: content(`r${r.revision}`),
        createdAt: expect.stringMatching(ISO),
        actor: { type: "apiKey", id: w.keyId },
      });
    }
    expect(new Set(asc.items.map((r) => r.id)).size).toBe(5);
    expect(desc.items.map((r) => r.id)).toEqual([...asc.items].reverse().map((r) => r.id));
    const times = asc.items.map((r) => Date.parse(r.createdAt));
    for (let i = 1; i < times.length; i++) expect(times[i]).toBeGreaterThanOrEqual(times[i - 1]!);

    const all = await revisions(w, t.id);
    expect(all.body.items.map((r) => r.revision)).toEqual([5, 4, 3, 2, 1]);
    expect(all.body.nextCursor).toBeUndefined();
  });

  it("keeps paging in order while new revisions are saved", async () => {
    const w = await createTestWorkspace();
    const t = await create(w, "r1");
    for (let r = 1; r < 4; r++) await put(w, t.id, { content: content(`r${r + 1}`), expectedRevision: r });
    const first = await revisions(w, t.id, "?order=asc&limit=2");
    expect(first.body.items.map((r) => r.revision)).toEqual([1, 2]);
    await put(w, t.id, { content: content("r5"), expectedRevision: 4 });
    const rest = await revisions(w, t.id, `?order=asc&limit=10&cursor=${encodeURIComponent(first.body.nextCursor!)}`);
    expect(rest.body.items.map((r) => r.revision)).toEqual([3, 4, 5]);
    const descFirst = await revisions(w, t.id, "?order=desc&limit=2");
    const descRest = await revisions(w, t.id, `?order=desc&limit=10&cursor=${encodeURIComponent(descFirst.body.nextCursor!)}`);
    expect(descRest.body.items.map((r) => r.revision)).toEqual([3, 2, 1]);
  });

  it("refuses a bad cursor, order or limit naming the query field", async () => {
    const w = await createTestWorkspace();
    const t = await create(w);
    const cursorOfAnotherList = (await api<Page<unknown>>("/v1/audit-events?limit=1", { key: w.key })).body.nextCursor!;
    for (const [q, path] of [
      ["cursor=garbage", "query.cursor"],
      [`cursor=${encodeURIComponent(cursorOfAnotherList)}`, "query.cursor"],
      [`cursor=${Buffer.from(JSON.stringify(["n", "1"])).toString("base64url")}`, "query.cursor"],
      ["order=sideways", "query.order"],
      ["order=ASC", "query.order"],
      ["limit=0", "query.limit"],
      ["limit=101", "query.limit"],
      ["sort=revision", "query.sort"],
    ]) {
      const e = expectError(await revisions(w, t.id, `?${q}`), 400, "BAD_REQUEST");
      expect(paths(e), q).toContain(path);
    }
  });

  describe("security", () => {
    securityCases({
      scope: "template:read",
      request: async (w, key) => {
        const t = await templates.createTemplate(systemCtx(w.id, "test"), { name: "s", content: content("s") });
        return api(`/v1/templates/${t.id}/revisions`, { key });
      },
      crossWorkspace: async (w, other) => {
        const t = await templates.createTemplate(systemCtx(other.id, "test"), { name: "s", content: content("s") });
        return revisions(w, t.id);
      },
    });
  });
});
