// DestinationDialog: the form that creates or edits a storage destination, then the result of the
// test upload Folio ran before saving (the object written, and whether the key could delete it).
// A failed test upload shows the object store's reason, and saves nothing. Edits send only the
// fields that changed; the secret is never shown, and left empty it stays as saved.
"use client";
import { CheckCircle2, Pencil, Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { IconAction } from "@/components/ui/row-actions";
import { useToast } from "@/components/ui/toast";
import type { ActionResult } from "@/lib/console/action";
import type { z } from "zod";
import type { CreateDestinationInput, StorageDestination, UpdateDestinationInput } from "@/lib/destinations/schemas";

export type TestUpload = { objectKey: string; deleted: boolean };
type Saved = StorageDestination & { testUpload?: TestUpload };
export type CreateDestinationAction = (input: z.input<typeof CreateDestinationInput>) => Promise<ActionResult<Saved>>;
export type UpdateDestinationAction = (input: { id: string; change: z.input<typeof UpdateDestinationInput> }) => Promise<ActionResult<Saved>>;

type Form = { name: string; endpoint: string; region: string; bucket: string; prefix: string; forcePathStyle: boolean; accessKeyId: string; secretAccessKey: string };

const fromDestination = (d?: StorageDestination): Form => ({
  name: d?.name ?? "",
  endpoint: d?.endpoint ?? "",
  region: d?.region ?? "us-east-1",
  bucket: d?.bucket ?? "",
  prefix: d?.prefix ?? "",
  forcePathStyle: d?.forcePathStyle ?? false,
  accessKeyId: d?.accessKeyId ?? "",
  secretAccessKey: "",
});

/** The body of a create, or the fields of an edit that differ from the saved destination (empty endpoint or prefix: null, removing it). */
function body(form: Form, saved?: StorageDestination): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const text = (k: "name" | "region" | "bucket" | "accessKeyId") => {
    if (!saved || form[k].trim() !== saved[k]) out[k] = form[k].trim();
  };
  text("name");
  text("region");
  text("bucket");
  text("accessKeyId");
  for (const k of ["endpoint", "prefix"] as const) {
    const v = form[k].trim();
    if (!saved) {
      if (v) out[k] = v;
    } else if (v !== (saved[k] ?? "")) out[k] = v === "" ? null : v;
  }
  if (!saved || form.forcePathStyle !== saved.forcePathStyle) out.forcePathStyle = form.forcePathStyle;
  if (form.secretAccessKey) out.secretAccessKey = form.secretAccessKey;
  return out;
}

