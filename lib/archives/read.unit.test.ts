import { describe, expect, it } from "vitest";
import { templateFiles, templateFromFiles } from "./layout";
import { readArchive, type ArchiveLimits } from "./read";
import { ZipWriter } from "../zip/zip";

const limits: ArchiveLimits = { maxZipBytes: 20_000_000, maxEntries: 10_000, maxInflatedBytes: 200_000_000 };
const manifest = (extra: object = {}) => JSON.stringify({ format: "folio-export", version: 1, ...extra });

function zip(files: [string, string | Buffer][]): Buffer {
  const w = new ZipWriter();
  for (const [name, data] of files) w.add(name, data);
  return Buffer.concat(w.finish());
}

const refusal = (bytes: Buffer, l = limits) => {
  try {
    readArchive(bytes, l);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("read");
};

describe("the export layout", () => {
  it("keeps a Handlebars template's sources as files and reads them back as they were", () => {
    const content = {
      templateHtml: "<h1>{{title}}</h1>\n{{> row}}",
      footer: "Page {{pageNumber}}",
      helpers: "function money(x) { return x; }\n",
      partials: { row: "<p>{{name}}</p>", "shared/line": "<hr>", "a/../b": "x" },
      scripts: [{ name: "totals", source: "function beforeRender(d) {}" }, { name: "tax rules", source: "function beforeRender(d) { d.t = 1; }" }],
      settings: { locale: "de-DE" },
      sampleData: [{ name: "One", data: { title: "Hi" } }],
    };
    const files = templateFiles({ name: "Invoice / 2026", kind: "handlebars", description: "d", content });
    expect(files.map(([p]) => p)).toEqual(["template.json", "template.html", "footer.html", "helpers.js", "partials/row.hbs", "partials/shared%2Fline.hbs", "partials/a%2F..%2Fb.hbs", "scripts/01-totals.js", "scripts/02-tax%20rules.js"]);
    expect(JSON.parse(files[0]![1])).toEqual({ name: "Invoice / 2026", kind: "handlebars", description: "d", content: { settings: { locale: "de-DE" }, sampleData: [{ name: "One", data: { title: "Hi" } }] } });
    const back = templateFromFiles("Invoice.template", new Map(files));
    expect(back).toEqual({ name: "Invoice / 2026", kind: "handlebars", description: "d", content: { ...content, partials: content.partials } });
    expect(back.content.scripts).toEqual(content.scripts);
  });

  it("refuses a file a template's kind does not have, naming it", () => {
    const files = new Map(templateFiles({ name: "C", kind: "component", description: "", content: { composition: { root: { type: "text", text: "x" } } } }));
    files.set("template.html", "<p>");
    expect(() => templateFromFiles("C.template", files)).toThrow("C.template/template.html: a component template has no such file (it has template.json)");
  });
});

describe("reading an export", () => {
  it("places folders, text files, templates, uploaded files and the files that name them", () => {
    const tpl = templateFiles({ name: "Letter", kind: "handlebars", description: "", content: { templateHtml: "<p>Hi</p>" } });
    const c = readArchive(
      zip([
        ["folio.json", manifest({ assets: { ast_abcdefgh12: { path: "assets/ast_abcdefgh12/logo.png", kind: "image", mediaType: "image/png", filename: "logo.png" } }, assetFiles: { "brand/logo.png": "ast_abcdefgh12" } })],
        ["brand/", ""],
        ["brand/empty/", ""],
        ["brand/site.css", "body { color: red }\n"],
        ...tpl.map(([p, t]) => [`letters/Letter.template/${p}`, t] as [string, string]),
        ["assets/ast_abcdefgh12/logo.png", Buffer.from([1, 2, 3])],
        ["assets/README.md", "not an upload"],
      ]),
      limits,
    );
    expect(c.folders).toEqual(["brand", "letters", "brand/empty"]);
    expect(c.texts).toEqual([{ path: "brand/site.css", content: "body { color: red }\n" }]);
    expect(c.templates.map((t) => [t.dir, t.folder, t.template.name, t.template.content.templateHtml])).toEqual([["letters/Letter.template", "letters", "Letter", "<p>Hi</p>"]]);
    expect(c.assets.map((a) => [a.id, a.size, a.sha256.length])).toEqual([["ast_abcdefgh12", 3, 64]]);
    expect(c.assetFiles).toEqual([{ path: "brand/logo.png", assetId: "ast_abcdefgh12" }]);
  });

  it.each([
    [[["x.css", "a"]], /Not a Folio export: it has no folio.json/],
    [[["folio.json", "{"]], /folio.json: not JSON/],
    [[["folio.json", manifest({ format: "other" })]], /folio.json: format/],
    [[["folio.json", manifest()], ["../evil.css", "x"]], /"\.\." segment/],
    [[["folio.json", manifest()], ["/etc/passwd", "x"]], /absolute path/],
    [[["folio.json", manifest()], ["a.css", "x"], ["A.css", "y"]], /duplicate name/],
    [[["folio.json", manifest()], ["bin.css", Buffer.from([0xff, 0xfe, 0x00])]], /bin.css: not UTF-8 text/],
    [[["folio.json", manifest()], [`${"x".repeat(130)}.css`, "x"]], /120/],
    [[["folio.json", manifest({ assetFiles: { "a.png": "ast_missing123" } })]], /names asset ast_missing123, which the archive does not hold/],
    [[["folio.json", manifest()], ["New/a.css", "x"], ["new/b.css", "y"]], /the folders New and new differ only in letter case/],
    [[["folio.json", manifest()], ["a.css", "x"], ["a.css/b.css", "y"]], /a file and a folder of the same name/],
  ] as [[string, string | Buffer][], RegExp][])("refuses %#", (files, message) => {
    expect(refusal(zip(files))).toMatch(message);
  });

  it("refuses more entries than allowed, more bytes than allowed, and a bomb", () => {
    const many: [string, string][] = [["folio.json", manifest()], ...Array.from({ length: 10_000 }, (_, i) => [`f${i}.css`, ""] as [string, string])];
    expect(refusal(zip(many))).toMatch(/10,001 entries; an archive holds at most 10,000/);
    const big = zip([["folio.json", manifest()], ["big.css", "a".repeat(1_000_001)]]);
    expect(refusal(big, { ...limits, maxZipBytes: 1000 })).toMatch(/^The archive has [\d,]+ bytes; at most 1,000$/);
    expect(refusal(big)).toBe("big.css: more than 1,000,000 characters");
    expect(refusal(zip([["folio.json", manifest()], ["zeros.css", Buffer.alloc(50_000_000, 32)]]))).toMatch(/zip bomb/);
  });
});
