// The code editor as pages use it: loaded with next/dynamic after the shell, a skeleton meanwhile.
"use client";
import dynamic from "next/dynamic";
import { Skeleton } from "@/components/ui/skeleton";

export type { CodeEditorProps, CodeLanguage, Problem } from "./code-editor";

// why dynamic: CodeMirror is the console's heaviest code; only the editor pages load it, after the shell.
export const CodeEditor = dynamic(() => import("./code-editor"), { ssr: false, loading: () => <Skeleton className="h-full w-full" /> });
