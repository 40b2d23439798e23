"use server";
import { revalidatePath } from "next/cache";
import { z } from "zod";
import { consoleAction } from "@/lib/console";
import * as keys from "@/lib/keys";

const KeyId = z.strictObject({ id: z.string().min(1).max(128) });

/** The verbs of /v1/api-keys (owners and admins; lib/keys checks admin:manage). */
export const createKeyAction = consoleAction(keys.CreateKeyInput, async (ctx, input) => {
  const created = await keys.createKey(ctx, input);
  revalidatePath("/api-keys");
  return created;
});

/** Rotates a key; answers the new key with its secret and until when the old secret works. */
export const rotateKeyAction = consoleAction(KeyId, async (ctx, { id }) => {
  const key = await keys.rotateKey(ctx, id);
  const old = (await keys.listKeys(ctx)).items.find((k) => k.id === id);
  revalidatePath("/api-keys");
  return { key, oldWorksUntil: old?.expiresAt };
});

export const revokeKeyAction = consoleAction(KeyId, async (ctx, { id }) => {
  const key = await keys.revokeKey(ctx, id);
  revalidatePath("/api-keys");
  return key;
});

export const deleteKeyAction = consoleAction(KeyId, async (ctx, { id }) => {
  const deleted = await keys.deleteKey(ctx, id);
  revalidatePath("/api-keys");
  return deleted;
});
