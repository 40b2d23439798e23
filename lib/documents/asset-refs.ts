import { z } from "zod";

/**
 * Where a rendering page finds its files: URLs under this origin are answered by the worker from
 * the render's own asset list (lib/render-engine/browser.ts); every other request is refused. The
 * `.invalid` name (RFC 2606) never resolves, so nothing under it can reach a network.
 */
export const ASSET_ORIGIN = "http://assets.invalid";

/** The URL a page loads an asset from: caller HTML uses `http://assets.invalid/<assetId>` (docs/api.md). */
export function assetUrl(name: string): string {
  return `${ASSET_ORIGIN}/${encodeURIComponent(name)}`;
}

/** The store key of a workspace's blob: content-addressed, so identical uploads share one file. */
export function blobKey(workspaceId: string, sha256: string): string {
  return `assets/${workspaceId}/${sha256}`;
}

/**
 * One file a render may load, carried in the render's input: the page asks for `assetUrl(name)`,
 * the worker answers with the blob at `key`. `label` names the file in errors (an asset ID, or a
 * workspace path such as `brand/fonts/Inter.woff2`).
 */
export const AssetRef = z.strictObject({
  name: z.string().min(1).max(300),
  key: z.string().min(1).max(500),
  mediaType: z.string().min(1).max(200),
  size: z.number().int().nonnegative(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  label: z.string().min(1).max(2000),
});
export type AssetRef = z.infer<typeof AssetRef>;
export const AssetRefs = z.array(AssetRef).max(1000);
