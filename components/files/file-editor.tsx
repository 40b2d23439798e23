// FileEditor: the console's editor of one workspace text file (a stylesheet): CodeMirror, Save
// checked by revision (a conflict offers Reload or Overwrite), Ctrl/Cmd+S, and a guard so unsaved
// changes are never lost silently.
"use client";
import { Save } from "lucide-react";
import dynamic from "next/dynamic";
import { useCallback, useEffect, useRef, useState } from "react";
import { editorLabel, formatWhen, type Editor } from "@/components/templates/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { useToast } from "@/components/ui/toast";

// why dynamic: CodeMirror is heavy; only this page loads it, after the shell.
const CodeEditor = dynamic(() => import("./code-editor"), { ssr: false, loading: () => <Skeleton className="h-full w-full" /> });

export type EditorFile = { id: string; name: string; path: string; mediaType: string; content: string; revision: number; updatedAt: string };

type Conflict = { message: string; current?: { revision?: number; updatedAt?: string; savedBy?: Editor } };
type ApiError = { code: string; message: string; details?: { path?: string; message: string }[]; current?: Conflict["current"] };

async function apiError(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as { error?: ApiError };
    if (body.error) return body.error;
  } catch {
    // not the envelope
  }
  return { code: "INTERNAL", message: `The server answered HTTP ${res.status}` };
}

export function FileEditor({ file, canWrite, role }: { file: EditorFile; canWrite: boolean; role: string }) {
  const toast = useToast();
  const [saved, setSaved] = useState(file.content);
  const [text, setText] = useState(file.content);
  const [revision, setRevision] = useState(file.revision);
  const [savedAt, setSavedAt] = useState(file.updatedAt);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [resolving, setResolving] = useState<"reload" | "overwrite" | null>(null);
  const dirty = text !== saved;
  const url = `/v1/workspace-files/${file.id}`;

  const put = (content: string, expectedRevision: number) =>
    fetch(`${url}/content`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ content, expectedRevision }) });

  const afterSave = async (res: Response, content: string) => {
    if (res.ok) {
      const f = (await res.json()) as { revision: number; updatedAt: string };
      setSaved(content);
      setRevision(f.revision);
      setSavedAt(f.updatedAt);
      toast.success(`Saved revision ${f.revision}`);
      return;
    }
    const e = await apiError(res);
    if (res.status === 409) return setConflict({ message: e.message, current: e.current });
    toast.error("Not saved", e.message);
  };

  const save = useCallback(async () => {
    if (!canWrite || saving || !dirty) return;
    setSaving(true);
    try {
      await afterSave(await put(text, revision), text);
    } catch {
      toast.error("Not saved", "The server could not be reached; your changes are still here");
    } finally {
      setSaving(false);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [canWrite, saving, dirty, text, revision]);

  const readFile = async () => {
    const res = await fetch(url);
    if (!res.ok) throw new Error((await apiError(res)).message);
    return (await res.json()) as { content: string; revision: number; updatedAt: string };
  };

  const reload = async () => {
    setResolving("reload");
    try {
      const f = await readFile();
      setSaved(f.content);
      setText(f.content);
      setRevision(f.revision);
      setSavedAt(f.updatedAt);
      setConflict(null);
      toast.success(`Reloaded revision ${f.revision}`);
    } catch (e) {
      toast.error("Could not reload", (e as Error).message);
    } finally {
      setResolving(null);
    }
  };

  /** Overwrite: this text saved on the revision the file is at now. */
  const overwrite = async () => {
    setResolving("overwrite");
    try {
      const f = await readFile();
      setConflict(null);
      await afterSave(await put(text, f.revision), text);
    } catch (e) {
      toast.error("Not saved", (e as Error).message);
    } finally {
      setResolving(null);
    }
  };

  // Ctrl/Cmd+S saves.
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s") {
        e.preventDefault();
        void save();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [save]);

  // Unsaved changes: the browser asks before leaving the page, and the console asks before a link takes you away.
  const dirtyRef = useRef(dirty);
  useEffect(() => {
    dirtyRef.current = dirty;
  }, [dirty]);
  useEffect(() => {
    const beforeUnload = (e: BeforeUnloadEvent) => {
      if (!dirtyRef.current) return;
      e.preventDefault();
      e.returnValue = "";
    };
    const onClick = (e: MouseEvent) => {
      if (!dirtyRef.current || e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
      const a = (e.target as Element | null)?.closest?.("a[href]");
      if (!(a instanceof HTMLAnchorElement) || a.target === "_blank" || a.hasAttribute("download")) return;
      if (!window.confirm("You have unsaved changes to this file. Leave without saving them?")) {
        e.preventDefault();
        e.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", beforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", beforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, []);

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
        {canWrite && (
          <Button onClick={() => void save()} loading={saving} disabled={!dirty} aria-keyshortcuts="Control+S Meta+S">
            <Save aria-hidden="true" className="size-4" /> Save
          </Button>
        )}
      </div>
      {!canWrite && (
        <p className="rounded-md border border-accent/30 bg-accent-soft px-4 py-3 text-sm text-gray-900">Your role ({role}) can read this file; it cannot change it.</p>
      )}
      <div className="h-[28rem] overflow-hidden rounded-md border border-gray-300 lg:h-[calc(100vh-20rem)] lg:min-h-[24rem]">
        <CodeEditor label={file.name} language={file.mediaType === "text/css" ? "css" : "text"} value={text} onChange={setText} readOnly={!canWrite} />
      </div>

      <Dialog
        open={conflict !== null}
        onOpenChange={(o) => !o && !resolving && setConflict(null)}
        title="Someone saved this file meanwhile"
        description={
          conflict?.current?.savedBy
            ? `${editorLabel(conflict.current.savedBy)} saved revision ${conflict.current.revision}${conflict.current.updatedAt ? ` at ${formatWhen(conflict.current.updatedAt)}` : ""}, after you opened it.`
            : conflict?.message
        }
      >
        <p className="text-sm text-gray-700">Reload to see their version (your unsaved changes are discarded), or overwrite it with yours (their changes are replaced).</p>
        <DialogFooter>
          <Button variant="secondary" onClick={() => void reload()} loading={resolving === "reload"} disabled={resolving !== null}>
            Reload
          </Button>
          <Button variant="danger" onClick={() => void overwrite()} loading={resolving === "overwrite"} disabled={resolving !== null}>
            Overwrite
          </Button>
        </DialogFooter>
      </Dialog>
    </div>
  );
}
