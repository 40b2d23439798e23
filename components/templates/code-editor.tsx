// CodeEditor: CodeMirror 6 for one tab of the template editor. JSON tabs get validation against
// the template's JSON Schema (codemirror-json-schema: problems underlined at their path while
// typing, hover help, completion); text tabs (header, footer) are plain. Loaded with next/dynamic
// by the editor only, so no other page carries CodeMirror.
"use client";
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { json, jsonLanguage, jsonParseLinter } from "@codemirror/lang-json";
import { bracketMatching, defaultHighlightStyle, foldGutter, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { forEachDiagnostic, linter, lintGutter, lintKeymap } from "@codemirror/lint";
import { EditorState, type Extension } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, hoverTooltip, keymap, lineNumbers } from "@codemirror/view";
import { handleRefresh, jsonCompletion, jsonSchemaHover, jsonSchemaLinter, stateExtensions, updateSchema } from "codemirror-json-schema";
import type { JSONSchema7 } from "json-schema";
import { useEffect, useRef } from "react";

export type Problem = { line: number; message: string; severity: string };

export type CodeEditorProps = {
  value: string;
  onChange: (value: string) => void;
  /** The control's accessible name: "composition.json". */
  label: string;
  language: "json" | "text";
  /** JSON Schema of this tab's document; validation starts when it arrives. */
  schema?: JSONSchema7;
  readOnly?: boolean;
  /** The problems CodeMirror shows, whenever they change (for the list under the editor). */
  onProblems?: (problems: Problem[]) => void;
};

const theme = EditorView.theme({
  "&": { fontSize: "13px", height: "100%", backgroundColor: "#fff" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", lineHeight: "1.5" },
  ".cm-gutters": { backgroundColor: "#f9fafb", color: "#4b5563", borderRight: "1px solid #e5e7eb" },
  "&.cm-focused": { outline: "2px solid #2563eb", outlineOffset: "-2px" },
  ".cm-tooltip": { maxWidth: "28rem", fontSize: "12px" },
});

export default function CodeEditor({ value, onChange, label, language, schema, readOnly = false, onProblems }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ onChange, onProblems });
  useEffect(() => {
    latest.current = { onChange, onProblems };
  });

  useEffect(() => {
    // CodeMirror's basicSetup, less what does not suit a form field: no Tab indentation (Tab moves
    // focus on, so the editor is no keyboard trap) and no search panel.
    const extensions: Extension[] = [
      lineNumbers(),
      highlightActiveLineGutter(),
      foldGutter(),
      history(),
      drawSelection(),
      indentOnInput(),
      syntaxHighlighting(defaultHighlightStyle, { fallback: true }),
      bracketMatching(),
      closeBrackets(),
      autocompletion(),
      highlightActiveLine(),
      keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, ...lintKeymap]),
      theme,
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ "aria-label": label }),
      EditorState.readOnly.of(readOnly),
      EditorView.editable.of(!readOnly),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) latest.current.onChange(u.state.doc.toString());
        const problems: Problem[] = [];
        forEachDiagnostic(u.state, (d, from) => problems.push({ line: u.state.doc.lineAt(from).number, message: d.message, severity: d.severity }));
        latest.current.onProblems?.(problems);
      }),
    ];
    if (language === "json") {
      extensions.push(
        json(),
        lintGutter(),
        linter(jsonParseLinter(), { delay: 250 }),
        linter(jsonSchemaLinter(), { needsRefresh: handleRefresh, delay: 250 }),
        jsonLanguage.data.of({ autocomplete: jsonCompletion() }),
        hoverTooltip(jsonSchemaHover()),
        stateExtensions(schema),
      );
    }
    const v = new EditorView({ parent: host.current!, state: EditorState.create({ doc: value, extensions }) });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // why only these: the document is the editor's own state; `value` is read again below when it changes from outside.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language, readOnly, label]);

  useEffect(() => {
    const v = view.current;
    if (v && schema && language === "json") updateSchema(v, schema);
  }, [schema, language]);

  // A value set from outside (Reload, a version opened) replaces the document.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  return <div ref={host} className="h-full min-h-0 overflow-hidden" />;
}
