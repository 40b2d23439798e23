// PreviewPane: the live preview. Renders the editor's content with the sample data through
// POST /v1/templates/{id}/preview as the service's own PNG, page by page, about 300 ms after typing
// stops; a newer edit cancels the request in flight (and the server cancels its render if it is
// still waiting: docs/architecture.md, Editor previews). A failed render shows its message and
// details in place of the stale pages. When the editor preview allowance is reached (429), the pane
// says so, keeps the last pages and tries again by itself after Retry-After.
"use client";
import { Download, ImageOff, TriangleAlert } from "lucide-react";
import { useEffect, useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { consoleOf, type ConsoleEntry } from "@/lib/templates/hbs-editor-tabs";

export type { ConsoleEntry };

/** What to preview: the content and data, in `locale` when given (else the template's own), or why nothing can be. */
export type PreviewRequest = { content: unknown; data: Record<string, unknown>; locale?: string } | { problem: string };
type Failure = { message: string; details?: { path?: string; message: string }[] };
type Shown = { pages: string[]; pageCount: number; ms: number; key: number };

/** At most this many pages are shown; the PDF has them all. */
const MAX_PAGES = 20;
const DEBOUNCE_MS = 300;

/** A refused preview's error envelope (message and details), or `what` failed with the status. */
export async function failureOf(res: Response, what = "The preview"): Promise<Failure> {
  try {
    const body = (await res.json()) as { error?: Failure };
    if (body.error) return { message: body.error.message, details: body.error.details };
  } catch {
    // not the envelope
  }
  return { message: `${what} failed (HTTP ${res.status})` };
}

export function PreviewPane({
  templateId,
  request,
  title = "Preview",
  onProblems,
  onConsole,
  explain,
}: {
  templateId: string;
  request: PreviewRequest;
  title?: string;
  /** The details[] of a refused preview (paths such as content.composition.root.type), [] after a render. */
  onProblems?: (details: { path?: string; message: string }[]) => void;
  /** The console output of the last preview that answered one (Handlebars templates). */
  onConsole?: (output: { entries: ConsoleEntry[]; omitted: number }) => void;
  /** What to say instead of a refusal's message and details when the editor shows them at their places; undefined to show them here. */
  explain?: (details: { path?: string; message: string }[]) => string | undefined;
}) {
  const [shown, setShown] = useState<Shown | null>(null);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [busy, setBusy] = useState(false);
  // The message of a 429: previews pause and resume by themselves (`retry` bumps to ask again).
  const [paused, setPaused] = useState<string | null>(null);
  const [retry, setRetry] = useState(0);
  const [downloading, setDownloading] = useState(false);
  const urls = useRef<string[]>([]);
  const seq = useRef(0);
  const body = "problem" in request ? null : JSON.stringify({ data: request.data, content: request.content, ...(request.locale ? { locale: request.locale } : {}) });
  const problem: Failure | null = "problem" in request ? { message: request.problem } : null;
  const explained = failure && !problem ? explain?.(failure.details ?? []) : undefined;
  // why: a refusal of one problem says it in its message too ("template: Parse error…"); its detail would repeat it.
  const details = (failure?.details ?? []).filter((d) => !(failure!.details!.length === 1 && failure!.message.endsWith(d.message)));

  useEffect(() => {
    if ("problem" in request) return; // shown as it is, below; nothing to ask the server
    const controller = new AbortController();
    const key = ++seq.current;
    let resume: ReturnType<typeof setTimeout> | undefined;
    const timer = setTimeout(async () => {
      setBusy(true);
      const started = performance.now();
      const page = (n: number) =>
        fetch(`/v1/templates/${templateId}/preview`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ ...JSON.parse(body!), format: "png", image: { page: n, scale: 1 } }),
          signal: controller.signal,
        });
      try {
        const first = await page(1);
        if (first.status === 429) {
          const f = await failureOf(first);
          const seconds = Math.min(60, Math.max(1, Number(first.headers.get("retry-after") ?? "2") || 2));
          setPaused(f.message);
          resume = setTimeout(() => setRetry((n) => n + 1), seconds * 1000);
          return;
        }
        setPaused(null);
        const logged = consoleOf(first.headers);
        if (logged) onConsole?.(logged);
        if (!first.ok) {
          const f = await failureOf(first);
          setFailure(f);
          setShown(null);
          onProblems?.(f.details ?? []);
          return;
        }
        onProblems?.([]);
        const count = Number(first.headers.get("x-page-count") ?? "1");
        const pages = [URL.createObjectURL(await first.blob())];
        const ms = Math.round(performance.now() - started);
        for (const u of urls.current) URL.revokeObjectURL(u);
        urls.current = pages;
        setFailure(null);
        setShown({ pages: [...pages], pageCount: count, ms, key });
        for (let n = 2; n <= Math.min(count, MAX_PAGES); n++) {
          const res = await page(n);
          if (!res.ok) break;
          pages.push(URL.createObjectURL(await res.blob()));
          urls.current = pages;
          setShown({ pages: [...pages], pageCount: count, ms, key });
        }
      } catch (e) {
        if ((e as Error).name !== "AbortError") setFailure({ message: "The preview could not reach the server; check your connection" });
      } finally {
        if (seq.current === key) setBusy(false);
      }
    }, DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      clearTimeout(resume);
      controller.abort();
    };
    // why `body`: the request object is rebuilt on every render; its serialised form says whether it changed.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [templateId, body, retry]);

  useEffect(() => () => urls.current.forEach((u) => URL.revokeObjectURL(u)), []);

  const downloadPdf = async () => {
    if (!body) return;
    setDownloading(true);
    try {
      const res = await fetch(`/v1/templates/${templateId}/preview`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...JSON.parse(body), format: "pdf" }) });
      if (!res.ok) return setFailure(await failureOf(res));
      const url = URL.createObjectURL(await res.blob());
      const a = document.createElement("a");
      a.href = url;
      a.download = "preview.pdf";
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } finally {
      setDownloading(false);
    }
  };

  return (
    <section aria-label={title} className="flex h-full min-h-0 flex-col rounded-lg border border-gray-200 bg-gray-100">
      <div className="flex min-h-12 flex-wrap items-center justify-between gap-2 border-b border-gray-200 bg-white px-3 py-2">
        <h2 className="text-sm font-semibold text-gray-900">{title}</h2>
        <div className="flex items-center gap-3 text-xs text-gray-700">
          <span role="status" aria-live="polite" className="flex items-center gap-1.5" data-testid="preview-status">
            {busy && !problem ? (
              <>
                <Spinner className="size-3.5" /> Rendering…
              </>
            ) : problem ? (
              "Not rendered"
            ) : paused ? (
              "Paused"
            ) : failure ? (
              "Render failed"
            ) : shown ? (
              `${shown.pageCount} ${shown.pageCount === 1 ? "page" : "pages"} · ${shown.ms} ms`
            ) : (
              ""
            )}
          </span>
          <Button variant="secondary" size="sm" onClick={() => void downloadPdf()} loading={downloading} disabled={!body}>
            <Download aria-hidden="true" className="size-4" /> PDF
          </Button>
        </div>
      </div>
      <div className="min-h-0 flex-1 overflow-auto p-3" tabIndex={0} role="region" aria-label={`${title}: pages`}>
        {paused && !problem && (
          <p role="status" className="mb-3 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-gray-900" data-testid="preview-paused">
            Previews are paused for a few seconds: {paused}. The preview updates by itself when they resume.
          </p>
        )}
        {problem || failure ? (
          <div role="alert" className="rounded-md border border-danger/40 bg-white p-4 text-sm">
            <p className="flex items-start gap-2 font-medium text-danger">
              <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" /> {problem?.message ?? explained ?? failure!.message}
            </p>
            {!problem && !explained && details.length > 0 && (
              <ul className="mt-2 space-y-1 pl-6 text-gray-800">
                {details.map((d, i) => (
                  <li key={i}>
                    {d.path && <code className="rounded bg-gray-100 px-1 font-mono text-xs">{d.path}</code>} {d.message}
                  </li>
                ))}
              </ul>
            )}
          </div>
        ) : shown ? (
          <ol className="space-y-3">
            {shown.pages.map((src, i) => (
              <li key={`${shown.key}-${i}`}>
                {/* eslint-disable-next-line @next/next/no-img-element -- a blob: URL of the service's own PNG */}
                <img src={src} alt={`Page ${i + 1} of ${shown.pageCount}`} width={794} height={1123} className="h-auto w-full border border-gray-300 bg-white shadow-sm" data-testid="preview-page" />
              </li>
            ))}
            {shown.pageCount > MAX_PAGES && <li className="text-center text-sm text-gray-700">The first {MAX_PAGES} of {shown.pageCount} pages are shown; download the PDF for all.</li>}
          </ol>
        ) : (
          <div className="flex aspect-[210/297] w-full flex-col items-center justify-center gap-2 rounded border border-dashed border-gray-300 bg-white text-sm text-gray-600">
            {busy ? <Spinner className="size-5" /> : <ImageOff aria-hidden="true" className="size-5" />}
            {busy ? "Rendering the first page…" : "The preview appears here"}
          </div>
        )}
      </div>
    </section>
  );
}
