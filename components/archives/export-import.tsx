// ExportImport: the Export link and the Import dialog of the templates list and of a folder on the
// Files page. Export downloads the zip (GET /v1/workspace-folders/export, or a folder's); Import
// reads a zip the person picks, shows what it would change (the inspect endpoint: nothing written),
// and imports it on confirmation, with what to do about names that exist.
"use client";
import { Download, Upload } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { apiError } from "@/components/editor/use-revisioned-save";
import { Badge } from "@/components/ui/badge";
import { Button, buttonClasses } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { useToast } from "@/components/ui/toast";

type Action = "create" | "replace" | "skip" | "rename" | "exists" | "reuse";
type Result = {
  applied: boolean;
  folders: { path: string; action: Action }[];
  templates: { path: string; name: string; kind: string; action: Action; as?: string }[];
  files: { path: string; action: Action; as?: string }[];
  assets: { filename: string; kind: string; size: number; action: Action }[];
};

const conflictOptions = [
  { value: "skip", label: "Keep what is there (skip)" },
  { value: "rename", label: "Import beside it, renamed" },
  { value: "replace", label: "Replace it (a new draft revision)" },
];

const actionLabel: Record<Action, string> = { create: "New", replace: "Replaces", skip: "Skipped", rename: "Renamed", exists: "Exists", reuse: "Already stored" };
const actionTone: Partial<Record<Action, "success" | "warning">> = { create: "success", replace: "warning", rename: "warning" };

/** The zip as base64, as the JSON body carries it. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

/** At most 42 MB (spec: a workspace export to import); the server says the same, later. */
const MAX_ZIP = 42_000_000;

/**
 * `canExport`: the person may export what it holds (template:read, and asset:manage for uploaded
 * files); `canWrite`: import (template:write; the server asks asset:manage when the zip brings uploads).
 */
