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

export type ApiKey = {
  id: string;
  name: string;
  scopes: string[];
  prefix: string;
  createdAt: string;
  expiresAt?: string;
  lastUsedAt?: string;
  /** Set once the key was rotated: it keeps working until expiresAt (15 minutes at most) and cannot be rotated again. */
  rotatedAt?: string;
  status: "active" | "revoked" | "expired";
  setByServer: boolean;
};
