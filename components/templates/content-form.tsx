// ContentForm: the values of a template's content fields (issue 25), the part of a template content
// editors change: a text box per text field, a multi-line box per multilineText field, and an image
// chosen from (or uploaded to) the workspace's images per image field. A field left empty shows
// its default, which the box shows as its placeholder (emptying a box goes back to the default).
"use client";
import { ImageIcon, RotateCcw } from "lucide-react";
import { useRef, useState } from "react";
import { AssetUploader, type AssetUploaderProps } from "@/components/assets/asset-uploader";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { Textarea } from "@/components/ui/textarea";
import type { ActionResult } from "@/lib/console/action";
import { CONTENT_LIMITS, type ContentField } from "@/lib/templates/content-extras";
import type { ImageChoice } from "@/lib/templates/editor-files";

export type ContentFormProps = {
  fields: ContentField[];
  values: Record<string, string>;
  /** A field's new value; undefined goes back to the default. */
  onChange: (name: string, value: string | undefined) => void;
  readOnly: boolean;
  /** Problems the server found, by field name. */
  errors: Record<string, string>;
  loadImages: (input: Record<string, never>) => Promise<ActionResult<ImageChoice[]>>;
  register?: AssetUploaderProps["register"];
};

export function ContentForm({ fields, values, onChange, readOnly, errors, loadImages, register }: ContentFormProps) {
  if (fields.length === 0) {
    return (
      <EmptyState
        icon={ImageIcon}
        title="No content fields yet"
        text="A template's author declares content fields (text, multi-line text, images) on the Content fields tab; their values are then changed here."
        className="py-8"
      />
    );
  }
  return (
    <form aria-label="Content" className="flex flex-col gap-4" onSubmit={(e) => e.preventDefault()}>
      {fields.map((f) => {
        const value = values[f.name];
        const hint = f.default ? `Empty shows the default: ${f.default.length > 80 ? `${f.default.slice(0, 80)}…` : f.default}` : undefined;
        const reset =
          value !== undefined && !readOnly ? (
            <Button type="button" variant="ghost" size="sm" onClick={() => onChange(f.name, undefined)}>
              <RotateCcw aria-hidden="true" className="size-4" /> Use the default
            </Button>
          ) : null;
        if (f.type === "image") {
          return (
            <div key={f.name} className="flex flex-col gap-1.5">
              <ImageField field={f} value={value} readOnly={readOnly} error={errors[f.name]} onPick={(id) => onChange(f.name, id)} loadImages={loadImages} register={register} />
              {reset && <div>{reset}</div>}
            </div>
          );
        }
        return (
          <div key={f.name} className="flex flex-col gap-1.5">
            <Field label={f.label} hint={hint} error={errors[f.name]}>
              {(p) =>
                f.type === "multilineText" ? (
                  <Textarea {...p} rows={5} value={value ?? ""} placeholder={f.default} readOnly={readOnly} maxLength={CONTENT_LIMITS.multilineChars} onChange={(e) => onChange(f.name, e.target.value || undefined)} />
                ) : (
                  <Input {...p} value={value ?? ""} placeholder={f.default} readOnly={readOnly} maxLength={CONTENT_LIMITS.textChars} onChange={(e) => onChange(f.name, e.target.value.replace(/[\r\n]+/g, " ") || undefined)} />
                )
              }
            </Field>
            {reset && <div>{reset}</div>}
          </div>
        );
      })}
    </form>
  );
}

function ImageField({
  field,
  value,
  readOnly,
  error,
  onPick,
  loadImages,
  register,
}: {
  field: ContentField;
  value: string | undefined;
  readOnly: boolean;
  error?: string;
  onPick: (id: string) => void;
  loadImages: ContentFormProps["loadImages"];
  register?: AssetUploaderProps["register"];
}) {
  const [open, setOpen] = useState(false);
  const [images, setImages] = useState<ImageChoice[] | null>(null);
  const [failure, setFailure] = useState<string>();
  const seq = useRef(0);
  const shown = value ?? field.default;

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

  return (
    <Field label={field.label} hint={shown ? `Shows ${shown}${value === undefined ? " (the default)" : ""}` : "No image chosen"} error={error}>
      {(p) => (
        <Dialog
          open={open}
          onOpenChange={(o) => {
            setOpen(o);
            if (o) {
              setImages(null);
              load();
            }
          }}
          title={`Choose the image for ${field.label}`}
          description="Uploaded PNG, JPEG and SVG images of this workspace."
          className="max-w-2xl"
          trigger={
            <Button {...p} type="button" variant="secondary" disabled={readOnly} className="self-start" aria-label={`${shown ? "Change image" : "Choose image"} for ${field.label}`}>
              <ImageIcon aria-hidden="true" className="size-4" /> {shown ? "Change image" : "Choose image"}
            </Button>
          }
        >
          <div className="flex flex-col gap-4">
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
              <EmptyState icon={ImageIcon} title="No images uploaded yet" text="Upload a PNG, JPEG or SVG image here; it appears in this list to choose." className="py-6" />
            ) : (
              <ul aria-label="Images" className="grid grid-cols-2 gap-3 sm:grid-cols-3">
                {(images ?? []).map((image) => (
                  <li key={image.id}>
                    <button
                      type="button"
                      onClick={() => {
                        onPick(image.id);
                        setOpen(false);
                      }}
                      aria-pressed={image.id === shown}
                      className="flex w-full flex-col gap-1 rounded-md border border-gray-200 bg-white p-2 text-left hover:border-accent focus-visible:outline-2 focus-visible:outline-ring aria-pressed:border-accent"
                    >
                      <span className="sr-only">Use </span>
                      <span className="flex aspect-[4/3] items-center justify-center overflow-hidden rounded bg-gray-50">
                        {/* eslint-disable-next-line @next/next/no-img-element -- a signed link to the workspace's own file */}
                        <img src={image.previewUrl} alt="" className="max-h-full max-w-full object-contain" />
                      </span>
                      <span className="truncate text-sm font-medium text-gray-900">{image.filename}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </div>
        </Dialog>
      )}
    </Field>
  );
}