export function ExportImport({ folderId, folderName, canExport, canWrite }: { folderId: string | null; folderName?: string; canExport: boolean; canWrite: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [file, setFile] = useState<File | null>(null);
  const [onConflict, setOnConflict] = useState("skip");
  const [label, setLabel] = useState("");
  const [plan, setPlan] = useState<Result | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState<"inspect" | "import" | null>(null);
  const where = folderName ? `the folder ${folderName}` : "the workspace";
  const exportHref = folderId ? `/v1/workspace-folders/${folderId}/export` : "/v1/workspace-folders/export";

  const call = async (path: string, f: File, conflict: string) => {
    const body = { archive: await base64Of(f), onConflict: conflict, ...(folderId ? { folderId } : {}), ...(label.trim() ? { label: label.trim() } : {}) };
    const res = await fetch(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    if (!res.ok) throw new Error((await apiError(res)).message);
    return (await res.json()) as Result;
  };

  const inspect = async (f: File | null, conflict: string) => {
    setPlan(null);
    setError(null);
    if (!f) return;
    if (f.size > MAX_ZIP) return setError(`${f.name} has ${(f.size / 1e6).toFixed(1)} MB; an import takes at most 42 MB`);
    setBusy("inspect");
    try {
      setPlan(await call("/v1/workspace-folders/import/inspect", f, conflict));
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const confirm = async () => {
    if (!file) return;
    setBusy("import");
    setError(null);
    try {
      const done = await call("/v1/workspace-folders/import", file, onConflict);
      const made = done.templates.filter((t) => t.action !== "skip").length;
      toast.success("Imported", `${made} ${made === 1 ? "template" : "templates"} and ${done.files.filter((f) => f.action !== "skip").length} files into ${where}.`);
      setOpen(false);
      setFile(null);
      setPlan(null);
      router.refresh();
    } catch (e) {
      setError((e as Error).message);
    } finally {
      setBusy(null);
    }
  };

  const rows = plan
    ? [
        // A template by its name, in its folder (the archive's folder of it is named after it, made safe for file systems).
        ...plan.templates.map((t) => ({ what: "Template", name: [t.path.split("/").slice(0, -1).join("/"), t.name].filter(Boolean).join("/"), action: t.action, as: t.as })),
        ...plan.files.map((f) => ({ what: "File", name: f.path, action: f.action, as: f.as })),
        ...plan.folders.filter((f) => f.action === "create").map((f) => ({ what: "Folder", name: f.path, action: f.action, as: undefined })),
        ...plan.assets.map((a) => ({ what: "Upload", name: a.filename, action: a.action, as: undefined })),
      ]
    : [];
  const changes = rows.filter((r) => r.action !== "skip" && r.action !== "reuse").length;

  return (
    <div className="flex flex-wrap gap-2">
      {canExport && (
        <a href={exportHref} download className={buttonClasses("secondary")}>
          <Download aria-hidden="true" className="size-4" /> Export
        </a>
      )}
      {canWrite && (
        <Dialog
          open={open}
          onOpenChange={(o) => {
            setOpen(o);
            if (!o) {
              setPlan(null);
              setError(null);
              setFile(null);
            }
          }}
          title={`Import into ${where}`}
          description="Pick a zip exported from Folio (a workspace or a folder). You see what it would change before anything is written."
          trigger={
            <Button variant="secondary">
              <Upload aria-hidden="true" className="size-4" /> Import
            </Button>
          }
        >
          <div className="space-y-4">
            <Field label="Export to import (.zip)">
              {(p) => (
                <input
                  type="file"
                  accept=".zip,application/zip"
                  className="block w-full text-sm text-gray-900 file:mr-3 file:rounded-md file:border file:border-gray-300 file:bg-white file:px-3 file:py-1.5 file:text-sm"
                  onChange={(e) => {
                    const f = e.target.files?.[0] ?? null;
                    setFile(f);
                    void inspect(f, onConflict);
                  }}
                  {...p}
                />
              )}
            </Field>
            <Field label="When a name is taken" hint="Templates and files are matched by name in their folder; folders merge.">
              {(p) => (
                <Select
                  options={conflictOptions}
                  value={onConflict}
                  onValueChange={(v) => {
                    setOnConflict(v);
                    void inspect(file, v);
                  }}
                  {...p}
                />
              )}
            </Field>
            <Field label="Label (optional)" hint="Kept in the audit log with the import, such as “from staging”.">
              {(p) => <Input value={label} maxLength={200} onChange={(e) => setLabel(e.target.value)} autoComplete="off" {...p} />}
            </Field>
            <div aria-live="polite">
              {busy === "inspect" && <p className="text-sm text-gray-600">Reading the archive…</p>}
              {error && (
                <p role="alert" className="rounded-md border border-danger/40 bg-danger-soft p-3 text-sm text-gray-900 [overflow-wrap:anywhere]">
                  {error}
                </p>
              )}
              {plan && (
                <section aria-label="What the import would change">
                  <p className="mb-2 text-sm text-gray-900">
                    {changes === 0 ? "Nothing would change: everything in it is already here." : `${changes} ${changes === 1 ? "change" : "changes"} to ${where}; nothing is written until you import.`}
                  </p>
                  <ul className="max-h-64 divide-y divide-gray-100 overflow-auto rounded-md border border-gray-200 text-sm" tabIndex={0} aria-label="Items in the archive">
                    {rows.map((r, i) => (
                      <li key={i} className="flex flex-wrap items-center gap-2 px-3 py-1.5">
                        <Badge tone={actionTone[r.action]}>{actionLabel[r.action]}</Badge>
                        <span className="text-gray-600">{r.what}</span>
                        <span className="min-w-0 flex-1 [overflow-wrap:anywhere] text-gray-900">
                          {r.name}
                          {r.as ? ` → ${r.as}` : ""}
                        </span>
                      </li>
                    ))}
                  </ul>
                </section>
              )}
            </div>
          </div>
          <DialogFooter>
            <Button onClick={confirm} loading={busy === "import"} disabled={!plan || busy !== null || changes === 0}>
              Import
            </Button>
          </DialogFooter>
        </Dialog>
      )}
    </div>
  );
}
