import { eq } from "drizzle-orm";
import { describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db/client";
import { workspaces } from "@/lib/db/schema";
import type { Scope } from "@/lib/auth/scopes";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError, type ApiResponse } from "@/lib/testing/http";
import { imageSize, pdfText, rawText } from "@/lib/testing/pdf";
import { threeBadValuesContent, threeBadValuesData } from "@/lib/testing/bad-data";

// POST /v1/templates/{id}/preview: the template's current draft rendered with data and answered as
// the file itself (pdf, png) or as HTML.

type Detail = { path?: string; message: string };

const norm = (s: string) => s.replace(/\s+/g, " ").trim();
const MiB = 1024 * 1024;

/** POSTs a preview, keeping the answer as bytes; `body` is the parsed JSON for JSON answers. */
async function preview(key: string, templateId: string, body: unknown) {
  const res = await fetch(`${inject("baseUrl")}/v1/templates/${templateId}/preview`, {
    method: "POST",
    headers: { "x-api-key": key, "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const bytes = new Uint8Array(await res.arrayBuffer());
  const text = Buffer.from(bytes).toString("utf8");
  const json = res.headers.get("content-type")?.includes("application/json") ? JSON.parse(text) : undefined;
  return { status: res.status, headers: res.headers, bytes, text, body: json } satisfies ApiResponse & { bytes: Uint8Array };
}

/** Formats that follow the render language, plus one with its own locale. */
const content = (label: string) => ({
  composition: {
    root: {
      type: "container",
      children: [
        { type: "text", text: { parts: [`${label} for `, { path: ["customer"] }] } },
        { type: "text", text: { path: ["amount"], prefix: "[amount] ", suffix: " ;", format: { type: "number", maximumFractionDigits: 2 } } },
        { type: "text", text: { path: ["day"], prefix: "[day] ", suffix: " ;", format: { type: "date", dateStyle: "long" } } },
        { type: "text", text: { path: ["amount"], prefix: "[fixed] ", suffix: " ;", format: { type: "currency", currency: "EUR", locale: "en-US" } } },
      ],
    },
  },
  settings: { locale: "de-CH" },
});
const DATA = { customer: "Initech", amount: 1234567.891, day: "2026-03-05" };

async function createTemplate(w: TestWorkspace, label = "Draft one") {
  const res = await api("/v1/templates", { key: w.key, body: { name: "Previewed", content: content(label) } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

describe("POST /v1/templates/{id}/preview", () => {
  it("renders the current draft, with unpublished changes, as a PDF counted as a preview render", async () => {
    const w = await createTestWorkspace();
    const id = await createTemplate(w);
    expect((await api(`/v1/templates/${id}/versions`, { key: w.key, body: { expectedRevision: 1 } })).status).toBe(201);
    const saved = await api(`/v1/templates/${id}/draft`, { method: "PUT", key: w.key, body: { content: content("Draft two"), expectedRevision: 1 } });
    expect(saved.status, saved.text).toBe(200);

    const res = await preview(w.key, id, { data: DATA });
    expect(res.status, res.text.slice(0, 500)).toBe(200);
    expect(res.headers.get("content-type")).toBe("application/pdf");
    const text = norm(pdfText(res.bytes));
    expect(text).toContain("Draft two for Initech");
    expect(text).not.toContain("Draft one");
    // No locale sent: the page-settings locale (de-CH); format.locale wins where set.
    expect(text).toContain("[amount] 1'234'567.89 ;");
    expect(text).toContain("[day] 5. März 2026 ;");
    expect(text).toContain("[fixed] €1,234,567.89 ;");
    const renderId = res.headers.get("x-render-id")!;
    expect(renderId).toMatch(/^rnd_[0-9A-Za-z]+$/);
    const render = await api(`/v1/renders/${renderId}`, { key: w.key });
    expect(render.body).toMatchObject({ id: renderId, source: "preview", format: "pdf", state: "succeeded", templateId: id });
    expect(render.body).not.toHaveProperty("templateVersionId");
    expect(render.body.test).toBe(false);
    expect(rawText(res.bytes, 1)).not.toContain("TEST");
  });

  it("while the workspace has a monthly document allowance, is a watermarked test render that uses none of it", async () => {
    const w = await createTestWorkspace();
    const id = await createTemplate(w);
    await db().update(workspaces).set({ documentsPerMonth: 1 }).where(eq(workspaces.id, w.id));

    const [pdf, png] = await Promise.all([preview(w.key, id, { data: DATA }), preview(w.key, id, { data: DATA, format: "png" })]);
    expect(pdf.status, pdf.text.slice(0, 300)).toBe(200);
    expect(png.status, png.text.slice(0, 300)).toBe(200);
    expect(rawText(pdf.bytes, 1)).toContain("TEST");
    const viaRenders = await api("/v1/renders", { key: w.key, body: { preview: { templateId: id, data: DATA }, waitMs: 20_000 } });
    expect(viaRenders.status, viaRenders.text).toBe(200);
    for (const renderId of [pdf.headers.get("x-render-id"), png.headers.get("x-render-id"), viaRenders.body.id]) {
      expect((await api(`/v1/renders/${renderId}`, { key: w.key })).body).toMatchObject({ source: "preview", test: true });
    }
    const limits = await api("/v1/render-limits", { key: w.key });
    expect(limits.body).toMatchObject({ documentsPerMonth: 1, documentsThisMonth: 0, testRendersToday: 3 });
    // The one document of the month is still there for a real render.
    const real = await api("/v1/renders", { key: w.key, body: { document: { html: "<p>real</p>" } } });
    expect(real.status, real.text).toBeLessThan(300);
    expect(real.body.test).toBe(false);
  });

  it("answers a PNG and sandboxed HTML; the body's locale changes the formats", async () => {
    const w = await createTestWorkspace();
    const id = await createTemplate(w);
    const [png, html, htmlFr, pdfFr] = await Promise.all([
      preview(w.key, id, { data: DATA, format: "png" }),
      preview(w.key, id, { data: DATA, format: "html" }),
      preview(w.key, id, { data: DATA, format: "html", locale: "fr-FR" }),
      preview(w.key, id, { data: DATA, locale: "fr-FR" }),
    ]);
    expect(png.status, png.text.slice(0, 300)).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(imageSize(png.bytes)).toEqual({ type: "png", width: 794, height: 1123 });
    expect(png.headers.get("x-render-id")).toMatch(/^rnd_/);

    expect(html.status, html.text.slice(0, 300)).toBe(200);
    expect(html.headers.get("content-type")).toMatch(/^text\/html/);
    expect(html.headers.get("content-security-policy")).toContain("sandbox");
    expect(html.headers.get("x-render-id")).toBeNull();
    expect(html.text).toContain("Draft one for Initech");
    expect(html.text).toContain("[amount] 1&#39;234&#39;567.89 ;");
    expect(html.text).toContain('lang="de-CH"');

    const fr = (n: number) => new Intl.NumberFormat("fr-FR", { maximumFractionDigits: 2 }).format(n);
    expect(htmlFr.status).toBe(200);
    expect(htmlFr.text).toContain(`[amount] ${fr(DATA.amount)} ;`);
    expect(htmlFr.text).toContain("[day] 5 mars 2026 ;");
    expect(htmlFr.text).toContain("[fixed] €1,234,567.89 ;");
    expect(htmlFr.text).toContain('lang="fr-FR"');

    expect(pdfFr.status, pdfFr.text.slice(0, 300)).toBe(200);
    const text = norm(pdfText(pdfFr.bytes));
    expect(text).toContain("[amount] 1 234 567,89 ;");
    expect(text).toContain("[day] 5 mars 2026 ;");
    expect(text).toContain("[fixed] €1,234,567.89 ;");

    // Only the png and the pdf made renders.
    const list = await api("/v1/renders", { key: w.key });
    expect((list.body.items as { source: string }[]).map((r) => r.source)).toEqual(["preview", "preview"]);
  });

  it("shows the draft page by page: png of image.page, x-page-count with the document's pages", async () => {
    const w = await createTestWorkspace();
    const twoPages = {
      composition: {
        root: {
          type: "container",
          children: [
            { type: "text", text: { parts: ["Page one for ", { path: ["customer"] }] }, style: { fontSize: 40 } },
            { type: "text", text: "Page two", style: { fontSize: 40, breakBefore: "page" } },
          ],
        },
      },
    };
    const made = await api("/v1/templates", { key: w.key, body: { name: "Two pages", content: twoPages } });
    expect(made.status, made.text).toBe(201);
    const id = made.body.id as string;
    const [pdf, one, two, half] = await Promise.all([
      preview(w.key, id, { data: DATA }),
      preview(w.key, id, { data: DATA, format: "png" }),
      preview(w.key, id, { data: DATA, format: "png", image: { page: 2 } }),
      preview(w.key, id, { data: DATA, format: "png", image: { page: 1, scale: 0.5 } }),
    ]);
    for (const r of [pdf, one, two, half]) {
      expect(r.status, r.text.slice(0, 300)).toBe(200);
      expect(r.headers.get("x-page-count")).toBe("2");
    }
    expect(imageSize(two.bytes)).toEqual({ type: "png", width: 794, height: 1123 });
    expect(Buffer.from(two.bytes).equals(Buffer.from(one.bytes))).toBe(false);
    expect(imageSize(half.bytes)).toEqual({ type: "png", width: 397, height: 561 });
    // The image render's record tells the document's pages too.
    const render = await api(`/v1/renders/${two.headers.get("x-render-id")}`, { key: w.key });
    expect(render.body).toMatchObject({ format: "png", result: { pageCount: 2 } });

    const missing = await preview(w.key, id, { data: DATA, format: "png", image: { page: 3 } });
    const e = expectError(missing, 422, "RENDER_FAILED");
    expect(e.message).toContain("image_page_missing");
    for (const body of [{ format: "pdf", image: { page: 1 } }, { format: "html", image: { page: 1 } }, { format: "png", image: { page: 0 } }, { format: "png", image: { scale: 5 } }]) {
      const bad = expectError(await preview(w.key, id, { data: DATA, ...body }), 400, "BAD_REQUEST");
      expect(((bad.details ?? []) as Detail[]).map((d) => d.path)[0], JSON.stringify(body)).toMatch(/^image/);
    }
  });

  it("renders unsaved content in the draft's place when the body sends it, checked as a save is; the draft stays", async () => {
    const w = await createTestWorkspace();
    const id = await createTemplate(w, "Saved draft");
    const res = await preview(w.key, id, { data: DATA, content: content("Unsaved edit") });
    expect(res.status, res.text.slice(0, 300)).toBe(200);
    expect(norm(pdfText(res.bytes))).toContain("Unsaved edit for Initech");
    const bad = expectError(await preview(w.key, id, { data: DATA, content: { composition: { root: { type: "txt" } } } }), 400, "BAD_REQUEST");
    expect(((bad.details ?? []) as Detail[]).map((d) => d.path)).toContain("content.composition.root.type");
    const draft = await api(`/v1/templates/${id}/draft`, { key: w.key });
    expect(draft.body).toMatchObject({ draftRevision: 1, content: content("Saved draft") });
  });

  it("answers the console's session from the console's origin, and refuses it from another site", async () => {
    const w = await createTestWorkspace();
    const id = await createTemplate(w);
    const person = await w.signIn("content_editor");
    const ok = await api(`/v1/templates/${id}/preview`, { cookie: person.cookie, body: { data: DATA, format: "png" } });
    expect(ok.status, ok.text.slice(0, 300)).toBe(200);
    expect(ok.headers.get("content-type")).toBe("image/png");
    expect(ok.headers.get("x-page-count")).toBe("1");
    expectError(await api(`/v1/templates/${id}/preview`, { cookie: person.cookie, origin: "https://evil.example", body: { data: DATA, format: "png" } }), 403, "FORBIDDEN");
  });

  it("refuses xlsx from a component template with 404, unknown fields and missing values with 400", async () => {
    const w = await createTestWorkspace();
    const id = await createTemplate(w);
    expectError(await preview(w.key, id, { data: DATA, format: "xlsx" }), 404, "NOT_FOUND");
    let res = await preview(w.key, id, { data: DATA, templateId: id });
    expectError(res, 400, "BAD_REQUEST");
    expect((res.body.error.details as Detail[]).map((d) => d.path)).toEqual(["templateId"]);
    res = await preview(w.key, id, { data: DATA, locale: "x" });
    expectError(res, 400, "BAD_REQUEST");
    expect((res.body.error.details as Detail[])[0]!.path).toBe("locale");
    res = await preview(w.key, id, { data: { customer: "Initech", day: "2026-03-05" }, format: "html" });
    expect((expectError(res, 400, "BAD_REQUEST").details as Detail[])[0]!.path).toBe("amount");
    res = await preview(w.key, id, { data: { ...DATA, amount: "12" }, format: "pdf" });
    expect((expectError(res, 400, "BAD_REQUEST").details as Detail[])[0]!.path).toBe("amount");
    expect((await api("/v1/renders", { key: w.key })).body.items).toEqual([]);
  });

  it("reports every missing or mistyped value at once, naming each path, in files, HTML and the renders API's preview", async () => {
    const w = await createTestWorkspace();
    const res0 = await api("/v1/templates", { key: w.key, body: { name: "Three bad", content: threeBadValuesContent } });
    expect(res0.status, res0.text).toBe(201);
    const id = res0.body.id as string;
    const data = threeBadValuesData;
    const answers = [
      ...(await Promise.all(["pdf", "png", "html"].map((format) => preview(w.key, id, { data, format })))),
      await api("/v1/renders", { key: w.key, body: { preview: { templateId: id, data } } }),
    ];
    for (const res of answers) {
      const e = expectError(res, 400, "BAD_REQUEST");
      expect(e.details).toEqual([
      { path: "customer.name", message: "missing (no fallback)" },
      { path: "total", message: expect.stringContaining("needs a JSON number") },
      { path: "lines.1.amount", message: expect.stringContaining("needs a JSON number") },
    ]);
      expect(e.message).toMatch(/^3 values of the data are missing or unusable: /);
      for (const path of ["customer.name", "total", "lines.1.amount"]) expect(e.message).toContain(`at ${path} `);
    }
    expect((await api("/v1/renders", { key: w.key })).body.items).toEqual([]);
  });

  it("takes bodies up to 30 MiB: 12 MiB is accepted, 31 MiB answers 413", async () => {
    const w = await createTestWorkspace();
    const id = await createTemplate(w);
    const big = await preview(w.key, id, { data: { ...DATA, unused: "x".repeat(12 * MiB) }, format: "html" });
    expect(big.status, big.text.slice(0, 300)).toBe(200);
    expect(big.text).toContain("Draft one for Initech");
    const tooBig = await preview(w.key, id, { data: { ...DATA, unused: "x".repeat(31 * MiB) }, format: "html" });
    expectError(tooBig, 413, "LIMIT_EXCEEDED");
  });

  it("needs render:create and template:read, plus render:read for a PDF", async () => {
    const w = await createTestWorkspace();
    const id = await createTemplate(w);
    const withScopes = async (scopes: Scope[]) => (await w.newKey(scopes)).secret;
    expectError(await preview("", id, { data: DATA }), 401, "UNAUTHORIZED");

    let e = expectError(await preview(await withScopes(["template:read", "render:read"]), id, { data: DATA, format: "html" }), 403, "FORBIDDEN");
    expect(e.message).toContain("render:create");
    e = expectError(await preview(await withScopes(["render:create", "render:read"]), id, { data: DATA, format: "png" }), 403, "FORBIDDEN");
    expect(e.message).toContain("template:read");

    const noRenderRead = await withScopes(["render:create", "template:read"]);
    e = expectError(await preview(noRenderRead, id, { data: DATA }), 403, "FORBIDDEN");
    expect(e.message).toContain("render:read");
    expect((await api("/v1/renders", { key: w.key })).body.items).toEqual([]);
    const [png, html] = await Promise.all([preview(noRenderRead, id, { data: DATA, format: "png" }), preview(noRenderRead, id, { data: DATA, format: "html" })]);
    expect(png.status, png.text.slice(0, 300)).toBe(200);
    expect(png.headers.get("content-type")).toBe("image/png");
    expect(html.status, html.text.slice(0, 300)).toBe(200);
  });

  it("answers 404 for another workspace's template and an unknown id", async () => {
    const w = await createTestWorkspace();
    const other = await createTestWorkspace();
    const theirs = await createTemplate(other);
    expectError(await preview(w.key, theirs, { data: DATA }), 404, "NOT_FOUND");
    expectError(await preview(w.key, theirs, { data: DATA, format: "html" }), 404, "NOT_FOUND");
    expectError(await preview(w.key, "tpl_doesnotexist", { data: DATA, format: "html" }), 404, "NOT_FOUND");
    expect((await api("/v1/renders", { key: w.key })).body.items).toEqual([]);
  });
});
