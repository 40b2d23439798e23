import { describe, expect, it } from "vitest";
import { systemCtx } from "@/lib/auth/context";
import { scopes, type Scope } from "@/lib/auth/scopes";
import * as templates from "@/lib/templates";
import { definitions } from "@/lib/templates/schema";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError, type ApiResponse } from "@/lib/testing/http";
import { securityCases } from "@/lib/testing/security-cases";

type Template = {
  id: string;
  name: string;
  description: string;
  kind: string;
  draftRevision: number;
  createdAt: string;
  updatedAt: string;
  draft?: Record<string, unknown>;
  lastEditedAt?: string;
  lastEditedBy?: { type: string; id: string; name?: string; email?: string };
  publishedVersion?: number;
};
type AuditEvent = { action: string; actor: { type: string; id: string }; targetType: string; targetId: string; details: Record<string, unknown> };
type Detail = { path?: string; message: string };

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

const content = (label: string) => ({
  composition: { root: { type: "container", children: [{ type: "text", text: label, style: { fontSize: 14 } }] } },
  settings: { pageSize: { widthMm: 210, heightMm: 297 }, locale: "de-CH" },
});

async function create(key: string, body: Record<string, unknown> = {}): Promise<Template> {
  const res = await api<Template>("/v1/templates", { key, body: { name: "Invoice", content: content("first"), ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

/** A template made through the verb, so security cases work even when the key under test is revoked. */
const createDirect = (w: TestWorkspace, name = "Direct") =>
  templates.createTemplate(systemCtx(w.id, "test"), { name, content: content("direct") });

const auditEvents = async (w: TestWorkspace) => {
  const res = await api<{ items: AuditEvent[] }>("/v1/audit-events?limit=100", { key: w.key });
  expect(res.status, res.text).toBe(200);
  return res.body.items.filter((e) => e.targetType === "template");
};

const paths = (e: { details?: unknown }) => ((e.details ?? []) as Detail[]).map((d) => d.path);

describe("POST /v1/templates", () => {
  it("creates a component template: 201, draftRevision 1, the draft echoed", async () => {
    const w = await createTestWorkspace();
    const c = content("Hello");
    const res = await api<Template>("/v1/templates", { key: w.key, body: { name: "Invoice", description: "Monthly invoice", kind: "component", content: c } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toEqual({
      id: expect.stringMatching(/^tpl_[0-9A-Za-z]+$/),
      name: "Invoice",
      description: "Monthly invoice",
      kind: "component",
      draftRevision: 1,
      createdAt: expect.stringMatching(ISO),
      updatedAt: expect.stringMatching(ISO),
      draft: c,
      lastEditedAt: res.body.createdAt,
      lastEditedBy: { type: "apiKey", id: w.keyId, name: "test key" },
    });
    expect(Math.abs(Date.parse(res.body.createdAt) - Date.now())).toBeLessThan(60_000);

    const read = await api<Template>(`/v1/templates/${res.body.id}`, { key: w.key });
    expect(read.status, read.text).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it("defaults kind to component and description to empty; content may omit settings", async () => {
    const w = await createTestWorkspace();
    const t = await create(w.key, { name: "x", content: { composition: { root: { type: "text", text: "only root" } } } });
    expect(t).toMatchObject({ name: "x", kind: "component", description: "", draftRevision: 1 });
    expect(t.draft).toEqual({ composition: { root: { type: "text", text: "only root" } } });
  });

  it("accepts a name of 120 characters and a description of 2,000", async () => {
    const w = await createTestWorkspace();
    const t = await create(w.key, { name: "n".repeat(120), description: "d".repeat(2000) });
    expect(t.name).toHaveLength(120);
    expect(t.description).toHaveLength(2000);
  });

  it("refuses bad names, descriptions, kinds and fields with 400 naming the field, creating nothing", async () => {
    const w = await createTestWorkspace();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: "n".repeat(121) }, "name"],
      [{ name: "" }, "name"],
      [{ name: undefined }, "name"],
      [{ name: 5 }, "name"],
      [{ description: "d".repeat(2001) }, "description"],
      [{ kind: "spreadsheet" }, "kind"],
      [{ colour: "red" }, "colour"],
    ];
    for (const [patch, path] of cases) {
      const e = expectError(await api("/v1/templates", { key: w.key, body: { name: "Invoice", content: content("x"), ...patch } }), 400, "BAD_REQUEST");
      expect(paths(e), JSON.stringify(patch).slice(0, 80)).toContain(path);
    }
    const list = await api<{ items: Template[] }>("/v1/templates", { key: w.key });
    expect(list.body.items).toEqual([]);
  });

  it("validates the content at save: 400 BAD_REQUEST with details[].path under content", async () => {
    const w = await createTestWorkspace();
    const table = (extra: object) => ({ type: "table", source: { path: ["rows"] }, columns: [{ id: "a", header: "A", value: { path: ["a"] } }], ...extra });
    const cases: [unknown, string][] = [
      [undefined, "content"],
      ["<html>", "content"],
      [{}, "content.composition"],
      [{ composition: { root: table({ columns: [] }) } }, "content.composition.root.columns"],
      [{ composition: { root: { type: "container", children: [table({ columns: [{ id: "-a", header: "", value: "x" }] })] } } }, "content.composition.root.children.0.columns.0.id"],
      [{ composition: { root: { type: "text", text: { path: ["__proto__"] } } } }, "content.composition.root.text.path.0"],
      [{ composition: { root: { type: "video" } } }, "content.composition.root.type"],
      [{ composition: { root: { type: "text", text: { path: Array(21).fill("a") } } } }, "content.composition.root.text.path"],
      [{ composition: { root: { type: "text", text: { path: ["a"], scope: "other" } } } }, "content.composition.root.text.scope"],
      [{ composition: { root: { type: "text", text: { path: ["a"], format: { type: "currency" } } } } }, "content.composition.root.text.format.currency"],
      [{ composition: { root: { type: "text", text: { parts: Array(101).fill("a") } } } }, "content.composition.root.text.parts"],
      [{ composition: { root: { type: "text", text: "a", onclick: "x" } } }, "content.composition.root.onclick"],
      [{ composition: { root: { type: "text", text: "a", style: { color: "red; background:url(http://x)" } } } }, "content.composition.root.style.color"],
      [{ composition: { root: { type: "text", text: "a" }, header: "h".repeat(100_001) } }, "content.composition.header"],
      [{ composition: { root: { type: "text", text: "a" } }, settings: { margins: { topMm: -1 } } }, "content.settings.margins.topMm"],
    ];
    for (const [c, path] of cases) {
      const e = expectError(await api("/v1/templates", { key: w.key, body: { name: "Invoice", content: c } }), 400, "BAD_REQUEST");
      expect(paths(e), path).toContain(path);
      expect(e.message).toContain(path);
    }
    const list = await api<{ items: Template[] }>("/v1/templates", { key: w.key });
    expect(list.body.items).toEqual([]);
  });

  it("checks content as the template's kind says: component content under kind handlebars answers 400 naming content.templateHtml", async () => {
    const w = await createTestWorkspace();
    const e = expectError(
      await api("/v1/templates", { key: w.key, body: { name: "HB", kind: "handlebars", content: { composition: { root: { type: "text", text: "x" } } } } }),
      400,
      "BAD_REQUEST",
    );
    expect(paths(e)).toEqual(expect.arrayContaining(["content.templateHtml", "content.composition"]));
    expect((await api<{ items: Template[] }>("/v1/templates", { key: w.key })).body.items).toEqual([]);
  });

  it("answers 404 for a folderId, since no folder exists", async () => {
    const w = await createTestWorkspace();
    expectError(await api("/v1/templates", { key: w.key, body: { name: "In folder", folderId: "fld_nope", content: content("x") } }), 404, "NOT_FOUND");
    expect((await api<{ items: Template[] }>("/v1/templates", { key: w.key })).body.items).toEqual([]);
  });

  describe("security", () => {
    securityCases({
      scope: "template:write",
      request: (_w, key) => api("/v1/templates", { key, body: { name: "Sec", content: content("x") } }),
    });
  });
});

describe("GET /v1/templates", () => {
  it("pages newest first without drafts, each template once, never another workspace's", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    await create(other.key, { name: "theirs" });
    const made: Template[] = [];
    for (const name of ["one", "two", "three"]) made.push(await create(w.key, { name }));

    const first = await api<{ items: Template[]; nextCursor?: string }>("/v1/templates?limit=2", { key: w.key });
    expect(first.status, first.text).toBe(200);
    expect(first.body.items.map((t) => t.name)).toEqual(["three", "two"]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const { draft: _d, ...withoutDraft } = made[2]!;
    expect(first.body.items[0]).toEqual(withoutDraft);
    for (const t of first.body.items) expect(t).not.toHaveProperty("draft");

    const second = await api<{ items: Template[]; nextCursor?: string }>(`/v1/templates?limit=2&cursor=${encodeURIComponent(first.body.nextCursor!)}`, { key: w.key });
    expect(second.status, second.text).toBe(200);
    expect(second.body.items.map((t) => t.id)).toEqual([made[0]!.id]);
    expect(second.body.nextCursor).toBeUndefined();

    const all = await api<{ items: Template[]; nextCursor?: string }>("/v1/templates", { key: w.key });
    expect(all.body.items.map((t) => t.name)).toEqual(["three", "two", "one"]);
    expect(all.body.nextCursor).toBeUndefined();
  });

  it("refuses a bad limit or cursor naming the query field", async () => {
    const w = await createTestWorkspace();
    for (const [q, path] of [
      ["limit=0", "query.limit"],
      ["limit=101", "query.limit"],
      ["cursor=nonsense", "query.cursor"],
      ["order=asc", "query.order"],
    ]) {
      const e = expectError(await api(`/v1/templates?${q}`, { key: w.key }), 400, "BAD_REQUEST");
      expect(paths(e), q).toContain(path);
    }
  });

  it("searches names with q: any letter case, a part of the name, % and _ taken literally, paged with the same q", async () => {
    const w = await createTestWorkspace();
    for (const name of ["Invoice DE", "Delivery note", "Monthly INVOICE", "Receipt", "100% invoice_x", "1000 invoicex"]) await create(w.key, { name });
    const names = async (query: string) => {
      const res = await api<{ items: Template[]; nextCursor?: string }>(`/v1/templates?${query}`, { key: w.key });
      expect(res.status, res.text).toBe(200);
      return res.body;
    };
    expect((await names("q=invoice")).items.map((t) => t.name)).toEqual(["1000 invoicex", "100% invoice_x", "Monthly INVOICE", "Invoice DE"]);
    expect((await names("q=NOTE")).items.map((t) => t.name)).toEqual(["Delivery note"]);
    expect((await names(`q=${encodeURIComponent("0%")}`)).items.map((t) => t.name)).toEqual(["100% invoice_x"]);
    expect((await names(`q=${encodeURIComponent("invoice_")}`)).items.map((t) => t.name)).toEqual(["100% invoice_x"]);
    expect((await names("q=nothing")).items).toEqual([]);

    const first = await names("q=invoice&limit=3");
    expect(first.items).toHaveLength(3);
    const second = await names(`q=invoice&limit=3&cursor=${encodeURIComponent(first.nextCursor!)}`);
    expect(second.items.map((t) => t.name)).toEqual(["Invoice DE"]);
    expect(second.nextCursor).toBeUndefined();

    for (const q of ["q=", `q=${"x".repeat(121)}`]) {
      const e = expectError(await api(`/v1/templates?${q}`, { key: w.key }), 400, "BAD_REQUEST");
      expect(paths(e)).toContain("query.q");
    }
  });

  it("tells who last saved each draft and when, and the newest published version", async () => {
    const w = await createTestWorkspace();
    const t = await create(w.key, { name: "Edited" });
    const person = await w.signIn("member");
    const listed = async () => {
      const res = await api<{ items: Template[] }>("/v1/templates", { key: w.key });
      expect(res.status, res.text).toBe(200);
      return res.body.items[0]!;
    };
    const byKey = await listed();
    expect(byKey).toMatchObject({ id: t.id, lastEditedAt: t.createdAt, lastEditedBy: { type: "apiKey", id: w.keyId, name: "test key" } });
    expect(byKey).not.toHaveProperty("publishedVersion");

    // The console saves with the person's session: the list names the person.
    const saved = await api(`/v1/templates/${t.id}/draft`, { method: "PUT", cookie: person.cookie, body: { content: content("second"), expectedRevision: 1 } });
    expect(saved.status, saved.text).toBe(200);
    for (let i = 0; i < 2; i++) expect((await api(`/v1/templates/${t.id}/versions`, { key: w.key, body: { expectedRevision: 2 } })).status).toBe(201);
    const byPerson = await listed();
    expect(byPerson).toMatchObject({ lastEditedBy: { type: "user", id: person.userId, email: person.email }, publishedVersion: 2 });
    expect(Date.parse(byPerson.lastEditedAt!)).toBeGreaterThanOrEqual(Date.parse(t.createdAt));
    const read = await api<Template>(`/v1/templates/${t.id}`, { key: w.key });
    expect(read.body).toMatchObject({ lastEditedAt: byPerson.lastEditedAt, lastEditedBy: byPerson.lastEditedBy, publishedVersion: 2 });

    // A rename is no edit of the draft.
    expect((await api(`/v1/templates/${t.id}`, { method: "PATCH", key: w.key, body: { name: "Renamed" } })).status).toBe(200);
    expect(await listed()).toMatchObject({ name: "Renamed", lastEditedAt: byPerson.lastEditedAt, lastEditedBy: byPerson.lastEditedBy });
  });

  it("answers the console's session as it answers a key", async () => {
    const w = await createTestWorkspace();
    const t = await create(w.key, { name: "Seen by people" });
    const person = await w.signIn("content_editor");
    const res = await api<{ items: Template[] }>("/v1/templates?q=people", { cookie: person.cookie });
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((i) => i.id)).toEqual([t.id]);
  });

  describe("security", () => {
    securityCases({ scope: "template:read", request: (_w, key) => api("/v1/templates", { key }) });
  });
});

describe("GET /v1/templates/schema", () => {
  it("answers the JSON Schema (draft 2020-12) of the content", async () => {
    const w = await createTestWorkspace({ scopes: ["template:read"] });
    const res = await api("/v1/templates/schema", { key: w.key });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object",
      required: ["composition"],
      properties: { composition: { $ref: "#/$defs/Composition" } },
      $defs: { Composition: { required: ["root"] } },
    });
    const noRead = await w.newKey(scopes.filter((s) => s !== "template:read"));
    expect(expectError(await api("/v1/templates/schema", { key: noRead.secret }), 403, "FORBIDDEN").message).toContain("template:read");
  });

  it("names a definition after each component type and field, with a description and examples that validate", async () => {
    const w = await createTestWorkspace({ scopes: ["template:read"] });
    const res = await api<{ $defs: Record<string, { description?: string; examples?: unknown[]; properties?: { type?: { const?: string } } }> }>(
      "/v1/templates/schema",
      { key: w.key },
    );
    expect(res.status, res.text).toBe(200);
    expect(res.text).not.toContain("__schema");
    const defs = res.body.$defs;
    const byType = Object.fromEntries(Object.entries(defs).flatMap(([id, d]) => (d.properties?.type?.const ? [[d.properties.type.const, id]] : [])));
    expect(byType).toEqual({
      container: "ContainerComponent",
      text: "TextComponent",
      image: "ImageComponent",
      repeat: "RepeatComponent",
      table: "TableComponent",
      component: "ComponentReference",
    });
    for (const [id, d] of Object.entries(defs)) {
      expect(d.description, id).toBeTruthy();
      expect(d.examples?.length, id).toBeGreaterThan(0);
      // The examples served are checked by the zod schema that validates drafts at save.
      for (const example of d.examples!) expect(definitions[id]!.safeParse(example).success, `${id}: ${JSON.stringify(example)}`).toBe(true);
    }
  });
});

describe("GET, PATCH and DELETE /v1/templates/{id}", () => {
  it("renames and describes, keeping the draft and its revision; each change is read back", async () => {
    const w = await createTestWorkspace();
    const t = await create(w.key, { description: "old" });

    const renamed = await api<Template>(`/v1/templates/${t.id}`, { method: "PATCH", key: w.key, body: { name: "Invoice 2026" } });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body).toEqual({ ...t, name: "Invoice 2026", updatedAt: expect.stringMatching(ISO) });
    expect(Date.parse(renamed.body.updatedAt)).toBeGreaterThanOrEqual(Date.parse(t.updatedAt));

    const described = await api<Template>(`/v1/templates/${t.id}`, { method: "PATCH", key: w.key, body: { description: "" } });
    expect(described.status, described.text).toBe(200);
    expect(described.body).toMatchObject({ name: "Invoice 2026", description: "", draftRevision: 1, draft: t.draft });

    const both = await api<Template>(`/v1/templates/${t.id}`, { method: "PATCH", key: w.key, body: { name: "Final", description: "d".repeat(2000) } });
    expect(both.status, both.text).toBe(200);
    const read = await api<Template>(`/v1/templates/${t.id}`, { key: w.key });
    expect(read.body).toEqual(both.body);
    expect(read.body).toMatchObject({ name: "Final", description: "d".repeat(2000), createdAt: t.createdAt });
  });

  it("refuses an empty or bad PATCH with 400 and changes nothing", async () => {
    const w = await createTestWorkspace();
    const t = await create(w.key);
    expectError(await api(`/v1/templates/${t.id}`, { method: "PATCH", key: w.key, body: {} }), 400, "BAD_REQUEST");
    for (const [body, path] of [
      [{ name: "" }, "name"],
      [{ name: "n".repeat(121) }, "name"],
      [{ description: "d".repeat(2001) }, "description"],
      [{ name: "ok", draftRevision: 7 }, "draftRevision"],
      [{ name: "ok", kind: "handlebars" }, "kind"],
    ] as const) {
      const e = expectError(await api(`/v1/templates/${t.id}`, { method: "PATCH", key: w.key, body }), 400, "BAD_REQUEST");
      expect(paths(e), JSON.stringify(body).slice(0, 60)).toContain(path);
    }
    expect((await api<Template>(`/v1/templates/${t.id}`, { key: w.key })).body).toEqual(t);
  });

  it("answers 404 for an unknown id", async () => {
    const w = await createTestWorkspace();
    expectError(await api("/v1/templates/tpl_doesnotexist", { key: w.key }), 404, "NOT_FOUND");
    expectError(await api("/v1/templates/tpl_doesnotexist", { method: "PATCH", key: w.key, body: { name: "x" } }), 404, "NOT_FOUND");
    expectError(await api("/v1/templates/tpl_doesnotexist", { method: "DELETE", key: w.key }), 404, "NOT_FOUND");
  });

  it("deletes one template; afterwards every endpoint of it answers 404 and the others stay", async () => {
    const w = await createTestWorkspace();
    const [keep, gone] = [await create(w.key, { name: "keep" }), await create(w.key, { name: "gone" })];
    const res = await api(`/v1/templates/${gone.id}`, { method: "DELETE", key: w.key });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ deleted: true, ids: [gone.id] });

    expectError(await api(`/v1/templates/${gone.id}`, { key: w.key }), 404, "NOT_FOUND");
    expectError(await api(`/v1/templates/${gone.id}/draft`, { key: w.key }), 404, "NOT_FOUND");
    expectError(await api(`/v1/templates/${gone.id}/revisions`, { key: w.key }), 404, "NOT_FOUND");
    expectError(await api(`/v1/templates/${gone.id}/versions`, { key: w.key }), 404, "NOT_FOUND");
    expectError(await api(`/v1/templates/${gone.id}`, { method: "DELETE", key: w.key }), 404, "NOT_FOUND");
    expect((await api<{ items: Template[] }>("/v1/templates", { key: w.key })).body.items.map((t) => t.id)).toEqual([keep.id]);
  });

  describe("security of GET", () => {
    securityCases({
      scope: "template:read",
      request: async (w, key) => api(`/v1/templates/${(await createDirect(w)).id}`, { key }),
      crossWorkspace: async (w, other) => api(`/v1/templates/${(await createDirect(other)).id}`, { key: w.key }),
    });
  });

  describe("security of PATCH", () => {
    securityCases({
      scope: "template:write",
      request: async (w, key) => api(`/v1/templates/${(await createDirect(w)).id}`, { method: "PATCH", key, body: { name: "x" } }),
      crossWorkspace: async (w, other) => api(`/v1/templates/${(await createDirect(other)).id}`, { method: "PATCH", key: w.key, body: { name: "x" } }),
    });
  });
});

