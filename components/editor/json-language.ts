// JSON for the code editor: parse errors and validation against the document's JSON Schema
// (codemirror-json-schema: problems underlined at their path while typing, hover help, completion).
import { json as jsonLanguageSupport, jsonLanguage } from "@codemirror/lang-json";
import { linter, lintGutter, lintKeymap, type Diagnostic } from "@codemirror/lint";
import { hoverTooltip, keymap, type EditorView } from "@codemirror/view";
import type { CompletionContext } from "@codemirror/autocomplete";
import { getJSONSchema, handleRefresh, jsonCompletion, jsonSchemaHover, jsonSchemaLinter, stateExtensions, updateSchema } from "codemirror-json-schema";
import { disableErrorLogging } from "best-effort-json-parser";
import { jsonProblem } from "@/lib/templates/json-text";
import type { LanguageSupport } from "./code-editor";

// why: codemirror-json-schema reads a document that does not parse yet (a key half typed) with
// best-effort-json-parser, which logs every such read with console.error ("parsed json with extra
// tokens"); what does not parse is already underlined by jsonParseLinter.
disableErrorLogging();

/**
 * Completion from the schema, and none while there is no schema (Sample data, a translation file).
 * why: without a schema codemirror-json-schema's source answers `[]`, not a completion result or
 * null, and CodeMirror then throws a TypeError on every keystroke.
 */
function completeFromSchema() {
  const complete = jsonCompletion();
  return (ctx: CompletionContext) => (getJSONSchema(ctx.state) ? complete(ctx) : null);
}

/**
 * Where the text stops being JSON, in words ("expected , or } after a property's value") at the
 * character; nothing for an empty text (an empty data schema is none). why not jsonParseLinter: it
 * shows the browser's JSON.parse message ("Unexpected token } in JSON at position 18"), which
 * differs by browser and speaks of tokens and positions.
 */
function syntaxLinter(view: EditorView): Diagnostic[] {
  const doc = view.state.doc;
  const text = doc.toString();
  if (text.trim() === "") return [];
  const p = jsonProblem(text);
  if (!p) return [];
  const from = Math.min(doc.line(p.line).from + p.column - 1, doc.length);
  return [{ from, to: Math.min(from + 1, doc.length), severity: "error", message: p.message }];
}

export const json: LanguageSupport = {
  extensions: (schema) => [
    jsonLanguageSupport(),
    lintGutter(),
    linter(syntaxLinter, { delay: 250 }),
    linter(jsonSchemaLinter(), { needsRefresh: handleRefresh, delay: 250 }),
    jsonLanguage.data.of({ autocomplete: completeFromSchema() }),
    hoverTooltip(jsonSchemaHover()),
    stateExtensions(schema),
    keymap.of(lintKeymap),
  ],
  updateSchema,
};
