// Input and Textarea: text controls with the console's look; aria-invalid turns the border red.
import type { ComponentProps } from "react";
import { cn } from "./cn";

export const controlClasses = cn(
  "block w-full rounded-md border border-gray-300 bg-white px-3 text-sm text-gray-900 shadow-sm placeholder:text-gray-500",
  "focus-visible:border-ring focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-ring",
  "disabled:cursor-not-allowed disabled:bg-gray-100 disabled:text-gray-600",
  "aria-invalid:border-danger aria-invalid:focus-visible:outline-danger",
);

export function Input({ className, ...props }: ComponentProps<"input">) {
  return <input className={cn(controlClasses, "h-10", className)} {...props} />;
}
