// Input and Textarea: text controls with the console's look; aria-invalid turns the border red.
// A text input with maxLength says so as it nears the limit (a counter under it, part of its
// description) instead of silently cutting what is typed or pasted at the limit.
"use client";
import { useId, useState, type ComponentProps } from "react";
import { cn } from "./cn";

export const controlClasses = cn(
  "block w-full rounded-md border border-gray-300 bg-white px-3 text-sm text-gray-900 shadow-sm placeholder:text-gray-500",
  "focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring",
  "disabled:cursor-not-allowed disabled:bg-gray-100 disabled:text-gray-600",
  "aria-invalid:border-danger aria-invalid:focus-visible:outline-danger",
);

/** From how many characters a counter shows: the last fifth of the allowance, at least the last 10. */
export const counterFrom = (max: number) => Math.max(0, Math.min(max - 10, Math.floor(max * 0.8)));

/** Types whose length a person does not count: secrets, searches, numbers, dates. */
const uncounted = new Set(["password", "search", "number", "date", "datetime-local", "time", "hidden", "checkbox", "radio", "file", "range", "color"]);

export function Input({ className, maxLength, onChange, ...props }: ComponentProps<"input">) {
  const counterId = useId();
  const [typed, setTyped] = useState(() => String(props.defaultValue ?? "").length);
  const length = props.value !== undefined ? String(props.value).length : typed;
  const counted = maxLength !== undefined && !uncounted.has(props.type ?? "text");
  const near = counted && length >= counterFrom(maxLength);
  const describedBy = [props["aria-describedby"], near ? counterId : undefined].filter(Boolean).join(" ") || undefined;
  return (
    <>
      <input
        className={cn(controlClasses, "h-10", className)}
        maxLength={maxLength}
        {...props}
        aria-describedby={describedBy}
        onChange={(e) => {
          setTyped(e.target.value.length);
          onChange?.(e);
        }}
      />
      {near && (
        <p id={counterId} aria-live="polite" className={cn("text-xs tabular-nums", length >= maxLength ? "font-medium text-warning" : "text-gray-600")}>
          {length >= maxLength ? `${length} of ${maxLength} characters: the limit. Anything longer is cut off.` : `${length} of ${maxLength} characters`}
        </p>
      )}
    </>
  );
}
