// FileActions: the folder browser's main actions for the folder shown: a new folder, a new
// stylesheet (opens its editor), and a file that names an uploaded asset (a font or an image).
"use client";
import { FilePlus, FolderPlus, Paperclip } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { formatBytes } from "@/components/format";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { useToast } from "@/components/ui/toast";
import type { ActionError, ActionResult } from "@/lib/console/action";

export type AssetChoice = { id: string; filename: string; kind: string; mediaType: string; size: number };

/** The files page's server actions (app/(console)/files/actions.ts), handed down as props. */
export type CreateFolderAction = (input: { name: string; parentId: string }) => Promise<ActionResult<{ id: string; path: string }>>;
export type CreateStylesheetAction = (input: { name: string; folderId: string }) => Promise<ActionResult<{ id: string }>>;
export type AddAssetFileAction = (input: { name: string; assetId: string; folderId: string }) => Promise<ActionResult<{ id: string; path: string }>>;

type Props = {
  folderId: string | null;
  folderPath: string;
  assets: AssetChoice[];
  canUseAssets: boolean;
  createFolder: CreateFolderAction;
  createStylesheet: CreateStylesheetAction;
  addAssetFile: AddAssetFileAction;
};

const where = (path: string) => (path ? `in ${path}` : "at the top level");

/** One small form in a dialog: its fields, the error of each, and what to do with the answer. */
function useForm<T>(run: (form: FormData) => Promise<{ ok: true; data: T } | { ok: false; error: ActionError }>, done: (data: T) => void) {
  const [error, setError] = useState<ActionError | null>(null);
  const [pending, start] = useTransition();
  const submit = (form: FormData) => {
    setError(null);
    start(async () => {
      const result = await run(form);
      if (!result.ok) return setError(result.error);
      done(result.data);
    });
  };
  const fieldError = (path: string) => error?.details?.find((d) => d.path === path)?.message;
  const otherError = error && !error.details?.some((d) => d.path === "name" || d.path === "assetId") ? error.message : undefined;
  return { submit, pending, fieldError, otherError, reset: () => setError(null) };
}

function FormError({ message }: { message?: string }) {
  return message ? (
    <p role="alert" className="text-sm font-medium text-danger">
      {message}
    </p>
  ) : null;
}

export function FileActions({ folderId, folderPath, assets, canUseAssets, createFolder, createStylesheet, addAssetFile }: Props) {
  const router = useRouter();
  const toast = useToast();
  const [open, setOpen] = useState<"folder" | "stylesheet" | "asset" | null>(null);
  const [assetId, setAssetId] = useState<string | undefined>(assets[0]?.id);
  const [assetName, setAssetName] = useState(assets[0]?.filename ?? "");
  const parent = folderId ?? "";

  const folder = useForm(
    (form) => createFolder({ name: String(form.get("name") ?? ""), parentId: parent }),
    (f) => {
      setOpen(null);
      toast.success(`Created ${f.path}`);
      router.refresh();
    },
  );
  const sheet = useForm(
    (form) => createStylesheet({ name: String(form.get("name") ?? ""), folderId: parent }),
    (f) => router.push(`/files/${f.id}`),
  );
  const asset = useForm(
    (form) => addAssetFile({ name: String(form.get("name") ?? ""), assetId: assetId ?? "", folderId: parent }),
    (f) => {
      setOpen(null);
      toast.success(`Added ${f.path}`);
      router.refresh();
    },
  );
  const change = (which: typeof open) => (o: boolean) => {
    setOpen(o ? which : null);
    folder.reset();
    sheet.reset();
    asset.reset();
  };

  return (
    <>
      <Dialog
        open={open === "folder"}
        onOpenChange={change("folder")}
        title="New folder"
        description={`A folder ${where(folderPath)}.`}
        trigger={
          <Button variant="secondary">
            <FolderPlus aria-hidden="true" className="size-4" /> New folder
          </Button>
        }
      >
        <form action={folder.submit} className="space-y-4" noValidate>
          <Field label="Name" error={folder.fieldError("name")}>
            {(p) => <Input name="name" required maxLength={80} autoComplete="off" placeholder="brand" {...p} />}
          </Field>
          <FormError message={folder.otherError} />
          <DialogFooter>
            <Button type="submit" loading={folder.pending}>
              Create folder
            </Button>
          </DialogFooter>
        </form>
      </Dialog>

      <Dialog
        open={open === "stylesheet"}
        onOpenChange={change("stylesheet")}
        title="New stylesheet"
        description={`An empty stylesheet ${where(folderPath)}; it opens in the editor.`}
        trigger={
          <Button>
            <FilePlus aria-hidden="true" className="size-4" /> New stylesheet
          </Button>
        }
      >
        <form action={sheet.submit} className="space-y-4" noValidate>
          <Field label="Name" hint="“.css” is added when the name does not end in it." error={sheet.fieldError("name")}>
            {(p) => <Input name="name" required maxLength={120} autoComplete="off" placeholder="print.css" {...p} />}
          </Field>
          <FormError message={sheet.otherError} />
          <DialogFooter>
            <Button type="submit" loading={sheet.pending}>
              Create and edit
            </Button>
          </DialogFooter>
        </form>
      </Dialog>

      {canUseAssets && (
        <Dialog
          open={open === "asset"}
          onOpenChange={change("asset")}
          title="Add an uploaded file"
          description={`A font, image or stylesheet you uploaded, under a name ${where(folderPath)}, so stylesheets can name it by path.`}
          trigger={
            <Button variant="secondary">
              <Paperclip aria-hidden="true" className="size-4" /> Add uploaded file
            </Button>
          }
        >
          {assets.length === 0 ? (
            <p className="text-sm text-gray-700">No uploaded files yet. Upload fonts and images first, then add them here.</p>
          ) : (
            <form action={asset.submit} className="space-y-4" noValidate>
              <Field label="Uploaded file" error={asset.fieldError("assetId")}>
                {(p) => (
                  <Select
                    options={assets.map((a) => ({ value: a.id, label: `${a.filename} (${a.kind}, ${formatBytes(a.size)})` }))}
                    value={assetId}
                    onValueChange={(v) => {
                      setAssetId(v);
                      setAssetName(assets.find((a) => a.id === v)?.filename ?? assetName);
                    }}
                    {...p}
                  />
                )}
              </Field>
              <Field label="Name" error={asset.fieldError("name")}>
                {(p) => <Input name="name" required maxLength={120} autoComplete="off" value={assetName} onChange={(e) => setAssetName(e.target.value)} {...p} />}
              </Field>
              <FormError message={asset.otherError} />
              <DialogFooter>
                <Button type="submit" loading={asset.pending}>
                  Add file
                </Button>
              </DialogFooter>
            </form>
          )}
        </Dialog>
      )}
    </>
  );
}
