// ImagePicker: picks a ready image asset for an image component of composition.json: a new image
// at the end of the root container, or an existing image component whose assetId changes. The
// images are read when the dialog opens (each with a five-minute link to show it).
"use client";
import { ImagePlus } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import { Field } from "@/components/ui/field";
import { Select } from "@/components/ui/select";
import type { AssetUploaderProps } from "@/components/assets/asset-uploader";
import { imageSlots, withImageAsset, withNewImage } from "@/lib/templates/editor-images";
import type { ImageChoice } from "@/lib/templates/editor-files";
import { ImageChoices, useImageChoices, type LoadImages } from "./image-choices";

const NEW = "new";

function describeAssetId(assetId: unknown): string {
  if (typeof assetId === "string") return assetId;
  if (typeof assetId === "object" && assetId !== null && Array.isArray((assetId as { path?: unknown }).path)) return `binding ${(assetId as { path: string[] }).path.join(".")}`;
  return "no image yet";
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
  loadImages: LoadImages;
  /** Registers an upload (the Assets page's action): with it, images can be uploaded here too. */
  register?: AssetUploaderProps["register"];
}) {
  const [open, setOpen] = useState(false);
  const choices = useImageChoices(loadImages);
  const setFailure = choices.setFailure;
  const [target, setTarget] = useState(NEW);
  const slots = imageSlots(composition);

  const openPicker = (o: boolean) => {
    setOpen(o);
    if (!o) return;
    setTarget(NEW);
    choices.open();
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
        <ImageChoices choices={choices} register={register} onPick={pick} emptyText="Upload PNG, JPEG or SVG images as assets of this workspace; they appear here to pick." />
      </div>
    </Dialog>
  );
}
