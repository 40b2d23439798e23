// Stands in for @shikijs/markdown-it/core (see shiki-core.ts): never used, since no highlighter arrives.
export function fromHighlighter(): () => void {
  return () => {};
}
const empty = {};
export default empty;
