// SecretOnce: an endpoint's signing secret, shown once right after it was made (create, rotate),
// with a copy button and the warning that it will not be shown again.
"use client";
import { TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";

export function SecretOnce({ secret, children }: { secret: string; children?: ReactNode }) {
  return (
    <div className="space-y-4">
      <div role="alert" className="flex gap-3 rounded-md border border-warning/40 bg-warning-soft p-3 text-sm text-gray-900">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-warning" />
        <p>
          <strong className="font-semibold">Copy the signing secret now.</strong> It will not be shown again. Your receiver uses it to verify
          the <code className="font-mono text-xs">webhook-signature</code> header; if it is lost, rotate the secret.
        </p>
      </div>
      {children}
      <div className="space-y-1.5">
        <label htmlFor="webhook-secret" className="block text-sm font-medium text-gray-900">
          Signing secret
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            id="webhook-secret"
            readOnly
            value={secret}
            onFocus={(e) => e.currentTarget.select()}
            className="block h-10 w-full min-w-0 rounded-md border border-gray-300 bg-gray-50 px-3 font-mono text-sm text-gray-900"
          />
          <CopyButton text={secret} label="Copy secret" size="md" />
        </div>
      </div>
    </div>
  );
}
