import { z } from "zod";
import { scopes } from "../auth/scopes";

export const CreateKeyInput = z.strictObject({
  name: z.string().trim().min(1, "give the key a name").max(64, "must be at most 64 characters"),
  scopes: z
    .array(z.enum(scopes))
    .min(1, "choose at least one scope")
    .max(scopes.length)
    .refine((s) => new Set(s).size === s.length, "lists a scope twice"),
  expiresInDays: z.number().int("must be a whole number of days").min(1, "must be 1 to 365 days").max(365, "must be 1 to 365 days").optional(),
});
export type CreateKeyInput = z.infer<typeof CreateKeyInput>;

export const ApiKey = z
  .object({
    id: z.string(),
    name: z.string(),
    scopes: z.array(z.string()),
    prefix: z.string().meta({ description: "The key's first characters, to tell keys apart (never the secret)" }),
    createdAt: z.iso.datetime(),
    expiresAt: z.iso.datetime().optional(),
    lastUsedAt: z.iso.datetime().optional(),
    /** Set once the key was rotated: it keeps working until expiresAt (15 minutes at most) and cannot be rotated again. */
    rotatedAt: z.iso.datetime().optional().meta({ description: "Set once the key was rotated: it keeps working until expiresAt (15 minutes at most)" }),
    status: z.enum(["active", "revoked", "expired"]),
    setByServer: z.boolean().meta({ description: "The deploy key FOLIO_API_KEY sets: the console cannot change it" }),
  })
  .meta({ id: "ApiKey", description: "An API key, never its secret." });
export type ApiKey = z.infer<typeof ApiKey>;
export const ApiKeyWithSecret = ApiKey.extend({ secret: z.string().meta({ description: "The key itself: shown this once, never again" }) }).meta({
  id: "ApiKeyWithSecret",
  description: "A new or rotated API key with its secret, shown only in this answer.",
});
export const ApiKeyList = z.object({ items: z.array(ApiKey) }).meta({ id: "ApiKeyList" });
