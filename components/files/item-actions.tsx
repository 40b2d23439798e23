// ItemActions: rename, move and delete for one row of the folder browser (a folder, a template or a
// file). A refused delete (a folder that holds something, a file still in use) opens a dialog that
// lists what holds or uses it, as the server named them.
"use client";
import { FolderInput, MoreHorizontal, Pencil, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import { useToast } from "@/components/ui/toast";
import type { ActionError, ActionResult } from "@/lib/console/action";

export type Item = { type: "folder" | "template" | "file"; id: string; name: string; path: string };

const ROOT = "root";
const nouns = { folder: "folder", template: "template", file: "file" } as const;

/** The files page's server actions on one item (app/(console)/files/actions.ts), handed down as props. */
export type ItemVerbs = {
  rename: (input: { type: Item["type"]; id: string; name: string }) => Promise<ActionResult<{ name: string }>>;
  move: (input: { type: Item["type"]; id: string; to: string }) => Promise<ActionResult<{ moved: boolean }>>;
  remove: (input: { type: Item["type"]; id: string }) => Promise<ActionResult<{ deleted: boolean }>>;
};

export function ItemActions({ item, folders, rename: renameItem, move: moveItem, remove: deleteItem }: { item: Item; folders: { id: string; path: string }[] } & ItemVerbs) {
  const router = useRouter();
  const toast = useToast();
  const [open, setOpen] = useState<"rename" | "move" | "delete" | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [refusal, setRefusal] = useState<ActionError | null>(null);
  const [target, setTarget] = useState(ROOT);
  const [pending, start] = useTransition();
  const noun = nouns[item.type];

  const close = () => {
    setOpen(null);
    setError(undefined);
  };

  const rename = (form: FormData) => {
    setError(undefined);
    start(async () => {
      const result = await renameItem({ type: item.type, id: item.id, name: String(form.get("name") ?? "") });
      if (!result.ok) return setError(result.error.details?.[0]?.message ?? result.error.message);
      close();
      toast.success(`Renamed to ${result.data.name}`);
      router.refresh();
    });
  };

  const move = () => {
    setError(undefined);
    start(async () => {
      const result = await moveItem({ type: item.type, id: item.id, to: target === ROOT ? "" : target });
      if (!result.ok) return setError(result.error.details?.[0]?.message ?? result.error.message);
      close();
      toast.success(`Moved ${item.name} to ${target === ROOT ? "the top level" : (folders.find((f) => f.id === target)?.path ?? "its folder")}`);
      router.refresh();
    });
  };

  // A folder cannot go into itself or a folder inside it.
  const targets = folders.filter((f) => item.type !== "folder" || (f.path !== item.path && !f.path.startsWith(`${item.path}/`)));
  const options = [{ value: ROOT, label: "Top level (no folder)" }, ...targets.map((f) => ({ value: f.id, label: f.path }))];

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" aria-label={`Actions for ${item.name}`}>
            <MoreHorizontal aria-hidden="true" className="size-4" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuItem onSelect={() => setOpen("rename")}>
            <Pencil aria-hidden="true" className="size-4" /> Rename
          </DropdownMenuItem>
          <DropdownMenuItem onSelect={() => setOpen("move")}>
            <FolderInput aria-hidden="true" className="size-4" /> Move
          </DropdownMenuItem>
          <DropdownMenuItem danger onSelect={() => setOpen("delete")}>
            <Trash2 aria-hidden="true" className="size-4" /> Delete
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>

      <Dialog open={open === "rename"} onOpenChange={(o) => (o ? setOpen("rename") : close())} title={`Rename ${item.name}`}>
        <form action={rename} noValidate>
          <Field label="Name" error={error} hint={item.type === "file" ? "Templates and stylesheets that name the old path must be changed to the new one." : undefined}>
            {(p) => <Input name="name" defaultValue={item.name} required maxLength={item.type === "folder" ? 80 : 120} autoComplete="off" {...p} />}
          </Field>
          <DialogFooter>
            <Button type="submit" loading={pending}>
              Rename
            </Button>
          </DialogFooter>
        </form>
      </Dialog>

      <Dialog open={open === "move"} onOpenChange={(o) => (o ? setOpen("move") : close())} title={`Move ${item.name}`} description={`Choose the folder the ${noun} goes into.`}>
        <Field label="Move to" error={error}>
          {(p) => <Select options={options} value={target} onValueChange={setTarget} {...p} />}
        </Field>
        <DialogFooter>
          <Button onClick={move} loading={pending}>
            Move
          </Button>
        </DialogFooter>
      </Dialog>

      <ConfirmDialog
        open={open === "delete"}
        onOpenChange={(o) => (o ? setOpen("delete") : close())}
        danger
        title={`Delete ${item.name}?`}
        text={
          item.type === "folder"
            ? "Only an empty folder can be deleted."
            : item.type === "template"
              ? "The template, its draft history and its published versions are deleted. Renders already made stay."
              : "Published template versions keep their own copy. A file that a draft or stylesheet still names cannot be deleted."
        }
        confirmLabel={`Delete ${noun}`}
        onConfirm={async () => {
          const result = await deleteItem({ type: item.type, id: item.id });
          if (!result.ok) {
            if (result.error.code === "CONFLICT") setRefusal(result.error);
            else toast.error(`Could not delete the ${noun}`, result.error.message);
            return;
          }
          toast.success(`Deleted ${item.name}`);
          router.refresh();
        }}
      />

      <Dialog open={refusal !== null} onOpenChange={(o) => !o && setRefusal(null)} title={`${item.name} cannot be deleted`} description={refusal?.message}>
        {refusal?.details?.length ? (
          <ul aria-label={item.type === "folder" ? "What it holds" : "What uses it"} className="max-h-64 list-disc space-y-1 overflow-y-auto pl-5 text-sm text-gray-900">
            {refusal.details.map((d, i) => (
              <li key={i}>{d.message}</li>
            ))}
          </ul>
        ) : null}
        <DialogFooter>
          <Button variant="secondary" onClick={() => setRefusal(null)}>
            OK
          </Button>
        </DialogFooter>
      </Dialog>
    </>
  );
}
