import { describe, expect, it } from "vitest";
import { helperRunRequest, RUN_KEY } from "./helper-run";

const content = { templateHtml: "<p>{{total}}</p>", helpers: "function money(n, o) { return n + ' ' + o.hash.currency; }", header: "h", scripts: [{ name: "s", source: "function beforeRender() {}" }], stylesheets: ["a.css"], dataSchema: { type: "object" } };

describe("running one helper", () => {
  it("previews the draft with template.html replaced by one call, the arguments and options in the data beside the sample data", () => {
    const r = helperRunRequest("money", '[1234.5, "x"]', '{"currency": "EUR"}', content, { total: 3 });
    expect(r).toEqual({
      ok: true,
      body: {
        format: "html",
        content: { templateHtml: `{{{money ${RUN_KEY}.args.[0] ${RUN_KEY}.args.[1] currency=${RUN_KEY}.hash.[currency]}}}`, helpers: content.helpers },
        data: { total: 3, [RUN_KEY]: { args: [1234.5, "x"], hash: { currency: "EUR" } } },
      },
    });
    expect(helperRunRequest("money", "", "", content, {})).toMatchObject({ ok: true, body: { content: { templateHtml: "{{{money}}}" } } });
  });

  it("refuses arguments that are not a JSON array, options that are not an object or have unusable names, and no helper", () => {
    expect(helperRunRequest("money", "1, 2", "", content, {})).toMatchObject({ ok: false, message: expect.stringMatching(/^Arguments must be a JSON array/) });
    expect(helperRunRequest("money", "{}", "", content, {})).toMatchObject({ ok: false, message: expect.stringMatching(/^Arguments must be a JSON array/) });
    expect(helperRunRequest("money", "[]", "[1]", content, {})).toMatchObject({ ok: false, message: expect.stringMatching(/^Options must be a JSON object/) });
    expect(helperRunRequest("money", "[]", '{"a b": 1}', content, {})).toMatchObject({ ok: false, message: '"a b" cannot be an option\'s name (letters, digits, _ and -, not first a digit)' });
    expect(helperRunRequest("", "[]", "", content, {})).toMatchObject({ ok: false, message: "Pick a helper to run" });
  });
});