describe("POST /v1/templates/delete", () => {
  it("deletes several templates in one request", async () => {
    const w = await createTestWorkspace();
    const [a, b, c] = [await create(w.key, { name: "a" }), await create(w.key, { name: "b" }), await create(w.key, { name: "c" })];
    const res = await api("/v1/templates/delete", { key: w.key, body: { ids: [a.id, c.id] } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ deleted: true, ids: [a.id, c.id] });
    expectError(await api(`/v1/templates/${a.id}`, { key: w.key }), 404, "NOT_FOUND");
    expectError(await api(`/v1/templates/${c.id}`, { key: w.key }), 404, "NOT_FOUND");
    expect((await api(`/v1/templates/${b.id}`, { key: w.key })).status).toBe(200);
  });

  it("deletes all or none: an unknown id or another workspace's id answers 404 and deletes nothing", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const mine = await create(w.key, { name: "mine" });
    const theirs = await create(other.key, { name: "theirs" });
    const unknown = expectError(await api("/v1/templates/delete", { key: w.key, body: { ids: [mine.id, "tpl_unknown"] } }), 404, "NOT_FOUND");
    expect(unknown.message).toContain("tpl_unknown");
    expectError(await api("/v1/templates/delete", { key: w.key, body: { ids: [mine.id, theirs.id] } }), 404, "NOT_FOUND");
    expect((await api(`/v1/templates/${mine.id}`, { key: w.key })).status).toBe(200);
    expect((await api(`/v1/templates/${theirs.id}`, { key: other.key })).status).toBe(200);
    expect((await auditEvents(w)).map((e) => e.action)).toEqual(["template.create"]);
  });

  it("takes 1 to 100 ids", async () => {
    const w = await createTestWorkspace();
    const t = await create(w.key);
    for (const ids of [[], Array.from({ length: 101 }, (_, i) => `tpl_${i}`), "tpl_x", [5]]) {
      const e = expectError(await api("/v1/templates/delete", { key: w.key, body: { ids } }), 400, "BAD_REQUEST");
      expect(paths(e).some((p) => p?.startsWith("ids")), JSON.stringify(ids).slice(0, 40)).toBe(true);
    }
    expectError(await api("/v1/templates/delete", { key: w.key, body: {} }), 400, "BAD_REQUEST");
    // 100 ids are accepted as a size; the unknown ones make it 404 (all or none) and t stays.
    const hundred = [t.id, ...Array.from({ length: 99 }, (_, i) => `tpl_missing${i}`)];
    expectError(await api("/v1/templates/delete", { key: w.key, body: { ids: hundred } }), 404, "NOT_FOUND");
    expect((await api(`/v1/templates/${t.id}`, { key: w.key })).status).toBe(200);
  });

  it("deletes 100 templates at once", async () => {
    const w = await createTestWorkspace();
    const ctx = systemCtx(w.id, "test");
    const ids: string[] = [];
    for (let i = 0; i < 100; i += 10) {
      const batch = await Promise.all(Array.from({ length: 10 }, (_, j) => templates.createTemplate(ctx, { name: `t${i + j}`, content: content("x") })));
      ids.push(...batch.map((t) => t.id));
    }
    const res = await api("/v1/templates/delete", { key: w.key, body: { ids } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ deleted: true, ids });
    expect((await api<{ items: Template[] }>("/v1/templates", { key: w.key })).body.items).toEqual([]);
  });

  describe("security", () => {
    securityCases({
      scope: "template:write",
      request: async (w, key) => api("/v1/templates/delete", { key, body: { ids: [(await createDirect(w)).id] } }),
      crossWorkspace: async (w, other) => api("/v1/templates/delete", { key: w.key, body: { ids: [(await createDirect(other)).id] } }),
    });
  });
});

