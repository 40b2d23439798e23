// CodeEditor as pages use it, by language: CodeMirror and the language's code load with
// next/dynamic after the shell (a skeleton meanwhile), so only the editor pages carry CodeMirror
// and the file editor does not carry the JSON Schema validation the template editor needs.
"use client";
import dynamic from "next/dynamic";
import type { ComponentType } from "react";
import { Skeleton } from "@/components/ui/skeleton";
import type { CodeEditorProps, LanguageSupport } from "./code-editor";

export type { Mark, Problem } from "./code-editor";
export type CodeLanguage = "json" | "css" | "text" | "handlebars" | "javascript";

type Props = Omit<CodeEditorProps, "support"> & { language: CodeLanguage };
type Loaded = ComponentType<Omit<CodeEditorProps, "support">>;

const loading = () => <Skeleton className="h-full w-full" />;

/** The editor with a language's support, both fetched at once. */
async function withSupport(support?: Promise<LanguageSupport>): Promise<Loaded> {
  const [{ default: Editor }, s] = await Promise.all([import("./code-editor"), support]);
  return function CodeEditorWithSupport(props) {
    return <Editor {...props} support={s} />;
  };
}

// why one per language: next/dynamic splits at each import(), so a page fetches only what it shows.
const editors: Record<CodeLanguage, Loaded> = {
  json: dynamic(() => withSupport(import("./json-language").then((m) => m.json)), { ssr: false, loading }),
  css: dynamic(() => withSupport(import("./css-language").then((m) => m.css)), { ssr: false, loading }),
  text: dynamic(() => withSupport(), { ssr: false, loading }),
  handlebars: dynamic(() => withSupport(import("./hbs-language").then((m) => m.handlebars)), { ssr: false, loading }),
  javascript: dynamic(() => withSupport(import("./hbs-language").then((m) => m.javascript)), { ssr: false, loading }),
};

export function CodeEditor({ language, ...props }: Props) {
  const Editor = editors[language];
  return <Editor {...props} />;
}
