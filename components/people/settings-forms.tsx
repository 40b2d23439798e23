// The settings page's forms: workspace name, your name, your password, signing out everywhere, and
// leaving the workspace.
"use client";
import { LogOut, MonitorX } from "lucide-react";
import { useState, type FormEvent } from "react";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { useToast } from "@/components/ui/toast";
import type { ActionResult } from "@/lib/console/action";
import type { ChangePasswordAction, LeaveWorkspaceAction, RenameWorkspaceAction, SignOutEverywhereAction, UpdateProfileAction } from "./action-types";
import { FormError, fieldErrors } from "./form-error";

type FormState = { busy: boolean; error?: { message: string; fields: Record<string, string> } };

/** One form's submit: progress, the error at its field (or above the form), a toast on success. */
function useSubmit<T>(send: (form: FormData) => Promise<ActionResult<T>>, success: string, after?: (form: HTMLFormElement) => void) {
  const toast = useToast();
  const [state, setState] = useState<FormState>({ busy: false });
  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (state.busy) return;
    const el = e.currentTarget;
    setState({ busy: true });
    const r = await send(new FormData(el));
    if (r.ok) {
      setState({ busy: false });
      toast.success(success);
      after?.(el);
    } else setState({ busy: false, error: { message: r.error.message, fields: fieldErrors(r.error) } });
  };
  const generalError = state.error && !Object.keys(state.error.fields).length ? state.error.message : undefined;
  return { state, onSubmit: (e: FormEvent<HTMLFormElement>) => void onSubmit(e), generalError };
}

export function WorkspaceNameForm({ name, canRename, rename }: { name: string; canRename: boolean; rename: RenameWorkspaceAction }) {
  const { state, onSubmit, generalError } = useSubmit((f) => rename({ name: String(f.get("name") ?? "") }), "Workspace renamed");
  return (
    <form onSubmit={onSubmit} className="max-w-md space-y-4" noValidate>
      <FormError message={generalError} />
      <Field label="Workspace name" error={state.error?.fields.name}>
        {(p) => <Input {...p} name="name" defaultValue={name} required maxLength={120} readOnly={!canRename} />}
      </Field>
      {canRename && (
        <Button type="submit" loading={state.busy}>
          {state.busy ? "Saving…" : "Save name"}
        </Button>
      )}
    </form>
  );
}

export function ProfileForm({ name, email, update }: { name: string; email: string; update: UpdateProfileAction }) {
  const { state, onSubmit, generalError } = useSubmit((f) => update({ name: String(f.get("name") ?? "") }), "Your name was saved");
  return (
    <form onSubmit={onSubmit} className="max-w-md space-y-4" noValidate>
      <FormError message={generalError} />
      <Field label="Email" hint="Your email is how you sign in; it cannot be changed here.">
        {(p) => <Input {...p} value={email} readOnly type="email" />}
      </Field>
      <Field label="Name" error={state.error?.fields.name}>
        {(p) => <Input {...p} name="name" defaultValue={name} required maxLength={200} autoComplete="name" />}
      </Field>
      <Button type="submit" loading={state.busy}>
        {state.busy ? "Saving…" : "Save profile"}
      </Button>
    </form>
  );
}

export function ChangePasswordForm({ email, change }: { email: string; change: ChangePasswordAction }) {
  const [mismatch, setMismatch] = useState<string>();
  const { state, onSubmit, generalError } = useSubmit(
    (f) => change({ currentPassword: String(f.get("currentPassword") ?? ""), newPassword: String(f.get("newPassword") ?? "") }),
    "Your password was changed",
    (el) => el.reset(),
  );
  const submit = (e: FormEvent<HTMLFormElement>) => {
    const f = new FormData(e.currentTarget);
    if (f.get("newPassword") !== f.get("confirm")) {
      e.preventDefault();
      setMismatch("does not match the new password");
      return;
    }
    setMismatch(undefined);
    onSubmit(e);
  };
  return (
    <form onSubmit={submit} className="max-w-md space-y-4" noValidate>
      <FormError message={generalError} />
      <input type="email" name="username" value={email} readOnly autoComplete="username" hidden />
      <Field label="Current password" error={state.error?.fields.currentPassword}>
        {(p) => <Input {...p} name="currentPassword" type="password" autoComplete="current-password" required maxLength={1024} />}
      </Field>
      <Field label="New password" error={state.error?.fields.newPassword} hint="At least 8 characters.">
        {(p) => <Input {...p} name="newPassword" type="password" autoComplete="new-password" required maxLength={1024} />}
      </Field>
      <Field label="Repeat the new password" error={mismatch}>
        {(p) => <Input {...p} name="confirm" type="password" autoComplete="new-password" required maxLength={1024} />}
      </Field>
      <Button type="submit" loading={state.busy}>
        {state.busy ? "Changing…" : "Change password"}
      </Button>
    </form>
  );
}

/**
 * A confirmed action after which this console is no longer the person's (their sessions ended, or
 * they left the workspace): on success the browser loads `then` afresh, so nothing of the
 * signed-in console stays in the router's cache; on failure the message shows above the button.
 */
function ConfirmedExit({ action, then, danger = false, title, text, label, icon }: {
  action: () => Promise<ActionResult<unknown>>;
  then: string;
  danger?: boolean;
  title: string;
  text: string;
  label: string;
  icon: React.ReactNode;
}) {
  const [error, setError] = useState<string>();
  const run = async () => {
    const r = await action();
    if (r.ok) return void window.location.assign(new URL(then, window.location.href));
    setError(r.error.message);
  };
  return (
    <div className="max-w-md space-y-4">
      <FormError message={error} />
      <ConfirmDialog
        danger={danger}
        title={title}
        text={text}
        confirmLabel={label}
        onConfirm={run}
        trigger={
          <Button variant={danger ? "danger" : "secondary"}>
            {icon}
            {label}
          </Button>
        }
      />
    </div>
  );
}

/** Ends every session of the person, this browser's too, then goes to the sign-in page. */
export function SignOutEverywhere({ signOut }: { signOut: SignOutEverywhereAction }) {
  return (
    <ConfirmedExit
      action={() => signOut({})}
      then="/sign-in"
      title="Sign out everywhere?"
      text="Every browser and device where you are signed in is signed out within a second, this one too. You then sign in again here."
      label="Sign out everywhere"
      icon={<MonitorX aria-hidden="true" className="size-4" />}
    />
  );
}

export function LeaveWorkspace({ workspaceName, leave }: { workspaceName: string; leave: LeaveWorkspaceAction }) {
  return (
    <ConfirmedExit
      action={() => leave({})}
      then="/"
      danger
      title={`Leave ${workspaceName}?`}
      text="You lose access at once. To come back, someone has to invite you again."
      label="Leave workspace"
      icon={<LogOut aria-hidden="true" className="size-4" />}
    />
  );
}
