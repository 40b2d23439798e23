// The workspace's images to choose one from, shared by the composition's image picker and the content
// form's image fields: read when a dialog opens (each with a five-minute link to show it), an upload
// that adds to them, and the grid to pick from.
"use client";
import { ImageIcon } from "lucide-react";
import { useRef, useState } from "react";
import { AssetUploader, type AssetUploaderProps } from "@/components/assets/asset-uploader";
import { EmptyState } from "@/components/ui/empty-state";
import { Spinner } from "@/components/ui/spinner";
import type { ActionResult } from "@/lib/console/action";
import type { ImageChoice } from "@/lib/templates/editor-files";

export type LoadImages = (input: Record<string, never>) => Promise<ActionResult<ImageChoice[]>>;

/** The images and why they could not be read; `reload()` reads them afresh (a later read wins), `clear()` before a dialog opens. */
export function useImageChoices(loadImages: LoadImages) {
  const [images, setImages] = useState<ImageChoice[] | null>(null);
  const [failure, setFailure] = useState<string>();
  const seq = useRef(0);
  const reload = () => {
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
  const open = () => {
    setImages(null);
    reload();
  };
  return { images, failure, setFailure, reload, open };
}

function formatSize(bytes: number) {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KB` : `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** The uploader (when `register` is given), the failure, and the grid of images; `chosen` marks the one in use. */
export function ImageChoices({
  choices,
  register,
  onPick,
  chosen,
  emptyText,
}: {
  choices: ReturnType<typeof useImageChoices>;
  register?: AssetUploaderProps["register"];
  onPick: (image: ImageChoice) => void;
  chosen?: string;
  emptyText: string;
}) {
  const { images, failure, reload } = choices;
  return (
    <>
      {register && <AssetUploader register={register} imagesOnly onUploaded={reload} />}
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
        <EmptyState icon={ImageIcon} title="No images uploaded yet" text={emptyText} className="py-6" />
      ) : (
        <ul aria-label="Images" className="grid grid-cols-2 gap-3 sm:grid-cols-3">
          {(images ?? []).map((image) => (
            <li key={image.id}>
              <button
                type="button"
                onClick={() => onPick(image)}
                aria-pressed={chosen === undefined ? undefined : image.id === chosen}
                className="flex w-full flex-col gap-1 rounded-md border border-gray-200 bg-white p-2 text-left hover:border-accent focus-visible:outline-2 focus-visible:outline-ring aria-pressed:border-accent"
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
    </>
  );
}
