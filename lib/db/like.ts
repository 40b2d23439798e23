/** An ILIKE pattern matching text that contains `text`: its `%`, `_` and `\` are literal characters, not wildcards. */
export const likeContains = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
