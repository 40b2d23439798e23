import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDFDocument } from "pdf-lib";
import { beforeAll, describe, expect, inject, it } from "vitest";
import pkg from "@/package.json";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api } from "@/lib/testing/http";
import { imageSize, pdfInfo, pdfText, rawText } from "@/lib/testing/pdf";
import { createRender, download, waitForState } from "@/lib/testing/renders";

// What a caller finds in the downloaded file: page size, header and footer, metadata, locale,
// backgrounds, page ranges, the TEST watermark, images, and renders that cannot see each other.
// Every render is tiny: these run on the shared test worker.

type Rendered = {
  id: string;
  state: string;
  test: boolean;
  format: string;
  result?: { downloadUrl?: string; pageCount: number; outputBytes: number };
  error?: { code: string; diagnostic: string; message: string };
};

/** Renders and waits for the end (200), expecting success; returns the record and the downloaded file. */
async function renderFile(key: string, body: Record<string, unknown>) {
  const res = await createRender(key, { waitMs: 20_000, ...body });
  expect([200, 202], res.text).toContain(res.status);
  // why: queue latency is not this file's subject; a render still queued after 20 s is waited for.
  const render = (res.status === 200 ? res.body : await waitForState(key, res.body.id, undefined, { timeout: 40_000 })) as Rendered;
  expect(render.state, JSON.stringify(render.error)).toBe("succeeded");
  const file = await download(render.result!.downloadUrl!);
  expect(file.status).toBe(200);
  expect(file.bytes.byteLength).toBe(render.result!.outputBytes);
  return { render, bytes: file.bytes, headers: file.headers };
}

/** "595.28 x 841.89 pts (A4)" -> [595.28, 841.89] */
function pageSize(bytes: Uint8Array): [number, number] {
  const m = /^([\d.]+) x ([\d.]+) pts/.exec(pdfInfo(bytes)["Page size"] ?? "");
  if (!m) throw new Error(`no page size in ${JSON.stringify(pdfInfo(bytes))}`);
  return [Number(m[1]), Number(m[2])];
}

const squash = (s: string) => s.replace(/\s+/g, "");

/** Pages, each with its own text, separated by CSS page breaks. */
const pages = (...texts: string[]) =>
  texts.map((t, i) => `<div style="${i < texts.length - 1 ? "page-break-after:always" : ""}">${t}</div>`).join("");

