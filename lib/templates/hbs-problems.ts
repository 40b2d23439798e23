// Handlebars' parse errors as a person reads them. Handlebars answers in its grammar's words
// ("Expecting 'CLOSE_RAW_BLOCK', 'CLOSE', 'CLOSE_UNESCAPED', … got 'INVALID'") under a copy of the
// line with its line breaks removed and a caret; the editor marks the line itself, so it says what
// to write and where instead. Pure: the browser imports it.

/** What a person writes for each of the grammar's tokens. */
const tokenWords: Record<string, string> = {
  CLOSE: "}}",
  CLOSE_UNESCAPED: "}}}",
  CLOSE_RAW_BLOCK: "}}}}",
  OPEN_SEXPR: "(",
  CLOSE_SEXPR: ")",
  ID: "a name",
  STRING: "a string",
  NUMBER: "a number",
  BOOLEAN: "true or false",
  UNDEFINED: "undefined",
  NULL: "null",
  DATA: "an @name",
  SEP: ". or /",
  EQUALS: "=",
  OPEN_BLOCK_PARAMS: "as |name|",
  CLOSE_BLOCK_PARAMS: "|",
  OPEN: "{{",
  OPEN_BLOCK: "{{#",
  OPEN_ENDBLOCK: "{{/…}}",
  OPEN_INVERSE: "{{^",
  OPEN_INVERSE_CHAIN: "{{else …}}",
  INVERSE: "{{else}}",
  OPEN_PARTIAL: "{{>",
  OPEN_PARTIAL_BLOCK: "{{#>",
  OPEN_UNESCAPED: "{{{",
  OPEN_RAW_BLOCK: "{{{{",
  END_RAW_BLOCK: "{{{{/…}}}}",
  COMMENT: "a comment",
  CONTENT: "text",
  EOF: "the end of the file",
  INVALID: "a character Handlebars does not expect there",
};

const words = (token: string) => tokenWords[token] ?? token.toLowerCase().replaceAll("_", " ");
const listOf = (items: string[]) => new Intl.ListFormat("en", { type: "disjunction" }).format(items);

/**
 * A Handlebars parse error in words, with the line kept first ("Parse error on line 2: …", which is
 * how the editor finds the line); any other message unchanged. A prefix naming the file ("template: ")
 * stays.
 */
export function readableHbsError(message: string): string {
  const m = /^(.*?)Parse error on line (\d+):\n(.*)\n(-*)\^\nExpecting (.*), got '(\w+)'\s*$/s.exec(message);
  if (!m) return message;
  const [, prefix, line, snippet, dashes, expectingList, got] = m as unknown as [string, string, string, string, string, string, string];
  const expecting = [...expectingList.matchAll(/'(\w+)'/g)].map((x) => x[1]!);
  const caret = dashes.length;
  // The expression the caret is in: from its {{ to the caret, when there is one close by.
  const open = snippet.lastIndexOf("{{", caret);
  const end = caret + (got.startsWith("CLOSE") ? words(got).length : 1);
  const near = open >= 0 && caret - open <= 60 ? snippet.slice(open, end) : snippet.slice(Math.max(0, caret - 20), end).replace(/^\.\.\./, "…");
  const at = `Parse error on line ${line}`;
  if (got === "EOF" && expecting.includes("OPEN_ENDBLOCK")) return `${prefix}${at}: the file ends inside a block; close it with {{/…}}.`;
  if (got === "EOF") return `${prefix}${at}: the file ends inside “${near.trim()}”; it is not finished.`;
  const closers = expecting.filter((t) => t === "CLOSE" || t === "CLOSE_UNESCAPED" || t === "CLOSE_RAW_BLOCK");
  // An expression with no } after it at all: Handlebars cannot read the name in it either.
  const unclosed = got === "INVALID" && open >= 0 && !snippet.slice(open).includes("}");
  if ((closers.length && (got === "INVALID" || got === "CONTENT")) || unclosed) {
    const close = open >= 0 && snippet.startsWith("{{{{", open) ? "}}}}" : open >= 0 && snippet.startsWith("{{{", open) ? "}}}" : "}}";
    return `${prefix}${at}: “${unclosed ? snippet.slice(open) : near}” is not closed; end it with ${close}.`;
  }
  const wanted = [...new Set(expecting.map(words))];
  const shown = wanted.length > 5 ? [...wanted.slice(0, 4), "…"] : wanted;
  return `${prefix}${at}, at “${near}”: expected ${listOf(shown)}, found ${words(got)}.`;
}
