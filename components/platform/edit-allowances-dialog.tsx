// EditAllowancesDialog: a workspace's allowances and hosted plan, for platform administrators.
// Empty quota fields mean unlimited. The server validates and audits each change.
"use client";
import { SlidersHorizontal } from "lucide-react";
import { useState, type FormEvent } from "react";
import { FormError, fieldErrors } from "@/components/people/form-error";
import { Button } from "@/components/ui/button";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { IconAction } from "@/components/ui/row-actions";
import { Select } from "@/components/ui/select";
import { useToast } from "@/components/ui/toast";
import type { ActionResult } from "@/lib/console/action";
import type { PlatformWorkspace, PlatformWorkspaceInput } from "@/lib/workspaces";

/** The platform page's server action (app/(console)/platform/actions.ts), handed down as a prop. */
export type UpdatePlatformWorkspaceAction = (input: PlatformWorkspaceInput & { id: string }) => Promise<ActionResult<PlatformWorkspace>>;

const NO_PLAN = "none";
const planOptions = [
  { value: NO_PLAN, label: "No plan (self-hosted)" },
  { value: "free", label: "Free" },
  { value: "starter", label: "Starter" },
  { value: "pro", label: "Pro" },
  { value: "business", label: "Business" },
];

type Plan = "free" | "starter" | "pro" | "business";

/** A field's text as the verb's value: a whole number, null when empty and `nullable`, else the text (the server names it). */
function numberOf(text: string, nullable: boolean): number | null | string {
  const t = text.trim();
  if (t === "" && nullable) return null;
  return /^\d+$/.test(t) ? Number(t) : t;
}

export function EditAllowancesDialog({ workspace: w, update }: { workspace: PlatformWorkspace; update: UpdatePlatformWorkspaceAction }) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [plan, setPlan] = useState(w.plan ?? NO_PLAN);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> }>();
  const l = w.limits;

  const change = (v: boolean) => {
    if (busy) return;
    setOpen(v);
    if (!v) {
      setError(undefined);
      setPlan(w.plan ?? NO_PLAN);
    }
  };

  const submit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (busy) return;
    const f = new FormData(e.currentTarget);
    const text = (k: string) => String(f.get(k) ?? "");
    const input = {
      id: w.id,
      maxActiveRenders: numberOf(text("maxActiveRenders"), false),
      rendersPerMinute: numberOf(text("rendersPerMinute"), false),
      documentsPerMonth: numberOf(text("documentsPerMonth"), true),
      maxStorageBytes: numberOf(text("maxStorageBytes"), true),
      testRendersPerDay: numberOf(text("testRendersPerDay"), true),
      plan: plan === NO_PLAN ? null : (plan as Plan),
    };
    setBusy(true);
    setError(undefined);
    // why the cast: a field that is not a whole number goes as typed, and the server's zod names it.
    const r = await update(input as Parameters<UpdatePlatformWorkspaceAction>[0]);
    setBusy(false);
    if (r.ok) {
      toast.success(`The allowances of ${w.name} were saved`);
      setOpen(false);
    } else setError({ message: r.error.message, fields: fieldErrors(r.error) });
  };

  const field = (name: keyof typeof l & string, label: string, value: number | null, hint?: string) => (
    <Field label={label} error={error?.fields[name]} hint={hint}>
      {(p) => <Input {...p} name={name} inputMode="numeric" defaultValue={value === null ? "" : String(value)} placeholder={hint ? "Unlimited" : undefined} />}
    </Field>
  );

  return (
    <Dialog
      open={open}
      onOpenChange={change}
      title={`Allowances of ${w.name}`}
      description="Changes apply to the next request; renders already accepted finish. Each change is audited."
      trigger={<IconAction icon={SlidersHorizontal} label={`Edit allowances of ${w.name}`} title="Edit allowances" />}
    >
      <form onSubmit={(e) => void submit(e)} className="space-y-4" noValidate>
        <FormError message={error && !Object.keys(error.fields).length ? error.message : undefined} />
        <div className="grid gap-4 sm:grid-cols-2">
          {field("maxActiveRenders", "Active renders at once", l.maxActiveRenders)}
          {field("rendersPerMinute", "Renders per minute", l.rendersPerMinute)}
          {field("documentsPerMonth", "Documents per month", l.documentsPerMonth, "Empty: unlimited")}
          {field("maxStorageBytes", "Storage (bytes)", l.maxStorageBytes, "Empty: unlimited")}
          {field("testRendersPerDay", "Test renders per day", l.testRendersPerDay, "Empty: unlimited")}
          <Field label="Plan" error={error?.fields.plan} hint="Hosted mode only: the plan's allowances are the floor.">
            {(p) => <Select {...p} name="plan" value={plan} onValueChange={setPlan} options={planOptions} />}
          </Field>
        </div>
        <DialogFooter>
          <Button variant="secondary" onClick={() => change(false)} disabled={busy}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {busy ? "Saving…" : "Save allowances"}
          </Button>
        </DialogFooter>
      </form>
    </Dialog>
  );
}
