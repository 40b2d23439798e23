import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { uploadAsset } from "@/lib/testing/assets";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api } from "@/lib/testing/http";
import { png } from "@/lib/testing/images";
import { pdfFonts, pdfImages, pdfText } from "@/lib/testing/pdf";
import { createRender, download, waitForState } from "@/lib/testing/renders";
import { fontsourceFile, seedAsset, seedAssetFile, seedFolder, seedStylesheet } from "@/lib/testing/template-files";

// The proof, through the API: a footer in an uploaded font with an uploaded logo, and a
// header styled by a class of the body's stylesheet, checked in the PDF on every page (embedded
// font names by pdffonts, one image per page by pdfimages, "Page 2 of 3" by pdftotext).

const fontsDir = path.join(process.cwd(), "node_modules/@fontsource");


async function renderPdf(key: string, body: Record<string, unknown>) {
  const res = await createRender(key, { waitMs: 20_000, ...body });
  expect([200, 202], res.text).toContain(res.status);
  const render = res.status === 200 ? res.body : await waitForState(key, res.body.id, undefined, { timeout: 40_000 });
  expect(render.state, JSON.stringify(render.error)).toBe("succeeded");
  const file = await download(render.result.downloadUrl);
  expect(file.status).toBe(200);
  return { render, bytes: file.bytes };
}

const pages = (...texts: string[]) => texts.map((t, i) => `<div style="${i < texts.length - 1 ? "break-after: page" : ""}">${t}</div>`).join("");

describe("a footer in an uploaded font with an uploaded logo", () => {
  let pdf: Uint8Array;
  let pageCount: number;

  beforeAll(async () => {
    const w = await createTestWorkspace();
    const [sans, serif, logo] = await Promise.all([
      uploadAsset(w.key, { kind: "font", mediaType: "font/woff2", filename: "inter.woff2", bytes: fs.readFileSync(path.join(fontsDir, "inter/files/inter-latin-400-normal.woff2")) }),
      uploadAsset(w.key, { kind: "font", mediaType: "font/woff2", filename: "merriweather.woff2", bytes: fs.readFileSync(path.join(fontsDir, "merriweather/files/merriweather-latin-700-normal.woff2")) }),
      uploadAsset(w.key, { kind: "image", mediaType: "image/png", filename: "logo.png", bytes: png(53, 17) }),
    ]);
    const asset = (id: string) => `http://assets.invalid/${id}`;
    const html = `<!doctype html><html><head><style>
      @font-face { font-family: "Brand Sans"; src: url("${asset(sans.id)}") format("woff2"); }
      @font-face { font-family: "Brand Serif"; src: url("${asset(serif.id)}") format("woff2"); font-weight: 700; }
      .masthead { font-family: "Brand Serif"; font-weight: 700; }
      .foot { display: flex; justify-content: space-between; align-items: center; font-family: "Brand Sans"; }
    </style></head><body>${pages("first body", "second body", "third body")}</body></html>`;
    const { render, bytes } = await renderPdf(w.key, {
      document: {
        html,
        assetIds: [sans.id, serif.id, logo.id],
        header: `<div class="masthead">Acme Masthead</div>`,
        footer: `<div class="foot"><img src="${asset(logo.id)}" alt="Acme" style="height: 17px"><span>Page {{pageNumber}} of {{totalPages}}</span></div>`,
      },
    });
    pdf = bytes;
    pageCount = render.result.pageCount;
  });

  it("embeds the uploaded fonts: the footer's, and the header's through the body stylesheet's class", () => {
    expect(pageCount).toBe(3);
    const fonts = pdfFonts(pdf);
    expect(fonts.some((f) => /\+Inter-Regular$/.test(f)), fonts.join(", ")).toBe(true);
    // The body text itself is in the default font: only the header uses the serif.
    expect(fonts.some((f) => /\+Merriweather/.test(f)), fonts.join(", ")).toBe(true);
  });

  it("draws the logo on every page", () => {
    const logos = pdfImages(pdf).filter((i) => i.width === 53 && i.height === 17);
    expect(logos.map((i) => i.page).sort()).toEqual([1, 2, 3]);
  });

  it('reads "Page 2 of 3" on page 2, and each page its own number', () => {
    for (const p of [1, 2, 3]) {
      const text = pdfText(pdf, p).replace(/\s+/g, " ");
      expect(text).toContain(`Page ${p} of 3`);
      expect(text).toContain("Acme Masthead");
    }
  });
});

