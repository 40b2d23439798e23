import { z } from "zod";
import { assetKinds } from "../db/schema";
import { kindMediaTypes } from "./kinds";
import { PageQuery, pageOf } from "../paging";

export { imageKinds, kindMediaTypes, MAX_ASSET_BYTES } from "./kinds";

/** Why a file name is refused, or undefined: 1 to 255 characters, no path separators or control characters, not `.` or `..`. */
export function filenameProblem(name: string): string | undefined {
  if (name.length === 0) return "must not be empty";
  if (name.length > 255) return "must be at most 255 characters";
  if (/[/\\]/.test(name)) return "must not contain / or \\ (a file name, not a path)";
  if (/[\u0000-\u001f\u007f-\u009f]/.test(name)) return "must not contain control characters";
  if (name === "." || name === "..") return "must not be . or ..";
  if (name.trim() !== name) return "must not begin or end with spaces";
  return undefined;
}

export const AssetFilename = z.string().superRefine((name, ctx) => {
  const problem = filenameProblem(name);
  if (problem) ctx.addIssue({ code: "custom", message: problem });
});

export const Sha256Hex = z.string().regex(/^[0-9a-f]{64}$/, "must be the SHA-256 of the file as 64 lowercase hexadecimal characters");

export const RegisterAssetInput = z
  .strictObject({
    kind: z.enum(assetKinds),
    filename: AssetFilename,
    mediaType: z.string().min(1).max(200),
    // why no .max: over MAX_ASSET_BYTES is LIMIT_EXCEEDED, not BAD_REQUEST (spec: Errors); registerAsset checks it.
    size: z.number().int("must be a whole number of bytes").min(1, "must be at least 1 byte"),
    sha256: Sha256Hex,
  })
  .superRefine((b, ctx) => {
    const allowed = kindMediaTypes[b.kind];
    if (!allowed.includes(b.mediaType)) {
      ctx.addIssue({ code: "custom", path: ["mediaType"], message: `must be ${allowed.join(" or ")} for kind ${b.kind}` });
    }
  });
export type RegisterAssetInput = z.infer<typeof RegisterAssetInput>;

/** GET /v1/assets: paging plus an optional kind. */
export const AssetListQuery = PageQuery.extend({ kind: z.enum(assetKinds).optional() });
export type AssetListQuery = z.infer<typeof AssetListQuery>;

/**
 * The API view of an asset (docs/api.md, Assets). `uploadedAt` once its bytes arrived;
 * `downloadUrl` and `expiresAt` (a fresh five-minute link) on GET of one ready asset.
 */
export const Asset = z
  .object({
    id: z.string(),
    kind: z.enum(assetKinds),
    filename: z.string(),
    mediaType: z.string(),
    size: z.number().int(),
    sha256: z.string(),
    state: z.enum(["pending", "ready"]),
    createdAt: z.iso.datetime(),
    uploadedAt: z.iso.datetime().optional(),
    downloadUrl: z.url().optional(),
    expiresAt: z.iso.datetime().optional(),
  })
  .meta({ id: "Asset", description: "An asset: a font, image or other file documents use." });
export type Asset = z.infer<typeof Asset>;
export const AssetPage = pageOf(Asset, "AssetPage");

/** What POST /v1/assets answers: the asset plus where and how to upload its bytes. */
export const RegisteredAsset = Asset.extend({ uploadUrl: z.url(), uploadHeaders: z.record(z.string(), z.string()), uploadExpiresAt: z.iso.datetime() }).meta({
  id: "RegisteredAsset",
  description: "A registered asset and where and how to upload its bytes (PUT the bytes to uploadUrl with uploadHeaders).",
});
export type RegisteredAsset = z.infer<typeof RegisteredAsset>;

/** Who uses an asset (a 409's details and the console's usage count). */
export type AssetUser = { type: "workspaceFile" | "template"; id: string; message: string };
