import { randomBytes } from "node:crypto";
import { describe, expect, inject, it } from "vitest";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError, type ApiResponse } from "@/lib/testing/http";
import { PNG_1X1, sha256Hex, uploadAsset } from "@/lib/testing/assets";
import { pdfText } from "@/lib/testing/pdf";

// Issue 25, items 5 and 6: a template's data schema (checked first by every render, preview and
// report; readable with template:read) and its content fields (read as content.<name>; content
// editors change their values, preview and publish, and nothing else).

type Detail = { path?: string; message: string };
const paths = (e: { details?: unknown }) => ((e.details ?? []) as Detail[]).map((d) => d.path ?? "").sort();
const norm = (s: string) => s.replace(/\s+/g, " ").trim();

const dataSchema = {
  type: "object",
  required: ["customer", "total"],
  properties: {
    customer: { type: "object", required: ["name"], properties: { name: { type: "string" } } },
    total: { type: "number", minimum: 0 },
    lines: { type: "array", items: { $ref: "#/$defs/line" } },
  },
  $defs: { line: { type: "object", properties: { qty: { type: "integer" } } } },
};
const GOOD = { customer: { name: "Initech" }, total: 12 };
const BAD = { customer: { name: 5 }, total: -1, lines: [{ qty: 1.5 }, { qty: 2 }, { qty: "x" }] };
const BAD_PATHS = ["customer.name", "lines.0.qty", "lines.2.qty", "total"];

const fields = [
  { name: "headline", type: "text", label: "Headline", default: "Default headline" },
  { name: "note", type: "multilineText", label: "Note", default: "First line\nSecond line" },
];
const content = (extra: Record<string, unknown> = {}, label = "Invoice") => ({
  composition: {
    root: {
      type: "container",
      children: [
        { type: "text", text: label },
        { type: "text", text: { parts: ["Customer ", { path: ["customer", "name"] }] } },
        { type: "text", text: { path: ["content", "headline"], prefix: "Headline: " } },
        { type: "text", text: { path: ["content", "note"] } },
      ],
    },
  },
  dataSchema,
  contentFields: fields,
  ...extra,
});

async function createTemplate(w: TestWorkspace, body: unknown, name = `Schema ${randomBytes(3).toString("hex")}`) {
  const res = await api("/v1/templates", { key: w.key, body: { name, content: body } });
  expect(res.status, res.text).toBe(201);
  return res.body as { id: string; name: string };
}

const publish = (id: string, revision: number, auth: { key?: string; cookie?: string }) =>
  api(`/v1/templates/${id}/versions`, { ...auth, body: { expectedRevision: revision } });
const saveDraft = (id: string, c: unknown, revision: number, auth: { key?: string; cookie?: string }) =>
  api(`/v1/templates/${id}/draft`, { ...auth, method: "PUT", body: { content: c, expectedRevision: revision } });