describe("scopes of the template endpoints", () => {
  type Call = { name: string; scope: Scope; send: (key: string, ids: { tpl: string; tv: string }) => Promise<ApiResponse> };
  const calls: Call[] = [
    { name: "POST /v1/templates", scope: "template:write", send: (key) => api("/v1/templates", { key, body: { name: "x", content: content("x") } }) },
    { name: "PATCH /v1/templates/{id}", scope: "template:write", send: (key, { tpl }) => api(`/v1/templates/${tpl}`, { method: "PATCH", key, body: { name: "x" } }) },
    { name: "DELETE /v1/templates/{id}", scope: "template:write", send: (key, { tpl }) => api(`/v1/templates/${tpl}`, { method: "DELETE", key }) },
    { name: "POST /v1/templates/delete", scope: "template:write", send: (key, { tpl }) => api("/v1/templates/delete", { key, body: { ids: [tpl] } }) },
    { name: "PUT /v1/templates/{id}/draft", scope: "template:write", send: (key, { tpl }) => api(`/v1/templates/${tpl}/draft`, { method: "PUT", key, body: { content: content("x"), expectedRevision: 2 } }) },
    { name: "POST /v1/templates/{id}/versions", scope: "template:publish", send: (key, { tpl }) => api(`/v1/templates/${tpl}/versions`, { key, body: { expectedRevision: 2 } }) },
    { name: "GET /v1/templates", scope: "template:read", send: (key) => api("/v1/templates", { key }) },
    { name: "GET /v1/templates/{id}", scope: "template:read", send: (key, { tpl }) => api(`/v1/templates/${tpl}`, { key }) },
    { name: "GET /v1/templates/{id}/draft", scope: "template:read", send: (key, { tpl }) => api(`/v1/templates/${tpl}/draft`, { key }) },
    { name: "GET /v1/templates/{id}/revisions", scope: "template:read", send: (key, { tpl }) => api(`/v1/templates/${tpl}/revisions`, { key }) },
    { name: "GET /v1/templates/{id}/versions", scope: "template:read", send: (key, { tpl }) => api(`/v1/templates/${tpl}/versions`, { key }) },
    { name: "GET /v1/template-versions/{id}", scope: "template:read", send: (key, { tv }) => api(`/v1/template-versions/${tv}`, { key }) },
    { name: "GET /v1/templates/schema", scope: "template:read", send: (key) => api("/v1/templates/schema", { key }) },
    { name: "GET /v1/templates/{id}/data-schema", scope: "template:read", send: (key, { tpl }) => api(`/v1/templates/${tpl}/data-schema`, { key }) },
    { name: "GET /v1/template-versions/{id}/data-schema", scope: "template:read", send: (key, { tv }) => api(`/v1/template-versions/${tv}/data-schema`, { key }) },
  ];

  it("answers 403 naming the scope a key lacks, for every endpoint, and changes nothing", async () => {
    const w = await createTestWorkspace();
    const t = await create(w.key);
    const draft = await api(`/v1/templates/${t.id}/draft`, { method: "PUT", key: w.key, body: { content: content("second"), expectedRevision: 1 } });
    expect(draft.status, draft.text).toBe(200);
    const v = await api<{ id: string }>(`/v1/templates/${t.id}/versions`, { key: w.key, body: { expectedRevision: 2 } });
    expect(v.status, v.text).toBe(201);
    const lacking = Object.fromEntries(
      await Promise.all((["template:read", "template:write", "template:publish"] as const).map(async (s) => [s, (await w.newKey(scopes.filter((x) => x !== s))).secret])),
    ) as Record<string, string>;

    for (const call of calls) {
      const e = expectError(await call.send(lacking[call.scope]!, { tpl: t.id, tv: v.body.id }), 403, "FORBIDDEN");
      expect(e.message, call.name).toContain(call.scope);
    }
    // Nothing changed: same name, same draft revision, still one version, one template.
    const after = await api<Template>(`/v1/templates/${t.id}`, { key: w.key });
    expect(after.body).toMatchObject({ name: t.name, draftRevision: 2 });
    expect((await api<{ items: unknown[] }>(`/v1/templates/${t.id}/versions`, { key: w.key })).body.items).toHaveLength(1);
    expect((await api<{ items: unknown[] }>("/v1/templates", { key: w.key })).body.items).toHaveLength(1);
  });

  it("lets each scope do exactly its part: read-only keys read, write keys write, publish keys publish", async () => {
    const w = await createTestWorkspace();
    const t = await create(w.key);
    const [read, write, publish] = await Promise.all([w.newKey(["template:read"]), w.newKey(["template:write"]), w.newKey(["template:publish"])]);
    expect((await api(`/v1/templates/${t.id}`, { key: read.secret })).status).toBe(200);
    expectError(await api(`/v1/templates/${t.id}`, { method: "PATCH", key: read.secret, body: { name: "x" } }), 403, "FORBIDDEN");
    const saved = await api(`/v1/templates/${t.id}/draft`, { method: "PUT", key: write.secret, body: { content: content("w"), expectedRevision: 1 } });
    expect(saved.status, saved.text).toBe(200);
    expectError(await api(`/v1/templates/${t.id}`, { key: write.secret }), 403, "FORBIDDEN");
    const published = await api(`/v1/templates/${t.id}/versions`, { key: publish.secret, body: { expectedRevision: 2 } });
    expect(published.status, published.text).toBe(201);
    expectError(await api(`/v1/templates/${t.id}/draft`, { method: "PUT", key: publish.secret, body: { content: content("p"), expectedRevision: 2 } }), 403, "FORBIDDEN");
  });
});

