/**
 * Workbook templates through the API as a developer uses them: upload the workbook, create the
 * template, preview it as XLSX, publish, render it by name through the Reports API, and read the
 * file back cell by cell. XLSX output counts as a document (not a render), is refused while the
 * workspace is full, and a template asked for a format its kind cannot render answers 404.
 */
import { eq } from "drizzle-orm";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { db } from "@/lib/db/client";
import { workspaces } from "@/lib/db/schema";
import { PNG_1X1, uploadAsset } from "@/lib/testing/assets";
import { createTestWorkspace, type TestWorkspace } from "@/lib/testing/factories";
import { api, expectError } from "@/lib/testing/http";
import { invoiceWorkbook, readWorkbook } from "@/lib/testing/workbooks";

const XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet";
const data = { number: "INV-42", customer: { name: "Ann" }, lines: [{ name: "Paper", qty: 2, price: 3.5 }, { name: "Ink", qty: 1, price: 20 }] };

async function post(path: string, key: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${inject("baseUrl")}${path}`, { method: "POST", headers: { "x-api-key": key, "content-type": "application/json", ...headers }, body: JSON.stringify(body) });
  const bytes = Buffer.from(await res.arrayBuffer());
  const json = res.headers.get("content-type")?.includes("application/json") ? JSON.parse(bytes.toString()) : undefined;
  return { status: res.status, headers: res.headers, bytes, body: json, text: bytes.toString() };
}

let w: TestWorkspace;
let assetId: string;
let templateId: string;

beforeAll(async () => {
  w = await createTestWorkspace();
  assetId = (await uploadAsset(w.key, { kind: "workbook", mediaType: XLSX, filename: "invoice.xlsx", bytes: invoiceWorkbook() })).id;
  const created = await api("/v1/templates", { key: w.key, body: { name: "Invoice sheet", kind: "workbook", content: { workbook: { assetId }, sampleData: [{ name: "Two lines", data }] } } });
  expect(created.status, created.text).toBe(201);
  expect(created.body).toMatchObject({ kind: "workbook" });
  templateId = created.body.id;
});

describe("workbook templates", () => {
  it("previews the draft as an XLSX download with the data filled and the rows repeated", async () => {
    const res = await post(`/v1/templates/${templateId}/preview`, w.key, { format: "xlsx", data });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toBe(XLSX);
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="Invoice_sheet.xlsx"');
    expect(res.headers.get("x-render-id")).toBeNull();
    const cells = readWorkbook(res.bytes).cells("xl/worksheets/sheet1.xml");
    expect(cells.get("A1")!.value).toBe("Invoice INV-42");
    expect([cells.get("A4")!.value, cells.get("A5")!.value, cells.get("C5")!.value]).toEqual(["Paper", "Ink", "20"]);
    expect(cells.get("D7")!.formula).toBe("SUM(D4:D5)");
  });

  it("publishes, renders by name through the Reports API, counts a document and no render, and lists it with its format", async () => {
    const published = await api(`/v1/templates/${templateId}/versions`, { key: w.key, body: { expectedRevision: 1 } });
    expect(published.status, published.text).toBe(201);
    const before = (await api("/v1/render-limits", { key: w.key })).body.documentsThisMonth as number;
    const res = await post("/v1/reports/render", w.key, { format: "xlsx", template: { name: "Invoice sheet" }, data });
    expect(res.status, res.text).toBe(200);
    expect(readWorkbook(res.bytes).cells("xl/worksheets/sheet1.xml").get("B1")!.value).toBe("Ann");
    expect((await api("/v1/render-limits", { key: w.key })).body.documentsThisMonth).toBe(before + 1);
    expect((await api("/v1/renders?limit=10", { key: w.key })).body.items).toEqual([]);
    // The same Idempotency-Key twice: one document.
    for (let i = 0; i < 2; i++) expect((await post("/v1/reports/render", w.key, { format: "xlsx", template: { name: "Invoice sheet" }, data }, { "idempotency-key": "sheet-1" })).status).toBe(200);
    expect((await api("/v1/render-limits", { key: w.key })).body.documentsThisMonth).toBe(before + 2);
    const list = await api("/v1/reports", { key: w.key });
    expect(list.body.items).toContainEqual(expect.objectContaining({ name: "Invoice sheet", kind: "workbook", formats: ["xlsx"] }));
  });

  it("answers 404 for a format the template's kind cannot render, either way round", async () => {
    expect(expectError(await post("/v1/reports/render", w.key, { format: "pdf", template: { name: "Invoice sheet" }, data }), 404, "NOT_FOUND").message).toMatch(/workbook templates render xlsx/);
    expectError(await post(`/v1/templates/${templateId}/preview`, w.key, { format: "pdf", data }), 404, "NOT_FOUND");
    const version = (await api(`/v1/templates/${templateId}/versions`, { key: w.key })).body.items[0].id as string;
    expect(expectError(await api("/v1/renders", { key: w.key, body: { templateVersionId: version, data } }), 404, "NOT_FOUND").message).toMatch(/workbook template: it renders xlsx only/);
    const other = await api("/v1/templates", { key: w.key, body: { name: "Letter", content: { composition: { root: { type: "text", text: "Hi" } } } } });
    expectError(await post(`/v1/templates/${other.body.id}/preview`, w.key, { format: "xlsx" }), 404, "NOT_FOUND");
  });

  it("refuses a file that is not a workbook (400 naming why) and a workbook asset that does not exist (naming the field)", async () => {
    const image = await uploadAsset(w.key, { kind: "workbook", mediaType: XLSX, filename: "fake.xlsx", bytes: Buffer.from("not a zip at all") });
    const fake = await api("/v1/templates", { key: w.key, body: { name: "Fake", kind: "workbook", content: { workbook: { assetId: image.id } } } });
    expect(fake.status, fake.text).toBe(201);
    expect(expectError(await post(`/v1/templates/${fake.body.id}/preview`, w.key, { format: "xlsx" }), 400, "BAD_REQUEST").message).toMatch(/The workbook cannot be opened: not a zip archive/);
    const missing = await api("/v1/templates", { key: w.key, body: { name: "Missing", kind: "workbook", content: { workbook: { assetId: "ast_nope" } } } });
    const e = expectError(await post(`/v1/templates/${missing.body.id}/preview`, w.key, { format: "xlsx" }), 400, "ASSET_INVALID");
    expect(e.details).toEqual([{ path: "workbook.assetId", message: "no asset ast_nope in this workspace" }]);
    expectError(await api(`/v1/templates/${missing.body.id}/versions`, { key: w.key, body: { expectedRevision: 1 } }), 400, "ASSET_INVALID");
  });

  it("refuses XLSX while the workspace's month is used up (402) or it is suspended (403), making nothing", async () => {
    const full = await createTestWorkspace();
    const id = (await uploadAsset(full.key, { kind: "workbook", mediaType: XLSX, bytes: invoiceWorkbook() })).id;
    const t = await api("/v1/templates", { key: full.key, body: { name: "Sheet", kind: "workbook", content: { workbook: { assetId: id } } } });
    await db().update(workspaces).set({ documentsPerMonth: 1 }).where(eq(workspaces.id, full.id));
    expect((await post(`/v1/templates/${t.body.id}/preview`, full.key, { format: "xlsx", data })).status).toBe(200);
    expectError(await post(`/v1/templates/${t.body.id}/preview`, full.key, { format: "xlsx", data }), 402, "QUOTA_EXCEEDED");
    expect((await api("/v1/render-limits", { key: full.key })).body).toMatchObject({ documentsPerMonth: 1, documentsThisMonth: 1 });
    // The month's document counts against renders too.
    expectError(await api("/v1/renders", { key: full.key, body: { document: { html: "<p>x</p>" } } }), 402, "QUOTA_EXCEEDED");
    await db().update(workspaces).set({ documentsPerMonth: null }).where(eq(workspaces.id, full.id));
    await full.suspend();
    expectError(await post(`/v1/templates/${t.body.id}/preview`, full.key, { format: "xlsx", data }), 403, "FORBIDDEN");
  });

  it("places an image asset a cell names, and the published version keeps it after the asset is deleted", async () => {
    const logo = await uploadAsset(w.key, { kind: "image", mediaType: "image/png", filename: "logo.png", bytes: PNG_1X1 });
    const book = invoiceWorkbook({ extraStrings: [`{{sheetImage "${logo.id}"}}`], rows: `<row r="12"><c r="B12" t="s"><v>12</v></c></row>` });
    const id = (await uploadAsset(w.key, { kind: "workbook", mediaType: XLSX, bytes: book })).id;
    const t = await api("/v1/templates", { key: w.key, body: { name: "Sheet with logo", kind: "workbook", content: { workbook: { assetId: id } } } });
    const preview = await post(`/v1/templates/${t.body.id}/preview`, w.key, { format: "xlsx", data });
    expect(preview.status, preview.text).toBe(200);
    expect(readWorkbook(preview.bytes).parts.get(`xl/media/folio-${logo.id}.png`)!.equals(PNG_1X1)).toBe(true);
    expect((await api(`/v1/templates/${t.body.id}/versions`, { key: w.key, body: { expectedRevision: 1 } })).status).toBe(201);
    expect((await api(`/v1/assets/${logo.id}`, { key: w.key, method: "DELETE" })).status).toBe(200);
    const report = await post("/v1/reports/render", w.key, { format: "xlsx", template: { name: "Sheet with logo" }, data });
    expect(report.status, report.text).toBe(200);
    expect(readWorkbook(report.bytes).parts.get(`xl/media/folio-${logo.id}.png`)!.equals(PNG_1X1)).toBe(true);
    // The draft now names a deleted image: a preview says which cell.
    const e = expectError(await post(`/v1/templates/${t.body.id}/preview`, w.key, { format: "xlsx", data }), 400, "ASSET_INVALID");
    expect(e.details).toEqual([{ path: "sheet Invoice, cell B12", message: `no asset ${logo.id} in this workspace` }]);
  });

  it("names the sheet and cell of a placeholder's syntax error at publish", async () => {
    const bad = invoiceWorkbook({ extraStrings: ["{{#if paid}}Paid"], rows: `<row r="12"><c r="C12" t="s"><v>12</v></c></row>` });
    const id = (await uploadAsset(w.key, { kind: "workbook", mediaType: XLSX, bytes: bad })).id;
    const t = await api("/v1/templates", { key: w.key, body: { name: "Broken sheet", kind: "workbook", content: { workbook: { assetId: id } } } });
    const e = expectError(await api(`/v1/templates/${t.body.id}/versions`, { key: w.key, body: { expectedRevision: 1 } }), 400, "BAD_REQUEST");
    expect(e.message).toBe("sheet Invoice, cell C12: {{#if}} is not closed in the cell");
  });
});