export function DestinationDialog(
  props:
    | { mode: "create"; save: CreateDestinationAction; disabled?: boolean }
    | { mode: "edit"; destination: StorageDestination; save: UpdateDestinationAction },
) {
  const router = useRouter();
  const toast = useToast();
  const saved = props.mode === "edit" ? props.destination : undefined;
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState<Form>(fromDestination(saved));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> }>();
  const [done, setDone] = useState<Saved>();

  const onOpenChange = (next: boolean) => {
    if (busy) return;
    setOpen(next);
    if (next) setForm(fromDestination(saved));
    else {
      setError(undefined);
      setDone(undefined);
    }
  };
  const set = <K extends keyof Form>(k: K, v: Form[K]) => setForm((f) => ({ ...f, [k]: v }));

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const change = body(form, saved);
    if (saved && Object.keys(change).length === 0) return onOpenChange(false);
    setBusy(true);
    setError(undefined);
    let close = false;
    try {
      const result = props.mode === "create" ? await props.save(change as z.input<typeof CreateDestinationInput>) : await props.save({ id: props.destination.id, change });
      if (result.ok) {
        toast.success(props.mode === "create" ? `Destination “${result.data.name}” saved` : `Destination “${result.data.name}” updated`);
        router.refresh();
        // A pure rename runs no test upload: nothing more to show.
        if (result.data.testUpload) setDone(result.data);
        else close = true;
      } else {
        const fields: Record<string, string> = {};
        for (const d of result.error.details ?? []) if (d.path) fields[d.path.replace(/^change\./, "").split(".")[0]!] ??= d.message;
        setError({ message: result.error.message, fields });
      }
    } finally {
      setBusy(false);
    }
    if (close) {
      setOpen(false);
      setError(undefined);
    }
  };

  const trigger =
    props.mode === "create" ? (
      <Button disabled={props.disabled} title={props.disabled ? "A workspace holds at most 10 destinations" : undefined}>
        <Plus aria-hidden="true" className="size-4" /> Add destination
      </Button>
    ) : (
      <IconAction icon={Pencil} label={`Edit ${props.destination.name}`} title="Edit" />
    );

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      trigger={trigger}
      title={done ? "Test upload succeeded" : saved ? `Edit “${saved.name}”` : "Add a storage destination"}
      description={
        done
          ? `“${done.name}” is saved. Renders that name it upload their files to the bucket ${done.bucket}.`
          : "Folio checks the keys with a test upload before it saves anything: it writes a small object named .service-connection-test under the prefix, then deletes it."
      }
      className="max-w-2xl"
    >
      {done?.testUpload ? (
        <>
          <div role="status" className="flex gap-3 rounded-md border border-success/40 bg-success-soft p-3 text-sm text-gray-900">
            <CheckCircle2 aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-success" />
            <p>
              Wrote <code className="font-mono text-xs break-all">{done.testUpload.objectKey}</code> to the bucket {done.bucket}
              {done.testUpload.deleted
                ? " and deleted it again."
                : ". The key may not delete objects, so the test object stays in the bucket; you can delete it yourself. Renders need only permission to write."}
            </p>
          </div>
          <DialogFooter>
            <Button onClick={() => onOpenChange(false)}>Done</Button>
          </DialogFooter>
        </>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate className="space-y-4">
          {error && (
            <p role="alert" className="rounded-md border border-danger/40 bg-danger-soft p-3 text-sm break-words text-danger">
              {error.message}
            </p>
          )}
          <Field label="Name" hint="Render requests name the destination by it; unique in the workspace, ignoring letter case." error={error?.fields.name}>
            {(p) => <Input {...p} value={form.name} onChange={(e) => set("name", e.target.value)} maxLength={120} required autoComplete="off" />}
          </Field>
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Bucket" error={error?.fields.bucket}>
              {(p) => <Input {...p} value={form.bucket} onChange={(e) => set("bucket", e.target.value)} required autoComplete="off" />}
            </Field>
            <Field label="Region" hint="us-east-1 unless your bucket says otherwise." error={error?.fields.region}>
              {(p) => <Input {...p} value={form.region} onChange={(e) => set("region", e.target.value)} autoComplete="off" />}
            </Field>
          </div>
          <Field label="Endpoint (optional)" hint="Leave empty for Amazon S3; for other stores their https:// address." error={error?.fields.endpoint}>
            {(p) => <Input {...p} type="url" value={form.endpoint} onChange={(e) => set("endpoint", e.target.value)} placeholder="https://s3.example.com" autoComplete="off" />}
          </Field>
          <Field label="Prefix (optional)" hint="A folder put before every object key, such as documents/invoices (no leading or trailing slash)." error={error?.fields.prefix}>
            {(p) => <Input {...p} value={form.prefix} onChange={(e) => set("prefix", e.target.value)} maxLength={512} autoComplete="off" />}
          </Field>
          <Checkbox
            label="Path-style addressing"
            hint="Puts the bucket in the URL path instead of the host name; some self-run object stores need it."
            checked={form.forcePathStyle}
            onCheckedChange={(v) => set("forcePathStyle", v === true)}
          />
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="Access key ID" error={error?.fields.accessKeyId}>
              {(p) => <Input {...p} value={form.accessKeyId} onChange={(e) => set("accessKeyId", e.target.value)} required autoComplete="off" />}
            </Field>
            <Field
              label="Secret access key"
              hint={saved ? "Leave empty to keep the saved one; needed again when the endpoint, region, bucket or addressing change." : "Stored encrypted; never shown again."}
              error={error?.fields.secretAccessKey}
            >
              {(p) => <Input {...p} type="password" value={form.secretAccessKey} onChange={(e) => set("secretAccessKey", e.target.value)} required={!saved} autoComplete="new-password" />}
            </Field>
          </div>
          <DialogFooter>
            <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {saved ? "Test and save" : "Test and add"}
            </Button>
          </DialogFooter>
        </form>
      )}
    </Dialog>
  );
}
