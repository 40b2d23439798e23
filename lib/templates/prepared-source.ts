import type { AssetRef } from "../documents/asset-refs";
import type { CallerDocument } from "../documents/caller-document";
import type { SandboxConsoleEntry } from "../sandbox";

/** What a render of a template or node document stores: the final document, the files it loads and where it came from. */
export type PreparedSource = {
  source: "document" | "templateVersion" | "preview" | "editorPreview" | "nodeDocument" | "report";
  document: CallerDocument;
  /** The files the page may load at http://assets.invalid/<name> (render_inputs.payload.assets). */
  assets?: AssetRef[];
  templateId?: string;
  templateVersionId?: string;
  /** What a Handlebars template's sandbox steps logged (a preview answers it: docs/api.md). */
  console?: SandboxConsoleEntry[];
};
