// CreateTemplateDialog: name and kind; for a document, its page size (A4, Letter or custom mm) and
// margins, for a workbook template the uploaded workbook it fills; opens the editor on success.
"use client";
import { Plus } from "lucide-react";
import Link from "@/components/ui/link";
import { useRouter } from "next/navigation";
import { useState, useTransition } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Select } from "@/components/ui/select";
import type { ActionError, ActionResult } from "@/lib/console/action";
import { HBS_STARTER_LABELS, HBS_STARTERS } from "@/lib/templates/hbs-starters";

const kinds = [
  { value: "component", label: "Component" },
  { value: "handlebars", label: "Handlebars" },
  { value: "workbook", label: "Workbook (XLSX)" },
];

/** An uploaded workbook the dialog offers (lib/templates/workbook.ts, workbookChoices). */
export type WorkbookOption = { id: string; filename: string };

const starters = HBS_STARTERS.map((value) => ({ value, label: HBS_STARTER_LABELS[value] }));

const sizes = [
  { value: "a4", label: "A4 (210 × 297 mm)" },
  { value: "letter", label: "Letter (215.9 × 279.4 mm)" },
  { value: "custom", label: "Custom size" },
];

/** The templates page's server action (app/(console)/templates/actions.ts): the dialog's form in, the new template's id out. */
export type CreateTemplateAction = (form: FormData) => Promise<ActionResult<{ id: string }>>;

export function CreateTemplateDialog({ label = "Create template", create, workbooks = [] }: { label?: string; create: CreateTemplateAction; workbooks?: WorkbookOption[] }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [size, setSize] = useState("a4");
  const [kind, setKind] = useState("component");
  const [starter, setStarter] = useState<string>("basic");
  const [workbook, setWorkbook] = useState<string>(workbooks[0]?.id ?? "");
  const [error, setError] = useState<ActionError | null>(null);
  const [pending, start] = useTransition();
  const fieldError = (path: string) => error?.details?.find((d) => d.path === path)?.message;

  const submit = (form: FormData) => {
    setError(null);
    start(async () => {
      const result = await create(form);
      if (!result.ok) return setError(result.error);
      router.push(`/templates/${result.data.id}`);
    });
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        setOpen(o);
        if (!o) setError(null);
      }}
      title="Create a template"
      description="Pick its kind: a component template's layout is JSON, a Handlebars template's is HTML, a workbook template fills an Excel workbook you uploaded."
      trigger={
        <Button>
          <Plus aria-hidden="true" className="size-4" /> {label}
        </Button>
      }
    >
      <form action={submit} className="space-y-4" noValidate>
        <Field label="Name" error={fieldError("name")}>
          {(p) => <Input name="name" required maxLength={120} autoComplete="off" placeholder="Invoice" {...p} />}
        </Field>
        <Field
          label="Kind"
          hint={
            kind === "workbook"
              ? "An uploaded .xlsx whose cells hold placeholders such as {{customer.name}}; a row whose first placeholder is {{#each lines}} and last ends {{/each}} repeats per item. Renders XLSX."
              : kind !== "handlebars"
              ? "A layout of components, edited as JSON."
              : starter === "basic"
                ? "HTML with partials, helpers.js and scripts. Starts with a partial, a helper, a script, a header and footer with page numbers, and sample data."
                : "HTML with partials, helpers.js and scripts, a header and footer with page numbers, and sample data to preview with."
          }
        >
          {(p) => <Select name="kind" options={kinds} value={kind} onValueChange={setKind} {...p} />}
        </Field>
        {kind === "handlebars" && (
          <Field label="Start from" hint="A whole document with sample data: change any part of it in the editor.">
            {(p) => <Select name="starter" options={starters} value={starter} onValueChange={setStarter} {...p} />}
          </Field>
        )}
        {kind === "workbook" &&
          (workbooks.length ? (
            <Field label="Workbook" error={fieldError("workbookAssetId") ?? fieldError("workbook.assetId")} hint="Upload another on the Assets page.">
              {(p) => <Select name="workbookAssetId" options={workbooks.map((w) => ({ value: w.id, label: w.filename }))} value={workbook} onValueChange={setWorkbook} {...p} />}
            </Field>
          ) : (
            <p className="rounded-md border border-accent/30 bg-accent-soft px-4 py-3 text-sm text-gray-900">
              No workbook is uploaded yet.{" "}
              <Link href="/assets" className="font-medium text-accent underline">
                Upload an .xlsx on the Assets page
              </Link>
              , then come back.
            </p>
          ))}
        {kind !== "workbook" && <Field label="Page size">{(p) => <Select name="pageSize" options={sizes} value={size} onValueChange={setSize} {...p} />}</Field>}
        {kind !== "workbook" && size === "custom" && (
          <div className="grid grid-cols-2 gap-3">
            <Field label="Width (mm)" error={fieldError("widthMm")}>
              {(p) => <Input name="widthMm" type="number" inputMode="decimal" min={10} max={5000} step="0.1" defaultValue={210} {...p} />}
            </Field>
            <Field label="Height (mm)" error={fieldError("heightMm")}>
              {(p) => <Input name="heightMm" type="number" inputMode="decimal" min={10} max={5000} step="0.1" defaultValue={297} {...p} />}
            </Field>
          </div>
        )}
        {kind !== "workbook" && <fieldset>
          <legend className="mb-1.5 text-sm font-medium text-gray-900">Margins (mm)</legend>
          <div className="grid grid-cols-2 gap-3 sm:grid-cols-4">
            {(["top", "right", "bottom", "left"] as const).map((side) => (
              <Field key={side} label={side[0]!.toUpperCase() + side.slice(1)} error={fieldError(`${side}Mm`)}>
                {(p) => <Input name={`${side}Mm`} type="number" inputMode="decimal" min={0} max={1000} step="0.5" defaultValue={10} {...p} />}
              </Field>
            ))}
          </div>
        </fieldset>}
        {error && !error.details?.some((d) => ["name", "widthMm", "heightMm", "topMm", "rightMm", "bottomMm", "leftMm", "workbookAssetId", "workbook.assetId"].includes(d.path ?? "")) && (
          <p role="alert" className="text-sm font-medium text-danger">
            {error.message}
          </p>
        )}
        <DialogFooter>
          <Button type="submit" loading={pending} disabled={kind === "workbook" && !workbooks.length}>
            Create and open
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
