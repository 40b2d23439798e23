// CodeEditor: the console's one CodeMirror 6 set-up, for the template editor's tabs and the
// workspace file editor; what a language adds comes in `support` (json-language.ts: validation
// against a JSON Schema; css-language.ts: stylesheets; none: plain text). Pages use it through
// lazy-code-editor.tsx, which loads it and the language's code with next/dynamic, so only the
// editor pages carry CodeMirror and each carries only the languages it shows.
"use client";
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap, type Completion, type CompletionContext } from "@codemirror/autocomplete";
import { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
import { bracketMatching, foldGutter, HighlightStyle, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { forEachDiagnostic, lintGutter, setDiagnostics } from "@codemirror/lint";
import { EditorState, type Extension } from "@codemirror/state";
import { drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers } from "@codemirror/view";
// why a direct import: the tags CodeMirror's own packages highlight with (a dependency of @codemirror/language).
import { tags as t } from "@lezer/highlight";
import type { JSONSchema7 } from "json-schema";
import { useEffect, useId, useRef } from "react";

/** What a language adds to the common set. */
export type LanguageSupport = {
  extensions: (schema: JSONSchema7 | undefined) => Extension[];
  /** Validation against a schema that arrives after the editor was made. */
  updateSchema?: (view: EditorView, schema: JSONSchema7) => void;
};

/** A problem CodeMirror shows (JSON only), for a list under the editor. */
export type Problem = { line: number; message: string; severity: string };

/** A problem the server found at a line (a template's syntax error), shown as a lint diagnostic there. */
export type Mark = { line: number; message: string };

export type CodeEditorProps = {
  value: string;
  onChange: (value: string) => void;
  /** The control's accessible name: "composition.json", a file's name. */
  label: string;
  /** The language's extensions; none for plain text. */
  support?: LanguageSupport;
  /** JSON Schema of a `json` document; validation starts when it arrives. */
  schema?: JSONSchema7;
  readOnly?: boolean;
  /** The problems CodeMirror shows, whenever they change. */
  onProblems?: (problems: Problem[]) => void;
  /** Problems from the server at their lines; [] clears them. */
  marks?: Mark[];
  /**
   * Completions for the text of the line up to the cursor (a Handlebars file's data fields, helpers
   * and partials): `from`, where the word completed starts in that text.
   */
  complete?: (before: string) => { from: number; options: Completion[] } | undefined;
};

const theme = EditorView.theme({
  "&": { fontSize: "13px", height: "100%", backgroundColor: "#fff" },
  ".cm-scroller": { fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, monospace", lineHeight: "1.5" },
  ".cm-gutters": { backgroundColor: "#f9fafb", color: "#4b5563", borderRight: "1px solid #e5e7eb" },
  "&.cm-focused": { outline: "2px solid #2563eb", outlineOffset: "-2px" },
  ".cm-tooltip": { maxWidth: "28rem", fontSize: "12px" },
});

/**
 * Colours of tokens, each at least 4.5:1 on white and on the active line (WCAG AA; CodeMirror's
 * default style has lighter ones, which axe refuses).
 */
const highlight = HighlightStyle.define([
  { tag: [t.comment, t.blockComment], color: "#4b5563", fontStyle: "italic" },
  { tag: [t.keyword, t.definitionKeyword, t.modifier, t.operatorKeyword], color: "#6d28d9" },
  { tag: [t.atom, t.bool, t.null, t.unit, t.color], color: "#1d4ed8" },
  { tag: t.number, color: "#166534" },
  { tag: [t.string, t.special(t.string)], color: "#9f1239" },
  { tag: [t.propertyName, t.attributeName], color: "#0c4a6e" },
  { tag: [t.tagName, t.className, t.constant(t.className), t.labelName, t.namespace], color: "#92400e" },
  { tag: t.variableName, color: "#7e22ce" },
  { tag: t.invalid, color: "#b91c1c", textDecoration: "underline" },
]);

export default function CodeEditor({ value, onChange, label, support, schema, readOnly = false, onProblems, marks, complete }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const hintId = useId();
  const view = useRef<EditorView | null>(null);
  const latest = useRef({ onChange, onProblems, complete });
  useEffect(() => {
    latest.current = { onChange, onProblems, complete };
  });

  useEffect(() => {
    // CodeMirror's basicSetup, less the search panel, plus Tab to indent: Escape then Tab moves focus
    // on (CodeMirror's own convention, built into its view), so the editor is no keyboard trap.
    const pageCompletions = [{ autocomplete: (ctx: CompletionContext) => completeAt(ctx, latest.current.complete) }];
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
      keymap.of([...closeBracketsKeymap, ...defaultKeymap, ...historyKeymap, ...completionKeymap, indentWithTab]),
      theme,
      EditorView.lineWrapping,
      EditorView.contentAttributes.of({ "aria-label": label, "aria-describedby": hintId }),
      EditorState.readOnly.of(readOnly),
      EditorView.editable.of(!readOnly),
      EditorView.updateListener.of((u) => {
        if (u.docChanged) latest.current.onChange(u.state.doc.toString());
        const report = latest.current.onProblems;
        if (!report) return;
        const problems: Problem[] = [];
        forEachDiagnostic(u.state, (d, from) => problems.push({ line: u.state.doc.lineAt(from).number, message: d.message, severity: d.severity }));
        report(problems);
      }),
      ...(support?.extensions(schema) ?? []),
      ...(marks ? [lintGutter()] : []),
      // Beside the language's own completions (JSON's from its schema): the page's, read when asked.
      // why one object made here: CodeMirror keeps a source's state by its identity across updates.
      EditorState.languageData.of(() => pageCompletions),
    ];
    const v = new EditorView({ parent: host.current!, state: EditorState.create({ doc: value, extensions }) });
    view.current = v;
    return () => {
      v.destroy();
      view.current = null;
    };
    // why only these: the document is the editor's own state; `value` and `schema` are read again below when they change.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [support, readOnly, label]);

  useEffect(() => {
    const v = view.current;
    if (v && schema) support?.updateSchema?.(v, schema);
  }, [schema, support]);

  // The server's problems at their lines (a line past the end goes on the last); set after the document, so they land where they point.
  const markKey = JSON.stringify(marks ?? null);
  useEffect(() => {
    const v = view.current;
    if (!v || !marks) return;
    const doc = v.state.doc;
    v.dispatch(
      setDiagnostics(
        v.state,
        marks.map((m) => {
          const line = doc.line(Math.min(Math.max(1, m.line), doc.lines));
          return { from: line.from, to: line.to, severity: "error" as const, message: m.message };
        }),
      ),
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [markKey, support, readOnly, label]);

  // A value set from outside (Reload after a conflict, a version opened) replaces the document.
  useEffect(() => {
    const v = view.current;
    if (v && v.state.doc.toString() !== value) v.dispatch({ changes: { from: 0, to: v.state.doc.length, insert: value } });
  }, [value]);

  return (
    <>
      <span id={hintId} className="sr-only">
        Tab indents. Press Escape, then Tab, to move on from the editor.
      </span>
      <div ref={host} className="h-full min-h-0 overflow-hidden" />
    </>
  );
}

/** The page's completions at the cursor, as CodeMirror takes them: while typing a word, or when asked (Ctrl-Space). */
function completeAt(ctx: CompletionContext, complete: CodeEditorProps["complete"]) {
  if (!complete) return null;
  const line = ctx.state.doc.lineAt(ctx.pos);
  const r = complete(line.text.slice(0, ctx.pos - line.from));
  if (!r || (r.from === ctx.pos - line.from && !ctx.explicit && !/[{#>\s]$/.test(line.text.slice(0, ctx.pos - line.from)))) return null;
  return { from: line.from + r.from, options: r.options, validFor: /^[\w$@.\-[\]]*$/ };
}
