// FormError: a form's error that belongs to no one field, announced when it appears.
import { CircleAlert } from "lucide-react";

export function FormError({ message, id }: { message?: string; id?: string }) {
  return (
    <div role="alert" id={id} className={message ? "flex gap-2 rounded-md border border-danger/30 bg-danger-soft p-3 text-sm text-danger" : "sr-only"}>
      {message && (
        <>
          <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
          <span>{message}</span>
        </>
      )}
    </div>
  );
}

/** An action's details[] by field path, to show beside each field. */
export function fieldErrors(error: { details?: { path?: string; message: string }[] }): Record<string, string> {
  const out: Record<string, string> = {};
  for (const d of error.details ?? []) if (d.path && !out[d.path]) out[d.path] = d.message;
  return out;
}
