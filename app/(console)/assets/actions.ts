"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import * as assets from "@/lib/assets";
import { consoleAction } from "@/lib/console";

const AssetId = z.strictObject({ id: z.string().min(1).max(128) });

/** POST /v1/assets for the signed-in person: the browser then PUTs the file to the answer's uploadUrl. */
export const registerAssetAction = consoleAction(assets.RegisterAssetInput, (ctx, input) => assets.registerAsset(ctx, input));

/** The asset with a fresh download link (the preview loads the image or font through it). */
export const assetLinkAction = consoleAction(AssetId, (ctx, { id }) => assets.getAsset(ctx, id), { effect: "read" });

/** DELETE /v1/assets/{id}: a 409 comes back with the users in its details, which the dialog lists. */
export const deleteAssetAction = consoleAction(AssetId, async (ctx, { id }) => {
  const deleted = await assets.deleteAsset(ctx, id);
  revalidatePath("/assets");
  return deleted;
});
