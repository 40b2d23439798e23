// CodeEditor: CodeMirror 6 for one workspace text file, with CSS highlighting, completion and
// bracket matching for stylesheets (@codemirror/lang-css) and plain text for other files. Loaded
// with next/dynamic by the file editor only, so no other page carries CodeMirror.
"use client";
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { css } from "@codemirror/lang-css";
import { bracketMatching, foldGutter, HighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { EditorState, type Extension } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from "@codemirror/view";
// why a direct import: the tags CodeMirror's own packages highlight with (a dependency of @codemirror/language).
import { tags as t } from "@lezer/highlight";
import { useEffect, useRef } from "react";

export type CodeEditorProps = {
  value: string;
  onChange: (value: string) => void;
  /** The control's accessible name: the file's name. */
  label: string;
  language: "css" | "text";
  readOnly?: boolean;
};

const theme = EditorView.theme({
  "&": { fontSize: "13px", height: "100%", backgroundColor: "#fff" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", lineHeight: "1.5" },
  ".cm-gutters": { backgroundColor: "#f9fafb", color: "#4b5563", borderRight: "1px solid #e5e7eb" },
  "&.cm-focused": { outline: "2px solid #2563eb", outlineOffset: "-2px" },
});

/**
 * Colours of CSS tokens, each at least 4.5:1 on white and on the active line (WCAG AA; CodeMirror's
 * default style has lighter ones, which axe refuses).
 */
const highlight = HighlightStyle.define([
  { tag: [t.comment, t.blockComment], color: "#4b5563", fontStyle: "italic" },
  { tag: [t.keyword, t.definitionKeyword, t.modifier, t.operatorKeyword], color: "#6d28d9" },
  { tag: [t.atom, t.bool, t.unit, t.color], color: "#1d4ed8" },
  { tag: t.number, color: "#166534" },
  { tag: [t.string, t.special(t.string)], color: "#9f1239" },
  { tag: [t.propertyName, t.attributeName], color: "#0c4a6e" },
  { tag: [t.tagName, t.className, t.constant(t.className), t.labelName, t.namespace], color: "#92400e" },
  { tag: t.variableName, color: "#7e22ce" },
  { tag: t.invalid, color: "#b91c1c", textDecoration: "underline" },
]);

export default function CodeEditor({ value, onChange, label, language, readOnly = false }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const latest = useRef(onChange);
  useEffect(() => {
    latest.current = onChange;
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
      syntaxHighlighting(highlight),
      bracketMatching(),
      closeBrackets(),
      autocompletion(),
      highlightActiveLine(),
      keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap]),
      theme,
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ "aria-label": label }),
      EditorState.readOnly.of(readOnly),
      EditorView.editable.of(!readOnly),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) latest.current(u.state.doc.toString());
      }),
    ];
    if (language === "css") extensions.push(css());
    const v = new EditorView({ parent: host.current!, state: EditorState.create({ doc: value, extensions }) });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // why only these: the document is the editor's own state; `value` is read again below when it changes from outside.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [language, readOnly, label]);

  // A value set from outside (Reload after a conflict) replaces the document.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  return <div ref={host} className="h-full min-h-0 overflow-hidden" />;
}
