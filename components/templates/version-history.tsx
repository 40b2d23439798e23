// VersionHistory: the template's published versions, each with its id (what POST /v1/renders takes
// as templateVersionId) and a ready request to copy. Open one read-only, preview it with the sample
// data, see how it differs from the draft being edited (file by file, each a line diff, JSON with its
// keys in a stable order), or make a real render of it with chosen data (RenderVersionForm).
"use client";
import { useEffect, useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { CopyButton } from "@/components/ui/copy-button";
import { Dialog } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { reportXlsxCommand, versionRenderCommand } from "@/lib/console/version-request";
import { contentChanges, contentFiles } from "@/lib/templates/content-diff";
import { formatWhen } from "@/components/editor/format";
import { PreviewPane } from "./preview-pane";
import { RenderVersionForm, type RenderVersionAction } from "./render-version-form";

type Version = { id: string; version: number; revision: number; createdAt: string; content?: unknown };

export function VersionHistory({
  open,
  onOpenChange,
  templateId,
  draft,
  data,
  publicUrl,
  renderVersion,
  reportName,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  templateId: string;
  draft: unknown;
  data: Record<string, unknown>;
  /**
   * A workbook template's name: it renders only as XLSX through the Reports API, by name, so the
   * list says so, its ready request is the Reports API's, and a version has no PDF to preview.
   */
  reportName?: string;
  /** Where the API is reached, for the ready request. */
  publicUrl: string;
  /** The page's server action making a real render; absent when the person's role cannot create renders. */
  renderVersion?: RenderVersionAction;
}) {
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [selected, setSelected] = useState<Version | null>(null);
  const [rendering, setRendering] = useState<Version | null>(null);
  const [loadingId, setLoadingId] = useState<string | null>(null);

  useEffect(() => {
    if (!open || versions) return;
    fetch(`/v1/templates/${templateId}/versions?limit=100`)
      .then(async (r) => {
        const body = (await r.json()) as { items?: Version[]; error?: { message: string } };
        if (!r.ok) throw new Error(body.error?.message ?? `HTTP ${r.status}`);
        setVersions(body.items ?? []);
      })
      .catch((e: Error) => setFailure(e.message));
  }, [open, versions, templateId]);

  const command = (versionId: string) => (reportName !== undefined ? reportXlsxCommand(publicUrl, reportName, data) : versionRenderCommand(publicUrl, versionId, data));

  const openVersion = async (v: Version) => {
    setLoadingId(v.id);
    try {
      const r = await fetch(`/v1/template-versions/${v.id}`);
      const body = (await r.json()) as Version & { error?: { message: string } };
      if (!r.ok) throw new Error(body.error?.message ?? `HTTP ${r.status}`);
      setSelected(body);
    } catch (e) {
      setFailure((e as Error).message);
    } finally {
      setLoadingId(null);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) setRendering(null);
        onOpenChange(o);
      }}
      title={rendering ? `Render version ${rendering.version}` : selected ? `Version ${selected.version}` : "Published versions"}
      // why sm: the panel's own max-w-lg comes later in the stylesheet than max-w-5xl and won; a variant comes after both.
      className="sm:max-w-5xl">
      {failure && (
        <p role="alert" className="mb-3 text-sm font-medium text-danger">
          {failure}
        </p>
      )}
      {rendering && renderVersion ? (
        <RenderVersionForm version={rendering} data={data} renderVersion={renderVersion} onCancel={() => setRendering(null)} />
      ) : !selected ? (
        versions === null ? (
          <div className="space-y-2" aria-busy="true">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : versions.length === 0 ? (
          <p className="text-sm text-gray-700">Nothing is published yet. Publish the saved draft to make version 1; renders by name use the newest version.</p>
        ) : (
          <>
            {reportName !== undefined ? (
              <p className="mb-3 text-sm text-gray-700">
                A workbook template renders as XLSX through the Reports API: <code className="font-mono text-xs">POST /v1/reports/render</code> with{" "}
                <code className="font-mono text-xs">format: &quot;xlsx&quot;</code> and its name fills the newest version. The request below reads the key (render:create and
                template:read) from <code className="font-mono text-xs">$FOLIO_API_KEY</code> and sends the sample data.
              </p>
            ) : (
              <p className="mb-3 text-sm text-gray-700">
                Render a version with <code className="font-mono text-xs">POST /v1/renders</code> and its id as <code className="font-mono text-xs">templateVersionId</code>. A key with only{" "}
                <code className="font-mono text-xs">render:create</code> (the “Render only” preset) is enough; the request below reads the key from <code className="font-mono text-xs">$FOLIO_API_KEY</code>{" "}
                and sends the sample data.
              </p>
            )}
            <ul className="divide-y divide-gray-200 rounded-md border border-gray-200">
              {versions.map((v) => (
                <li key={v.id} aria-label={`Version ${v.version}`} className="space-y-2 px-3 py-3 text-sm">
                  <div className="flex flex-col gap-2 sm:flex-row sm:items-start sm:justify-between">
                    <div className="min-w-0 flex-1">
                      <span className="font-medium text-gray-900">Version {v.version}</span>
                      <span className="block text-xs text-gray-600">
                        From revision {v.revision} · {formatWhen(v.createdAt)}
                      </span>
                    </div>
                    <div className="flex shrink-0 flex-wrap gap-2">
                      {renderVersion && (
                        <Button size="sm" onClick={() => setRendering(v)} aria-label={`Render version ${v.version}…`}>
                          Render…
                        </Button>
                      )}
                      <Button variant="secondary" size="sm" onClick={() => void openVersion(v)} loading={loadingId === v.id} aria-label={`Open version ${v.version}`}>
                        Open
                      </Button>
                    </div>
                  </div>
                  <div className="flex flex-wrap items-center gap-2">
                    <span className="text-xs text-gray-600">Version id</span>
                    <code data-testid="version-id" className="font-mono text-xs break-all text-gray-900">
                      {v.id}
                    </code>
                    <CopyButton text={v.id} label="Copy id" variant="ghost" />
                  </div>
                  <details className="rounded-md border border-gray-200 bg-gray-50">
                    <summary className="cursor-pointer px-3 py-1.5 text-xs font-medium text-gray-900">Ready request (curl)</summary>
                    <div className="space-y-2 border-t border-gray-200 p-3">
                      <pre tabIndex={0} aria-label={`Request rendering version ${v.version}`} className="max-h-48 overflow-auto font-mono text-xs whitespace-pre-wrap break-all text-gray-900">
                        {command(v.id)}
                      </pre>
                      <CopyButton text={command(v.id)} label="Copy request" />
                    </div>
                  </details>
                </li>
              ))}
            </ul>
          </>
        )
      ) : (
        <div className="space-y-3">
          <div className="flex flex-wrap items-center justify-between gap-2">
            <p className="text-sm text-gray-700">
              Published {formatWhen(selected.createdAt)} from revision {selected.revision}. Versions never change.
            </p>
            <Button variant="secondary" size="sm" onClick={() => setSelected(null)}>
              All versions
            </Button>
          </div>
          <Tabs defaultValue="diff">
            <TabsList aria-label={`Version ${selected.version}`} className="flex-wrap">
              <TabsTrigger value="diff">Changes against the draft</TabsTrigger>
              <TabsTrigger value="content">Content (read-only)</TabsTrigger>
              {reportName === undefined && <TabsTrigger value="render">Render with sample data</TabsTrigger>}
            </TabsList>
            <TabsContent value="diff">
              <Diff version={selected.content} draft={draft} />
            </TabsContent>
            <TabsContent value="content">
              <div role="region" tabIndex={0} aria-label={`Content of version ${selected.version}`} className="max-h-[60vh] space-y-4 overflow-y-auto rounded-md focus-visible:outline-2 focus-visible:outline-ring">
                {contentFiles(selected.content).map((f) => (
                  <section key={f.id} aria-label={f.label}>
                    <h3 className="mb-1 font-mono text-sm font-medium text-gray-900 [overflow-wrap:anywhere]">{f.label}</h3>
                    <pre className="rounded-md border border-gray-200 bg-gray-50 p-3 font-mono text-xs whitespace-pre-wrap text-gray-900 [overflow-wrap:anywhere]">{f.text}</pre>
                  </section>
                ))}
              </div>
            </TabsContent>
            {reportName === undefined && (
              <TabsContent value="render">
                <div className="h-[60vh]">
                  <PreviewPane templateId={templateId} request={{ content: selected.content, data }} title={`Version ${selected.version} with the sample data`} />
                </div>
              </TabsContent>
            )}
          </Tabs>
        </div>
      )}
    </Dialog>
  );
}

