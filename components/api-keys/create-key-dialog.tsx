// CreateKeyDialog: the form that creates an API key (name, scopes with presets, lifetime), then
// the new secret, shown once. The server action calls the verb of POST /v1/api-keys.
"use client";
import { Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { cn } from "@/components/ui/cn";
import { Dialog, DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useToast } from "@/components/ui/toast";
import type { ActionResult } from "@/lib/console/action";
import type { ApiKey } from "@/lib/keys/schemas";
import { lifetimes, presetOf, presets, scopeHint, scopes, type Scope } from "./scope-choices";
import { SecretPanel } from "./secret-panel";

export type CreateKeyInput = { name: string; scopes: Scope[]; expiresInDays?: number };
export type CreateKeyAction = (input: CreateKeyInput) => Promise<ActionResult<ApiKey & { secret: string }>>;

export function CreateKeyDialog({ create, publicUrl, defaultOpen = false }: { create: CreateKeyAction; publicUrl: string; defaultOpen?: boolean }) {
  const router = useRouter();
  const toast = useToast();
  const [open, setOpen] = useState(defaultOpen);
  const [name, setName] = useState("");
  const [chosen, setChosen] = useState<Set<string>>(new Set(presets.find((p) => p.id === "render")!.scopes));
  const [lifetime, setLifetime] = useState<(typeof lifetimes)[number]["value"]>("never");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<{ message: string; fields: Record<string, string> }>();
  const [created, setCreated] = useState<ApiKey & { secret: string }>();

  const reset = () => {
    setName("");
    setChosen(new Set(presets.find((p) => p.id === "render")!.scopes));
    setLifetime("never");
    setError(undefined);
    setCreated(undefined);
  };
  const onOpenChange = (next: boolean) => {
    if (busy) return;
    setOpen(next);
    if (!next) {
      reset();
      // why: the home page links here with ?create=1; closing must not open it again on refresh.
      if (defaultOpen) router.replace("/api-keys");
    }
  };
  const toggle = (scope: string, on: boolean) =>
    setChosen((prev) => {
      const next = new Set(prev);
      if (on) next.add(scope);
      else next.delete(scope);
      return next;
    });

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const days = lifetimes.find((l) => l.value === lifetime)?.days;
      const result = await create({ name, scopes: scopes.filter((s) => chosen.has(s)), ...(days ? { expiresInDays: days } : {}) });
      if (result.ok) {
        setCreated(result.data);
        toast.success(`Key “${result.data.name}” created`);
      } else {
        const fields: Record<string, string> = {};
        for (const d of result.error.details ?? []) if (d.path) fields[d.path.split(".")[0]!] ??= d.message;
        setError({ message: result.error.message, fields });
      }
    } finally {
      setBusy(false);
    }
  };
  const preset = presetOf(chosen);

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      trigger={
        <Button>
          <Plus aria-hidden="true" className="size-4" /> Create key
        </Button>
      }
      title={created ? "Your new API key" : "Create an API key"}
      description={created ? `“${created.name}” is ready. Programs send it in the x-api-key header.` : "A key lets a program use the API for this workspace, with the scopes you choose."}
      className="max-w-2xl"
    >
      {created ? (
        <>
          <SecretPanel secret={created.secret} scopes={created.scopes} publicUrl={publicUrl} />
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
          <Field label="Name" hint="What uses the key, for example “Billing service (production)”." error={error?.fields.name}>
            {(p) => <Input {...p} name="name" value={name} onChange={(e) => setName(e.target.value)} maxLength={64} required autoComplete="off" />}
          </Field>

          <fieldset aria-describedby={error?.fields.scopes ? "scopes-error" : undefined}>
            <legend className="text-sm font-medium text-gray-900">Scopes</legend>
            <div className="mt-2 flex flex-wrap gap-2" role="group" aria-label="Scope presets">
              {presets.map((p) => (
                <Button key={p.id} variant={preset === p.id ? "primary" : "secondary"} size="sm" aria-pressed={preset === p.id} onClick={() => setChosen(new Set(p.scopes))}>
                  {p.label}
                </Button>
              ))}
            </div>
            <div className="mt-3 grid gap-3 sm:grid-cols-2">
              {scopes.map((s) => (
                <Checkbox
                  key={s}
                  label={<code className="font-mono text-xs">{s}</code>}
                  hint={scopeHint(s)}
                  checked={chosen.has(s)}
                  onCheckedChange={(v) => toggle(s, v === true)}
                />
              ))}
            </div>
            {error?.fields.scopes && (
              <p id="scopes-error" className="mt-2 text-sm font-medium text-danger">
                {error.fields.scopes}
              </p>
            )}
          </fieldset>

          <fieldset>
            <legend className="text-sm font-medium text-gray-900">Expires</legend>
            <div className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-4">
              {lifetimes.map((l) => (
                <label
                  key={l.value}
                  className={cn(
                    "flex cursor-pointer items-center gap-2 rounded-md border px-3 py-2 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-ring",
                    lifetime === l.value ? "border-accent bg-accent-soft text-gray-900" : "border-gray-300 bg-white text-gray-900",
                  )}
                >
                  <input type="radio" name="lifetime" value={l.value} checked={lifetime === l.value} onChange={() => setLifetime(l.value)} className="accent-accent" />
                  {l.label}
                </label>
              ))}
            </div>
          </fieldset>

          <DialogFooter>
            <Button variant="secondary" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" loading={busy}>
              Create key
            </Button>
          </DialogFooter>
        </form>
      )}
    </Dialog>
  );
}
