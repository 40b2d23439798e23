import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { createTestWorkspace } from "../testing/factories";
import { api } from "../testing/http";
import { pdfInfo, pdfText } from "../testing/pdf";
import { download } from "../testing/renders";
import { projectRoot } from "../testing/server";

/** The fenced block of docs/api.md whose info string is `<lang> <name>`, exactly as written there. */
function docBlock(name: string): string {
  const docs = fs.readFileSync(path.join(projectRoot, "docs", "api.md"), "utf8");
  const blocks = [...docs.matchAll(/^```(\w+) ([\w-]+)\n([\s\S]*?)^```$/gm)].filter((m) => m[2] === name);
  expect(blocks, `one block named ${name} in docs/api.md`).toHaveLength(1);
  return blocks[0]![3]!;
}

const words = (s: string) => s.replace(/\s+/g, " ").trim();

describe("docs/api.md: the worked example", () => {
  it("renders as shown: the invoice template created, published and rendered with the documented data", async () => {
    const w = await createTestWorkspace();
    const template = JSON.parse(docBlock("invoice-template")) as Record<string, unknown>;
    const data = JSON.parse(docBlock("invoice-data")) as Record<string, unknown>;
    const expected = docBlock("invoice-output").split("\n").map(words).filter(Boolean);

    const created = await api<{ id: string; draftRevision: number }>("/v1/templates", { key: w.key, body: template });
    expect(created.status, created.text).toBe(201);
    expect(created.body.draftRevision).toBe(1);
    const version = await api<{ id: string }>(`/v1/templates/${created.body.id}/versions`, { key: w.key, body: { expectedRevision: 1 } });
    expect(version.status, version.text).toBe(201);
    const render = await api<{ state: string; result: { downloadUrl: string; pageCount: number } }>("/v1/renders", {
      key: w.key,
      body: { templateVersionId: version.body.id, data, waitMs: 30_000 },
    });
    expect(render.status, render.text).toBe(200);
    expect(render.body).toMatchObject({ state: "succeeded", result: { pageCount: 1 } });

    const pdf = await download(render.body.result.downloadUrl);
    expect(pdf.status).toBe(200);
    expect(pdfInfo(pdf.bytes)).toMatchObject({ Pages: "1", Title: "Invoice" });
    // Line by line, in order, each as the documentation shows it (spacing of the table aside).
    const lines = pdfText(pdf.bytes).split("\n").map(words).filter(Boolean);
    expect(lines).toEqual(expected);
  });
  it("renders the Handlebars example as shown: partial, helpers with a hash and a block, a beforeRender script, a translation, page numbers", async () => {
    const w = await createTestWorkspace();
    const template = JSON.parse(docBlock("hbs-template")) as Record<string, unknown>;
    const data = JSON.parse(docBlock("hbs-data")) as Record<string, unknown>;
    const expected = docBlock("hbs-output").split("\n").map(words).filter(Boolean);

    const created = await api<{ id: string }>("/v1/templates", { key: w.key, body: template });
    expect(created.status, created.text).toBe(201);
    const version = await api<{ id: string }>(`/v1/templates/${created.body.id}/versions`, { key: w.key, body: { expectedRevision: 1 } });
    expect(version.status, version.text).toBe(201);
    const render = await api<{ state: string; result: { downloadUrl: string } }>("/v1/renders", {
      key: w.key,
      body: { templateVersionId: version.body.id, data, waitMs: 30_000 },
    });
    expect(render.status, render.text).toBe(200);
    expect(render.body.state, render.text).toBe("succeeded");
    const pdf = await download(render.body.result.downloadUrl);
    expect(pdfText(pdf.bytes).split("\n").map(words).filter(Boolean)).toEqual(expected);
  });
});
