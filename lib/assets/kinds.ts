import type { AssetKind } from "../db/schema/assets";

/**
 * The asset kinds' rules as pure data, for the API's schemas and the console's uploader alike
 * (client components import this file; it imports nothing at run time).
 */

/** spec: Limits: an asset is at most 50,000,000 bytes. */
export const MAX_ASSET_BYTES = 50_000_000;

/**
 * spec: Asset (uploaded file), the media types each kind allows. font/woff is added to the spec's
 * font types: the issue names WOFF among the font formats, and Chromium loads it like the others
 * (docs/api.md, Assets).
 */
export const kindMediaTypes: Record<AssetKind, readonly string[]> = {
  image: ["image/png", "image/jpeg"],
  svg: ["image/svg+xml"],
  font: ["font/woff2", "font/woff", "font/ttf", "font/otf"],
  stylesheet: ["text/css"],
  workbook: ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"],
};

/** The kinds a person with template:content (and not asset:manage) may upload and see: images for image components. */
export const imageKinds: readonly AssetKind[] = ["image", "svg"];

const byExtension: Record<string, { kind: AssetKind; mediaType: string }> = {
  png: { kind: "image", mediaType: "image/png" },
  jpg: { kind: "image", mediaType: "image/jpeg" },
  jpeg: { kind: "image", mediaType: "image/jpeg" },
  svg: { kind: "svg", mediaType: "image/svg+xml" },
  woff2: { kind: "font", mediaType: "font/woff2" },
  woff: { kind: "font", mediaType: "font/woff" },
  ttf: { kind: "font", mediaType: "font/ttf" },
  otf: { kind: "font", mediaType: "font/otf" },
  css: { kind: "stylesheet", mediaType: "text/css" },
  xlsx: { kind: "workbook", mediaType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" },
};

/** The extensions an upload may have, for a file picker's accept attribute. */
export const acceptedExtensions = Object.keys(byExtension).map((e) => `.${e}`);

/** The kind and media type of a file by its name's extension; undefined when Folio takes no such file. */
export function kindOfFile(filename: string): { kind: AssetKind; mediaType: string } | undefined {
  const ext = /\.([A-Za-z0-9]+)$/.exec(filename)?.[1]?.toLowerCase();
  return ext ? byExtension[ext] : undefined;
}
