// Field: a label, one control, a hint and an error, wired together: the control gets the id,
// aria-describedby (hint and error) and aria-invalid when there is an error. Pass the control as a
// render function: <Field label="Name" error={e}>{(p) => <Input name="name" {...p} />}</Field>.
import { useId, type ReactNode } from "react";
import { cn } from "./cn";
import { Label } from "./label";

export type FieldControlProps = { id: string; "aria-describedby"?: string; "aria-invalid"?: true };

export type FieldProps = {
  label: ReactNode;
  children: (control: FieldControlProps) => ReactNode;
  hint?: ReactNode;
  /** The message of the error this field caused (an action's details[].path), shown under it. */
  error?: string;
  /** The control's id; generated when not given. */
  id?: string;
  className?: string;
};

export function Field({ label, children, hint, error, id, className }: FieldProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = error ? `${controlId}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(" ") || undefined;
  return (
    <div className={cn("space-y-1.5", className)}>
      <Label htmlFor={controlId}>{label}</Label>
      {children({ id: controlId, "aria-describedby": describedBy, ...(error ? { "aria-invalid": true } : {}) })}
      {hint && (
        <p id={hintId} className="text-sm text-gray-600">
          {hint}
        </p>
      )}
      {error && (
        <p id={errorId} className="text-sm font-medium text-danger">
          {error}
        </p>
      )}
    </div>
  );
}
