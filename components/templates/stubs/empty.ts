// Stands in for shiki's themes and grammars (see shiki-core.ts).
const empty = {};
export default empty;
