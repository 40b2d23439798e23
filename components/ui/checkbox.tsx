// Checkbox: a Radix checkbox with its label beside it (the label is required: every control is named).
"use client";
import * as CheckboxPrimitive from "@radix-ui/react-checkbox";
import { Check } from "lucide-react";
import { useId, type ComponentProps, type ReactNode } from "react";
import { cn } from "./cn";

export type CheckboxProps = Omit<ComponentProps<typeof CheckboxPrimitive.Root>, "children"> & { label: ReactNode; hint?: ReactNode };

export function Checkbox({ label, hint, id, className, ...props }: CheckboxProps) {
  const generated = useId();
  const boxId = id ?? generated;
  const hintId = hint ? `${boxId}-hint` : undefined;
  return (
    <div className={cn("flex items-start gap-2", className)}>
      <CheckboxPrimitive.Root
        id={boxId}
        aria-describedby={hintId}
        className="mt-0.5 flex size-4 shrink-0 items-center justify-center rounded border border-gray-400 bg-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-ring disabled:opacity-60 data-[state=checked]:border-accent data-[state=checked]:bg-accent"
        {...props}
      >
        <CheckboxPrimitive.Indicator>
          <Check aria-hidden="true" className="size-3 text-white" strokeWidth={3} />
        </CheckboxPrimitive.Indicator>
      </CheckboxPrimitive.Root>
      <div className="text-sm">
        <label htmlFor={boxId} className="font-medium text-gray-900">
          {label}
        </label>
        {hint && (
          <p id={hintId} className="text-gray-600">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}
