import * as fontkit from "fontkit";

/** What parsing a font found: its problem, or the code points it covers (sorted). */
export type ParsedFont = { problem?: string; codePoints: Uint32Array };

/**
 * Parses a font with fontkit and reads what a browser needs of it (character map, glyph count,
 * metrics, the first and last glyph's outline), so a damaged table is found here rather than as
 * silently missing text. Runs in a helper process (lib/offload): a caller's font may make fontkit
 * allocate or loop without bound (a character map group spanning every code point).
 */
export function parseFont(bytes: Uint8Array): ParsedFont {
  try {
    const declared = declaredTableBytes(bytes);
    if (declared > MAX_FONT_TABLE_BYTES) {
      return { problem: `is too large: its compressed tables declare ${declared} bytes; at most ${MAX_FONT_TABLE_BYTES} are read`, codePoints: new Uint32Array() };
    }
    const f = fontkit.create(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    if ("fonts" in f) return { problem: "is a font collection, which pages cannot use", codePoints: new Uint32Array() };
    const codePoints = Uint32Array.from(f.characterSet).sort();
    if (codePoints.length === 0) return { problem: "is damaged: its font maps no characters", codePoints };
    if (!(f.numGlyphs > 0) || !(f.unitsPerEm > 0)) return { problem: "is damaged: its font has no glyphs or no metrics", codePoints };
    void f.glyphForCodePoint(codePoints[0]!).path;
    void f.getGlyph(f.numGlyphs - 1).path;
    return { codePoints };
  } catch (e) {
    return { problem: `is damaged: its font tables cannot be read (${(e as Error).message.slice(0, 120)})`, codePoints: new Uint32Array() };
  }
}

/**
 * The most a WOFF or WOFF2 font's tables may decompress to. why: fontkit allocates what the file
 * declares before decompressing, outside the helper's heap limit; the largest real fonts (CJK) are
 * a few tens of MiB uncompressed.
 */
export const MAX_FONT_TABLE_BYTES = 64 * 1024 * 1024;

/** What a WOFF or WOFF2 font's directory says its tables decompress to (0 for other fonts, or a directory cut short). */
export function declaredTableBytes(b: Uint8Array): number {
  const view = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const tag = String.fromCharCode(...b.subarray(0, 4));
  try {
    const numTables = view.getUint16(12);
    if (tag === "wOFF") {
      let sum = 0;
      for (let i = 0; i < numTables; i++) sum += view.getUint32(44 + i * 20 + 12); // origLength
      return sum;
    }
    if (tag !== "wOF2") return 0;
    let at = 48;
    const base128 = () => {
      let n = 0;
      for (let i = 0; i < 5; i++) {
        const c = view.getUint8(at++);
        n = n * 128 + (c & 0x7f);
        if (!(c & 0x80)) return n;
      }
      return n;
    };
    let sum = 0;
    for (let i = 0; i < numTables; i++) {
      const flags = view.getUint8(at++);
      const known = flags & 0x3f;
      if (known === 0x3f) at += 4; // an arbitrary tag follows
      const length = base128();
      const version = flags >>> 6;
      // glyf (10) and loca (11) are transformed unless version 3, every other table only with a version
      const transformed = known === 10 || known === 11 ? version === 0 : version !== 0;
      sum += transformed ? base128() : length;
    }
    return sum;
  } catch {
    return 0; // cut short: fontkit says what is wrong with it
  }
}
