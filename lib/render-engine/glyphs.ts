import { execFile } from "node:child_process";
import { log } from "../log";

/**
 * font_glyphs_missing (spec: Errors): characters of a document that no available font covers.
 * Chromium falls back through every font fontconfig knows, so the available fonts are the system
 * set (its coverage read once per worker from fontconfig) plus the render's own font assets (their
 * character maps). The page hands over the distinct characters of its text beyond Latin-1
 * (render.ts, PAGE_SCRIPT); checking each is one bit lookup.
 */

/** Which code points a set of fonts covers: one bit per code point of Unicode (136 KiB). */
export class Coverage {
  private readonly bits = new Uint32Array(0x110000 >>> 5);

  add(from: number, to = from) {
    let cp = Math.max(0, from);
    const last = Math.min(to, 0x10ffff);
    for (; cp <= last && (cp & 31) !== 0; cp++) this.bits[cp >>> 5]! |= 1 << (cp & 31);
    for (; cp + 31 <= last; cp += 32) this.bits[cp >>> 5] = 0xffffffff; // whole words of a range at once
    for (; cp <= last; cp++) this.bits[cp >>> 5]! |= 1 << (cp & 31);
  }

  has(cp: number): boolean {
    return cp >= 0 && cp <= 0x10ffff && (this.bits[cp >>> 5]! & (1 << (cp & 31))) !== 0;
  }
}

/** Coverage from fontconfig's charset lists, one font a line: hex code points and ranges such as `20-7e a0 e000-e0ff`. */
export function parseFcCharsets(text: string): Coverage {
  const c = new Coverage();
  for (const m of text.matchAll(/([0-9a-f]+)(?:-([0-9a-f]+))?/gi)) {
    const from = parseInt(m[1]!, 16);
    c.add(from, m[2] === undefined ? from : parseInt(m[2], 16));
  }
  return c;
}

let system: Promise<Coverage | undefined> | undefined;

/**
 * The system fonts' coverage, read from fontconfig once per worker (about 40 ms; BrowserPool.start
 * asks for it so no render waits). Undefined when fontconfig cannot be asked: the check is then
 * skipped, never guessed.
 */
export function systemCoverage(): Promise<Coverage | undefined> {
  system ??= new Promise((resolve) => {
    execFile("fc-list", [":scalable=true", "--format", "%{charset}\n"], { maxBuffer: 64 * 1024 * 1024 }, (err, stdout) => {
      if (err) {
        log().error({ err }, "fc-list failed: renders are not checked for characters no font covers (font_glyphs_missing)");
        return resolve(undefined);
      }
      resolve(parseFcCharsets(stdout));
    });
  });
  return system;
}

/**
 * Characters that need no glyph: white space, control characters, lone surrogates, and
 * Default_Ignorable_Code_Point (soft hyphen, zero-width joiner and space, bidi marks, variation
 * selectors, tags), which fonts are not expected to draw.
 */
const NEEDS_NO_GLYPH = /^[\p{White_Space}\p{Cc}\p{Cs}\p{Default_Ignorable_Code_Point}]$/u;

/**
 * The code points among `chars` that no font covers: neither the system set nor one of `fonts`
 * (the code points of the render's font assets, each sorted ascending). In the order given.
 */
export function uncovered(chars: string, system: Coverage, fonts: readonly Uint32Array[] = []): number[] {
  const out: number[] = [];
  for (const ch of chars) {
    const cp = ch.codePointAt(0)!;
    if (cp <= 0xff || system.has(cp) || NEEDS_NO_GLYPH.test(ch)) continue;
    if (fonts.some((f) => binaryHas(f, cp))) continue;
    out.push(cp);
  }
  return out;
}

function binaryHas(sorted: Uint32Array, cp: number): boolean {
  let lo = 0;
  let hi = sorted.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const v = sorted[mid]!;
    if (v === cp) return true;
    if (v < cp) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/** How many missing characters a warning names; the rest are counted. */
const NAMED = 20;

export const codePointName = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, "0")}`;

/** The warning of a render with characters no font covers: "No font covers 2 characters: U+E000, U+0378". */
export function glyphsMissingWarning(missing: readonly number[]): { diagnostic: "font_glyphs_missing"; message: string } {
  const n = missing.length;
  const named = missing.slice(0, NAMED).map(codePointName).join(", ");
  const more = n > NAMED ? `, and ${n - NAMED} more` : "";
  return { diagnostic: "font_glyphs_missing", message: `No font covers ${n} character${n === 1 ? "" : "s"}: ${named}${more}` };
}
