import { describe, expect, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api } from "@/lib/testing/http";
import { securityCases } from "@/lib/testing/security-cases";

type Report = {
  name: string;
  templateId: string;
  description: string;
  kind: string;
  formats: string[];
  version: { id: string; version: number; publishedAt: string };
  dataSchema: Record<string, unknown>;
};

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const dataSchema = { type: "object", required: ["customer"], properties: { customer: { type: "string" }, total: { type: "number" } } };
const component = (label: string, extra: Record<string, unknown> = {}) => ({ composition: { root: { type: "container", children: [{ type: "text", text: label }] } }, ...extra });

async function create(w: TestWorkspace, name: string, body: Record<string, unknown>): Promise<string> {
  const res = await api<{ id: string }>("/v1/templates", { key: w.key, body: { name, ...body } });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

async function publish(w: TestWorkspace, id: string): Promise<{ id: string; version: number }> {
  const t = await api<{ draftRevision: number }>(`/v1/templates/${id}`, { key: w.key });
  const res = await api<{ id: string; version: number }>(`/v1/templates/${id}/versions`, { key: w.key, body: { expectedRevision: t.body.draftRevision } });
  expect(res.status, res.text).toBe(201);
  return res.body;
}

async function save(w: TestWorkspace, id: string, content: unknown) {
  const t = await api<{ draftRevision: number }>(`/v1/templates/${id}`, { key: w.key });
  const res = await api(`/v1/templates/${id}/draft`, { method: "PUT", key: w.key, body: { content, expectedRevision: t.body.draftRevision } });
  expect(res.status, res.text).toBe(200);
}

const list = (w: TestWorkspace, key = w.key) => api<{ items: Report[] }>("/v1/reports", { key });

/** The text of what the Reports API renders by `name` (html: the expanded document, no render made). */
async function reportText(w: TestWorkspace, name: string, data: Record<string, unknown> = {}) {
  const res = await api<string>("/v1/reports/render", { key: w.key, body: { format: "html", template: { name }, data } });
  expect(res.status, res.text).toBe(200);
  return res.text;
}

describe("GET /v1/reports", () => {
  it("answers an empty list for a workspace with nothing published", async () => {
    const w = await createTestWorkspace();
    await create(w, "Only a draft", { content: component("draft") });
    const res = await list(w);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ items: [] });
  });

  it("lists each published template by name with its kind, formats, newest version and data schema; drafts and other workspaces are left out", async () => {
    const [w, other] = await Promise.all([createTestWorkspace(), createTestWorkspace()]);
    await create(other, "Another workspace's", { content: component("theirs") });
    await publish(other, await create(other, "Theirs published", { content: component("theirs") }));

    const invoice = await create(w, "Invoice", { description: "Monthly invoice", content: component("invoice v1", { dataSchema }) });
    await publish(w, invoice);
    await save(w, invoice, component("invoice v2", { dataSchema: { ...dataSchema, required: ["customer", "total"] } }));
    const v2 = await publish(w, invoice);
    await save(w, invoice, component("invoice unpublished draft")); // the draft is not what the list shows
    const letter = await create(w, "letter", { kind: "handlebars", content: { templateHtml: "<p>Dear {{name}}</p>" } });
    const letterV1 = await publish(w, letter);
    await create(w, "Draft only", { content: component("draft") });

    const res = await list(w);
    expect(res.status, res.text).toBe(200);
    expect(res.body.items.map((r) => r.name)).toEqual(["Invoice", "letter"]);
    const [inv, let_] = res.body.items;
    expect(inv).toEqual({
      name: "Invoice",
      templateId: invoice,
      description: "Monthly invoice",
      kind: "component",
      formats: ["pdf", "png", "html"],
      version: { id: v2.id, version: 2, publishedAt: expect.stringMatching(ISO) },
      dataSchema: { ...dataSchema, required: ["customer", "total"] },
    });
    expect(let_).toMatchObject({ templateId: letter, kind: "handlebars", formats: ["pdf", "png", "html"], version: { id: letterV1.id, version: 1 }, dataSchema: {} });
    // The version listed is the one the Reports API renders by that name.
    expect(await reportText(w, "Invoice", { customer: "Ada", total: 1 })).toContain("invoice v2");
  });

  it("lists a name that two templates share once, as the Reports API renders it: the newest published version among them", async () => {
    const w = await createTestWorkspace();
    const first = await create(w, "Statement", { content: component("first template") });
    const second = await create(w, "Statement", { content: component("second template") });
    await publish(w, first);
    const secondV1 = await publish(w, second);
    let items = (await list(w)).body.items;
    expect(items.map((r) => [r.name, r.templateId, r.version.id])).toEqual([["Statement", second, secondV1.id]]);
    expect(await reportText(w, "Statement")).toContain("second template");

    const firstV2 = await publish(w, first);
    items = (await list(w)).body.items;
    expect(items.map((r) => [r.name, r.templateId, r.version.id, r.version.version])).toEqual([["Statement", first, firstV2.id, 2]]);
    expect(await reportText(w, "Statement")).toContain("first template");
  });

  it("takes a key with template:read alone (no render scope)", async () => {
    const w = await createTestWorkspace({ scopes: ["template:read"] });
    const res = await list(w);
    expect(res.status, res.text).toBe(200);
  });

  securityCases({ scope: "template:read", request: (w, key) => api("/v1/reports", { key }) });
});