describe("another workspace's template", () => {
  it("answers 404 on every endpoint and stays unchanged", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    const theirs = await create(other.key, { name: "theirs" });
    const v = await api<{ id: string }>(`/v1/templates/${theirs.id}/versions`, { key: other.key, body: { expectedRevision: 1 } });
    expect(v.status, v.text).toBe(201);
    const id = theirs.id;
    const sends: [string, () => Promise<ApiResponse>][] = [
      ["GET", () => api(`/v1/templates/${id}`, { key: w.key })],
      ["PATCH", () => api(`/v1/templates/${id}`, { method: "PATCH", key: w.key, body: { name: "hijacked" } })],
      ["DELETE", () => api(`/v1/templates/${id}`, { method: "DELETE", key: w.key })],
      ["bulk delete", () => api("/v1/templates/delete", { key: w.key, body: { ids: [id] } })],
      ["GET draft", () => api(`/v1/templates/${id}/draft`, { key: w.key })],
      ["PUT draft", () => api(`/v1/templates/${id}/draft`, { method: "PUT", key: w.key, body: { content: content("hijacked"), expectedRevision: 1 } })],
      ["revisions", () => api(`/v1/templates/${id}/revisions`, { key: w.key })],
      ["versions", () => api(`/v1/templates/${id}/versions`, { key: w.key })],
      ["publish", () => api(`/v1/templates/${id}/versions`, { key: w.key, body: { expectedRevision: 1 } })],
      ["template version", () => api(`/v1/template-versions/${v.body.id}`, { key: w.key })],
    ];
    for (const [name, send] of sends) {
      const res = await send();
      expect(res.status, `${name}: ${res.text}`).toBe(404);
      expectError(res, 404, "NOT_FOUND");
    }
    const after = await api<Template>(`/v1/templates/${id}`, { key: other.key });
    expect(after.body).toEqual({ ...theirs, publishedVersion: 1 });
    expect((await api<{ items: unknown[] }>(`/v1/templates/${id}/versions`, { key: other.key })).body.items).toHaveLength(1);
    expect((await api<{ items: unknown[] }>(`/v1/templates/${id}/revisions`, { key: other.key })).body.items).toHaveLength(1);
    expect(await auditEvents(w)).toEqual([]);
  });
});

