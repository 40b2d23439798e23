// Stands in for shiki/core in the browser bundle (next.config.ts turbopack.resolveAlias).
// why: codemirror-json-schema colours code blocks in its hover texts with shiki, whose Oniguruma
// WebAssembly and grammars (about 1 MB) kept the editor from appearing for seconds. Our schema's
// descriptions hold no code blocks, so the highlighter never arrives and markdown renders plain.
export function createHighlighterCore(): Promise<never> {
  return new Promise(() => {});
}
const empty = {};
export default empty;
