// RenderVersionForm: the version list's "Render…": a real render of a published version with chosen
// data (the sample data to start with, editable JSON checked before sending), a format and a test
// flag. The render is made by the page's server action (the verb of POST /v1/renders), then the
// person is taken to its page, which follows it to its end and offers its file.
"use client";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Checkbox } from "@/components/ui/checkbox";
import { DialogFooter } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { Textarea } from "@/components/ui/textarea";
import type { ActionResult } from "@/lib/console/action";

export type RenderFormat = "pdf" | "png" | "jpeg";
export type RenderVersionAction = (input: { templateVersionId: string; data: Record<string, unknown>; format: RenderFormat; test: boolean }) => Promise<ActionResult<{ id: string; state: string }>>;

const formats = [
  { value: "pdf", label: "PDF" },
  { value: "png", label: "PNG (first page)" },
  { value: "jpeg", label: "JPEG (first page)" },
] as const;

/** The data as an object, or what is wrong with the text. */
function parseData(text: string): { ok: true; data: Record<string, unknown> } | { ok: false; message: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (e) {
    return { ok: false, message: `This is not valid JSON: ${(e as Error).message}` };
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) return { ok: false, message: "The data must be a JSON object, such as { \"name\": \"Ada\" }." };
  return { ok: true, data: parsed as Record<string, unknown> };
}

export function RenderVersionForm({
  version,
  data,
  renderVersion,
  onCancel,
}: {
  version: { id: string; version: number };
  data: Record<string, unknown>;
  renderVersion: RenderVersionAction;
  onCancel: () => void;
}) {
  const router = useRouter();
  const [text, setText] = useState(() => JSON.stringify(data, null, 2));
  const [format, setFormat] = useState<RenderFormat>("pdf");
  const [test, setTest] = useState(false);
  const [dataError, setDataError] = useState<string | undefined>();
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = parseData(text);
    if (!parsed.ok) {
      setDataError(parsed.message);
      return;
    }
    setDataError(undefined);
    setFailure(null);
    setBusy(true);
    const r = await renderVersion({ templateVersionId: version.id, data: parsed.data, format, test }).catch((err: Error) => ({ ok: false as const, error: { message: err.message } }));
    if (r.ok) {
      router.push(`/renders/${r.data.id}`);
      return;
    }
    setBusy(false);
    setFailure(r.error.message);
  };

  return (
    <form onSubmit={(e) => void submit(e)} className="space-y-4" aria-label={`Render version ${version.version}`} noValidate>
      <p className="text-sm text-gray-700">
        A real render of version {version.version}, made as <code className="font-mono text-xs whitespace-nowrap">POST /v1/renders</code> makes it: it appears in Renders and counts like a render
        by the API.
      </p>
      {failure && (
        <p role="alert" className="text-sm font-medium text-danger">
          {failure}
        </p>
      )}
      <Field label="Data (JSON)" hint="Starts as the editor's sample data; what you change here is used for this render only." error={dataError}>
        {(p) => <Textarea {...p} rows={10} spellCheck={false} className="font-mono text-xs" value={text} onChange={(e) => setText(e.target.value)} />}
      </Field>
      <Field label="Format">{(p) => <Select {...p} options={formats} value={format} onValueChange={(v) => setFormat(v as RenderFormat)} />}</Field>
      <Checkbox
        label="Test render"
        hint="Watermarked; uses the test render allowance and never counts as one of the month's documents."
        checked={test}
        onCheckedChange={(c) => setTest(c === true)}
      />
      <DialogFooter>
        <Button type="button" variant="secondary" onClick={onCancel}>
          Back to versions
        </Button>
        <Button type="submit" loading={busy}>
          Render
        </Button>
      </DialogFooter>
    </form>
  );
}
