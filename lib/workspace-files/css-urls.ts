/**
 * The file references of a stylesheet: `url(...)` values (quoted or not) and `@import "..."`.
 * Comments are skipped. Used to resolve fonts and images a workspace stylesheet names by path, and
 * to tell which stylesheets use a file.
 */
export type CssRef = { url: string; start: number; end: number; kind: "url" | "import" };

const pattern = /\/\*[\s\S]*?\*\/|\burl\(\s*(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)'|([^)"'\s]*))\s*\)|@import\s+(?:"((?:[^"\\\n]|\\.)*)"|'((?:[^'\\\n]|\\.)*)')/gi;

/** Every reference with its span in `css` (the whole `url(...)` or the quoted string of an @import). */
export function cssRefs(css: string): CssRef[] {
  const out: CssRef[] = [];
  for (const m of css.matchAll(pattern)) {
    if (m[0].startsWith("/*")) continue;
    const urlValue = m[1] ?? m[2] ?? m[3];
    if (urlValue !== undefined) {
      out.push({ url: unescapeCss(urlValue), start: m.index, end: m.index + m[0].length, kind: "url" });
      continue;
    }
    const imported = m[4] ?? m[5];
    if (imported !== undefined) out.push({ url: unescapeCss(imported), start: m.index, end: m.index + m[0].length, kind: "import" });
  }
  return out;
}

/** Whether a reference names a workspace path (not data:, not an absolute URL with a scheme, not a fragment). */
export function isWorkspacePath(url: string): boolean {
  return url !== "" && !url.startsWith("#") && !/^[a-z][a-z0-9+.-]*:/i.test(url) && !url.startsWith("//");
}

function unescapeCss(s: string): string {
  return s.replace(/\\(.)/g, "$1");
}
