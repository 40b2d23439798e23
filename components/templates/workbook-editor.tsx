// WorkbookEditor: the console's editor of one workbook template. The uploaded workbook it fills
// (picked among the workspace's), its placeholders listed by sheet and cell beside the sample data
// they read, helpers.js for them, and a preview that downloads the filled XLSX. Save (checked by
// revision), Publish and Versions as in the other editors (editor-shell.tsx).
"use client";
import { Download, Repeat } from "lucide-react";
import { useEffect, useMemo, useState } from "react";
import { ConflictDialog } from "@/components/editor/conflict-dialog";
import { CodeEditor } from "@/components/editor/lazy-code-editor";
import { apiError, useRevisionedSave } from "@/components/editor/use-revisioned-save";
import type { Editor } from "@/components/editor/format";
import { Button } from "@/components/ui/button";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import type { ActionResult } from "@/lib/console/action";
import { ConsolePane, type ConsoleOutput } from "./console-pane";
import { EditorHeading, readOnlyNote, usePublish } from "./editor-shell";
import { VersionHistory } from "./version-history";

export type WorkbookDraft = { workbook: { assetId: string }; helpers?: string; sampleData?: { name: string; data: Record<string, unknown> }[] } & Record<string, unknown>;
export type WorkbookChoice = { id: string; filename: string; size: number };
export type WorkbookPlaceholders = { sheets: { name: string; rows: { row: number; each?: string; cells: { ref: string; source: string }[] }[] }[]; placeholders: string[] };
export type PlaceholdersAction = (input: { assetId: string }) => Promise<ActionResult<WorkbookPlaceholders>>;

export type WorkbookEditorTemplate = {
  id: string;
  name: string;
  draft: WorkbookDraft;
  draftRevision: number;
  lastEditedAt?: string;
  lastEditedBy?: Editor;
  publishedVersion?: number;
};

type Edits = { assetId: string; helpers: string; sample: string };

const toEdits = (d: WorkbookDraft): Edits => ({ assetId: d.workbook.assetId, helpers: d.helpers ?? "", sample: JSON.stringify(d.sampleData?.[0]?.data ?? {}, null, 2) });

/** The sample data's text as an object, or why it is not one. */
function parseSample(text: string): { ok: true; data: Record<string, unknown> } | { ok: false; message: string } {
  try {
    const data = JSON.parse(text) as unknown;
    if (data === null || typeof data !== "object" || Array.isArray(data)) return { ok: false, message: "The sample data must be a JSON object, such as {\"number\": \"INV-1\"}" };
    return { ok: true, data: data as Record<string, unknown> };
  } catch (e) {
    return { ok: false, message: `The sample data is not JSON: ${(e as Error).message}` };
  }
}

/** The draft as a save sends it: the fields edited here over the rest of the draft as it was read. */
function contentOf(base: WorkbookDraft, e: Edits, data: Record<string, unknown>): WorkbookDraft {
  const out: WorkbookDraft = { ...base, workbook: { assetId: e.assetId } };
  if (e.helpers.trim()) out.helpers = e.helpers;
  else delete out.helpers;
  out.sampleData = [{ name: base.sampleData?.[0]?.name ?? "Sample", data }, ...(base.sampleData?.slice(1) ?? [])];
  return out;
}

