// FileEditor: the console's editor of one workspace text file (a stylesheet): CodeMirror, Save
// checked by revision (a conflict offers Reload or Overwrite), Ctrl/Cmd+S, and a guard so unsaved
// changes are never lost silently.
"use client";
import { useState } from "react";
import { ConflictDialog } from "@/components/editor/conflict-dialog";
import { CodeEditor } from "@/components/editor/lazy-code-editor";
import { SaveButton } from "@/components/editor/save-button";
import { useRevisionedSave } from "@/components/editor/use-revisioned-save";
import { formatWhen } from "@/components/editor/format";
import { Badge } from "@/components/ui/badge";

export type EditorFile = { id: string; name: string; path: string; mediaType: string; content: string; revision: number; updatedAt: string };

export function FileEditor({ file, canWrite, role }: { file: EditorFile; canWrite: boolean; role: string }) {
  const [saved, setSaved] = useState(file.content);
  const [text, setText] = useState(file.content);
  const [savedAt, setSavedAt] = useState(file.updatedAt);
  const dirty = text !== saved;
  const url = `/v1/workspace-files/${file.id}`;

  const { revision, saving, save, conflict } = useRevisionedSave<string>({
    revision: file.revision,
    readUrl: url,
    saveUrl: `${url}/content`,
    revisionKey: "revision",
    noun: "file",
    canWrite,
    dirty,
    content: () => text,
    // Overwrite: this text saved on the revision the file is at now.
    overwriteContent: () => text,
    onSaved: (content, s) => {
      setSaved(content);
      setSavedAt(s.updatedAt);
    },
    onReloaded: (f) => {
      setSaved(f.content);
      setText(f.content);
      setSavedAt(f.updatedAt);
    },
  });

  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-semibold tracking-tight text-gray-900">{file.name}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-gray-600">
            <Badge>Revision {revision}</Badge>
            {dirty ? <Badge tone="warning">Unsaved changes</Badge> : null}
            <span>Last saved {formatWhen(savedAt)}</span>
          </p>
        </div>
        {canWrite && <SaveButton onSave={save} saving={saving} dirty={dirty} />}
      </div>
      {!canWrite && (
        <p className="rounded-md border border-accent/30 bg-accent-soft px-4 py-3 text-sm text-gray-900">Your role ({role}) can read this file; it cannot change it.</p>
      )}
      <div className="h-[28rem] overflow-hidden rounded-md border border-gray-300 lg:h-[calc(100vh-20rem)] lg:min-h-[24rem]">
        <CodeEditor label={file.name} language={file.mediaType === "text/css" ? "css" : "text"} value={text} onChange={setText} readOnly={!canWrite} />
      </div>

      <ConflictDialog state={conflict} noun="file" />
    </div>
  );
}
