import { describe, expect, it } from "vitest";
import { canonicalJson, contentChanges, contentFiles, lineDiff, type ContentChanges, type FileChange } from "./content-diff";

const changed = (r: ContentChanges): FileChange[] => {
  if (r.same) throw new Error("expected changes");
  return r.files;
};
const text = (f: FileChange, kind: "added" | "removed") => f.lines.flatMap((l) => (l.kind === kind ? [l.text] : []));

// Issue 24 item 4: "Changes against the draft" compares content, not the text order of its keys.
describe("contentChanges", () => {
  const version = {
    composition: { root: { type: "text", text: "Hello" }, stylesheets: ["a.css"] },
    settings: { pageSize: "A4", margins: { top: "20mm", bottom: "20mm" }, locale: "en-GB" },
  };
  const reordered = {
    settings: { locale: "en-GB", margins: { bottom: "20mm", top: "20mm" }, pageSize: "A4" },
    composition: { stylesheets: ["a.css"], root: { text: "Hello", type: "text" } },
  };

  it("finds no changes in a version equal to the draft with its keys in another order", () => {
    expect(contentChanges(version, reordered)).toEqual({ same: true });
    expect(canonicalJson(version)).toBe(canonicalJson(reordered));
  });

  it("shows only the line that changed, in the file that holds it, and names the files left alone", () => {
    const r = contentChanges(version, { ...reordered, settings: { ...reordered.settings, pageSize: "Letter" } });
    const [settings, ...others] = changed(r);
    expect(others).toEqual([]);
    expect(settings).toMatchObject({ id: "settings", label: "Page settings", status: "changed" });
    expect(text(settings!, "removed")).toEqual(['  "pageSize": "A4"']);
    expect(text(settings!, "added")).toEqual(['  "pageSize": "Letter"']);
    expect(!r.same && r.unchanged).toEqual(["composition.json", "Stylesheets"]);
  });

  it("keeps array order: a reordered list is a change", () => {
    expect(contentChanges({ stylesheets: ["a.css", "b.css"] }, { stylesheets: ["b.css", "a.css"] }).same).toBe(false);
  });
});

// Issue 34 item 13: a Handlebars template's files were each one JSON string on one line.
describe("a Handlebars template's changes, file by file", () => {
  const html = ["<html>", "<body>", "  <h1>{{title}}</h1>", "  {{#each lines}}{{> line}}{{/each}}", "  <p>{{money total}}</p>", "</body>", "</html>"].join("\n");
  const version = {
    templateHtml: html,
    partials: { line: "<tr><td>{{description}}</td></tr>", gone: "<i>old</i>" },
    helpers: "function money(v) {\n  return 'EUR ' + v;\n}",
    scripts: [{ name: "totals", source: "function beforeRender(d) {\n  d.total = 1;\n}" }],
    settings: { locale: "en-GB" },
    translations: { en: { title: "Invoice" }, de: { title: "Rechnung" } },
    sampleData: [{ name: "example", data: { title: "A", lines: [] } }],
    dataSchema: { type: "object" },
  };

  it("makes one file per tab and per named file, in the editor's order, text as lines and JSON indented", () => {
    const files = contentFiles(version);
    expect(files.map((f) => f.label)).toEqual(["template.html", "Partial line", "Partial gone", "helpers.js", "Script totals", "Page settings", "Translation en", "Translation de", "Sample data example", "Data schema"]);
    expect(files[0]!.text).toBe(html);
    expect(files.find((f) => f.id === "sampleData.example")!.text).toBe('{\n  "lines": [],\n  "title": "A"\n}');
  });

  it("diffs each changed file by its lines, marks added and removed files, and leaves out what did not change", () => {
    const draft = {
      ...version,
      templateHtml: html.replace("<h1>{{title}}</h1>", "<h1>{{localization.title}}</h1>"),
      partials: { line: version.partials.line, added: "<b>new</b>" },
      translations: { en: { title: "Invoice" }, de: { title: "Faktura" } },
      sampleData: [{ name: "example", data: { lines: [], title: "B" } }],
    };
    const files = changed(contentChanges(version, draft));
    expect(files.map((f) => [f.label, f.status])).toEqual([
      ["template.html", "changed"],
      ["Partial added", "added"],
      ["Translation de", "changed"],
      ["Sample data example", "changed"],
      ["Partial gone", "removed"],
    ]);
    const template = files[0]!;
    expect(text(template, "removed")).toEqual(["  <h1>{{title}}</h1>"]);
    expect(text(template, "added")).toEqual(["  <h1>{{localization.title}}</h1>"]);
    expect(template.lines.find((l) => l.kind === "added")).toEqual({ kind: "added", text: "  <h1>{{localization.title}}</h1>", after: 3 });
    expect(text(files[3]!, "added")).toEqual(['  "title": "B"']);
    expect(text(files[4]!, "removed")).toEqual(["<i>old</i>"]);
    const r = contentChanges(version, draft);
    expect(!r.same && r.unchanged).toEqual(["Partial line", "helpers.js", "Script totals", "Page settings", "Translation en", "Data schema"]);
  });

  it("a last line without a newline is the same line as one followed by more", () => {
    expect(lineDiff("a\nb", "a\nb\nc")).toEqual([
      { kind: "same", text: "a", before: 1, after: 1 },
      { kind: "same", text: "b", before: 2, after: 2 },
      { kind: "added", text: "c", after: 3 },
    ]);
  });

  it("cuts long unchanged runs to three lines of context around each change", () => {
    const before = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`).join("\n");
    const after = before.replace("line 15", "line fifteen");
    const lines = lineDiff(before, after);
    expect(lines.map((l) => (l.kind === "skipped" ? `… ${l.count}` : `${l.kind} ${l.text}`))).toEqual([
      "… 11",
      "same line 12",
      "same line 13",
      "same line 14",
      "removed line 15",
      "added line fifteen",
      "same line 16",
      "same line 17",
      "same line 18",
      "… 12",
    ]);
  });
});
