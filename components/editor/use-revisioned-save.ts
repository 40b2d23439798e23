// useRevisionedSave: how the console's editors (template drafts, workspace text files) save a
// document that others may change too. A save sends `expectedRevision`; a 409 opens a conflict
// (who saved which revision when) that offers Reload (read the document again, dropping the edits)
// or Overwrite (save the edits on the revision the document is at now). Ctrl/Cmd+S saves, and
// unsaved changes are guarded (useLeaveGuard). The caller keeps its own text and says what a save
// sends; render the conflict with <ConflictDialog>.
"use client";
import { useEffect, useRef, useState } from "react";
import type { Editor } from "@/components/editor/format";
import { useToast } from "@/components/ui/toast";
import { useLeaveGuard } from "./use-leave-guard";

/** The API's error envelope, as the editors read it. */
export type ApiError = { code: string; message: string; details?: { path?: string; message: string }[]; current?: Record<string, unknown> };

/** The error of a refused request, or a stand-in when the answer is not the envelope. */
export async function apiError(res: Response): Promise<ApiError> {
  try {
    const body = (await res.json()) as { error?: ApiError };
    if (body.error) return body.error;
  } catch {
    // not the envelope
  }
  return { code: "INTERNAL", message: `The server answered HTTP ${res.status}` };
}

/** A 409's story: the conflict's message and, when the server says, the revision someone saved. */
export type Conflict = { message: string; revision?: number; savedAt?: string; savedBy?: Editor };

/** The document as stored: its content, revision and when it was last saved. */
export type StoredDocument<C> = { content: C; revision: number; updatedAt: string };

export type RevisionedSaveOptions<C> = {
  /** The revision the page read. */
  revision: number;
  /** GET answers the document as stored now. */
  readUrl: string;
  /** PUT `{ content, expectedRevision }` saves it. */
  saveUrl: string;
  /** The answers' name for the revision: "revision" (workspace files), "draftRevision" (template drafts). */
  revisionKey: "revision" | "draftRevision";
  /** What the guard and the conflict call the document: "file", "template". */
  noun: string;
  canWrite: boolean;
  dirty: boolean;
  /** What a save sends, or undefined when the edits cannot be saved (the caller has said why). */
  content: () => C | undefined;
  /** Overwrite: the edits over the document as stored now; throws an Error saying why it cannot. */
  overwriteContent: (stored: C) => C;
  /** After a save, with what was sent. */
  onSaved: (content: C, saved: { revision: number; updatedAt: string }) => void;
  /** After Reload: the document as stored now replaces the edits. */
  onReloaded: (stored: StoredDocument<C>) => void;
  /** A refusal other than a conflict, before its toast (to show `details[]` where they belong). */
  onRefused?: (error: ApiError) => void;
};

export type ConflictState = {
  conflict: Conflict | null;
  resolving: "reload" | "overwrite" | null;
  reload: () => Promise<void>;
  overwrite: () => Promise<void>;
  dismiss: () => void;
};

export function useRevisionedSave<C>(o: RevisionedSaveOptions<C>) {
  const toast = useToast();
  const [revision, setRevision] = useState(o.revision);
  const [saving, setSaving] = useState(false);
  const [conflict, setConflict] = useState<Conflict | null>(null);
  const [resolving, setResolving] = useState<ConflictState["resolving"]>(null);

  const num = (v: unknown) => (typeof v === "number" ? v : undefined);
  const str = (v: unknown) => (typeof v === "string" ? v : undefined);

  const put = (content: C, expectedRevision: number) =>
    fetch(o.saveUrl, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify({ content, expectedRevision }) });

  const afterSave = async (res: Response, content: C) => {
    if (res.ok) {
      const answer = (await res.json()) as Record<string, unknown>;
      const saved = { revision: answer[o.revisionKey] as number, updatedAt: answer.updatedAt as string };
      setRevision(saved.revision);
      o.onSaved(content, saved);
      toast.success(`Saved revision ${saved.revision}`);
      return;
    }
    const e = await apiError(res);
    if (res.status === 409) {
      const c = e.current ?? {};
      return setConflict({ message: e.message, revision: num(c[o.revisionKey]), savedAt: str(c.updatedAt), savedBy: c.savedBy as Editor | undefined });
    }
    o.onRefused?.(e);
    toast.error("Not saved", e.message);
  };

  const save = async () => {
    if (!o.canWrite || saving || !o.dirty) return;
    const content = o.content();
    if (content === undefined) return;
    setSaving(true);
    try {
      await afterSave(await put(content, revision), content);
    } catch {
      toast.error("Not saved", "The server could not be reached; your changes are still here");
    } finally {
      setSaving(false);
    }
  };

  const read = async (): Promise<StoredDocument<C>> => {
    const res = await fetch(o.readUrl);
    if (!res.ok) throw new Error((await apiError(res)).message);
    const d = (await res.json()) as Record<string, unknown>;
    return { content: d.content as C, revision: d[o.revisionKey] as number, updatedAt: d.updatedAt as string };
  };

  const reload = async () => {
    setResolving("reload");
    try {
      const d = await read();
      setRevision(d.revision);
      o.onReloaded(d);
      setConflict(null);
      toast.success(`Reloaded revision ${d.revision}`);
    } catch (e) {
      toast.error("Could not reload", (e as Error).message);
    } finally {
      setResolving(null);
    }
  };

  const overwrite = async () => {
    setResolving("overwrite");
    try {
      const d = await read();
      const mine = o.overwriteContent(d.content);
      setConflict(null);
      await afterSave(await put(mine, d.revision), mine);
    } catch (e) {
      toast.error("Not saved", (e as Error).message);
    } finally {
      setResolving(null);
    }
  };

  // Ctrl/Cmd+S saves: the listener calls the save of the latest render, with its text.
  const latestSave = useRef(save);
  useEffect(() => {
    latestSave.current = save;
  });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === "s") {
        e.preventDefault();
        void latestSave.current();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, []);

  useLeaveGuard(o.dirty, `You have unsaved changes to this ${o.noun}. Leave without saving them?`);

  const conflictState: ConflictState = { conflict, resolving, reload, overwrite, dismiss: () => !resolving && setConflict(null) };
  return { revision, saving, save, conflict: conflictState };
}
