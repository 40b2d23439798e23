import { describe, expect, it } from "vitest";
import { rejected } from "../testing/app-error";
import { renderMarginTemplate } from "./margins";

const header = (source: string, data: unknown = {}) => renderMarginTemplate(source, data, "header");


describe("renderMarginTemplate", () => {
  it("renders data, escaping values in {{x}} and leaving {{{x}}} to the author", async () => {
    const data = { name: '<script>alert(1)</script>"&\'', html: "<b>bold</b>" };
    expect(await header("<div>{{name}}</div>{{{html}}}", data)).toBe("<div>&lt;script&gt;alert(1)&lt;/script&gt;&quot;&amp;&#x27;</div><b>bold</b>");
  });

  const PN = '<span class="pageNumber"></span>';
  const TP = '<span class="totalPages"></span>';

  it("prints {{pageNumber}} and {{totalPages}} as Chromium's page-number spans, shadowing data of those names", async () => {
    expect(await header("Page {{pageNumber}} of {{totalPages}}", { pageNumber: 7, totalPages: "<x>" })).toBe(`Page ${PN} of ${TP}`);
    // Inside blocks too, whatever the block's context.
    expect(await header("{{#each items}}{{this}} {{pageNumber}}/{{totalPages}};{{/each}}", { items: ["a", "b"] })).toBe(`a ${PN}/${TP};b ${PN}/${TP};`);
    expect(await header("{{#with customer}}{{name}} p{{pageNumber}}{{/with}}", { customer: { name: "Acme", pageNumber: 9 } })).toBe(`Acme p${PN}`);
  });

  it("keeps a data value that reads like a placeholder as text: no {{ leaves the step", async () => {
    expect(await header("Ref {{ref}}", { ref: "{{totalPages}}" })).toBe("Ref {&#123;totalPages}}");
  });

  it.each([
    ["{{#if a}}yes{{else}}no{{/if}}", { a: 1 }, "yes"],
    ["{{#if a}}yes{{else}}no{{/if}}", { a: 0 }, "no"],
    ["{{#unless a}}none{{/unless}}", {}, "none"],
    ["{{#each list}}[{{@index}}:{{this}}]{{/each}}", { list: ["a", "b"] }, "[0:a][1:b]"],
    ["{{#each map}}{{@key}}={{this}};{{/each}}", { map: { x: 1, y: 2 } }, "x=1;y=2;"],
    ["{{#each list}}x{{else}}empty{{/each}}", { list: [] }, "empty"],
    ["{{#with company}}{{name}}, {{city}}{{/with}}", { company: { name: "Acme", city: "Bern" } }, "Acme, Bern"],
    ["{{lookup list 1}}", { list: ["a", "b"] }, "b"],
    ["{{#list}}<{{.}}>{{/list}}", { list: [1, 2] }, "<1><2>"],
    ["{{missing}}|{{deep.missing.path}}", {}, "|"],
    ["{{a.b}}", { a: { b: "c" } }, "c"],
  ])("runs the built-in helpers: %s", async (source, data, expected) => {
    expect(await header(source, data)).toBe(expected);
  });

  it.each([null, [1, 2], "text", 5])("renders with data that is not an object (%j)", async (data) => {
    expect(await header("{{length}}{{pageNumber}}", data)).toBe(PN);
  });

  it.each([
    "{{constructor}}",
    "{{constructor.name}}",
    "{{__proto__}}",
    "{{lookup this 'constructor'}}",
    "{{#with constructor}}{{name}}{{/with}}",
    "{{toString}}",
    "{{obj.hasOwnProperty}}",
  ])("denies prototype access: %s", async (source) => {
    expect(await header(source, { obj: {} })).toBe("");
  });

  describe("refuses with 400 naming composition.header or composition.footer", () => {
    it.each([
      ["an unknown helper", "{{format date}}", "unknown helper format"],
      ["log", "{{log 'x'}}", "unknown helper log"],
      ["helperMissing", "{{helperMissing 'x'}}", "unknown helper helperMissing"],
      ["blockHelperMissing", "{{blockHelperMissing 'x'}}", "unknown helper blockHelperMissing"],
      ["a partial", "{{> footer}}", "partials are not available"],
      ["a dynamic partial", "{{> (lookup . 'name')}}", "partials are not available"],
      ["a partial block", "{{#> layout}}x{{/layout}}", "partials are not available"],
      ["an inline partial", '{{#*inline "x"}}y{{/inline}}', "inline partials are not available"],
      ["a syntax error", "{{#if a}}", "Parse error"],
      ["a mismatched block", "{{#if a}}{{/each}}", "if doesn't match each"],
      ["a helper without its argument", "{{#if}}{{/if}}", ""],
      ["lookup without arguments", "{{lookup}}", ""],
    ])("%s", async (_, source, message) => {
      for (const where of ["header", "footer"] as const) {
        const e = await rejected(renderMarginTemplate(source, {}, where));
        expect(e.code).toBe("BAD_REQUEST");
        expect(e.status).toBe(400);
        expect(e.message.startsWith(`composition.${where}: `)).toBe(true);
        expect(e.message).toContain(message);
        expect(e.details).toEqual([{ path: `composition.${where}`, message: e.message.slice(`composition.${where}: `.length) }]);
      }
    });
  });

  describe("limits", () => {
    const items = (n: number) => Array.from({ length: n }, (_, i) => i);

    it("allows 10,000 each iterations in one render and refuses 10,001", async () => {
      expect(await header("{{#each a}}.{{/each}}", { a: items(10_000) })).toHaveLength(10_000);
      const e = await rejected(header("{{#each a}}.{{/each}}", { a: items(10_001) }));
      expect(e.code).toBe("LIMIT_EXCEEDED");
      expect(e.message).toBe("composition.header: more than 10,000 each iterations");
    });

    it("counts nested loops and mustache sections together", async () => {
      // 100 outer + 100 x 100 inner iterations
      const nested = await rejected(header("{{#each a}}{{#each @root.a}}.{{/each}}{{/each}}", { a: items(100) }));
      expect(nested.code).toBe("LIMIT_EXCEEDED");
      expect(await header("{{#each a}}{{#each @root.a}}.{{/each}}{{/each}}", { a: items(99) })).toHaveLength(99 * 99);
      expect((await rejected(header("{{#a}}.{{/a}}", { a: items(10_001) }))).code).toBe("LIMIT_EXCEEDED");
    });

    it("starts counting afresh for every render", async () => {
      for (let i = 0; i < 3; i++) expect(await header("{{#each a}}.{{/each}}", { a: items(6000) })).toHaveLength(6000);
    });

    it("refuses output over 1,000,000 characters, inside a loop or outside", async () => {
      expect(await header("{{x}}", { x: "y".repeat(1_000_000) })).toHaveLength(1_000_000);
      for (const [source, data] of [
        ["{{x}}{{x}}", { x: "y".repeat(600_000) }],
        ["{{#each a}}{{@root.x}}{{/each}}", { a: items(10), x: "y".repeat(200_000) }],
      ] as const) {
        const e = await rejected(renderMarginTemplate(source, data, "footer"));
        expect(e.code).toBe("LIMIT_EXCEEDED");
        expect(e.message).toBe("composition.footer: longer than 1,000,000 characters");
      }
    });
  });
});
