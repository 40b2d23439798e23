/**
 * A brand for the benchmark: two web fonts (Inter, Merriweather from @fontsource), a logo and a
 * stylesheet; the 20-page report with a branded header and footer; and the API calls that upload
 * them as assets.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { png } from "../lib/testing/images";
import { reportHtml } from "./documents";

const fontsDir = path.resolve(__dirname, "../node_modules/@fontsource");

export type BrandFile = { name: string; kind: "font" | "image" | "stylesheet"; mediaType: string; bytes: Buffer };

/** A 240 x 64 PNG logo: a colour gradient, so it compresses like a real one rather than to nothing. */
function logoPng(): Buffer {
  const [w, h] = [240, 64];
  const rows: Buffer[] = [];
  for (let y = 0; y < h; y++) {
    const row = Buffer.alloc(1 + w * 3);
    for (let x = 0; x < w; x++) row.set([Math.round((x * 255) / w), Math.round((y * 255) / h), 140], 1 + x * 3);
    rows.push(row);
  }
  return png(w, h, undefined, zlib.deflateSync(Buffer.concat(rows)));
}

/** The brand's fonts and logo. */
export function brandFiles(): { sans: BrandFile; serif: BrandFile; logo: BrandFile } {
  return {
    sans: { name: "inter-400.woff2", kind: "font", mediaType: "font/woff2", bytes: fs.readFileSync(path.join(fontsDir, "inter/files/inter-latin-400-normal.woff2")) },
    serif: { name: "merriweather-700.woff2", kind: "font", mediaType: "font/woff2", bytes: fs.readFileSync(path.join(fontsDir, "merriweather/files/merriweather-latin-700-normal.woff2")) },
    logo: { name: "logo.png", kind: "image", mediaType: "image/png", bytes: logoPng() },
  };
}

/** The brand's stylesheet, with the fonts at the given URLs. */
export function brandCss(fontUrl: { sans: string; serif: string }): string {
  return `
@font-face { font-family: "Brand Sans"; src: url("${fontUrl.sans}") format("woff2"); font-weight: 400; }
@font-face { font-family: "Brand Serif"; src: url("${fontUrl.serif}") format("woff2"); font-weight: 700; }
body, .doc { font-family: "Brand Sans", sans-serif; }
h1, .title { font-family: "Brand Serif", serif; font-weight: 700; color: #1e3a8a; }
.masthead { display: flex; justify-content: space-between; align-items: center; width: 100%; }
.masthead .name { font-family: "Brand Serif", serif; font-weight: 700; font-size: 11pt; color: #1e3a8a; }
.pagefoot { display: flex; justify-content: space-between; width: 100%; font-family: "Brand Sans", sans-serif; font-size: 8pt; color: #4b5563; }
`;
}

/** The 20-page report in the brand: its stylesheet in the document, the fonts and logo at the given URLs. */
export function brandedReport(url: { sans: string; serif: string; logo: string }) {
  const html = reportHtml(1).replace("<style>", `<style>${brandCss(url)}`).replace('font-family: "DejaVu Sans", "Liberation Sans", sans-serif;', "");
  const header = `<div class="masthead"><img src="${url.logo}" alt="Folio Consulting" style="height: 9mm"><span class="name">Folio Consulting AG</span></div>`;
  const footer = `<div class="pagefoot"><span>Quarterly activity report</span><span>Page {{pageNumber}} of {{totalPages}}</span></div>`;
  return { html, header, footer };
}

export const dataUrl = (f: BrandFile) => `data:${f.mediaType};base64,${f.bytes.toString("base64")}`;

/** JSON calls to the API under test, with its address and the headers they send. */
export type Api = ((method: string, path: string, body?: unknown) => Promise<{ status: number; body: Record<string, unknown> }>) & {
  baseUrl: string;
  headers: Record<string, string>;
};

/**
 * Uploads a file as an asset (POST /v1/assets, then PUT to its upload link); its ID, or undefined
 * when this build has no assets API yet (404).
 */
export async function uploadAsset(api: Api, f: BrandFile): Promise<string | undefined> {
  const sha256 = createHash("sha256").update(f.bytes).digest("hex");
  const res = await api("POST", "/v1/assets", { kind: f.kind, filename: f.name, mediaType: f.mediaType, size: f.bytes.length, sha256 });
  if (res.status === 404) return undefined;
  if (res.status !== 201) throw new Error(`POST /v1/assets: ${res.status} ${JSON.stringify(res.body)}`);
  const { id, uploadUrl, uploadHeaders } = res.body as { id: string; uploadUrl: string; uploadHeaders: Record<string, string> | { name: string; value: string }[] };
  const headers = Array.isArray(uploadHeaders) ? Object.fromEntries(uploadHeaders.map((h) => [h.name, h.value])) : uploadHeaders;
  const put = await fetch(uploadUrl, { method: "PUT", headers, body: new Uint8Array(f.bytes) });
  if (!put.ok) throw new Error(`upload of ${f.name}: ${put.status} ${await put.text()}`);
  return id;
}

/**
 * Whether the worker serves a render's assets to its page: a render of the uploaded logo has an
 * image in its PDF. (The assets API may exist before the worker serves what it stores.)
 */
