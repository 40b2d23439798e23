// EndpointFormDialog: creates a webhook endpoint (URL, description, event types), then shows its
// signing secret once; or, given an endpoint, edits those fields. The server actions call the verbs
// of POST and PATCH /v1/webhook-endpoints, which check the URL (spec: Allowed webhook URLs).
"use client";
import { Pencil, Plus } from "lucide-react";
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
import type { WebhookEndpoint, WebhookEventType } from "@/lib/webhooks/schemas";
import { eventTypeChoices } from "./event-types";
import { SecretOnce } from "./secret-once";

export type EndpointFields = { url: string; description?: string; eventTypes: WebhookEventType[] };
export type CreateEndpointAction = (input: EndpointFields) => Promise<ActionResult<WebhookEndpoint & { secret: string }>>;
export type UpdateEndpointAction = (input: { id: string; changes: { url?: string; description?: string | null; eventTypes?: WebhookEventType[] } }) => Promise<ActionResult<WebhookEndpoint>>;

type Props = { create: CreateEndpointAction; endpoint?: undefined; update?: undefined } | { endpoint: WebhookEndpoint; update: UpdateEndpointAction; create?: undefined };

export function EndpointFormDialog(props: Props) {
  const editing = props.endpoint;
  const router = useRouter();
  const toast = useToast();
  const initial = () => ({ url: editing?.url ?? "", description: editing?.description ?? "", types: new Set<string>(editing?.eventTypes ?? eventTypeChoices.map((c) => c.type)) });
  const [open, setOpen] = useState(false);
  const [form, setForm] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> }>();
  const [secret, setSecret] = useState<string>();

  const onOpenChange = (next: boolean) => {
    if (busy) return;
    setOpen(next);
    if (!next) {
      setForm(initial());
      setError(undefined);
      setSecret(undefined);
    }
  };
  const toggle = (type: string, on: boolean) =>
    setForm((f) => {
      const types = new Set(f.types);
      if (on) types.add(type);
      else types.delete(type);
      return { ...f, types };
    });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const eventTypes = eventTypeChoices.map((c) => c.type).filter((t) => form.types.has(t));
      const result = editing
        ? await props.update!({
            id: editing.id,
            changes: {
              ...(form.url !== editing.url ? { url: form.url } : {}),
              ...(form.description !== (editing.description ?? "") ? { description: form.description.trim() ? form.description : null } : {}),
              eventTypes,
            },
          })
        : await props.create!({ url: form.url, eventTypes, ...(form.description.trim() ? { description: form.description } : {}) });
      if (result.ok) {
        router.refresh();
        if (editing) {
          toast.success("Endpoint saved");
          setOpen(false);
        } else {
          toast.success("Endpoint created");
          if ("secret" in result.data) setSecret(String(result.data.secret));
        }
      } else {
        const fields: Record<string, string> = {};
        for (const d of result.error.details ?? []) if (d.path) fields[d.path.replace(/^(body|changes)\./, "").split(".")[0]!] ??= d.message;
        setError({ message: result.error.message, fields });
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        editing ? (
          <IconAction icon={Pencil} label={`Edit ${editing.url}`} title="Edit" />
        ) : (
          <Button>
            <Plus aria-hidden="true" className="size-4" /> Add endpoint
          </Button>
        )
      }
      title={secret ? "Endpoint created" : editing ? "Edit endpoint" : "Add a webhook endpoint"}
      description={secret ? "Folio signs every event it sends to this endpoint with this secret." : "Folio sends a signed POST to this URL when a PDF render ends."}
      className="max-w-xl"
    >
      {secret ? (
        <>
          <SecretOnce secret={secret} />
          <DialogFooter>
            <Button onClick={() => onOpenChange(false)}>Done</Button>
          </DialogFooter>
        </>
      ) : (
        <form onSubmit={(e) => void submit(e)} noValidate className="space-y-5">
          {error && (
            <p role="alert" className="rounded-md border border-danger/40 bg-danger-soft p-3 text-sm text-danger">
              {error.message}
            </p>
          )}
          <Field label="URL" hint="A public https address of your server." error={error?.fields.url}>
            {(p) => <Input {...p} name="url" type="url" value={form.url} onChange={(e) => setForm({ ...form, url: e.target.value })} placeholder="https://example.com/webhooks/folio" required autoComplete="off" />}
          </Field>
          <Field label="Description (optional)" error={error?.fields.description}>
            {(p) => <Input {...p} name="description" value={form.description} onChange={(e) => setForm({ ...form, description: e.target.value })} maxLength={500} autoComplete="off" />}
          </Field>
          <fieldset aria-describedby={error?.fields.eventTypes ? "event-types-error" : undefined}>
            <legend className="text-sm font-medium text-gray-900">Events</legend>
            <div className="mt-2 space-y-3">
              {eventTypeChoices.map((c) => (
                <Checkbox key={c.type} label={<code className="font-mono text-xs">{c.type}</code>} hint={c.hint} checked={form.types.has(c.type)} onCheckedChange={(v) => toggle(c.type, v === true)} />
              ))}
            </div>
            {error?.fields.eventTypes && (
              <p id="event-types-error" className="mt-2 text-sm font-medium text-danger">
                {error.fields.eventTypes}
              </p>
            )}
          </fieldset>
          <DialogFooter>
            <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              {editing ? "Save" : "Add endpoint"}
            </Button>
          </DialogFooter>
        </form>
      )}
    </Dialog>
  );
}