describe("audit of template changes", () => {
  it("records create, update, draft save, publish and delete with the template as target", async () => {
    const w = await createTestWorkspace();
    const actor = { type: "apiKey", id: w.keyId };
    const t = await create(w.key, { name: "Audited" });
    expect((await api(`/v1/templates/${t.id}`, { method: "PATCH", key: w.key, body: { name: "Audited 2" } })).status).toBe(200);
    expect((await api(`/v1/templates/${t.id}/draft`, { method: "PUT", key: w.key, body: { content: content("2"), expectedRevision: 1 } })).status).toBe(200);
    const v = await api<{ id: string }>(`/v1/templates/${t.id}/versions`, { key: w.key, body: { expectedRevision: 2 } });
    expect(v.status).toBe(201);
    expect((await api(`/v1/templates/${t.id}`, { method: "DELETE", key: w.key })).status).toBe(200);

    const events = await auditEvents(w);
    expect(events.map((e) => e.action)).toEqual(["template.delete", "template.publish", "template.draft.save", "template.update", "template.create"]);
    for (const e of events) expect(e).toMatchObject({ targetType: "template", targetId: t.id, actor });
    const by = (a: string) => events.find((e) => e.action === a)!;
    expect(by("template.create").details).toMatchObject({ name: "Audited" });
    expect(by("template.update").details).toMatchObject({ name: "Audited 2" });
    expect(by("template.draft.save").details).toMatchObject({ draftRevision: 2 });
    expect(by("template.publish").details).toMatchObject({ versionId: v.body.id, version: 1, revision: 2 });
  });

  it("records one template.delete per template of a bulk delete, and nothing for refused requests", async () => {
    const w = await createTestWorkspace();
    const [a, b] = [await create(w.key, { name: "a" }), await create(w.key, { name: "b" })];
    expectError(await api(`/v1/templates/${a.id}/draft`, { method: "PUT", key: w.key, body: { content: content("x"), expectedRevision: 9 } }), 409, "CONFLICT");
    expectError(await api(`/v1/templates/${a.id}/versions`, { key: w.key, body: { expectedRevision: 9 } }), 409, "CONFLICT");
    expectError(await api(`/v1/templates/${a.id}`, { method: "PATCH", key: w.key, body: {} }), 400, "BAD_REQUEST");
    expect((await api("/v1/templates/delete", { key: w.key, body: { ids: [a.id, b.id] } })).status).toBe(200);
    const events = await auditEvents(w);
    expect(events.filter((e) => e.action === "template.delete").map((e) => e.targetId).sort()).toEqual([a.id, b.id].sort());
    expect(events.map((e) => e.action).sort()).toEqual(["template.create", "template.create", "template.delete", "template.delete"]);
  });
});