describe("a damaged file only the footer uses", () => {
  it("fails the render with ASSET_INVALID, as it would in the body", async () => {
    const w = await createTestWorkspace();
    // Well-formed enough for the checks before loading; the browser cannot decode it.
    const svg = await uploadAsset(w.key, { kind: "svg", mediaType: "image/svg+xml", filename: "mark.svg", bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><rect width="10" height="10"></svg>') });
    const res = await createRender(w.key, {
      waitMs: 20_000,
      document: { html: "<p>body</p>", assetIds: [svg.id], footer: `<img src="http://assets.invalid/${svg.id}" alt=""> Page {{pageNumber}}` },
    });
    const render = res.status === 200 ? res.body : await waitForState(w.key, res.body.id, undefined, { timeout: 40_000 });
    expect(render.state).toBe("failed");
    expect(render.error).toMatchObject({ code: "ASSET_INVALID", diagnostic: "image_invalid", message: `Image ${svg.id} cannot be decoded: it is damaged` });
  });
});

describe("a template's header and footer", () => {
  it("use classes, fonts and images of the template's workspace stylesheet on every page", async () => {
    const w = await createTestWorkspace();
    const [serif, logo] = await Promise.all([
      seedAsset(w, { kind: "font", filename: "serif.woff2", mediaType: "font/woff2", bytes: fontsourceFile("merriweather", "merriweather-latin-700-normal.woff2") }),
      seedAsset(w, { kind: "image", filename: "logo.png", mediaType: "image/png", bytes: png(41, 11) }),
    ]);
    const folder = await seedFolder(w, "brand");
    await seedAssetFile(w, folder, "serif.woff2", serif);
    await seedAssetFile(w, folder, "logo.png", logo);
    await seedStylesheet(
      w,
      folder,
      "print.css",
      `@font-face { font-family: "House Serif"; src: url("serif.woff2"); font-weight: 700; }
      .house { font-family: "House Serif"; font-weight: 700; }
      .mark { display: inline-block; width: 41px; height: 11px; background: url("logo.png"); }`,
    );
    const content = {
      composition: {
        stylesheets: ["print.css"],
        root: {
          type: "container",
          children: [
            { type: "text", text: "first page", style: { breakAfter: "page" } },
            { type: "text", text: "second page", style: { breakAfter: "page" } },
            { type: "text", text: "third page" },
          ],
        },
        header: `<div class="house">{{company}}</div>`,
        footer: `<div><span class="mark"></span> Page {{pageNumber}} of {{totalPages}}</div>`,
      },
    };
    const created = await api("/v1/templates", { key: w.key, body: { name: "Letter", folderId: folder, content } });
    expect(created.status, created.text).toBe(201);
    const published = await api(`/v1/templates/${created.body.id}/versions`, { key: w.key, body: { expectedRevision: 1 } });
    expect(published.status, published.text).toBe(201);
    const { bytes } = await renderPdf(w.key, { templateVersionId: published.body.id, data: { company: "Acme Letterhead" } });
    // The body's text is in the default font: the serif is the header's, through the class.
    expect(pdfFonts(bytes).some((f) => /\+Merriweather/.test(f))).toBe(true);
    // The stylesheet's image, by its path in the folder, in the footer of every page.
    expect(pdfImages(bytes).filter((i) => i.width === 41 && i.height === 11).map((i) => i.page).sort()).toEqual([1, 2, 3]);
    for (const p of [1, 2, 3]) {
      const text = pdfText(bytes, p).replace(/\s+/g, " ");
      expect(text).toContain("Acme Letterhead");
      expect(text).toContain(`Page ${p} of 3`);
    }
  });
});
