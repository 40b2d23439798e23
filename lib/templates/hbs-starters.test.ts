import { describe, expect, inject, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api } from "@/lib/testing/http";
import { pdfText } from "@/lib/testing/pdf";
import { HBS_STARTERS, hbsStarterContent } from "./hbs-starters";

const settings = { pageSize: { widthMm: 210, heightMm: 297 }, margins: { topMm: 15, rightMm: 12, bottomMm: 15, leftMm: 12 } };

/** What each starter's own sample data must show on its first page. */
const shows: Record<(typeof HBS_STARTERS)[number], string[]> = {
  basic: ["Acme Studio", "Total: EUR 845.50"],
  invoice: ["Invoice 2026-0042", "Acme Ltd", "€800.00", "Tax 20 %", "€169.10", "€1,014.60", "Page 1 of 1"],
  report: ["Sales", "+12.0 %", "-5.0 %", "Page 1 of 1"],
  letter: ["Dear Alex Smith,", "Yours sincerely,", "Jane Doe"],
};

const norm = (s: string) => s.replace(/\s+/g, " ");

describe("the console's Handlebars starters", () => {
  it.each(HBS_STARTERS)("%s saves as any template does and previews as a whole document with its own sample data", async (starter) => {
    const w = await createTestWorkspace();
    const content = hbsStarterContent(starter, "Acme Studio", settings);
    const created = await api("/v1/templates", { key: w.key, body: { name: `Starter ${starter}`, kind: "handlebars", content } });
    expect(created.status, created.text).toBe(201);
    const res = await fetch(`${inject("baseUrl")}/v1/templates/${created.body.id as string}/preview`, {
      method: "POST",
      headers: { "x-api-key": w.key, "content-type": "application/json" },
      body: JSON.stringify({ format: "pdf", data: content.sampleData![0]!.data }),
    });
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(res.status, Buffer.from(bytes).toString("utf8").slice(0, 300)).toBe(200);
    const text = norm(pdfText(bytes));
    for (const s of shows[starter]) expect(text).toContain(s);
  });
});
