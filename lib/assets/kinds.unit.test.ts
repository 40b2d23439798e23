import { describe, expect, it } from "vitest";
import { kindOfFile } from "./kinds";
import { filenameProblem, RegisterAssetInput } from "./schemas";

describe("asset kinds and names", () => {
  it("knows a file's kind and media type by its extension, in any case", () => {
    expect(kindOfFile("Logo.PNG")).toEqual({ kind: "image", mediaType: "image/png" });
    expect(kindOfFile("photo.jpeg")).toEqual({ kind: "image", mediaType: "image/jpeg" });
    expect(kindOfFile("Inter.woff2")).toEqual({ kind: "font", mediaType: "font/woff2" });
    expect(kindOfFile("brand.css")).toEqual({ kind: "stylesheet", mediaType: "text/css" });
    expect(kindOfFile("notes.txt")).toBeUndefined();
    expect(kindOfFile("no-extension")).toBeUndefined();
  });

  it("refuses names that are paths, empty, too long, with control characters or padded", () => {
    expect(filenameProblem("logo.png")).toBeUndefined();
    expect(filenameProblem("Größe (final) – 2.png")).toBeUndefined();
    for (const bad of ["", "a/b", "a\\b", "..", ".", "x".repeat(256), "a\u0007b", "a\u0085b", " logo.png", "logo.png "]) {
      expect(filenameProblem(bad), JSON.stringify(bad)).toEqual(expect.any(String));
    }
  });

  it("checks the media type against the kind", () => {
    const base = { kind: "font", filename: "a.woff2", size: 1, sha256: "a".repeat(64) };
    expect(RegisterAssetInput.safeParse({ ...base, mediaType: "font/woff2" }).success).toBe(true);
    const r = RegisterAssetInput.safeParse({ ...base, mediaType: "image/png" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]?.path).toEqual(["mediaType"]);
  });
});
