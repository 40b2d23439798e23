// SecretPanel: a key's secret, shown once right after it was made (create, rotate), with a copy
// button, the warning that it will not be shown again, and, for a key that may render, the
// getting-started command with the secret written in.
"use client";
import { TriangleAlert } from "lucide-react";
import type { ReactNode } from "react";
import { CopyButton } from "@/components/ui/copy-button";
import { helloRenderCommand } from "@/lib/console/hello-curl";

export function SecretPanel({ secret, scopes, publicUrl, children }: { secret: string; scopes: readonly string[]; publicUrl: string; children?: ReactNode }) {
  return (
    <div className="space-y-4">
      <div role="alert" className="flex gap-3 rounded-md border border-warning/40 bg-warning-soft p-3 text-sm text-gray-900">
        <TriangleAlert aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-warning" />
        <p>
          <strong className="font-semibold">Copy the secret now.</strong> It will not be shown again: Folio keeps only a hash of it. If it
          is lost, rotate the key to get a new one.
        </p>
      </div>
      {children}
      <div className="space-y-1.5">
        <label htmlFor="new-key-secret" className="block text-sm font-medium text-gray-900">
          Secret
        </label>
        <div className="flex flex-col gap-2 sm:flex-row">
          <input
            id="new-key-secret"
            readOnly
            value={secret}
            onFocus={(e) => e.currentTarget.select()}
            className="block h-10 w-full min-w-0 rounded-md border border-gray-300 bg-gray-50 px-3 font-mono text-sm text-gray-900"
          />
          <CopyButton text={secret} label="Copy secret" size="md" />
        </div>
      </div>
      {scopes.includes("render:create") && (
        <div className="space-y-1.5">
          <p className="text-sm font-medium text-gray-900">Try it: render “Hello” with this key</p>
          <pre className="overflow-x-auto rounded-md bg-gray-900 p-3 text-xs leading-relaxed text-gray-100" tabIndex={0} aria-label="curl command with this key">
            {helloRenderCommand(publicUrl, secret)}
          </pre>
          <CopyButton text={helloRenderCommand(publicUrl, secret)} label="Copy command" />
        </div>
      )}
    </div>
  );
}
