import { describe, expect, it } from "vitest";
import { localizedData, translationFor } from "./translations";

const files = { de: { hi: "Hallo" }, "de-CH": { hi: "Grüezi" }, "zh-Hant": { hi: "你好" }, EN: { hi: "Hello" } };

describe("translationFor", () => {
  it("takes the exact locale, else each shorter form of it, ignoring letter case", () => {
    expect(translationFor(files, "de-CH")).toEqual({ hi: "Grüezi" });
    expect(translationFor(files, "de-AT")).toEqual({ hi: "Hallo" });
    expect(translationFor(files, "DE")).toEqual({ hi: "Hallo" });
    expect(translationFor(files, "de-CH-1996")).toEqual({ hi: "Grüezi" });
    expect(translationFor(files, "zh-Hant-TW")).toEqual({ hi: "你好" });
    expect(translationFor(files, "en-US")).toEqual({ hi: "Hello" });
  });

  it("finds nothing for another language, for none, or from a longer tag than the render's", () => {
    expect(translationFor(files, "fr-FR")).toBeUndefined();
    expect(translationFor(files, "zh")).toBeUndefined();
    expect(translationFor(undefined, "de")).toBeUndefined();
  });
});

describe("localizedData", () => {
  it("adds the file as localization without changing the caller's object", () => {
    const data = { n: 1 };
    expect(localizedData(files, data, "de-AT")).toEqual({ n: 1, localization: { hi: "Hallo" } });
    expect(data).toEqual({ n: 1 });
  });

  it("keeps the data's own localization, even null, and adds nothing without a file", () => {
    expect(localizedData(files, { localization: null }, "de")).toEqual({ localization: null });
    expect(localizedData(files, { localization: { hi: "mine" } }, "de")).toEqual({ localization: { hi: "mine" } });
    expect(localizedData(files, { n: 1 }, "fr")).toEqual({ n: 1 });
  });
});
