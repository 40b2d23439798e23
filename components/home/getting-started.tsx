// GettingStarted: the home page's steps for a new workspace: a key, a first render with curl, its
// file, and the template editor.
import { ArrowRight, KeyRound, LayoutTemplate } from "lucide-react";
import Link from "@/components/ui/link";
import type { ReactNode } from "react";
import { buttonClasses } from "@/components/ui/button";
import { DOWNLOAD_URL_PLACEHOLDER, helloDownloadCommand, helloRenderCommand, KEY_VARIABLE } from "@/lib/console/hello-curl";
import { CommandBlock } from "./command-block";

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    <li className="flex gap-4">
      <span aria-hidden="true" className="flex size-7 shrink-0 items-center justify-center rounded-full bg-accent-soft text-sm font-semibold text-accent">
        {n}
      </span>
      <div className="min-w-0 flex-1">
        <h3 className="text-sm font-semibold text-gray-900">{title}</h3>
        <div className="mt-1 text-sm text-gray-700">{children}</div>
      </div>
    </li>
  );
}

export type GettingStartedProps = {
  publicUrl: string;
  workspaceName: string;
  /** Whether the person may create keys (owners, admins). */
  mayCreateKeys: boolean;
  /** Active keys of the workspace, when the person may see them. */
  activeKeys?: number;
};

export function GettingStarted({ publicUrl, workspaceName, mayCreateKeys, activeKeys }: GettingStartedProps) {
  return (
    <section aria-labelledby="getting-started" className="rounded-lg border border-gray-200 bg-white p-5 sm:p-6">
      <h2 id="getting-started" className="text-lg font-semibold text-gray-900">
        Get started
      </h2>
      <p className="mt-1 text-sm text-gray-600">Render your first PDF from the command line in a minute.</p>
      <ol className="mt-6 space-y-6">
        <Step n={1} title="Create an API key">
          {mayCreateKeys ? (
            <>
              <p>
                A key with the <code className="font-mono text-xs">render:create</code> scope (the “Render only” preset) is enough.
                {activeKeys ? ` This workspace has ${activeKeys} active ${activeKeys === 1 ? "key" : "keys"}.` : ""}
              </p>
              <Link href="/api-keys?create=1" className={`${buttonClasses("primary", "sm")} mt-3`}>
                <KeyRound aria-hidden="true" className="size-4" /> Create a key
              </Link>
            </>
          ) : (
            <p>
              Ask an owner or admin of {workspaceName} for a key with the <code className="font-mono text-xs">render:create</code> and{" "}
              <code className="font-mono text-xs">render:read</code> scopes.
            </p>
          )}
        </Step>
        <Step n={2} title="Render “Hello”">
          <p>
            Put the secret in <code className="font-mono text-xs">{KEY_VARIABLE}</code> (<code className="font-mono text-xs">export {KEY_VARIABLE}=folio_…</code>), then run:
          </p>
          <CommandBlock command={helloRenderCommand(publicUrl)} label="Render Hello (bash)" />
          <p className="mt-2">
            Folio waits up to 10 seconds for the render and answers with it: its <code className="font-mono text-xs">state</code> and, once it
            succeeded, <code className="font-mono text-xs">result.downloadUrl</code>.
          </p>
        </Step>
        <Step n={3} title="Download the PDF">
          <p>
            Replace <code className="font-mono text-xs">{DOWNLOAD_URL_PLACEHOLDER}</code> with the answer’s <code className="font-mono text-xs">result.downloadUrl</code>{" "}
            (it works for five minutes, without a key):
          </p>
          <CommandBlock command={helloDownloadCommand()} label="Download the file (bash)" />
          <p className="mt-2">
            Every render also appears under{" "}
            <Link href="/renders" className="font-medium text-accent hover:underline">
              Renders
            </Link>
            , with its file to download.
          </p>
        </Step>
        <Step n={4} title="Design a template">
          <p>Build documents from components and data in the editor, with a live preview, then publish versions your programs render by name.</p>
          <Link href="/templates" className={`${buttonClasses("secondary", "sm")} mt-3`}>
            <LayoutTemplate aria-hidden="true" className="size-4" /> Open templates <ArrowRight aria-hidden="true" className="size-4" />
          </Link>
        </Step>
      </ol>
    </section>
  );
}
