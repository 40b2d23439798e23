import { beforeAll, describe, expect, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/factories";
import { api } from "@/lib/testing/http";
import { pdfText } from "@/lib/testing/pdf";
import { createRender, download, waitForState } from "@/lib/testing/renders";

// font_glyphs_missing: a render whose text has characters no available font covers still
// succeeds, and its record says which (result.warnings); text every font covers warns nothing.
// Chinese, Japanese and Korean come from the system's Noto CJK fonts.

type Warning = { diagnostic: string; message: string };
type Rendered = { id: string; state: string; result?: { downloadUrl: string; warnings?: Warning[] }; error?: unknown };

let key: string;

beforeAll(async () => {
  key = (await createTestWorkspace()).key;
});

/** Renders and waits for the end: the answer of POST (from the ended notice), the PDF's text, and the record as GET reads it. */
async function rendered(document: Record<string, unknown>) {
  const res = await createRender(key, { document, waitMs: 20_000 });
  expect([200, 202], res.text).toContain(res.status);
  const answered = (res.status === 200 ? res.body : await waitForState(key, res.body.id, undefined, { timeout: 40_000 })) as Rendered;
  expect(answered.state, JSON.stringify(answered.error)).toBe("succeeded");
  const file = await download(answered.result!.downloadUrl);
  const read = (await api(`/v1/renders/${answered.id}`, { key })).body as Rendered;
  return { answered, read, text: pdfText(file.bytes) };
}

describe("characters no font covers (font_glyphs_missing)", () => {
  it("Chinese, Japanese, Korean and U+FFE5 come out, with no warning", async () => {
    const { answered, read, text } = await rendered({ html: "<p>中文 汉字 日本語 ひらがな カタカナ 한국어 \uFFE5 100 ¥ 5 €</p>" });
    for (const s of ["中文", "汉字", "日本語", "ひらがな", "カタカナ", "한국어", "\uFFE5", "¥", "€"]) expect(text).toContain(s);
    expect(answered.result).not.toHaveProperty("warnings");
    expect(read.result).not.toHaveProperty("warnings");
  });

  it("a Private Use Area character and an unassigned one: the render succeeds and its warning names them", async () => {
    const { answered, read, text } = await rendered({ html: "<p>before \uE000 middle \u0378 after \uE000</p>" });
    expect(text).toContain("before");
    const warnings = [{ diagnostic: "font_glyphs_missing", message: "No font covers 2 characters: U+E000, U+0378" }];
    expect(answered.result!.warnings).toEqual(warnings); // from the ended notice
    expect(read.result!.warnings).toEqual(warnings); // from the record
    const listed = (await api("/v1/renders?limit=100", { key })).body.items.find((r: Rendered) => r.id === read.id);
    expect(listed.result.warnings).toEqual(warnings);
  });

  it("reads the header and footer, text that scripts write, and form values; not script or style source", async () => {
    const { answered } = await rendered({
      html: `<style>/* \uE010 */ p::after { content: ""; }</style>
        <p>visible</p><input value="typed \uE013"><input type="hidden" value="\uE014">
        <script>/* \uE011 */ document.body.append("written \uE012");</script>`,
      header: "<span>head \uE015</span>",
      footer: "<span>Page {{pageNumber}} \uE016</span>",
    });
    expect(answered.result!.warnings).toEqual([{ diagnostic: "font_glyphs_missing", message: "No font covers 4 characters: U+E012, U+E013, U+E015, U+E016" }]);
  });

  it("does not count zero-width joiners, variation selectors, soft hyphens or bidi marks", async () => {
    const { answered } = await rendered({ html: "<p>co\u00ADoperate \u200D\u200B\u200E\uFE0F\u2060 done</p>" });
    expect(answered.result).not.toHaveProperty("warnings");
  });

  it("a page that breaks the globals the check uses still renders (it only loses its own warning)", async () => {
    const { answered, text } = await rendered({ html: "<p>sabotage \uE000</p><script>window.Set = null; window.RegExp = null;</script>" });
    expect(text).toContain("sabotage");
    expect(answered.result).not.toHaveProperty("warnings");
  });

  it("names at most 20 characters and counts the rest", async () => {
    const pua = Array.from({ length: 25 }, (_, i) => String.fromCodePoint(0xe100 + i)).join(" ");
    const { answered } = await rendered({ html: `<p>${pua}</p>` });
    const names = Array.from({ length: 20 }, (_, i) => `U+${(0xe100 + i).toString(16).toUpperCase()}`).join(", ");
    expect(answered.result!.warnings).toEqual([{ diagnostic: "font_glyphs_missing", message: `No font covers 25 characters: ${names}, and 5 more` }]);
  });
});