/** A preview answered as bytes (a PDF) or parsed JSON (html and errors). */
async function previewFile(key: string, id: string, body: unknown) {
  const res = await fetch(`${inject("baseUrl")}/v1/templates/${id}/preview`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json" }, body: JSON.stringify(body) });
  const bytes = new Uint8Array(await res.arrayBuffer());
  return { status: res.status, bytes, text: Buffer.from(bytes).toString("utf8") };
}
const previewHtml = (key: string, id: string, data: unknown) => api(`/v1/templates/${id}/preview`, { key, body: { format: "html", data } });

describe("data schemas", () => {
  it("are checked at save, and readable with template:read on the draft and on each version", async () => {
    const w = await createTestWorkspace();
    const bad = await api("/v1/templates", {
      key: w.key,
      body: { name: "Remote", content: content({ dataSchema: { properties: { a: { $ref: "https://example.com/s.json" } }, $schema: "https://json-schema.org/draft/2020-12/schema" } }) },
    });
    const e = expectError(bad, 400, "BAD_REQUEST");
    expect(paths(e)).toEqual(["content.dataSchema.properties.a.$ref"]);
    expect(e.message).toContain("remote references are refused");
    const draft3 = await api("/v1/templates", { key: w.key, body: { name: "Old draft", content: content({ dataSchema: { $schema: "http://json-schema.org/draft-03/schema#" } }) } });
    expect(paths(expectError(draft3, 400, "BAD_REQUEST"))).toEqual(["content.dataSchema.$schema"]);

    const t = await createTemplate(w, content());
    const v = await publish(t.id, 1, { key: w.key });
    expect(v.status, v.text).toBe(201);
    const reader = await w.newKey(["template:read"]);
    expect((await api(`/v1/templates/${t.id}/data-schema`, { key: reader.secret })).body).toEqual(dataSchema);
    expect((await api(`/v1/template-versions/${v.body.id}/data-schema`, { key: reader.secret })).body).toEqual(dataSchema);
    expect((await api(`/v1/template-versions/${v.body.id}`, { key: reader.secret })).body.content.dataSchema).toEqual(dataSchema);
    const none = await createTemplate(w, { composition: { root: { type: "text", text: "x" } } });
    expect((await api(`/v1/templates/${none.id}/data-schema`, { key: reader.secret })).body).toEqual({});

    const renderOnly = await w.newKey(["render:create"]);
    expect(expectError(await api(`/v1/templates/${t.id}/data-schema`, { key: renderOnly.secret }), 403, "FORBIDDEN").message).toContain("template:read");
    const other = await createTestWorkspace();
    expectError(await api(`/v1/template-versions/${v.body.id}/data-schema`, { key: other.key }), 404, "NOT_FOUND");
  });

  it("refuse data first with every violation's path in previews, renders by version and preview body, and the Reports API; at most 100", async () => {
    const w = await createTestWorkspace();
    const t = await createTemplate(w, content());
    const v = await publish(t.id, 1, { key: w.key });
    expect(v.status, v.text).toBe(201);

    const answers: [string, ApiResponse][] = [
      ["preview", await previewHtml(w.key, t.id, BAD)],
      ["render by version", await api("/v1/renders", { key: w.key, body: { templateVersionId: v.body.id, data: BAD } })],
      ["render of a preview body", await api("/v1/renders", { key: w.key, body: { preview: { templateId: t.id, data: BAD } } })],
      ["report", await api("/v1/reports/render", { key: w.key, body: { format: "html", template: { name: t.name }, data: BAD } })],
    ];
    for (const [what, res] of answers) {
      const e = expectError(res, 400, "BAD_REQUEST");
      expect(paths(e), what).toEqual(BAD_PATHS);
      expect(e.message, what).toMatch(/^The data does not match the template's data schema: 4 values/);
    }
    // First: a value the layout needs (customer.name) is reported by the schema, not by the expansion.
    const missing = expectError(await previewHtml(w.key, t.id, { total: 1 }), 400, "BAD_REQUEST");
    expect(missing.message).toContain("data schema");
    expect(missing.details).toEqual([{ message: expect.stringContaining('required property "customer"') }]);

    // First also before the draft's files are looked up: an image field naming no asset is reported only for good data.
    const withMissingImage = await createTemplate(w, content({ contentFields: [...fields, { name: "logo", type: "image", label: "Logo", default: "ast_missing" }] }));
    expect(paths(expectError(await previewHtml(w.key, withMissingImage.id, BAD), 400, "BAD_REQUEST"))).toEqual(BAD_PATHS);
    expect(paths(expectError(await previewHtml(w.key, withMissingImage.id, GOOD), 400, "ASSET_INVALID"))).toEqual(["contentFields.2.default"]);

    const lines = Array.from({ length: 150 }, () => ({ qty: "many" }));
    const capped = expectError(await previewHtml(w.key, t.id, { ...GOOD, lines }), 400, "BAD_REQUEST");
    expect(capped.details).toHaveLength(100);
    expect(capped.message).toContain("More than 100 values");

    const ok = await previewHtml(w.key, t.id, GOOD);
    expect(ok.status, ok.text).toBe(200);
  });
  it("apply a schema's patterns outside the server: one that backtracks without end answers LIMIT_EXCEEDED, the server answers meanwhile, the next render works", async () => {
    const w = await createTestWorkspace();
    const hostile = { ...dataSchema, properties: { ...dataSchema.properties, code: { type: "string", pattern: "^(a+)+$" } } };
    const t = await createTemplate(w, content({ dataSchema: hostile }));
    let settled = false;
    const slow = previewHtml(w.key, t.id, { ...GOOD, code: `${"a".repeat(40)}b` }).finally(() => (settled = true));
    // why a count and not a time: while the pattern runs, this process's requests keep being answered.
    let answered = 0;
    while (!settled) {
      const res = await api(`/v1/templates/${t.id}/data-schema`, { key: w.key });
      expect(res.status).toBe(200);
      if (!settled) answered++;
    }
    expect(answered).toBeGreaterThanOrEqual(3);
    const e = expectError(await slow, 400, "LIMIT_EXCEEDED");
    expect(e.message).toBe("dataSchema: used more than 2 s of CPU");
    expect(e.details).toEqual([{ path: "dataSchema", message: "used more than 2 s of CPU" }]);

    const ok = await previewHtml(w.key, t.id, { ...GOOD, code: "aaaa" });
    expect(ok.status, ok.text).toBe(200);
    const bad = expectError(await previewHtml(w.key, t.id, { ...GOOD, code: "aaab" }), 400, "BAD_REQUEST");
    expect(paths(bad)).toEqual(["code"]);
  });
});

describe("content fields", () => {
  it("reach the document as content.<name>: defaults, then the values set, in the PDF's text", async () => {
    const w = await createTestWorkspace();
    const t = await createTemplate(w, content());
    const first = await previewFile(w.key, t.id, { data: GOOD });
    expect(first.status, first.text.slice(0, 300)).toBe(200);
    const text = norm(pdfText(first.bytes));
    expect(text).toContain("Headline: Default headline");
    expect(text).toContain("First line Second line");

    const set = await saveDraft(t.id, content({ contentValues: { headline: "Winter sale" } }), 1, { key: w.key });
    expect(set.status, set.text).toBe(200);
    const html = await api(`/v1/templates/${t.id}/preview`, { key: w.key, body: { format: "html", data: { ...GOOD, content: "the caller's" } } });
    expect(html.status, html.text).toBe(200);
    expect(html.text).toContain("Headline: Winter sale");

    const bad = await saveDraft(t.id, content({ contentValues: { nope: "x", headline: "two\nlines" } }), 2, { key: w.key });
    expect(paths(expectError(bad, 400, "BAD_REQUEST"))).toEqual(["content.contentValues.headline", "content.contentValues.nope"]);
  });

  it("content editors (a session, or a key with template:content and not template:write) change values, upload images for them and publish them; anything else is 403 naming template:write", async () => {
    const w = await createTestWorkspace();
    const withLogo = (extra: Record<string, unknown> = {}, label = "Invoice") => {
      const c = content(extra, label) as ReturnType<typeof content> & { composition: { root: { children: unknown[] } } };
      c.contentFields = [...fields, { name: "logo", type: "image", label: "Logo" }] as typeof fields;
      c.composition.root.children.push({ type: "image", assetId: { path: ["content", "logo"] }, visibleWhen: { path: ["content", "logo"], operator: "exists" } });
      return c;
    };
    const t = await createTemplate(w, withLogo());
    const editor = await w.signIn("content_editor");
    const session = { cookie: editor.cookie };
    const key = { key: (await w.newKey(["template:read", "template:content", "template:publish", "render:create"])).secret };

    // Nothing published yet: a first version is more than a content change.
    const firstPublish = expectError(await publish(t.id, 1, session), 403, "FORBIDDEN");
    expect(firstPublish.message).toBe("Your role lacks template:write, needed to publish a template's first version");
    const v1 = await publish(t.id, 1, { key: w.key });
    expect(v1.status, v1.text).toBe(201);
    expect(v1.body.contentOnly).toBe(false);

    // A value: saved and published by the content editor; the version says it changed content only.
    const saved = await saveDraft(t.id, withLogo({ contentValues: { headline: "Spring" } }), 1, session);
    expect(saved.status, saved.text).toBe(200);
    const v2 = await publish(t.id, 2, session);
    expect(v2.status, v2.text).toBe(201);
    expect((await api(`/v1/template-versions/${v2.body.id}`, { key: w.key })).body).toMatchObject({ version: 2, contentOnly: true });
    const rendered = await api(`/v1/reports/render`, { key: w.key, body: { format: "html", template: { name: t.name }, data: GOOD } });
    expect(rendered.text).toContain("Headline: Spring");

    // Anything else, by a person or a key: 403 naming the scope; nothing is saved.
    const layout = expectError(await saveDraft(t.id, withLogo({ contentValues: { headline: "Spring" } }, "Changed"), 2, session), 403, "FORBIDDEN");
    expect(layout.message).toBe("Your role lacks template:write, needed to change composition; it may change only the values of content fields (contentValues)");
    const fieldChange = expectError(await saveDraft(t.id, content({ contentValues: { headline: "Spring" } }), 2, key), 403, "FORBIDDEN");
    expect(fieldChange.message).toBe("This key lacks template:write, needed to change composition and contentFields; it may change only the values of content fields (contentValues)");
    expect((await api(`/v1/templates/${t.id}/draft`, { key: w.key })).body.draftRevision).toBe(2);

    // The key uploads an image with template:content and sets it as the logo; previews show it.
    const logo = await uploadAsset(key.key!, { kind: "image", mediaType: "image/png", filename: "logo.png", bytes: PNG_1X1 });
    const withImage = await saveDraft(t.id, withLogo({ contentValues: { headline: "Spring", logo: logo.id } }), 2, key);
    expect(withImage.status, withImage.text).toBe(200);
    const shown = await previewHtml(key.key!, t.id, GOOD);
    expect(shown.status, shown.text).toBe(200);
    expect(shown.text).toContain(`http://assets.invalid/${sha256Hex(PNG_1X1)}`);
    const v3 = await publish(t.id, 3, key);
    expect(v3.status, v3.text).toBe(201);
    expect(v3.body.contentOnly).toBe(true);

    // A member changes the layout: the content editor can no longer publish that draft; the member can.
    const member = await w.signIn("member");
    expect((await saveDraft(t.id, withLogo({ contentValues: { headline: "Spring", logo: logo.id } }, "Reworded"), 3, { cookie: member.cookie })).status).toBe(200);
    const mixed = expectError(await publish(t.id, 4, session), 403, "FORBIDDEN");
    expect(mixed.message).toBe("Your role lacks template:write, needed to publish a draft that changes more than the values of content fields");
    const v4 = await publish(t.id, 4, { cookie: member.cookie });
    expect(v4.status, v4.text).toBe(201);
    expect(v4.body.contentOnly).toBe(false);
  });
});
