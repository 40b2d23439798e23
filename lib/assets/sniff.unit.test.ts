import zlib from "node:zlib";
import { describe, expect, it } from "vitest";
import { jpeg, png, readFont } from "../testing/images";
import { assetClass, sniff } from "./sniff";

const svg = (s: string) => Buffer.from(s, "utf8");

describe("sniff: bytes against their declared media type", () => {
  it("accepts each type's real files", async () => {
    expect(sniff(png(3, 2), "image/png")).toBeUndefined();
    expect(sniff(await jpeg(20, 10), "image/jpeg")).toBeUndefined();
    expect(sniff(svg('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>'), "image/svg+xml")).toBeUndefined();
    expect(
      sniff(
        svg(`\ufeff<?xml version="1.0" encoding="UTF-8"?>\n<!-- logo -->\n<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "x.dtd" [ <!ENTITY a "b"> ]>\n<svg:svg xmlns:svg="http://www.w3.org/2000/svg"></svg:svg>`),
        "image/svg+xml",
      ),
    ).toBeUndefined();
    expect(sniff(Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><svg><text>\xe9</text></svg>', "latin1"), "image/svg+xml")).toBeUndefined();
    expect(sniff(readFont("interWoff2"), "font/woff2")).toBeUndefined();
    expect(sniff(readFont("interWoff"), "font/woff")).toBeUndefined();
    expect(sniff(readFont("dejaVuTtf"), "font/ttf")).toBeUndefined();
    // .otf and .ttf are used for either outline format: both media types take both.
    expect(sniff(readFont("dejaVuTtf"), "font/otf")).toBeUndefined();
    expect(sniff(Buffer.from("body { font-family: 'Zürich'; }"), "text/css")).toBeUndefined();
    expect(sniff(Buffer.from("\ufeff@charset 'utf-8'; p{}"), "text/css")).toBeUndefined();
  });

  it("names what the bytes hold when they are another kind of file", async () => {
    const jpg = await jpeg(8, 8);
    expect(sniff(jpg, "image/png")).toBe("is declared as image/png but holds a JPEG image");
    expect(sniff(png(2, 2), "image/jpeg")).toBe("is declared as image/jpeg but holds a PNG image");
    expect(sniff(png(2, 2), "font/woff2")).toBe("is declared as font/woff2 but holds a PNG image");
    expect(sniff(readFont("interWoff2"), "font/ttf")).toBe("is declared as font/ttf but holds a WOFF2 font");
    expect(sniff(readFont("interWoff"), "font/woff2")).toBe("is declared as font/woff2 but holds a WOFF font");
    expect(sniff(readFont("dejaVuTtf"), "image/svg+xml")).toBe("is declared as image/svg+xml but holds a TrueType font");
    expect(sniff(Buffer.from("%PDF-1.7 ..."), "image/png")).toBe("is declared as image/png but holds a PDF document");
    expect(sniff(Buffer.from("hello"), "image/png")).toBe("is declared as image/png but holds something else");
    expect(sniff(Buffer.alloc(0), "font/woff2")).toBe("is declared as font/woff2 but is empty");
    expect(sniff(svg("<html><body>not svg</body></html>"), "image/svg+xml")).toBe("is declared as image/svg+xml but its root element is not <svg>");
    expect(sniff(svg("just text"), "image/svg+xml")).toBe("is declared as image/svg+xml but is not XML");
    expect(sniff(png(2, 2), "text/css")).toBe("is declared as text/css but holds a PNG image");
  });

  it("finds damage in the structure: cut files, garbage after a valid header, bad checksums", () => {
    const good = png(4, 4);
    // A valid signature and IHDR, then garbage: the next chunk's length runs past the end.
    const garbage = Buffer.concat([good.subarray(0, 33), Buffer.from("garbage that is not a chunk".repeat(4))]);
    expect(sniff(garbage, "image/png")).toMatch(/^is damaged: its PNG chunk .* runs past the end of the file$/);
    expect(sniff(good.subarray(0, good.length - 12), "image/png")).toBe("is damaged: it ends before the PNG image does");
    const flipped = Buffer.from(good);
    flipped[45] = flipped[45]! ^ 0xff; // inside the image data
    expect(sniff(flipped, "image/png")).toBe('is damaged: its PNG chunk "IDAT" fails its checksum');
    // Sound structure, pixel data that is not the image's: browsers would draw an empty image.
    expect(sniff(png(4, 4, undefined, zlib.deflateSync(Buffer.from("x"))), "image/png")).toBe("is damaged: its PNG image data is shorter than the image");
    expect(sniff(png(4, 4, undefined, Buffer.from("not zlib at all")), "image/png")).toBe("is damaged: its PNG image data cannot be decompressed");
    expect(sniff(png(4, 4, undefined, zlib.deflateSync(Buffer.alloc(4 * 13)).subarray(0, 6)), "image/png")).toBe("is damaged: its PNG image data cannot be decompressed");

    const ttf = readFont("dejaVuTtf");
    expect(sniff(ttf.subarray(0, Math.floor(ttf.length * 0.6)), "font/ttf")).toMatch(/^is damaged: its font table ".{4}" lies past the end of the file \(it was cut short\)$/);
    expect(sniff(ttf.subarray(0, 8), "font/ttf")).toBe("is damaged: it ends inside its font header");
    const woff2 = readFont("interWoff2");
    expect(sniff(woff2.subarray(0, 5000), "font/woff2")).toBe(`is damaged: its WOFF2 header says ${woff2.length} bytes, the file has 5000 (it was cut short or padded)`);
    const woff = readFont("interWoff");
    expect(sniff(woff.subarray(0, 5000), "font/woff")).toMatch(/^is damaged: its WOFF header says \d+ bytes, the file has 5000/);
    expect(sniff(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a]), "image/jpeg")).toBe("is damaged: a JPEG segment runs past the end of the file");
  });

  it("requires UTF-8 for stylesheets and SVG", () => {
    expect(sniff(Buffer.from([0x70, 0x7b, 0xc3, 0x28, 0x7d]), "text/css")).toBe("is not valid UTF-8 text");
    expect(sniff(Buffer.from([0x3c, 0x73, 0x76, 0x67, 0x3e, 0xc3, 0x28]), "image/svg+xml")).toBe("is not valid UTF-8 text");
  });

  it("leaves media types a page never loads alone, and classes the rest", () => {
    expect(sniff(Buffer.from("PK\x03\x04"), "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")).toBeUndefined();
    expect(assetClass("font/woff2")).toBe("font");
    expect(assetClass("image/svg+xml")).toBe("image");
    expect(assetClass("text/css")).toBe("stylesheet");
    expect(assetClass("application/pdf")).toBeUndefined();
  });
});
