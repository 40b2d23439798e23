/**
 * The layout of a Folio export (docs/api.md, "Exports and imports"): a zip of readable files that a
 * person keeps in git. Every folder of the workspace is a folder of the zip; a text file is itself;
 * a template is a folder `<name>.template/` with `template.json` (name, kind, description and the
 * content's settings) and its sources as files of their own (template.html, header.html,
 * footer.html, helpers.js, partials/<name>.hbs, scripts/<NN>-<name>.js); uploaded files are under
 * `assets/<asset id>/<filename>`, and `folio.json` says what each asset is and which workspace
 * files name one. A template's published versions are in `versions/<n>/` of its folder, each laid
 * out as the template itself. Pure functions: the export writes with them, the helpers read with them.
 */
import { z } from "zod";
import { assetKinds } from "../db/schema/assets";
import { templateKinds, type TemplateKind } from "../db/schema/templates";

export const MANIFEST = "folio.json";
export const ASSETS_DIR = "assets/";
export const TEMPLATE_SUFFIX = ".template";
export const VERSIONS_DIR = "versions/";

/** A fault of an archive's contents: its message names the entry (400 BAD_REQUEST for callers). */
export class ArchiveError extends Error {
  override name = "ArchiveError";
}

/** A refusal for a count or size limit (entries, bytes, characters, depth): LIMIT_EXCEEDED for callers. */
export class ArchiveLimitError extends ArchiveError {
  override name = "ArchiveLimitError";
}

export const Manifest = z.strictObject({
  format: z.literal("folio-export"),
  version: z.literal(1),
  exportedAt: z.string().max(40).optional(),
  /** The folder exported, as a path ("" for the whole workspace). */
  root: z.string().max(2000).optional(),
  /** Uploaded files by their id in the exporting workspace. */
  assets: z
    .record(
      z.string().regex(/^[A-Za-z0-9_-]{1,128}$/),
      z.strictObject({ path: z.string().max(1024), kind: z.enum(assetKinds), mediaType: z.string().max(200), filename: z.string().min(1).max(255) }),
    )
    .default({}),
  /** Workspace files that name an uploaded file: their path, the asset's id. */
  assetFiles: z.record(z.string().max(2000), z.string().max(128)).default({}),
});
export type Manifest = z.infer<typeof Manifest>;

/** What template.json holds besides the sources kept as files. */
export const TemplateJson = z.strictObject({
  name: z.string().min(1).max(120),
  kind: z.enum(templateKinds),
  description: z.string().max(2000).default(""),
  content: z.record(z.string(), z.unknown()),
});
export type TemplateJson = z.infer<typeof TemplateJson>;

/** A name as a file or folder name of the zip: what a file system refuses replaced by "_". */
export function safeName(name: string): string {
  const s = name.replace(/[/\\:*?"<>|\u0000-\u001f\u007f]/g, "_").replace(/^\.+$/, "_");
  return s.length > 200 ? s.slice(0, 200) : s;
}

/** A partial's or script's name in a file name: readable, and never a path of its own. */
const encodeName = (n: string) => encodeURIComponent(n).replace(/\*/g, "%2A");
const decodeName = (n: string, where: string) => {
  try {
    return decodeURIComponent(n);
  } catch {
    throw new ArchiveError(`${where}: its name is not a valid file name of an export`);
  }
};

/** The keys of a template's content that are files of their own, by kind. */
const SOURCE_KEYS: Record<TemplateKind, readonly string[]> = {
  component: [],
  handlebars: ["templateHtml", "header", "footer", "helpers", "partials", "scripts"],
  workbook: ["helpers", "partials", "scripts"],
};
const SINGLE: Record<string, string> = { templateHtml: "template.html", header: "header.html", footer: "footer.html", helpers: "helpers.js" };

/** A template as files of its folder: paths relative to it, and their text. */
export function templateFiles(t: { name: string; kind: TemplateKind; description: string; content: Record<string, unknown> }): [string, string][] {
  const rest: Record<string, unknown> = {};
  const files: [string, string][] = [];
  const sources = SOURCE_KEYS[t.kind];
  for (const [key, value] of Object.entries(t.content)) {
    if (!sources.includes(key)) rest[key] = value;
    else if (key in SINGLE) files.push([SINGLE[key]!, String(value)]);
    else if (key === "partials") for (const [name, source] of Object.entries(value as Record<string, string>)) files.push([`partials/${encodeName(name)}.hbs`, source]);
    else if (key === "scripts") (value as { name: string; source: string }[]).forEach((s, i) => files.push([`scripts/${String(i + 1).padStart(2, "0")}-${encodeName(s.name)}.js`, s.source]));
  }
  const json: TemplateJson = { name: t.name, kind: t.kind, description: t.description, content: rest };
  return [["template.json", `${JSON.stringify(json, null, 2)}\n`], ...files];
}

/**
 * A template back from the files of its folder (`files` by path relative to it). Throws
 * ArchiveError naming the file for a template.json that is not one, or a source file its kind
 * does not have.
 */
export function templateFromFiles(dir: string, files: Map<string, string>): TemplateJson {
  const where = (f: string) => `${dir}/${f}`;
  const raw = files.get("template.json");
  if (raw === undefined) throw new ArchiveError(`${dir}: a template folder without template.json`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    throw new ArchiveError(`${where("template.json")}: not JSON (${(e as Error).message})`);
  }
  const t = TemplateJson.safeParse(parsed);
  if (!t.success) {
    const issue = t.error.issues[0]!;
    throw new ArchiveError(`${where("template.json")}: ${issue.path.join(".") || "the file"} ${issue.message}`);
  }
  const content: Record<string, unknown> = { ...t.data.content };
  const sources = SOURCE_KEYS[t.data.kind];
  const partials: Record<string, string> = {};
  const scripts: { order: string; name: string; source: string }[] = [];
  for (const [file, text] of files) {
    if (file === "template.json") continue;
    const single = Object.entries(SINGLE).find(([, f]) => f === file)?.[0];
    const partial = /^partials\/(.+)\.hbs$/.exec(file);
    const script = /^scripts\/(\d{1,4})-(.+)\.js$/.exec(file);
    if (single && sources.includes(single)) content[single] = text;
    else if (partial && sources.includes("partials")) partials[decodeName(partial[1]!, where(file))] = text;
    else if (script && sources.includes("scripts")) scripts.push({ order: script[1]!, name: decodeName(script[2]!, where(file)), source: text });
    else throw new ArchiveError(`${where(file)}: a ${t.data.kind} template has no such file (it has ${["template.json", ...sources.map((k) => SINGLE[k] ?? `${k}/`)].join(", ")})`);
  }
  if (Object.keys(partials).length) content.partials = partials;
  if (scripts.length) content.scripts = scripts.sort((a, b) => Number(a.order) - Number(b.order)).map((s) => ({ name: s.name, source: s.source }));
  return { ...t.data, content };
}

/** Asset ids as they stand in a template's content or a workspace file's record. */
export const ASSET_ID = /\bast_[0-9A-Za-z]{8,64}\b/g;