export async function assetsServed(api: Api, logoId: string): Promise<boolean> {
  const res = await fetch(`${api.baseUrl}/v1/renders`, {
    method: "POST",
    headers: api.headers,
    body: JSON.stringify({ document: { html: `<img src="http://assets.invalid/${logoId}" alt="">`, assetIds: [logoId] }, waitMs: 60_000 }),
  });
  const r = (await res.json()) as { state?: string; result?: { downloadUrl: string } };
  if (r.state !== "succeeded") return false;
  const pdf = Buffer.from(await (await fetch(r.result!.downloadUrl)).arrayBuffer()).toString("latin1");
  return /\/Subtype\s*\/Image/.test(pdf);
}

/** An invoice-like component template in the brand: the logo, a title, and a table of `rows` lines. */
export function brandTemplateContent(logoAssetId: string) {
  return {
    settings: { locale: "de-CH", margins: { topMm: 15, bottomMm: 15 } },
    composition: {
      stylesheets: ["brand.css"],
      root: {
        type: "container",
        className: "doc",
        children: [
          { type: "image", assetId: logoAssetId, height: 48 },
          { type: "text", className: "title", text: { parts: ["Invoice ", { path: ["number"] }] }, style: { fontSize: 24 } },
          { type: "text", text: { path: ["customer", "name"] } },
          {
            type: "table",
            source: { path: ["items"] },
            columns: [
              { id: "pos", header: "#", value: { path: ["pos"] }, width: 40 },
              { id: "desc", header: "Description", value: { path: ["description"] } },
              { id: "qty", header: "Qty", value: { path: ["qty"], format: { type: "number" } }, width: 60, style: { textAlign: "right" } },
              { id: "total", header: "Total", value: { path: ["total"], format: { type: "currency", currency: "EUR" } }, width: 110, style: { textAlign: "right" } },
            ],
          },
        ],
      },
    },
  };
}

export function brandTemplateData(rows: number) {
  return {
    number: "2026-0042",
    customer: { name: "Acme AG" },
    items: Array.from({ length: rows }, (_, i) => ({ pos: i + 1, description: `Consulting item ${i + 1}`, qty: (i % 9) + 1, total: ((i * 37) % 500) / 4 + 10 })),
  };
}

/**
 * The brand as a template (fonts as workspace files beside its stylesheet, the logo by asset ID),
 * published; and the same document as plain HTML with every file inlined as a data: URL. Undefined
 * when this build lacks the APIs it needs (assets, workspace files, template stylesheets).
 */
export async function brandTemplate(api: Api, files: ReturnType<typeof brandFiles>, rows: number) {
  const ids = { sans: await uploadAsset(api, files.sans), serif: await uploadAsset(api, files.serif), logo: await uploadAsset(api, files.logo) };
  if (!ids.sans || !ids.serif || !ids.logo) return { missing: "the assets API" };
  if (!(await assetsServed(api, ids.logo))) return { missing: "assets served to the page" };
  const folder = await api("POST", "/v1/workspace-folders", { name: `bench-brand-${Date.now()}` });
  if (folder.status !== 201) return { missing: `workspace folders (${folder.status})` };
  const folderId = folder.body.id as string;
  const fonts = await api("POST", "/v1/workspace-folders", { name: "fonts", parentId: folderId });
  for (const [name, assetId] of [[files.sans.name, ids.sans], [files.serif.name, ids.serif]] as const) {
    const f = await api("POST", "/v1/workspace-files", { folderId: fonts.body.id, name, assetId });
    if (f.status !== 201) return { missing: `asset-backed workspace files (${f.status} ${JSON.stringify(f.body)})` };
  }
  const css = await api("POST", "/v1/workspace-files", { folderId, name: "brand.css", content: brandCss({ sans: `fonts/${files.sans.name}`, serif: `fonts/${files.serif.name}` }) });
  if (css.status !== 201) return { missing: `text workspace files (${css.status})` };
  const name = `Bench brand ${Date.now()}`;
  const template = await api("POST", "/v1/templates", { name, folderId, content: brandTemplateContent(ids.logo) });
  if (template.status !== 201) return { missing: `template stylesheets and images (${template.status} ${JSON.stringify(template.body)})` };
  const version = await api("POST", `/v1/templates/${template.body.id as string}/versions`, { expectedRevision: 1 });
  if (version.status !== 201) return { missing: `publishing with stylesheets and images (${version.status} ${JSON.stringify(version.body)})` };
  const data = brandTemplateData(rows);
  // The document the worker renders, from the Reports API's HTML output, with each file inlined.
  const res = await fetch(`${api.baseUrl}/v1/reports/render`, { method: "POST", headers: api.headers, body: JSON.stringify({ format: "html", template: { name }, data }) });
  if (!res.ok) return { missing: `the Reports API's HTML (${res.status} ${await res.text()})` };
  const bySha = new Map(Object.values(files).map((f) => [createHash("sha256").update(f.bytes).digest("hex"), f]));
  const byId = new Map([[ids.sans, files.sans], [ids.serif, files.serif], [ids.logo, files.logo]]);
  const html = (await res.text()).replace(/http:\/\/assets\.invalid\/([A-Za-z0-9_%.-]+)/g, (whole, ref: string) => {
    const f = bySha.get(ref) ?? byId.get(ref);
    if (!f) throw new Error(`the template's HTML loads ${whole}, which is none of the brand's files`);
    return dataUrl(f);
  });
  return { versionId: version.body.id as string, data, html, settings: brandTemplateContent(ids.logo).settings };
}
