// ImagePicker: picks a ready image asset for an image component of composition.json: a new image
// at the end of the root container, or an existing image component whose assetId changes. The
// images are read when the dialog opens (each with a five-minute link to show it).
"use client";
import { ImageIcon, ImagePlus } from "lucide-react";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import { Spinner } from "@/components/ui/spinner";
import { AssetUploader, type AssetUploaderProps } from "@/components/assets/asset-uploader";
import type { ActionResult } from "@/lib/console/action";
import { imageSlots, withImageAsset, withNewImage } from "@/lib/templates/editor-images";
import type { ImageChoice } from "@/lib/templates/editor-files";

const NEW = "new";

function describeAssetId(assetId: unknown): string {
  if (typeof assetId === "string") return assetId;
  if (typeof assetId === "object" && assetId !== null && Array.isArray((assetId as { path?: unknown }).path)) return `binding ${(assetId as { path: string[] }).path.join(".")}`;
  return "no image yet";
}

function formatSize(bytes: number) {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function ImagePicker({
  composition,
  onPick,
  loadImages,
  register,
}: {
  /** composition.json as the editor holds it. */
  composition: string;
  /** The new composition.json text and a sentence saying what changed. */
  onPick: (text: string, said: string) => void;
  loadImages: (input: Record<string, never>) => Promise<ActionResult<ImageChoice[]>>;
  /** Registers an upload (the Assets page's action): with it, images can be uploaded here too. */
  register?: AssetUploaderProps["register"];
}) {
  const [open, setOpen] = useState(false);
  const [images, setImages] = useState<ImageChoice[] | null>(null);
  const [failure, setFailure] = useState<string>();
  const [target, setTarget] = useState(NEW);
  const slots = imageSlots(composition);

  const seq = useRef(0);

  /** Reads the images afresh (their links last five minutes); a later read wins. */
  const load = () => {
    setFailure(undefined);
    const mine = ++seq.current;
    void loadImages({}).then(
      (r) => {
        if (mine !== seq.current) return;
        if (r.ok) setImages(r.data);
        else setFailure(r.error.message);
      },
      () => mine === seq.current && setFailure("The images could not be read; check your connection"),
    );
  };

  const openPicker = (o: boolean) => {
    setOpen(o);
    if (!o) return;
    setTarget(NEW);
    setImages(null);
    load();
  };

  const pick = (image: ImageChoice) => {
    if (target === NEW) {
      const added = withNewImage(composition, image.id);
      if (!added) return setFailure("composition.json does not parse; fix it first");
      onPick(added.text, `Added ${image.filename} at ${added.path}`);
    } else {
      const text = withImageAsset(composition, target, image.id);
      if (!text) return setFailure(`There is no image component at ${target} any more`);
      onPick(text, `${target} now shows ${image.filename}`);
    }
    setOpen(false);
  };

  const options = [{ value: NEW, label: "A new image at the end of the page" }, ...(slots ?? []).map((s) => ({ value: s.path, label: `${s.path} (${describeAssetId(s.assetId)})` }))];

  return (
    <Dialog
      open={open}
      onOpenChange={openPicker}
      title="Pick an image"
      description="Uploaded PNG, JPEG and SVG images of this workspace. The image component shows it by its asset ID."
      className="max-w-2xl"
      trigger={
        <Button variant="secondary" size="sm" disabled={!slots}>
          <ImagePlus aria-hidden="true" className="size-4" /> Images
        </Button>
      }
    >
      <div className="flex flex-col gap-4">
        <Field label="Put the image in">{(p) => <Select {...p} options={options} value={target} onValueChange={setTarget} />}</Field>
        {register && <AssetUploader register={register} imagesOnly onUploaded={load} />}
        {failure && (
          <p role="alert" className="text-sm font-medium text-danger">
            {failure}
          </p>
        )}
        {images === null && !failure ? (
          <p className="flex items-center gap-2 text-sm text-gray-700">
            <Spinner className="size-4" /> Loading images…
          </p>
        ) : images && images.length === 0 ? (
          <EmptyState icon={ImageIcon} title="No images uploaded yet" text="Upload PNG, JPEG or SVG images as assets of this workspace; they appear here to pick." className="py-6" />
        ) : (
          <ul aria-label="Images" className="grid grid-cols-2 gap-3 sm:grid-cols-3">
            {(images ?? []).map((image) => (
              <li key={image.id}>
                <button
                  type="button"
                  onClick={() => pick(image)}
                  className="flex w-full flex-col gap-1 rounded-md border border-gray-200 bg-white p-2 text-left hover:border-accent focus-visible:outline-2 focus-visible:outline-ring"
                >
                  <span className="sr-only">Use </span>
                  <span className="flex aspect-[4/3] items-center justify-center overflow-hidden rounded bg-gray-50">
                    {/* eslint-disable-next-line @next/next/no-img-element -- a signed link to the workspace's own file */}
                    <img src={image.previewUrl} alt="" className="max-h-full max-w-full object-contain" />
                  </span>
                  <span className="truncate text-sm font-medium text-gray-900">{image.filename}</span>
                  <span className="text-xs text-gray-600">
                    {image.kind === "svg" ? "SVG" : image.mediaType.replace("image/", "").toUpperCase()} · {formatSize(image.size)}
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  );
}
