import { describe, expect, it } from "vitest";
import { parseHandlebarsContent } from "./handlebars-schema";
import { changedHbsTabs, consoleOf, freeName, fromHbsTabs, hbsNameProblem, hbsStarter, locateHbsProblem, revertHbsTabs, toHbsTabs } from "./hbs-editor-tabs";

describe("Handlebars editor tabs", () => {
  it("round-trips content through the tabs, and the starter is valid content", () => {
    const starter = hbsStarter("Invoice", { margins: { topMm: 10 } });
    expect(() => parseHandlebarsContent(starter)).not.toThrow();
    const back = fromHbsTabs(toHbsTabs(starter));
    expect(back).toEqual({ ok: true, content: starter });
  });

  it("names the tab and file whose text cannot be saved", () => {
    const tabs = toHbsTabs(hbsStarter("x", {}));
    expect(fromHbsTabs({ ...tabs, sampleData: [{ name: "broken", text: "{" }] })).toMatchObject({ ok: false, tab: "sampleData", file: "broken" });
    expect(fromHbsTabs({ ...tabs, settings: "[" })).toMatchObject({ ok: false, tab: "settings" });
  });

  it.each([
    ["templateHtml", "Parse error on line 2:\n...", { tab: "templateHtml", line: 2 }],
    ["partials.invoice-row", "Parse error on line 3", { tab: "partials", file: "invoice-row", line: 3 }],
    ["partials.row.item", "Parse error on line 1", { tab: "partials", file: "row.item", line: 1 }],
    ["helpers", "Unexpected token '}' (line 2)", { tab: "helpers", line: 2 }],
    ["templateHtml", "TypeError: x is null (helpers.js line 2)", { tab: "helpers", line: 2 }],
    ["scripts.0", "RangeError: no rates (script totals line 3)", { tab: "scripts", file: "totals", line: 3 }],
    ["scripts.0", "Unexpected token ';' (line 2)", { tab: "scripts", file: "totals", line: 2 }],
    ["scripts", "used more than 2 s of CPU", { tab: "scripts" }],
    ["footer", "Parse error on line 1", { tab: "footer", line: 1 }],
    ["content.partials.row", "too long", { tab: "partials", file: "row" }],
    ["content.scripts.0.source", "too long", { tab: "scripts", file: "totals" }],
    ["content.translations.de", "not an object", { tab: "translations", file: "de" }],
    ["data", "nested too deep", { tab: "data" }],
  ])("locates %s: %s", (path, message, where) => {
    expect(locateHbsProblem(path, message, { scripts: [{ name: "totals", text: "" }] })).toEqual(where);
  });

  it("names the tabs changed beyond content values, and reverts just those", () => {
    const saved = toHbsTabs({ ...hbsStarter("x", {}), contentFields: [{ name: "headline", type: "text", label: "Headline" }] });
    const edited = { ...saved, sampleData: [{ name: "renamed", text: "{}" }], helpers: "function x() {}", contentValues: { headline: "Hi" } };
    expect(changedHbsTabs(saved, edited)).toEqual(["helpers", "sampleData"]);
    expect(changedHbsTabs(saved, { ...saved, contentValues: { headline: "Hi" } })).toEqual([]);
    const reverted = revertHbsTabs(edited, saved, ["sampleData"]);
    expect(reverted).toEqual({ ...saved, helpers: "function x() {}", contentValues: { headline: "Hi" } });
    expect(changedHbsTabs(saved, revertHbsTabs(reverted, saved, ["helpers"]))).toEqual([]);
  });

  it("checks names of new files and finds a free one", () => {
    expect(freeName("partial", ["partial", "partial-2"])).toBe("partial-3");
    expect(hbsNameProblem("partials", "row/item", [])).toBeUndefined();
    expect(hbsNameProblem("partials", "-x", [])).toMatch(/starting with/);
    expect(hbsNameProblem("scripts", "totals", ["totals"])).toBe("totals is taken");
  });

  it("reads a preview's console output, UTF-8 included, and nothing from an answer without it", () => {
    const lines = [{ step: "scripts", level: "warn", message: "Größe: 2 €" }];
    const headers = new Headers({ "x-folio-console": Buffer.from(JSON.stringify(lines), "utf8").toString("base64"), "x-folio-console-omitted": "3" });
    expect(consoleOf(headers)).toEqual({ entries: lines, omitted: 3 });
    expect(consoleOf(new Headers())).toBeUndefined();
    expect(consoleOf(new Headers({ "x-folio-console": "not base64 json" }))).toBeUndefined();
  });
});
