// JSON for the code editor: parse errors and validation against the document's JSON Schema
// (codemirror-json-schema: problems underlined at their path while typing, hover help, completion).
import { json as jsonLanguageSupport, jsonLanguage, jsonParseLinter } from "@codemirror/lang-json";
import { linter, lintGutter, lintKeymap } from "@codemirror/lint";
import { hoverTooltip, keymap } from "@codemirror/view";
import type { CompletionContext } from "@codemirror/autocomplete";
import { getJSONSchema, handleRefresh, jsonCompletion, jsonSchemaHover, jsonSchemaLinter, stateExtensions, updateSchema } from "codemirror-json-schema";
import type { LanguageSupport } from "./code-editor";

/**
 * Completion from the schema, and none while there is no schema (Sample data, a translation file).
 * why: without a schema codemirror-json-schema's source answers `[]`, not a completion result or
 * null, and CodeMirror then throws a TypeError on every keystroke.
 */
function completeFromSchema() {
  const complete = jsonCompletion();
  return (ctx: CompletionContext) => (getJSONSchema(ctx.state) ? complete(ctx) : null);
}

export const json: LanguageSupport = {
  extensions: (schema) => [
    jsonLanguageSupport(),
    lintGutter(),
    linter(jsonParseLinter(), { delay: 250 }),
    linter(jsonSchemaLinter(), { needsRefresh: handleRefresh, delay: 250 }),
    jsonLanguage.data.of({ autocomplete: completeFromSchema() }),
    hoverTooltip(jsonSchemaHover()),
    stateExtensions(schema),
    keymap.of(lintKeymap),
  ],
  updateSchema,
};
