// JSON as the template editor's tabs hold it, as text: what is wrong with a text that does not parse,
// in words and at a line and column, and the line a data path (`items.0.amount`, as the server's
// data schema check names it) points to. Pure: the browser imports it.
// why a scanner of our own: JSON.parse's messages differ by engine and version ("Unexpected token }
// in JSON at position 18", "Expected ',' or '}' after property value in JSON at position 18 (line 2
// column 5)", "Unexpected token '}', "{"a":}" is not valid JSON"), name a position in characters or
// none at all, and speak of tokens rather than of what to write.

/** Where a text stops being JSON, and why, in words. */
export type JsonProblem = { line: number; column: number; message: string };

class Stop extends Error {
  constructor(
    readonly at: number,
    readonly why: string,
  ) {
    super(why);
  }
}

/**
 * Walks a JSON text; `onValue(path, offset)` hears where each value starts (an object member at its
 * key). Throws Stop at the first place the text is not JSON.
 */
function walk(text: string, onValue?: (path: string[], at: number) => boolean | void): void {
  let i = 0;
  const space = () => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const str = (what: string): string => {
    if (text[i] === "'") throw new Stop(i, "strings and names take double quotes, not single ones");
    if (text[i] !== '"') throw new Stop(i, `expected ${what} in double quotes`);
    const start = i++;
    while (i < text.length && text[i] !== '"') {
      const c = text[i]!;
      if (c === "\\") {
        const e = text[i + 1];
        if (e === "u" ? !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) : !e || !'"\\/bfnrt'.includes(e)) throw new Stop(i, "a backslash in a string starts an escape such as \\n, \\\" or \\u00e9");
        i += e === "u" ? 6 : 2;
        continue;
      }
      if (c < " ") throw new Stop(i, c === "\n" ? "the string is not closed on its line (write \\n for a line break inside a string)" : "a control character inside a string (write it as an escape such as \\t)");
      i++;
    }
    if (i >= text.length) throw new Stop(start, "the string is not closed: a \" is missing");
    i++;
    return JSON.parse(text.slice(start, i)) as string;
  };
  const value = (path: string[], at: number): void => {
    if (onValue?.(path, at)) throw new Found();
    space();
    const c = text[i];
    if (c === undefined) throw new Stop(i, "the text ends where a value should be");
    if (c === "{") {
      i++;
      space();
      if (text[i] === "}") return void i++;
      for (;;) {
        space();
        if (text[i] === "}") throw new Stop(i, "a comma before } : remove it, JSON allows none after the last member");
        const keyAt = i;
        const key = str("a property name");
        space();
        if (text[i] !== ":") throw new Stop(i, `expected : after the property name "${key}"`);
        i++;
        value([...path, key], keyAt);
        space();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "}") return void i++;
        throw new Stop(i, i >= text.length ? "the text ends before the object does: a } is missing" : "expected , or } after a property's value");
      }
    }
    if (c === "[") {
      i++;
      space();
      if (text[i] === "]") return void i++;
      for (let n = 0; ; n++) {
        space();
        if (text[i] === "]") throw new Stop(i, "a comma before ] : remove it, JSON allows none after the last item");
        value([...path, String(n)], i);
        space();
        if (text[i] === ",") {
          i++;
          continue;
        }
        if (text[i] === "]") return void i++;
        throw new Stop(i, i >= text.length ? "the text ends before the list does: a ] is missing" : "expected , or ] after an item");
      }
    }
    if (c === '"') return void str("a string");
    const literal = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i));
    if (literal && !/^[A-Za-z0-9_$]/.test(text.slice(i + literal[0].length))) return void (i += literal[0].length);
    if (c === "'") throw new Stop(i, "strings and names take double quotes, not single ones");
    if (c === "}" || c === "]" || c === ",") throw new Stop(i, `expected a value before ${c}`);
    throw new Stop(i, /[A-Za-z_$]/.test(c) ? "expected a value: a word other than true, false or null takes double quotes" : "expected a value (a string, number, object, list, true, false or null)");
  };
  value([], 0);
  space();
  if (i < text.length) throw new Stop(i, "more text after the end of the JSON: one value only, or a comma or bracket too many");
}

class Found extends Error {}

const lineAndColumn = (text: string, at: number) => {
  const before = text.slice(0, at).split("\n");
  return { line: before.length, column: before[before.length - 1]!.length + 1 };
};

/** Why `text` is not JSON, at its line and column; undefined when it is. */
export function jsonProblem(text: string): JsonProblem | undefined {
  try {
    walk(text);
    return undefined;
  } catch (e) {
    if (!(e instanceof Stop)) throw e;
    return { ...lineAndColumn(text, e.at), message: e.why };
  }
}

/** `JSON.parse`, or the problem in words: "line 3, column 5: expected , or } after a property's value". */
export function parseJsonText(text: string): { ok: true; value: unknown } | { ok: false; line: number; message: string } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (e) {
    const p = jsonProblem(text);
    return p ? { ok: false, line: p.line, message: `line ${p.line}, column ${p.column}: ${p.message}` } : { ok: false, line: 1, message: (e as Error).message };
  }
}

/**
 * The line of the value a dot-joined data path names in a JSON text (an object member's line is its
 * key's); the nearest enclosing value's when the path goes on past what the text holds (a missing
 * property); undefined for the whole document, or a text that does not parse.
 */
export function lineOfJsonPath(text: string, path: string): number | undefined {
  const want = path === "" ? [] : path.split(".");
  let best: { depth: number; at: number } | undefined;
  try {
    walk(text, (at, offset) => {
      if (at.length === 0 || at.length > want.length || at.some((k, n) => k !== want[n])) return false;
      if (!best || at.length > best.depth) best = { depth: at.length, at: offset };
      return at.length === want.length;
    });
  } catch (e) {
    if (!(e instanceof Found)) return undefined;
  }
  return best ? lineAndColumn(text, best.at).line : undefined;
}
