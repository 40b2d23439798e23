// What both kinds' template editors share around their tabs: the heading (name, revision, published
// version, unsaved changes, last save) with Versions, Publish and Save, the note of what a read-only
// role can do, publishing the saved draft, the row of file tabs with their problem marks, and the
// list of the open tab's problems. What each tab holds, and what a save sends, differ by kind.
"use client";
import { History, Upload } from "lucide-react";
import { useState } from "react";
import { SaveButton } from "@/components/editor/save-button";
import { apiError, type ApiError } from "@/components/editor/use-revisioned-save";
import { editorLabel, formatWhen, type Editor } from "@/components/editor/format";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { TabsList, TabsTrigger } from "@/components/ui/tabs";
import { useToast } from "@/components/ui/toast";

/**
 * Publishes the saved draft at `revision`; `published` is the latest version, `historyKey` bumps to
 * reload the version list. `onRefused` gets a refusal's error first (a Handlebars draft's syntax error
 * names its file and line, which the editor marks as it marks a save's), and answers true when it
 * marked it, so that the toast need not repeat the whole message.
 */
export function usePublish(templateId: string, revision: number, initial: number | undefined, onRefused?: (e: ApiError) => boolean) {
  const toast = useToast();
  const [published, setPublished] = useState(initial);
  const [publishing, setPublishing] = useState(false);
  const [historyKey, setHistoryKey] = useState(0);
  const publish = async () => {
    setPublishing(true);
    try {
      const res = await fetch(`/v1/templates/${templateId}/versions`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ expectedRevision: revision }) });
      if (!res.ok) {
        const e = await apiError(res);
        const marked = onRefused?.(e) === true;
        toast.error("Not published", marked ? "The saved draft has a problem, marked at its file and line: fix it, save and publish again." : e.message);
        return;
      }
      const v = (await res.json()) as { id: string; version: number };
      setPublished(v.version);
      setHistoryKey((k) => k + 1);
      toast.success(`Published version ${v.version}`, `Its id is ${v.id}. Renders by name now use it; Versions has its id to copy and a ready request.`);
    } finally {
      setPublishing(false);
    }
  };
  return { published, publishing, publish, historyKey };
}

export function EditorHeading({
  name,
  revision,
  published,
  dirty,
  lastEdit,
  canPublish,
  canSave,
  publishing,
  onPublish,
  saving,
  onSave,
  onVersions,
  readOnlyNote,
}: {
  name: string;
  revision: number;
  published?: number;
  dirty: boolean;
  lastEdit: { at?: string; by?: Editor };
  canPublish: boolean;
  canSave: boolean;
  publishing: boolean;
  onPublish: () => void;
  saving: boolean;
  onSave: () => Promise<void>;
  onVersions: () => void;
  /** What the person's role can do here, when it cannot change the template. */
  readOnlyNote?: string;
}) {
  return (
    <>
      <div className="flex flex-col gap-3 lg:flex-row lg:items-start lg:justify-between">
        <div className="min-w-0">
          <h1 className="truncate text-2xl font-semibold tracking-tight text-gray-900">{name}</h1>
          <p className="mt-1 flex flex-wrap items-center gap-2 text-sm text-gray-600">
            <Badge>Revision {revision}</Badge>
            {published ? <Badge tone="success">Published version {published}</Badge> : <Badge>Not published</Badge>}
            {dirty ? <Badge tone="warning">Unsaved changes</Badge> : null}
            {lastEdit.at && (
              <span className="min-w-0 [overflow-wrap:anywhere]">
                Last saved {formatWhen(lastEdit.at)}
                {lastEdit.by ? ` by ${editorLabel(lastEdit.by)}` : ""}
              </span>
            )}
          </p>
        </div>
        {/* why shrink-0 and no wrap from 1024 px: beside a long name or "Last saved … by" line, Save wrapped under the others. */}
        <div className="flex shrink-0 flex-wrap gap-2 lg:flex-nowrap">
          <Button variant="secondary" onClick={onVersions}>
            <History aria-hidden="true" className="size-4" /> Versions
          </Button>
          {canPublish && (
            <Button variant="secondary" onClick={onPublish} loading={publishing} disabled={dirty} title={dirty ? "Save first: publishing takes the saved draft" : undefined}>
              <Upload aria-hidden="true" className="size-4" /> Publish
            </Button>
          )}
          {canSave && <SaveButton onSave={onSave} saving={saving} dirty={dirty} />}
        </div>
      </div>
      {readOnlyNote && <p className="rounded-md border border-accent/30 bg-accent-soft px-4 py-3 text-sm text-gray-900">{readOnlyNote}</p>}
      {dirty && canPublish && <p className="text-sm text-gray-700">Publishing takes the saved draft: save your changes first.</p>}
    </>
  );
}

/** What a person who cannot edit the template may still do with it, by role (the heading's note). */
export function readOnlyNote(role: string, canContent: boolean): string {
  return canContent
    ? `Your role (${role}) can change the values on the Content tab, preview them, save and publish them; it cannot change the template otherwise.`
    : `Your role (${role}) can read this template, preview it and publish the saved draft; it cannot change it.`;
}

/** The mark on a file tab whose content has problems. */
function ProblemDot() {
  return <span className="ml-1.5 inline-block size-2 rounded-full bg-danger" aria-label="has problems" role="img" />;
}

/** The row of file tabs, each marked when `hasProblem` says its content has problems. */
export function FileTabsList<T extends string>({ ids, labels, hasProblem }: { ids: readonly T[]; labels: Record<T, string>; hasProblem: (id: T) => boolean }) {
  return (
    <TabsList aria-label="Template files" className="flex-wrap">
      {ids.map((k) => (
        <TabsTrigger key={k} value={k}>
          {labels[k]}
          {hasProblem(k) && <ProblemDot />}
        </TabsTrigger>
      ))}
    </TabsList>
  );
}

/** The open tab's problems (the first 8), announced as they change; `where` is a line, a file or a field. */
export function ProblemList({ tab, problems }: { tab: string; problems: { where?: string; message: string }[] }) {
  return (
    <div aria-live="polite" className="mt-2 min-h-6">
      {problems.length > 0 && (
        <ul aria-label={`Problems in ${tab}`} className="space-y-1 rounded-md border border-danger/40 bg-danger-soft p-3 text-sm text-gray-900">
          {problems.slice(0, 8).map((p, i) => (
            <li key={i} className="[overflow-wrap:anywhere]">
              {p.where && <span className="font-mono text-xs text-danger">{p.where}</span>}{" "}
              {/* why pre-wrap: Handlebars' parse errors point at the column with a caret line under the source. */}
              <span className="whitespace-pre-wrap">{p.message}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