/** The RGB colour at a point (fractions of width and height) of a PDF page, rasterised by poppler at low resolution. */
function pixelAt(pdf: Uint8Array, page: number, fx: number, fy: number): [number, number, number] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-ppm-"));
  try {
    const file = path.join(dir, "doc.pdf");
    fs.writeFileSync(file, pdf);
    const ppm = execFileSync("pdftoppm", ["-r", "20", "-f", String(page), "-l", String(page), "-singlefile", file]);
    // P6 <width> <height> <maxval> then RGB bytes.
    const header = /^P6\s+(\d+)\s+(\d+)\s+(\d+)\s/.exec(ppm.subarray(0, 50).toString("latin1"))!;
    const [width, height] = [Number(header[1]), Number(header[2])];
    const offset = header[0].length + (Math.floor(fy * height) * width + Math.floor(fx * width)) * 3;
    return [ppm[offset]!, ppm[offset + 1]!, ppm[offset + 2]!];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe("PDF page settings", () => {
  it("renders A4 by default", async () => {
    const w = await createTestWorkspace();
    const { render, bytes } = await renderFile(w.key, { document: { html: "<p>default size</p>" } });
    expect(render.result!.pageCount).toBe(1);
    const [width, height] = pageSize(bytes);
    // Chromium rounds page sizes a little (A4 comes out 595.92 x 842): within 1 pt, about 0.35 mm.
    expect(Math.abs(width - 595.28)).toBeLessThanOrEqual(1);
    expect(Math.abs(height - 841.89)).toBeLessThanOrEqual(1);
    expect(pdfInfo(bytes).Pages).toBe("1");
    expect(pdfText(bytes)).toContain("default size");
  });

  it("uses settings.pageSize in millimetres", async () => {
    const w = await createTestWorkspace();
    const { bytes } = await renderFile(w.key, {
      document: { html: "<p>small page</p>", settings: { pageSize: { widthMm: 100, heightMm: 150 } } },
    });
    const [width, height] = pageSize(bytes);
    expect(Math.abs(width - (100 / 25.4) * 72)).toBeLessThanOrEqual(1); // 283.46
    expect(Math.abs(height - (150 / 25.4) * 72)).toBeLessThanOrEqual(1); // 425.20
  });

  it("draws the header and the footer with page number and total pages on each page", async () => {
    const w = await createTestWorkspace();
    const { render, bytes } = await renderFile(w.key, {
      document: {
        html: pages("first body", "second body"),
        header: "<span>Acme Header Line</span>",
        footer: "<span>Page {{pageNumber}} of {{totalPages}}</span>",
      },
    });
    expect(render.result!.pageCount).toBe(2);
    const p1 = pdfText(bytes, 1);
    const p2 = pdfText(bytes, 2);
    expect(p1).toContain("first body");
    expect(p1).toContain("Page 1 of 2");
    expect(p1).toContain("Acme Header Line");
    expect(p1).not.toContain("Page 2 of 2");
    expect(p2).toContain("second body");
    expect(p2).toContain("Page 2 of 2");
    expect(p2).toContain("Acme Header Line");
    // The placeholders themselves never reach the page.
    expect(pdfText(bytes)).not.toContain("{{");
  });

  it("writes title, author, subject and keywords into the PDF", async () => {
    const w = await createTestWorkspace();
    const { bytes } = await renderFile(w.key, {
      document: {
        html: "<title>Ignored Doc Title</title><p>meta</p>",
        settings: { title: "Invoice 2024-17", author: "Acme Billing", subject: "Monthly invoice", keywords: "invoice, acme" },
      },
    });
    const info = pdfInfo(bytes);
    expect(info.Title).toBe("Invoice 2024-17");
    expect(info.Author).toBe("Acme Billing");
    expect(info.Subject).toBe("Monthly invoice");
    expect(info.Keywords).toContain("invoice");
    expect(info.Keywords).toContain("acme");
  });

  it("leaves the title empty without settings.title or <title>, never naming the render's private host", async () => {
    const w = await createTestWorkspace();
    // Without other metadata (the PDF as Chromium wrote it) and with an author (rewritten by pdf-lib).
    const [plain, withAuthor] = await Promise.all([
      renderFile(w.key, { document: { html: "<p>untitled</p>" } }),
      renderFile(w.key, { document: { html: "<p>untitled</p>", settings: { author: "Someone" } } }),
    ]);
    for (const { bytes } of [plain, withAuthor]) {
      const info = pdfInfo(bytes);
      expect(info.Title ?? "").toBe("");
      expect(JSON.stringify(info)).not.toContain("folio.invalid");
      expect(Buffer.from(bytes).toString("latin1")).not.toContain("folio.invalid");
    }
    expect(pdfInfo(withAuthor.bytes).Author).toBe("Someone");
  });

  it("names Folio as Creator and Producer, whether the PDF is left as printed or rewritten (author, watermark)", async () => {
    const w = await createTestWorkspace();
    const [plain, withAuthor, test, tagged] = await Promise.all([
      renderFile(w.key, { document: { html: "<p>made by</p>", settings: { title: "Made by Folio" } } }),
      renderFile(w.key, { document: { html: "<p>made by</p>", settings: { author: "Acme" } } }),
      renderFile(w.key, { document: { html: "<p>made by</p>" }, test: true }),
      renderFile(w.key, { document: { html: "<h1>made by</h1>", settings: { tagged: true, outline: true } } }),
    ]);
    for (const { bytes } of [plain, withAuthor, test, tagged]) {
      const info = pdfInfo(bytes);
      expect(info.Creator).toBe("Folio");
      expect(info.Producer).toBe(`Folio ${pkg.version}`);
      expect(JSON.stringify(info)).not.toMatch(/Chrom|Skia|Mozilla/);
      expect(pdfText(bytes)).toContain("made by");
      const doc = await PDFDocument.load(bytes, { updateMetadata: false });
      expect(doc.getProducer()).toBe(`Folio ${pkg.version}`);
    }
    expect(pdfInfo(plain.bytes).Title).toBe("Made by Folio");
    expect(pdfInfo(withAuthor.bytes).Author).toBe("Acme");
  });

  it("uses the document's <title> as the PDF title", async () => {
    const w = await createTestWorkspace();
    const { bytes } = await renderFile(w.key, { document: { html: "<html><head><title>Quarterly Report</title></head><body>r</body></html>" } });
    expect(pdfInfo(bytes).Title).toBe("Quarterly Report");
  });

  describe("locale", () => {
    const html = `<p id="out">x</p><script>
      document.getElementById("out").textContent =
        "num=" + new Intl.NumberFormat().format(1234567.891) + " lang=" + navigator.language +
        " date=" + new Intl.DateTimeFormat(undefined, { timeZone: "UTC", month: "long" }).format(new Date(Date.UTC(2024, 2, 5)));
    </script>`;
    const month = (l: string) => new Intl.DateTimeFormat(l, { timeZone: "UTC", month: "long" }).format(new Date(Date.UTC(2024, 2, 5)));
    const num = (l: string) => new Intl.NumberFormat(l).format(1234567.891);
    /** The page's "num=... lang=... date=..." for each render, whitespace removed (fr-FR groups with a narrow no-break space). */
    const seen: Record<string, { num: string; lang: string; date: string }> = {};

    beforeAll(async () => {
      const w = await createTestWorkspace();
      // One after another and back again: a locale must not stick to the warm page for the next render.
      const runs: [string, Record<string, unknown>][] = [
        ["de-CH", { locale: "de-CH" }],
        ["default", {}],
        ["fr-FR", { locale: "fr-FR" }],
        ["en-US", { locale: "en-US" }],
      ];
      for (const [name, settings] of runs) {
        const { bytes } = await renderFile(w.key, { document: { html, settings } });
        const m = /^num=(.*)lang=(.*)date=(.*)$/.exec(squash(pdfText(bytes)))!;
        seen[name] = { num: m[1]!, lang: m[2]!, date: m[3]! };
      }
    });

    it("Intl formats numbers and dates in settings.locale, en-US by default", () => {
      expect(seen["de-CH"]).toMatchObject({ num: squash(num("de-CH")), date: month("de-CH") });
      expect(seen["de-CH"]!.num).toMatch(/^1['’]234['’]567\.891$/);
      expect(seen.default).toMatchObject({ num: "1,234,567.891", date: "March" });
      expect(seen["fr-FR"]).toMatchObject({ num: squash(num("fr-FR")), date: month("fr-FR") });
      expect(seen["en-US"]).toMatchObject({ num: "1,234,567.891", date: "March" });
    });

    it("navigator.language is settings.locale, en-US by default", () => {
      expect(seen.default!.lang).toBe("en-US");
      expect(seen["en-US"]!.lang).toBe("en-US");
      expect(seen["de-CH"]!.lang).toBe("de-CH");
      expect(seen["fr-FR"]!.lang).toBe("fr-FR");
    });
  });

  it("prints backgrounds", async () => {
    const w = await createTestWorkspace();
    const html = `<style>html,body{margin:0;height:100%}</style><div style="background:rgb(255,0,0);height:100%">&nbsp;</div>`;
    const { bytes } = await renderFile(w.key, { document: { html } });
    const [r, g, b] = pixelAt(bytes, 1, 0.5, 0.5);
    expect(r).toBeGreaterThan(200);
    expect(g).toBeLessThan(60);
    expect(b).toBeLessThan(60);
    // The 10 mm default margin stays white.
    expect(pixelAt(bytes, 1, 0.01, 0.01)).toEqual([255, 255, 255]);
  });

  it("writes a tagged PDF with bookmarks when asked, and neither by default", async () => {
    const w = await createTestWorkspace();
    const html = "<h1>Chapter one</h1><p>text</p><h2>Section</h2><p>more</p>";
    const { bytes } = await renderFile(w.key, { document: { html, settings: { tagged: true, outline: true } } });
    expect(pdfInfo(bytes).Tagged).toBe("yes");
    const raw = Buffer.from(bytes).toString("latin1");
    expect(raw).toContain("/StructTreeRoot");
    expect(raw).toContain("/Outlines");

    const plain = await renderFile(w.key, { document: { html } });
    expect(pdfInfo(plain.bytes).Tagged).toBe("no");
    expect(Buffer.from(plain.bytes).toString("latin1")).not.toContain("/Outlines");
  });

  it("draws CSS @page margin boxes with page counters", async () => {
    const w = await createTestWorkspace();
    const html = `<style>@page { margin: 20mm; @top-center { content: "Margin box " counter(page) " of " counter(pages); } }</style>${pages("first", "second")}`;
    const { bytes } = await renderFile(w.key, { document: { html } });
    expect(pdfText(bytes, 1)).toContain("Margin box 1 of 2");
    expect(pdfText(bytes, 2)).toContain("Margin box 2 of 2");
  });

  it("keeps only the pages pageRanges selects", async () => {
    const w = await createTestWorkspace();
    const { render, bytes } = await renderFile(w.key, { document: { html: pages("alpha page", "bravo page", "charlie page") }, pageRanges: "2" });
    expect(render.result!.pageCount).toBe(1);
    expect(pdfInfo(bytes).Pages).toBe("1");
    const text = pdfText(bytes);
    expect(text).toContain("bravo page");
    expect(text).not.toContain("alpha page");
    expect(text).not.toContain("charlie page");

    const { render: r2, bytes: b2 } = await renderFile(w.key, { document: { html: pages("alpha page", "bravo page", "charlie page") }, pageRanges: "1,3" });
    expect(r2.result!.pageCount).toBe(2);
    expect(pdfText(b2, 1)).toContain("alpha page");
    expect(pdfText(b2, 2)).toContain("charlie page");
  });
});

describe("test renders", () => {
  it("test: true stamps TEST on every page and is recorded", async () => {
    const w = await createTestWorkspace();
    const { render, bytes } = await renderFile(w.key, { document: { html: pages("one", "two", "three") }, test: true });
    expect(render.test).toBe(true);
    expect(render.result!.pageCount).toBe(3);
    for (const p of [1, 2, 3]) {
      expect(rawText(bytes, p)).toContain("TEST");
      expect(pdfText(bytes, p)).toContain(["one", "two", "three"][p - 1]);
    }
    expect((await api(`/v1/renders/${render.id}`, { key: w.key })).body.test).toBe(true);
  });

  it("the watermark cannot be hidden by the document's CSS", async () => {
    const w = await createTestWorkspace();
    const html = `<style>*{display:none!important;visibility:hidden!important}</style><p>hidden</p>`;
    const { bytes } = await renderFile(w.key, { document: { html }, test: true });
    expect(rawText(bytes, 1)).toContain("TEST");
  });

  it("test: false (the default) has no watermark", async () => {
    const w = await createTestWorkspace();
    const [explicit, byDefault] = await Promise.all([
      renderFile(w.key, { document: { html: pages("one", "two") }, test: false }),
      renderFile(w.key, { document: { html: pages("one", "two") } }),
    ]);
    for (const { render, bytes } of [explicit, byDefault]) {
      expect(render.test).toBe(false);
      expect(rawText(bytes, 1) + rawText(bytes, 2)).not.toContain("TEST");
      expect(rawText(bytes, 1) + rawText(bytes, 2)).toContain("onetwo");
    }
  });
});

describe("images", () => {
  const twoPages = pages('<p style="font-size:40px">image page one</p>', '<p style="font-size:40px">image page two</p>');

  it("png of page 1 at scale 1 by default: A4 at 96 dpi; pageCount is the document's", async () => {
    const w = await createTestWorkspace();
    const { render, bytes, headers } = await renderFile(w.key, { document: { html: twoPages }, format: "png" });
    expect(render.format).toBe("png");
    expect(render.result!.pageCount).toBe(2);
    expect(headers.get("content-type")).toBe("image/png");
    expect(imageSize(bytes)).toEqual({ type: "png", width: 794, height: 1123 });
  });

  it("scale 2 doubles the pixels", async () => {
    const w = await createTestWorkspace();
    const { bytes } = await renderFile(w.key, { document: { html: "<p>scaled</p>" }, format: "png", image: { scale: 2 } });
    const size = imageSize(bytes);
    expect(size.type).toBe("png");
    expect(Math.abs(size.width - 1587)).toBeLessThanOrEqual(1);
    expect(Math.abs(size.height - 2245)).toBeLessThanOrEqual(1);
  });

  it("image.page picks the page", async () => {
    const w = await createTestWorkspace();
    const [one, two] = await Promise.all([
      renderFile(w.key, { document: { html: twoPages }, format: "png" }),
      renderFile(w.key, { document: { html: twoPages }, format: "png", image: { page: 2 } }),
    ]);
    const explicitOne = await renderFile(w.key, { document: { html: twoPages }, format: "png", image: { page: 1 } });
    expect(Buffer.from(two.bytes).equals(Buffer.from(one.bytes))).toBe(false);
    expect(Buffer.from(explicitOne.bytes).equals(Buffer.from(one.bytes))).toBe(true);
    expect(imageSize(two.bytes)).toEqual({ type: "png", width: 794, height: 1123 });
  });

  it("jpeg output is a JPEG, served as image/jpeg", async () => {
    const w = await createTestWorkspace();
    const { render, bytes, headers } = await renderFile(w.key, { document: { html: "<p>jpeg</p>" }, format: "jpeg" });
    expect(render.format).toBe("jpeg");
    expect([...bytes.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);
    expect(headers.get("content-type")).toBe("image/jpeg");
    const byId = await fetch(`${inject("baseUrl")}/v1/renders/${render.id}/file`, { headers: { "x-api-key": w.key } });
    expect(byId.status).toBe(200);
    expect(byId.headers.get("content-type")).toBe("image/jpeg");
    expect(Buffer.from(await byId.arrayBuffer()).equals(Buffer.from(bytes))).toBe(true);
    expect(imageSize(bytes)).toEqual({ type: "jpeg", width: 794, height: 1123 });
  });

  it("a test image carries the watermark too", async () => {
    const w = await createTestWorkspace();
    const html = '<style>html,body{margin:0;height:100%;background:#fff}</style><div style="height:100%"></div>';
    const [plain, test] = await Promise.all([
      renderFile(w.key, { document: { html }, format: "png" }),
      renderFile(w.key, { document: { html }, format: "png", test: true }),
    ]);
    expect(test.render.test).toBe(true);
    expect(Buffer.from(test.bytes).equals(Buffer.from(plain.bytes))).toBe(false);
  });
});

describe("isolation between renders", () => {
  it("storage and cookies of one render are invisible to the next", async () => {
    const w = await createTestWorkspace();
    // Each write may be refused (documents render with an opaque origin, where storage throws);
    // what matters is that nothing written reaches the next render.
    const writer = `<p>writer</p><script>
      const attempt = (f) => { try { f(); } catch {} };
      attempt(() => localStorage.setItem("k", "leaked-local"));
      attempt(() => sessionStorage.setItem("k", "leaked-session"));
      attempt(() => { document.cookie = "plain=leaked-cookie; max-age=3600"; });
      attempt(() => { document.cookie = "wide=leaked-wide-cookie; domain=invalid; max-age=3600"; });
      attempt(() => indexedDB.open("leakdb"));
      attempt(() => caches.open("leak").catch(() => {}));
      window.leakedGlobal = "leaked-global";
    </script>`;
    const reader = `<p id="out">x</p><script>
      const read = (f) => { try { return String(f()); } catch { return "denied"; } };
      const out = [];
      out.push("local=" + read(() => localStorage.getItem("k")));
      out.push("session=" + read(() => sessionStorage.getItem("k")));
      out.push("cookie=[" + read(() => document.cookie) + "]");
      out.push("global=" + read(() => window.leakedGlobal));
      document.getElementById("out").textContent = out.join(" ");
    </script>`;
    // Several writers, at the same time and in turn, so each of the worker's warm pages has seen one.
    await Promise.all([renderFile(w.key, { document: { html: writer } }), renderFile(w.key, { document: { html: writer } })]);
    await renderFile(w.key, { document: { html: writer } });
    const results = await Promise.all([renderFile(w.key, { document: { html: reader } }), renderFile(w.key, { document: { html: reader } })]);
    results.push(await renderFile(w.key, { document: { html: reader } }));
    for (const { bytes } of results) {
      const text = pdfText(bytes).trim();
      expect(text).toMatch(/^local=(null|denied) session=(null|denied) cookie=\[(|denied)\] global=undefined$/);
      expect(text).not.toContain("leaked");
    }
  });

  it("a timer or a popup left by one render does not touch the next", async () => {
    const w = await createTestWorkspace();
    // The first render arms timers and opens a window; both would write into whatever page they still reach.
    const arming = `<p>arming</p><script>
      const poison = () => {
        try { localStorage.setItem("late", "timer-leak"); } catch {}
        document.title = "timer-leak";
        document.body.textContent = "timer-leak";
      };
      for (const ms of [300, 600, 1000]) setTimeout(poison, ms);
      try {
        const win = window.open("about:blank", "_blank");
        // Writes only into a later document (one with #out), never into this render's own.
        if (win) win.eval("setInterval(() => { try { if (opener.document.getElementById('out')) { opener.document.body.textContent = 'popup-leak'; opener.document.title = 'popup-leak'; } } catch {} }, 20)");
      } catch {}
    </script>`;
    const reader = `<p id="out">clean</p><script>
      let late; try { late = localStorage.getItem("late"); } catch { late = "denied"; }
      document.getElementById("out").textContent = "late=" + late + " clean";
    </script>`;
    // (The arming render's own text may already show its timers' work: that is its own document.)
    await Promise.all([renderFile(w.key, { document: { html: arming } }), renderFile(w.key, { document: { html: arming } })]);
    // Renders right after, and after every armed timer has had its time.
    const soon = await Promise.all([renderFile(w.key, { document: { html: reader } }), renderFile(w.key, { document: { html: reader } })]);
    await new Promise((r) => setTimeout(r, 1200));
    const later = await Promise.all([renderFile(w.key, { document: { html: reader } }), renderFile(w.key, { document: { html: reader } })]);
    for (const { bytes } of [...soon, ...later]) {
      expect(pdfText(bytes).trim()).toMatch(/^late=(null|denied) clean$/);
      expect(pdfInfo(bytes).Title ?? "").toBe("");
    }
  });
});
