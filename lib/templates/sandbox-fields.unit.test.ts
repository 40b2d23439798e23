/**
 * A Handlebars template's refusals name, in `details[].path`, the content field that holds the file
 * (docs/api.md, Handlebars templates): the sandbox driven directly, through the check publishing
 * runs and the preparation every render and preview runs (no database, no server).
 */
import { afterAll, describe, expect, it } from "vitest";
import { stopSandbox } from "../sandbox";
import { rejected } from "../testing/app-error";
import { checkHandlebarsSyntax, prepareHandlebars } from "./handlebars";
import { HandlebarsContent } from "./handlebars-schema";

afterAll(() => stopSandbox());

const good = {
  templateHtml: "<p>{{#each rows}}{{> row.item}}{{/each}}</p>",
  partials: { "row.item": "<i>{{this}}</i>" },
  helpers: "function twice(s) { return s + s; }",
  scripts: [
    { name: "first", source: "function beforeRender(d) { return d; }" },
    { name: "totals", source: "function beforeRender(d) { return d; }" },
  ],
  header: "<small>{{title}}</small>",
};
const content = (change: Record<string, unknown>) => HandlebarsContent.parse({ ...good, ...change });

describe("Handlebars refusals name the content field", () => {
  it.each([
    [{ templateHtml: "<p>\n{{#if a}}</p>" }, "templateHtml", /^template: Parse error on line 2/],
    [{ header: "{{/each}}" }, "header", /^header: Parse error on line 1/],
    [{ partials: { "row.item": "<i>\n{{#if this}}</i>" } }, "partials.row.item", /^partial row\.item: Parse error on line 2/],
    [{ helpers: "function twice(s) {\n  return s +;\n}" }, "helpers", /^helpers\.js: /],
    [{ scripts: [good.scripts[0], { name: "totals", source: "function beforeRender(d {}" }] }, "scripts.1", /^script totals: /],
  ])("at publish: %j answers its field %s", async (change, field, message) => {
    const e = await rejected(checkHandlebarsSyntax(content(change)));
    expect(e.code).toBe("BAD_REQUEST");
    expect(e.message).toMatch(message);
    expect(e.details).toEqual([{ path: field, message: expect.any(String) }]);
  });

  it("at render: a script without beforeRender, and a helper's exception while the body runs", async () => {
    const noHook = await rejected(prepareHandlebars(content({ scripts: [good.scripts[0], { name: "totals", source: "function before(d) { return d; }" }] }), { rows: [1] }, "en-US"));
    expect(noHook.message).toMatch(/^script totals: .*beforeRender/);
    expect(noHook.details).toEqual([{ path: "scripts.1", message: expect.any(String) }]);
    const thrown = await rejected(prepareHandlebars(content({ helpers: "function twice(s) { throw new Error('no'); }", templateHtml: "{{twice 1}}" }), {}, "en-US"));
    expect(thrown.details).toEqual([{ path: "templateHtml", message: expect.stringContaining("helpers.js line 1") }]);
  });
});
