// CopyButton: copies `text` to the clipboard and says "Copied" for two seconds, to screen readers
// too (a polite live region). `label` names what is copied: "Copy secret".
"use client";
import { Check, Copy } from "lucide-react";
import { useEffect, useState } from "react";
import { Button, type ButtonProps } from "./button";

export type CopyButtonProps = { text: string; label?: string; variant?: ButtonProps["variant"]; size?: ButtonProps["size"]; className?: string };

export function CopyButton({ text, label = "Copy", variant = "secondary", size = "sm", className }: CopyButtonProps) {
  const [state, setState] = useState<"idle" | "copied" | "failed">("idle");
  useEffect(() => {
    if (state === "idle") return;
    const t = setTimeout(() => setState("idle"), 2000);
    return () => clearTimeout(t);
  }, [state]);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setState("copied");
    } catch {
      setState("failed");
    }
  };
  return (
    <>
      <Button variant={variant} size={size} className={className} onClick={() => void copy()}>
        {state === "copied" ? <Check aria-hidden="true" className="size-4" /> : <Copy aria-hidden="true" className="size-4" />}
        {state === "copied" ? "Copied" : label}
      </Button>
      <span role="status" aria-live="polite" className="sr-only">
        {state === "copied" ? "Copied" : state === "failed" ? "Could not copy; select the text and copy it by hand" : ""}
      </span>
    </>
  );
}
