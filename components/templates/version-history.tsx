// VersionHistory: the template's published versions. Open one read-only, render it with the
// sample data, and see how it differs from the draft being edited (a line diff of the JSON).
"use client";
import { diffLines } from "diff";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { Dialog } from "@/components/ui/dialog";
import { Skeleton } from "@/components/ui/skeleton";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { json } from "@/lib/templates/editor-tabs";
import { formatWhen } from "@/components/editor/format";
import { PreviewPane } from "./preview-pane";

type Version = { id: string; version: number; revision: number; createdAt: string; content?: unknown };

export function VersionHistory({ open, onOpenChange, templateId, draft, data }: { open: boolean; onOpenChange: (o: boolean) => void; templateId: string; draft: unknown; data: Record<string, unknown> }) {
  const [versions, setVersions] = useState<Version[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [selected, setSelected] = useState<Version | null>(null);
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
    <Dialog open={open} onOpenChange={onOpenChange} title={selected ? `Version ${selected.version}` : "Published versions"} className="max-w-5xl">
      {failure && (
        <p role="alert" className="mb-3 text-sm font-medium text-danger">
          {failure}
        </p>
      )}
      {!selected ? (
        versions === null ? (
          <div className="space-y-2" aria-busy="true">
            <Skeleton className="h-10 w-full" />
            <Skeleton className="h-10 w-full" />
          </div>
        ) : versions.length === 0 ? (
          <p className="text-sm text-gray-700">Nothing is published yet. Publish the saved draft to make version 1; renders by name use the newest version.</p>
        ) : (
          <ul className="divide-y divide-gray-200 rounded-md border border-gray-200">
            {versions.map((v) => (
              <li key={v.id} className="flex items-center justify-between gap-3 px-3 py-2 text-sm">
                <span>
                  <span className="font-medium text-gray-900">Version {v.version}</span>
                  <span className="block text-xs text-gray-600">
                    From revision {v.revision} · {formatWhen(v.createdAt)}
                  </span>
                </span>
                <Button variant="secondary" size="sm" onClick={() => void openVersion(v)} loading={loadingId === v.id} aria-label={`Open version ${v.version}`}>
                  Open
                </Button>
              </li>
            ))}
          </ul>
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
            <TabsList aria-label={`Version ${selected.version}`}>
              <TabsTrigger value="diff">Changes against the draft</TabsTrigger>
              <TabsTrigger value="content">Content (read-only)</TabsTrigger>
              <TabsTrigger value="render">Render with sample data</TabsTrigger>
            </TabsList>
            <TabsContent value="diff">
              <Diff before={json(selected.content)} after={json(draft)} />
            </TabsContent>
            <TabsContent value="content">
              <pre tabIndex={0} aria-label={`Content of version ${selected.version}`} className="max-h-[60vh] overflow-auto rounded-md border border-gray-200 bg-gray-50 p-3 font-mono text-xs text-gray-900">
                {json(selected.content)}
              </pre>
            </TabsContent>
            <TabsContent value="render">
              <div className="h-[60vh]">
                <PreviewPane templateId={templateId} request={{ content: selected.content, data }} title={`Version ${selected.version} with the sample data`} />
              </div>
            </TabsContent>
          </Tabs>
        </div>
      )}
    </Dialog>
  );
}

/** A line diff: removed lines (only in the version) and added lines (only in the draft). */
function Diff({ before, after }: { before: string; after: string }) {
  const parts = diffLines(before, after);
  if (parts.every((p) => !p.added && !p.removed)) return <p className="text-sm text-gray-700">The draft is the same as this version.</p>;
  return (
    <div>
      <p className="mb-2 text-xs text-gray-700">
        <span className="font-mono text-danger">−</span> only in this version · <span className="font-mono text-success">+</span> only in the draft
      </p>
      <pre tabIndex={0} aria-label="Changes between this version and the draft" className="max-h-[60vh] overflow-auto rounded-md border border-gray-200 bg-white font-mono text-xs">
        {parts.flatMap((p, i) =>
          p.value
            .replace(/\n$/, "")
            .split("\n")
            .map((line, j) => (
              <div key={`${i}-${j}`} className={cn("px-3", p.added && "bg-success-soft text-gray-900", p.removed && "bg-danger-soft text-gray-900")}>
                <span aria-hidden="true" className={cn("mr-2 inline-block w-3 select-none", p.added ? "text-success" : p.removed ? "text-danger" : "text-gray-500")}>
                  {p.added ? "+" : p.removed ? "−" : " "}
                </span>
                {p.added ? <ins className="no-underline">{line}</ins> : p.removed ? <del className="no-underline">{line}</del> : line}
              </div>
            )),
        )}
      </pre>
    </div>
  );
}