const statusWords = { added: "Only in the draft", removed: "Only in this version", changed: "Changed" } as const;

/**
 * The changes file by file (template.html, each partial, helpers.js, each sample data set…), each a
 * line diff with long unchanged runs cut; lines wrap, so nothing scrolls sideways.
 */
function Diff({ version, draft }: { version: unknown; draft: unknown }) {
  const changes = contentChanges(version, draft);
  if (changes.same) return <p className="text-sm text-gray-700">No changes: the draft holds the same content as this version.</p>;
  return (
    <div>
      <p className="mb-2 text-xs text-gray-700">
        <span className="font-mono text-danger">−</span> only in this version · <span className="font-mono text-success">+</span> only in the draft
      </p>
      <div role="region" tabIndex={0} aria-label="Changes between this version and the draft" className="max-h-[60vh] space-y-4 overflow-y-auto rounded-md focus-visible:outline-2 focus-visible:outline-ring">
        {changes.files.map((f) => (
          <section key={f.id} aria-label={`${f.label}: ${statusWords[f.status].toLowerCase()}`}>
            <h3 className="mb-1 flex flex-wrap items-center gap-2 text-sm font-medium text-gray-900">
              <span className="font-mono [overflow-wrap:anywhere]">{f.label}</span>
              <Badge tone={f.status === "added" ? "success" : f.status === "removed" ? "danger" : "neutral"}>{statusWords[f.status]}</Badge>
            </h3>
            <div className="rounded-md border border-gray-200 bg-white py-1 font-mono text-xs">
              {f.lines.map((l, i) =>
                l.kind === "skipped" ? (
                  <div key={i} className="bg-gray-50 px-3 py-0.5 text-gray-600">
                    … {l.count} unchanged {l.count === 1 ? "line" : "lines"}
                  </div>
                ) : (
                  <div key={i} className={cn("flex px-3", l.kind === "added" && "bg-success-soft text-gray-900", l.kind === "removed" && "bg-danger-soft text-gray-900")}>
                    <span aria-hidden="true" className={cn("mr-2 w-3 shrink-0 select-none", l.kind === "added" ? "text-success" : l.kind === "removed" ? "text-danger" : "text-gray-500")}>
                      {l.kind === "added" ? "+" : l.kind === "removed" ? "−" : " "}
                    </span>
                    {/* why pre-wrap and anywhere: indentation stays, and a long line wraps instead of widening the dialog. */}
                    <span className="min-w-0 flex-1 whitespace-pre-wrap [overflow-wrap:anywhere]">
                      {l.kind === "added" ? <ins className="no-underline">{l.text || " "}</ins> : l.kind === "removed" ? <del className="no-underline">{l.text || " "}</del> : l.text || " "}
                    </span>
                  </div>
                ),
              )}
            </div>
          </section>
        ))}
        {changes.unchanged.length > 0 && <p className="text-xs text-gray-600">Unchanged: {changes.unchanged.join(", ")}.</p>}
      </div>
    </div>
  );
}
