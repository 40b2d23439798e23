// ContentForm: the values of a template's content fields (issue 25), the part of a template content
// editors change: a text box per text field, a multi-line box per multilineText field, and an image
// chosen from (or uploaded to) the workspace's images per image field. A field left empty shows
// its default, which the box shows as its placeholder (emptying a box goes back to the default).
"use client";
import { ImageIcon, RotateCcw } from "lucide-react";
import { useState } from "react";
import type { AssetUploaderProps } from "@/components/assets/asset-uploader";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { EmptyState } from "@/components/ui/empty-state";
import { Field } from "@/components/ui/field";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { ImageChoices, useImageChoices, type LoadImages } from "./image-choices";
import { CONTENT_LIMITS, type ContentField } from "@/lib/templates/content-extras";

export type ContentFormProps = {
  fields: ContentField[];
  values: Record<string, string>;
  /** A field's new value; undefined goes back to the default. */
  onChange: (name: string, value: string | undefined) => void;
  readOnly: boolean;
  /** Problems the server found, by field name. */
  errors: Record<string, string>;
  loadImages: LoadImages;
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
  const choices = useImageChoices(loadImages);
  const shown = value ?? field.default;

  return (
    <Field label={field.label} hint={shown ? `Shows ${shown}${value === undefined ? " (the default)" : ""}` : "No image chosen"} error={error}>
      {(p) => (
        <Dialog
          open={open}
          onOpenChange={(o) => {
            setOpen(o);
            if (o) choices.open();
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
            <ImageChoices
              choices={choices}
              register={register}
              chosen={shown}
              emptyText="Upload a PNG, JPEG or SVG image here; it appears in this list to choose."
              onPick={(image) => {
                onPick(image.id);
                setOpen(false);
              }}
            />
          </div>
        </Dialog>
      )}
    </Field>
  );
}
