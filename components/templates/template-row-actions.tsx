// TemplateRowActions: rename (a small dialog) and delete (with confirmation) for one template of the list.
"use client";
import { MoreHorizontal, Pencil, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useToast } from "@/components/ui/toast";
import type { ActionResult } from "@/lib/console/action";

/** The templates page's server actions (app/(console)/templates/actions.ts), handed down as props. */
export type RenameTemplateAction = (input: { id: string; name: string }) => Promise<ActionResult<{ id: string; name: string }>>;
export type DeleteTemplateAction = (input: { id: string }) => Promise<ActionResult<{ deleted: true; ids: string[] }>>;

export function TemplateRowActions({ id, name, rename: renameTemplate, remove }: { id: string; name: string; rename: RenameTemplateAction; remove: DeleteTemplateAction }) {
  const router = useRouter();
  const toast = useToast();
  const [renaming, setRenaming] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [pending, start] = useTransition();

  const rename = (form: FormData) => {
    setError(undefined);
    start(async () => {
      const result = await renameTemplate({ id, name: String(form.get("name") ?? "") });
      if (!result.ok) return setError(result.error.details?.[0]?.message ?? result.error.message);
      setRenaming(false);
      toast.success(`Renamed to ${result.data.name}`);
      router.refresh();
    });
  };

  return (
    <>
      <DropdownMenu>
        <DropdownMenuTrigger asChild>
          <Button variant="ghost" size="icon" aria-label={`Actions for ${name}`}>
            <MoreHorizontal aria-hidden="true" className="size-4" />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuItem onSelect={() => setRenaming(true)}>
            <Pencil aria-hidden="true" className="size-4" /> Rename
          </DropdownMenuItem>
          <DropdownMenuItem danger onSelect={() => setDeleting(true)}>
            <Trash2 aria-hidden="true" className="size-4" /> Delete
          </DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <Dialog open={renaming} onOpenChange={setRenaming} title={`Rename ${name}`}>
        <form action={rename} noValidate>
          <Field label="Name" error={error}>
            {(p) => <Input name="name" defaultValue={name} required maxLength={120} autoComplete="off" {...p} />}
          </Field>
          <DialogFooter>
            <Button type="submit" loading={pending}>
              Rename
            </Button>
          </DialogFooter>
        </form>
      </Dialog>
      <ConfirmDialog
        open={deleting}
        onOpenChange={setDeleting}
        danger
        title={`Delete ${name}?`}
        text="The template, its draft history and its published versions are deleted. Renders already made stay. This cannot be undone."
        confirmLabel="Delete template"
        onConfirm={async () => {
          const result = await remove({ id });
          if (!result.ok) {
            toast.error("Could not delete the template", result.error.message);
            return false;
          }
          toast.success(`Deleted ${name}`);
          router.refresh();
        }}
      />
    </>
  );
}
