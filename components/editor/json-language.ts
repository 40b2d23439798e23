// JSON for the code editor: parse errors and validation against the document's JSON Schema
// (codemirror-json-schema: problems underlined at their path while typing, hover help, completion).
import { json as jsonLanguageSupport, jsonLanguage, jsonParseLinter } from "@codemirror/lang-json";
import { linter, lintGutter, lintKeymap } from "@codemirror/lint";
import { hoverTooltip, keymap } from "@codemirror/view";
import { handleRefresh, jsonCompletion, jsonSchemaHover, jsonSchemaLinter, stateExtensions, updateSchema } from "codemirror-json-schema";
import type { LanguageSupport } from "./code-editor";

export const json: LanguageSupport = {
  extensions: (schema) => [
    jsonLanguageSupport(),
    lintGutter(),
    linter(jsonParseLinter(), { delay: 250 }),
    linter(jsonSchemaLinter(), { needsRefresh: handleRefresh, delay: 250 }),
    jsonLanguage.data.of({ autocomplete: jsonCompletion() }),
    hoverTooltip(jsonSchemaHover()),
    stateExtensions(schema),
    keymap.of(lintKeymap),
  ],
  updateSchema,
};