export function WorkbookEditor({
  template,
  workbooks,
  initialPlaceholders,
  loadPlaceholders,
  canWrite,
  canPublish,
  role,
  publicUrl,
}: {
  template: WorkbookEditorTemplate;
  workbooks: WorkbookChoice[];
  /** The saved workbook's placeholders, or why they cannot be read. */
  initialPlaceholders: WorkbookPlaceholders | { error: string };
  loadPlaceholders: PlaceholdersAction;
  canWrite: boolean;
  canPublish: boolean;
  role: string;
  publicUrl: string;
}) {
  const [base, setBase] = useState<WorkbookDraft>(template.draft);
  const [saved, setSaved] = useState<Edits>(() => toEdits(template.draft));
  const [edits, setEdits] = useState<Edits>(saved);
  const [lastEdit, setLastEdit] = useState({ at: template.lastEditedAt, by: template.lastEditedBy });
  const [placeholders, setPlaceholders] = useState<{ of: string; value: WorkbookPlaceholders | { error: string } }>({ of: template.draft.workbook.assetId, value: initialPlaceholders });
  const [historyOpen, setHistoryOpen] = useState(false);
  const [previewing, setPreviewing] = useState(false);
  const [previewError, setPreviewError] = useState<string | null>(null);
  const [consoleOutput, setConsoleOutput] = useState<ConsoleOutput | null>(null);
  const sample = useMemo(() => parseSample(edits.sample), [edits.sample]);
  const dirty = JSON.stringify(edits) !== JSON.stringify(saved);

  // The placeholders of the workbook picked now (a pick not yet saved included).
  useEffect(() => {
    if (placeholders.of === edits.assetId) return;
    let stale = false;
    void loadPlaceholders({ assetId: edits.assetId }).then((r) => {
      if (!stale) setPlaceholders({ of: edits.assetId, value: r.ok ? r.data : { error: r.error.message } });
    });
    return () => {
      stale = true;
    };
  }, [edits.assetId, placeholders.of, loadPlaceholders]);

  const draftUrl = `/v1/templates/${template.id}/draft`;
  const { revision, saving, save, conflict } = useRevisionedSave<WorkbookDraft>({
    revision: template.draftRevision,
    readUrl: draftUrl,
    saveUrl: draftUrl,
    revisionKey: "draftRevision",
    noun: "template",
    canWrite,
    dirty,
    content: () => (sample.ok ? contentOf(base, edits, sample.data) : undefined),
    overwriteContent: (stored) => {
      if (!sample.ok) throw new Error(sample.message);
      return contentOf(stored, edits, sample.data);
    },
    onSaved: (content, s) => {
      setBase(content);
      setSaved(edits);
      setLastEdit({ at: s.updatedAt, by: undefined });
    },
    onReloaded: (d) => {
      setBase(d.content);
      const e = toEdits(d.content);
      setSaved(e);
      setEdits(e);
    },
  });
  const { published, publishing, publish, historyKey } = usePublish(template.id, revision, template.publishedVersion);

  const preview = async () => {
    if (!sample.ok) return setPreviewError(sample.message);
    setPreviewing(true);
    setPreviewError(null);
    try {
      const res = await fetch(`/v1/templates/${template.id}/preview`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ format: "xlsx", data: sample.data, content: contentOf(base, edits, sample.data) }),
      });
      const logged = res.headers.get("x-folio-console");
      setConsoleOutput(logged ? { entries: JSON.parse(atob(logged)), omitted: Number(res.headers.get("x-folio-console-omitted") ?? 0) } : null);
      if (!res.ok) return setPreviewError((await apiError(res)).message);
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = `${template.name}.xlsx`;
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch {
      setPreviewError("The server could not be reached");
    } finally {
      setPreviewing(false);
    }
  };

  const current = placeholders.of === edits.assetId ? placeholders.value : undefined;
  const picked = workbooks.find((w) => w.id === edits.assetId);
  const options = [...(picked || !edits.assetId ? [] : [{ value: edits.assetId, label: `${edits.assetId} (not an uploaded workbook)` }]), ...workbooks.map((w) => ({ value: w.id, label: w.filename }))];

  return (
    <div className="space-y-4">
      <EditorHeading
        name={template.name}
        revision={revision}
        published={published}
        dirty={dirty}
        lastEdit={lastEdit}
        canPublish={canPublish}
        canSave={canWrite}
        publishing={publishing}
        onPublish={publish}
        saving={saving}
        onSave={save}
        onVersions={() => setHistoryOpen(true)}
        readOnlyNote={canWrite ? undefined : readOnlyNote(role, false)}
      />
      <div className="grid gap-4 lg:grid-cols-2">
        <section aria-labelledby="workbook-heading" className="min-w-0 space-y-3 rounded-lg border border-gray-200 bg-white p-4">
          <h2 id="workbook-heading" className="text-base font-semibold text-gray-900">
            Workbook
          </h2>
          <Field label="Uploaded workbook" hint="An .xlsx from the Assets page. Cells with {{…}} are filled; a row from {{#each list}} to {{/each}} repeats per item.">
            {(p) => <Select options={options} value={edits.assetId} onValueChange={(v) => setEdits((e) => ({ ...e, assetId: v }))} disabled={!canWrite} {...p} />}
          </Field>
          <h3 className="text-sm font-semibold text-gray-900">Placeholders</h3>
          {!current ? (
            <p className="text-sm text-gray-600">Reading the workbook…</p>
          ) : "error" in current ? (
            <p role="alert" className="rounded-md border border-danger/40 bg-danger-soft p-3 text-sm text-gray-900 [overflow-wrap:anywhere]">
              {current.error}
            </p>
          ) : current.sheets.every((s) => s.rows.length === 0) ? (
            <p className="text-sm text-gray-700">This workbook has no placeholders yet: type {"{{name}}"} into a cell in Excel and upload it again.</p>
          ) : (
            <ul aria-label="Placeholders by sheet" className="max-h-96 space-y-3 overflow-auto text-sm">
              {current.sheets
                .filter((s) => s.rows.length > 0)
                .map((s) => (
                  <li key={s.name}>
                    <p className="font-medium text-gray-900 [overflow-wrap:anywhere]">Sheet {s.name}</p>
                    <ul className="mt-1 space-y-1">
                      {s.rows.map((r) => (
                        <li key={r.row} className="rounded-md bg-gray-50 px-2 py-1">
                          {r.each && (
                            <p className="flex items-center gap-1 text-xs font-medium text-accent">
                              <Repeat aria-hidden="true" className="size-3" /> Row {r.row} repeats for each of <code className="font-mono">{r.each}</code>
                            </p>
                          )}
                          {r.cells.map((c) => (
                            <p key={c.ref} className="flex gap-2 [overflow-wrap:anywhere]">
                              <span className="w-12 shrink-0 font-mono text-xs text-gray-600">{c.ref}</span>
                              <code className="min-w-0 font-mono text-xs text-gray-900">{c.source}</code>
                            </p>
                          ))}
                        </li>
                      ))}
                    </ul>
                  </li>
                ))}
            </ul>
          )}
        </section>
        <section aria-label="Code and sample data" className="min-w-0 rounded-lg border border-gray-200 bg-white p-4">
          <Tabs defaultValue="sample">
            <TabsList aria-label="Template files">
              <TabsTrigger value="sample">Sample data</TabsTrigger>
              <TabsTrigger value="helpers">helpers.js</TabsTrigger>
            </TabsList>
            <TabsContent value="sample" className="mt-3">
              <p className="mb-2 text-sm text-gray-700">The data the preview fills the placeholders with; saved with the template, never used by reports.</p>
              <div className="min-h-48 rounded-md border border-gray-300">
                <CodeEditor language="json" label="Sample data" value={edits.sample} onChange={(v) => setEdits((e) => ({ ...e, sample: v }))} readOnly={!canWrite} />
              </div>
              {!sample.ok && (
                <p role="alert" className="mt-2 text-sm text-danger">
                  {sample.message}
                </p>
              )}
            </TabsContent>
            <TabsContent value="helpers" className="mt-3">
              <p className="mb-2 text-sm text-gray-700">Every function declared at top level is a helper: {"{{upper customer.name}}"} calls upper(…).</p>
              <div className="min-h-48 rounded-md border border-gray-300">
                <CodeEditor language="javascript" label="helpers.js" value={edits.helpers} onChange={(v) => setEdits((e) => ({ ...e, helpers: v }))} readOnly={!canWrite} />
              </div>
            </TabsContent>
          </Tabs>
          <div className="mt-4 flex flex-wrap items-center gap-3">
            <Button onClick={preview} loading={previewing}>
              <Download aria-hidden="true" className="size-4" /> Download XLSX preview
            </Button>
            <span className="text-sm text-gray-600">Fills the workbook with the sample data; counts as a document.</span>
          </div>
          <div aria-live="polite">
            {previewError && (
              <p role="alert" className="mt-3 rounded-md border border-danger/40 bg-danger-soft p-3 text-sm text-gray-900 [overflow-wrap:anywhere]">
                {previewError}
              </p>
            )}
          </div>
          {consoleOutput && (
            <div className="mt-3">
              <ConsolePane output={consoleOutput} />
            </div>
          )}
        </section>
      </div>
      <VersionHistory key={historyKey} open={historyOpen} onOpenChange={setHistoryOpen} templateId={template.id} draft={base} data={sample.ok ? sample.data : {}} publicUrl={publicUrl} reportName={template.name} />
      <ConflictDialog state={conflict} noun="template" replaced="their changes to the workbook, sample data and helpers.js are replaced" />
    </div>
  );
}
