// AssetActions: preview (images shown, fonts loaded with FontFace and set in a sample line, both
// through a fresh download link) and delete, asked first; a refusal (the asset is in use) is shown
// in the dialog with every user the server named.
"use client";
import { Eye, Trash2 } from "lucide-react";
import { useRouter } from "next/navigation";
import { useEffect, useState } from "react";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { Dialog } from "@/components/ui/dialog";
import { IconAction, RowActions } from "@/components/ui/row-actions";
import { Spinner } from "@/components/ui/spinner";
import { useToast } from "@/components/ui/toast";
import type { Asset } from "@/lib/assets/schemas";
import type { ActionError, ActionResult } from "@/lib/console/action";

export type AssetActionsProps = {
  asset: Asset;
  link: (input: { id: string }) => Promise<ActionResult<Asset>>;
  remove: (input: { id: string }) => Promise<ActionResult<{ deleted: true; ids: string[] }>>;
};

const SAMPLE = "The quick brown fox jumps over the lazy dog · 0123456789 · ÄÖÜ àéî ß";

export const canPreview = (a: Pick<Asset, "kind" | "state">) => a.state === "ready" && (a.kind === "image" || a.kind === "svg" || a.kind === "font");

/** The preview's body: loads a fresh link when opened, then the image or the font. */
function Preview({ asset, link }: Pick<AssetActionsProps, "asset" | "link">) {
  const [url, setUrl] = useState<string>();
  const [family, setFamily] = useState<string>();
  const [problem, setProblem] = useState<string>();

  useEffect(() => {
    let gone = false;
    void (async () => {
      const r = await link({ id: asset.id });
      if (gone) return;
      if (!r.ok || !r.data.downloadUrl) return setProblem(r.ok ? "This asset has no file yet." : r.error.message);
      if (asset.kind !== "font") return setUrl(r.data.downloadUrl);
      const name = `folio-preview-${asset.id}`;
      try {
        const face = new FontFace(name, `url(${JSON.stringify(r.data.downloadUrl)})`);
        await face.load();
        if (gone) return;
        document.fonts.add(face);
        setFamily(name);
      } catch {
        if (!gone) setProblem("This font could not be loaded: the file is damaged or not a font of its type.");
      }
    })();
    return () => {
      gone = true;
    };
  }, [asset.id, asset.kind, link]);

  if (problem) return <p role="alert" className="text-sm text-danger">{problem}</p>;
  if (asset.kind === "font") {
    if (!family) return <p className="flex items-center gap-2 text-sm text-gray-600"><Spinner /> Loading the font…</p>;
    return (
      <figure>
        <p data-testid="font-sample" className="rounded-md border border-gray-200 bg-gray-50 p-4 text-2xl break-words text-gray-900" style={{ fontFamily: `"${family}", monospace` }}>
          {SAMPLE}
        </p>
        <figcaption className="mt-2 text-xs text-gray-600">Set in {asset.filename}</figcaption>
      </figure>
    );
  }
  if (!url) return <p className="flex items-center gap-2 text-sm text-gray-600"><Spinner /> Loading the image…</p>;
  return (
    // eslint-disable-next-line @next/next/no-img-element -- a short-lived signed link; Next's image optimiser must not fetch it
    <img src={url} alt={`Preview of ${asset.filename}`} className="mx-auto max-h-[60vh] max-w-full rounded-md border border-gray-200 bg-[repeating-conic-gradient(#f3f4f6_0%_25%,white_0%_50%)] bg-[length:16px_16px] object-contain" />
  );
}

function Refusal({ error }: { error: ActionError }) {
  return (
    <div role="alert" className="mt-4 rounded-md border border-danger/40 bg-danger-soft p-3 text-sm text-danger">
      <p className="font-medium">{error.message}</p>
      {error.details?.length ? (
        <ul className="mt-2 list-disc space-y-1 pl-5">
          {error.details.map((d, i) => (
            <li key={i}>{d.message}</li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

export function AssetActions({ asset, link, remove }: AssetActionsProps) {
  const router = useRouter();
  const toast = useToast();
  const [previewing, setPreviewing] = useState(false);
  const [refusal, setRefusal] = useState<ActionError>();

  return (
    <RowActions>
      {canPreview(asset) && (
        <Dialog
          open={previewing}
          onOpenChange={setPreviewing}
          title={asset.filename}
          description={asset.kind === "font" ? "A sample line set in this font." : undefined}
          className="max-w-2xl"
          trigger={<IconAction icon={Eye} label={`Preview ${asset.filename}`} title="Preview" />}
        >
          {previewing && <Preview asset={asset} link={link} />}
        </Dialog>
      )}
      <ConfirmDialog
        trigger={<IconAction icon={Trash2} label={`Delete ${asset.filename}`} title="Delete" danger />}
        onOpenChange={(open) => !open && setRefusal(undefined)}
        title={`Delete “${asset.filename}”?`}
        text="Renders and templates can no longer use it; published template versions keep their own copy. This cannot be undone."
        confirmLabel="Delete asset"
        danger
        onConfirm={async () => {
          const r = await remove({ id: asset.id });
          if (!r.ok) {
            setRefusal(r.error);
            return false;
          }
          toast.success(`“${asset.filename}” deleted`);
          router.refresh();
        }}
      >
        {refusal && <Refusal error={refusal} />}
      </ConfirmDialog>
    </RowActions>
  );
}
