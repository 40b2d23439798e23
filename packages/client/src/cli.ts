// The `folio` command line (README of this package): renders to files with a progress line,
// lists, and pushes/pulls a folder of workspace files. FOLIO_API_KEY and FOLIO_URL configure it.
// Exit codes by error class (EXIT below), `--json` for programs. bin.ts runs it.
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { Folio } from "./client.js";
import { FolioError } from "./errors.js";
import { downloadBatchPdf, downloadRender } from "./node.js";
import type { BatchSummary, components, QueryOf, Render, RenderRequest, ReportRequest } from "./types.js";
import { VERSION } from "./version.js";

/** Exit codes: one per class of error, so scripts can branch without parsing text. */
export const EXIT = { ok: 0, unexpected: 1, usage: 2, auth: 3, notFound: 4, invalid: 5, limited: 6, renderFailed: 7, unavailable: 8 } as const;

const USAGE = `Usage: folio <command> [options]

Commands:
  render <file.html>                       render an HTML file (its folder's relative files are not sent)
  render --template <name|id> [--data f]   render a template's newest published version with a JSON data file
      -o, --out <file>     where to write the file (default: the input's name with .pdf/.png/.jpg)
      --format pdf|png|jpeg   --test   --timeout <seconds> (default 600)
  report --template <name> [--data f]      the Reports API: a published template by name, straight to a file
      -o, --out <file>     --format pdf|png|html|xlsx (default pdf)   --locale <tag, e.g. de-DE>
  batch <items.json>                       render 1 to 100 items at once and wait for all of them
                                           (the file: {"items": [...]} or [...], each item what POST /v1/renders takes)
      -o, --out <file>     also write the combined PDF   --test   --timeout <seconds> (default 600)
  batches get <id>                         a batch's summary
  batches pdf <id> [-o <file>]             download a batch's combined PDF (default <id>.pdf)
  renders list [--state <s>] [--limit <n>] [--cursor <c>]
  renders get <id>
  renders cancel <id>                      cancel a queued or processing render
  templates list [--limit <n>] [--cursor <c>]
  reports list                             what \`report\` renders by name: version, kind and formats
  files pull <folder path> <local dir>     copy a workspace folder's text files to disk ("/" for the top)
  files push <local dir> <folder path>     create or update text files from disk (folders made as needed)
  export [--folder <id>] [-o <file.zip>]   a folder or the whole workspace as a zip of readable files
                                           (templates with their versions, files, uploads; default workspace.zip)
  import <file.zip> [--folder <id>]        put an export back, in one transaction
      --inspect   only say what it would change   --on-conflict skip|replace|rename (default skip)
      --publish   publish each template it writes   --label <text> (kept in the audit log)

Options: --json (machine-readable output), --url <address> (or FOLIO_URL), -h/--help, --version.
Lists print one page; --cursor <c> (printed under a page that has more) asks for the next.
The API key comes from FOLIO_API_KEY.`;

type Out = { json: boolean; progress: (line: string) => void; done: () => void };

/** A mistake in the command's arguments or files: told in one line, exit 2. */
class UsageError extends Error {}

const RENDER_STATES = ["queued", "processing", "succeeded", "failed", "cancelled"] as const satisfies readonly NonNullable<QueryOf<"/v1/renders", "get">["state"]>[];
const RENDER_FORMATS = ["pdf", "png", "jpeg"] as const satisfies readonly NonNullable<RenderRequest["format"]>[];
const REPORT_FORMATS = ["pdf", "png", "html", "xlsx"] as const satisfies readonly ReportRequest["format"][];
const extensions: Record<string, string> = { pdf: "pdf", png: "png", jpeg: "jpg", html: "html", xlsx: "xlsx" };

const oneOf = <T extends string>(values: readonly T[], value: string): value is T => values.some((v) => v === value);

export async function main(argv: string[], env: Record<string, string | undefined> = process.env): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        json: { type: "boolean", default: false },
        url: { type: "string" },
        out: { type: "string", short: "o" },
        format: { type: "string" },
        test: { type: "boolean", default: false },
        template: { type: "string" },
        data: { type: "string" },
        locale: { type: "string" },
        timeout: { type: "string" },
        state: { type: "string" },
        limit: { type: "string" },
        cursor: { type: "string" },
        folder: { type: "string" },
        "on-conflict": { type: "string" },
        publish: { type: "boolean", default: false },
        inspect: { type: "boolean", default: false },
        label: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", default: false },
      },
    });
  } catch (e) {
    return usage((e as Error).message);
  }
  const { values: o, positionals: args } = parsed;
  if (o.version) return print(o.json, { version: VERSION }, `folio ${VERSION}`), EXIT.ok;
  if (o.help) return console.log(USAGE), EXIT.ok;
  if (args.length === 0) return usage("no command given");
  if (!env.FOLIO_API_KEY) return usage("FOLIO_API_KEY is not set: create an API key in the console (API keys) and export it");
  const folio = new Folio({ apiKey: env.FOLIO_API_KEY, baseUrl: o.url ?? env.FOLIO_URL });
  const out = output(o.json);
  try {
    const [command, sub, ...rest] = args;
    const id = rest.length === 1 ? rest[0] : undefined;
    if (command === "render") return await render(folio, out, { file: sub, ...o });
    if (command === "report") return sub === undefined ? await report(folio, out, o) : usage(`report takes the template's name as --template "${sub}"`);
    if (command === "batch") return sub !== undefined && rest.length === 0 ? await batch(folio, out, { file: sub, ...o }) : usage("batch takes one JSON file of items");
    if (command === "batches" && sub === "get" && id) return print(o.json, await folio.batches.get(id), describeBatch), EXIT.ok;
    if (command === "batches" && sub === "pdf" && id) return await batchPdf(folio, out, id, o.out ?? `${id}.pdf`);
    if (command === "renders" && sub === "list" && rest.length === 0) {
      const page = await folio.renders.list({ state: renderState(o.state), limit: limit(o.limit), cursor: o.cursor });
      return printPage(o.json, page, (r) => [r.id, r.state, r.format, r.test ? "test" : "", r.createdAt]), EXIT.ok;
    }
    if (command === "renders" && sub === "get" && id) return print(o.json, await folio.renders.get(id), describeRender), EXIT.ok;
    if (command === "renders" && sub === "cancel" && id) return print(o.json, await folio.renders.cancel(id), describeRender), EXIT.ok;
    if (command === "templates" && sub === "list" && rest.length === 0) {
      const page = await folio.templates.list({ limit: limit(o.limit), cursor: o.cursor });
      return printPage(o.json, page, (t) => [t.id, t.kind, t.name]), EXIT.ok;
    }
    if (command === "reports" && sub === "list" && rest.length === 0) {
      const list = await folio.get("/v1/reports");
      return print(o.json, list, (l) => table(l.items.map((r) => [r.name, `version ${r.version.version}`, r.kind, r.formats.join(",")]))), EXIT.ok;
    }
    if (command === "export") return sub === undefined ? await exportZip(folio, out, o) : usage(`export takes no file name; write it with -o ${sub}`);
    if (command === "import") return sub !== undefined && rest.length === 0 ? await importZip(folio, out, sub, o) : usage("import takes one zip file (an export)");
    if (command === "files" && sub === "pull" && rest.length === 2) return await pull(folio, out, rest[0]!, rest[1]!);
    if (command === "files" && sub === "push" && rest.length === 2) return await push(folio, out, rest[0]!, rest[1]!);
    return usage(`unknown command: ${args.join(" ")}`);
  } catch (e) {
    out.done();
    return failed(e, o.json);
  }
}

function usage(message: string): number {
  console.error(`folio: ${message}\n\n${USAGE}`);
  return EXIT.usage;
}

function print<T>(json: boolean, value: T, text: string | ((v: T) => string)) {
  console.log(json ? JSON.stringify(value, null, 2) : typeof text === "string" ? text : text(value));
}

/** One page of a list: a table, and how to ask for the next page when there is one. */
function printPage<T>(json: boolean, page: { items: T[]; nextCursor?: string }, row: (item: T) => string[]) {
  print(json, page, (p) => table(p.items.map(row)) + (p.nextCursor ? `\n(more: --cursor ${p.nextCursor})` : ""));
}

const table = (rows: string[][]) => (rows.length ? rows.map((r) => r.join("  ")).join("\n") : "(none)");

const describeRender = (r: Render) =>
  [`${r.id}  ${r.state}  ${r.format}${r.test ? "  test" : ""}`, r.error ? `error: ${r.error.code}: ${r.error.message}` : "", r.result ? `${r.result.pageCount} page(s), ${r.result.outputBytes} bytes` : ""].filter(Boolean).join("\n");

const describeBatch = (b: BatchSummary) =>
  [`${b.id}  ${b.total} item(s): ${Object.entries(b.counts).filter(([, n]) => n > 0).map(([state, n]) => `${n} ${state}`).join(", ") || "none"}`, ...b.items.map((i) => `  ${i.index}  ${i.id}  ${i.state}${i.test ? "  test" : ""}`)].join("\n");

function renderState(value: string | undefined) {
  if (value === undefined || oneOf(RENDER_STATES, value)) return value;
  throw new UsageError(`--state must be one of ${RENDER_STATES.join(", ")}, not ${value}`);
}

function limit(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 100) throw new UsageError(`--limit is a whole number from 1 to 100, not ${value}`);
  return n;
}

function timeout(value: string | undefined): number {
  const ms = value === undefined ? 600_000 : Number(value) * 1000;
  if (!Number.isFinite(ms) || ms <= 0) throw new UsageError(`--timeout is a number of seconds above 0, not ${value}`);
  return ms;
}

/** A JSON file the command was given (`flag` names where), parsed; a UsageError naming the file when it is not JSON. */
async function readJson(file: string, flag: string): Promise<unknown> {
  const text = await readFile(file, "utf8");
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new UsageError(`${flag} ${file} is not JSON: ${(e as Error).message}`);
  }
}

const isObject = (v: unknown): v is { [key: string]: unknown } => typeof v === "object" && v !== null && !Array.isArray(v);

/** The template data of --data: a JSON object, {} without the option. */
async function readData(file: string | undefined): Promise<{ [key: string]: unknown }> {
  if (file === undefined) return {};
  const data = await readJson(file, "--data");
  if (!isObject(data)) throw new UsageError(`--data ${file} must hold a JSON object (the template's data), not ${Array.isArray(data) ? "an array" : typeof data === "object" ? "null" : `a ${typeof data}`}`);
  return data;
}

/** A progress line on stderr: rewritten in place on a terminal, one line per change otherwise; nothing with --json. */
function output(json: boolean): Out {
  const tty = process.stderr.isTTY === true;
  let last = "";
  return {
    json,
    progress: (line) => {
      if (json || line === last) return;
      last = line;
      process.stderr.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
    },
    done: () => {
      if (tty && last && !json) process.stderr.write("\n");
      last = "";
    },
  };
}

function exitFor(e: FolioError): number {
  switch (e.code) {
    case "UNAUTHORIZED":
    case "FORBIDDEN":
      return EXIT.auth;
    case "NOT_FOUND":
      return EXIT.notFound;
    case "BAD_REQUEST":
    case "LIMIT_EXCEEDED":
    case "ASSET_INVALID":
    case "CONFLICT":
    case "UNSUPPORTED_FEATURE":
      return EXIT.invalid;
    case "RATE_LIMITED":
    case "QUOTA_EXCEEDED":
    case "LICENSE_REQUIRED":
      return EXIT.limited;
    case "RENDER_FAILED":
    case "RENDER_TIMEOUT":
      return EXIT.renderFailed;
    case "NETWORK":
    case "INTERNAL":
      return EXIT.unavailable;
  }
  // An error code this version does not know: its HTTP status decides (the API's versioning rules).
  if (e.status === 401 || e.status === 403) return EXIT.auth;
  if (e.status === 404) return EXIT.notFound;
  if (e.status === 429 || e.status === 402) return EXIT.limited;
  if (e.status >= 400 && e.status < 500) return EXIT.invalid;
  if (e.status >= 500 || e.status === 0) return EXIT.unavailable;
  return EXIT.unexpected;
}

function failed(e: unknown, json: boolean): number {
  if (e instanceof UsageError) {
    if (json) console.log(JSON.stringify({ error: { code: "USAGE", message: e.message } }, null, 2));
    else console.error(`folio: ${e.message}`);
    return EXIT.usage;
  }
  if (!(e instanceof FolioError)) {
    const code = (e as NodeJS.ErrnoException)?.code;
    // Files the command was given: the user's to fix, said plainly.
    if (code === "ENOENT" || code === "EACCES" || code === "EISDIR") {
      console.error(`folio: ${(e as Error).message}`);
      return EXIT.usage;
    }
    console.error(`folio: unexpected error: ${(e as Error)?.stack ?? e}`);
    return EXIT.unexpected;
  }
  if (json) console.log(JSON.stringify({ error: { code: e.code, message: e.message, status: e.status, requestId: e.requestId, details: e.details } }, null, 2));
  else {
    console.error(`folio: ${e.code}: ${e.message}${e.requestId ? ` (request ${e.requestId})` : ""}`);
    for (const d of e.details.slice(0, 20)) console.error(`  ${d.path ? `${d.path}: ` : ""}${d.message}`);
  }
  return exitFor(e);
}

/** A file name made from a template's name: no folder separators or characters file systems refuse. */
const fileNameOf = (name: string) => name.replace(/[\\/:*?"<>|\x00-\x1f]+/g, "-");

type Options = {
  template?: string;
  data?: string;
  out?: string;
  format?: string;
  test?: boolean;
  timeout?: string;
  locale?: string;
  json: boolean;
  folder?: string;
  "on-conflict"?: string;
  publish?: boolean;
  inspect?: boolean;
  label?: string;
};

async function render(folio: Folio, out: Out, o: Options & { file?: string }): Promise<number> {
  const format = o.format ?? "pdf";
  if (!oneOf(RENDER_FORMATS, format)) return usage(`--format must be ${RENDER_FORMATS.join(", ")}, not ${format}`);
  if (!o.file && !o.template) return usage("render needs an HTML file or --template <name|id>");
  if (o.file && o.template) return usage("render takes an HTML file or --template, not both");
  const timeoutMs = timeout(o.timeout);
  const target = o.out ?? `${path.basename(o.file ?? fileNameOf(o.template!)).replace(/\.[^.]*$/, "")}.${extensions[format]}`;
  let body: RenderRequest;
  if (o.file) {
    body = { document: { html: await readFile(o.file, "utf8") }, format, test: o.test };
  } else {
    const data = await readData(o.data);
    out.progress(`Finding template ${o.template}…`);
    body = { templateVersionId: await newestVersion(folio, o.template!), data, format, test: o.test };
  }
  const started = Date.now();
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  out.progress("Rendering…");
  const r = await folio.renders.createAndWait(body, { timeoutMs, onProgress: (state) => out.progress(`Rendering: ${state} (${seconds()} s)`) });
  if (r.state !== "succeeded") {
    out.done();
    const message = r.error ? `${r.error.code}: ${r.error.message}` : `the render ended ${r.state}`;
    if (o.json) console.log(JSON.stringify(r, null, 2));
    else console.error(`folio: render ${r.id} ${r.state}: ${message}`);
    return EXIT.renderFailed;
  }
  out.progress(`Downloading ${r.id}…`);
  const bytes = await downloadRender(folio, r.id, target);
  out.done();
  print(o.json, { ...r, file: path.resolve(target), bytes }, `${target}: ${r.result?.pageCount ?? "?"} page(s), ${bytes} bytes, in ${seconds()} s (render ${r.id})`);
  return EXIT.ok;
}

/** The Reports API: one request that answers the file (the server waits for the render, up to 95 s). */
async function report(folio: Folio, out: Out, o: Options): Promise<number> {
  const format = o.format ?? "pdf";
  if (!oneOf(REPORT_FORMATS, format)) return usage(`--format must be ${REPORT_FORMATS.join(", ")} for a report, not ${format}`);
  if (!o.template) return usage("report needs --template <name> (a published template's exact name)");
  const target = o.out ?? `${fileNameOf(o.template)}.${extensions[format]}`;
  const body: ReportRequest = { format, template: { name: o.template }, data: await readData(o.data), ...(o.locale ? { locale: o.locale } : {}) };
  const started = Date.now();
  out.progress(`Rendering report ${o.template}…`);
  const file = await folio.reports.render(body);
  await writeFile(target, file.bytes);
  out.done();
  const pages = file.pageCount === undefined ? "" : `${file.pageCount} page(s), `;
  const made = file.renderId ? ` (render ${file.renderId})` : "";
  print(o.json, { file: path.resolve(target), bytes: file.bytes.length, contentType: file.contentType, renderId: file.renderId, pageCount: file.pageCount }, `${target}: ${pages}${file.bytes.length} bytes, in ${((Date.now() - started) / 1000).toFixed(1)} s${made}`);
  return EXIT.ok;
}

/** An export of a folder or the workspace, written to a zip. */
async function exportZip(folio: Folio, out: Out, o: Options): Promise<number> {
  const target = o.out ?? "workspace.zip";
  out.progress(`Exporting ${o.folder ? `folder ${o.folder}` : "the workspace"}…`);
  const bytes = o.folder ? await folio.get("/v1/workspace-folders/{id}/export", { params: { id: o.folder } }) : await folio.get("/v1/workspace-folders/export");
  await writeFile(target, bytes);
  out.done();
  print(o.json, { file: path.resolve(target), bytes: bytes.length }, `${target}: ${bytes.length} bytes`);
  return EXIT.ok;
}

const CONFLICTS = ["skip", "replace", "rename"] as const;

/** An export put back (or, with --inspect, what it would change), item by item. */
async function importZip(folio: Folio, out: Out, file: string, o: Options): Promise<number> {
  const onConflict = o["on-conflict"] ?? "skip";
  if (!oneOf(CONFLICTS, onConflict)) return usage(`--on-conflict must be ${CONFLICTS.join(", ")}, not ${onConflict}`);
  let zip: Buffer;
  try {
    zip = await readFile(file);
  } catch (e) {
    throw new UsageError(`import: ${file} cannot be read (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
  const body = { archive: zip.toString("base64"), onConflict, publish: o.publish ?? false, ...(o.folder ? { folderId: o.folder } : {}), ...(o.label ? { label: o.label } : {}) };
  out.progress(o.inspect ? `Reading ${file}…` : `Importing ${file}…`);
  const result = o.inspect ? await folio.post("/v1/workspace-folders/import/inspect", { body }) : await folio.post("/v1/workspace-folders/import", { body });
  out.done();
  print(o.json, result, (r) => {
    const rows = [
      ...r.templates.map((t) => [t.action, "template", t.name, t.as ? `-> ${t.as}` : "", t.version ? `version ${t.version}` : ""]),
      ...r.files.map((f) => [f.action, "file", f.path, f.as ? `-> ${f.as}` : "", ""]),
      ...r.assets.map((a) => [a.action, "upload", a.filename, "", ""]),
    ];
    const changed = rows.filter((x) => x[0] !== "skip" && x[0] !== "reuse").length;
    return `${table(rows)}\n${r.applied ? `Imported: ${changed} change(s)` : `Nothing written (--inspect): ${changed} change(s) if imported`}`;
  });
  return EXIT.ok;
}

/** A batch from a JSON file, waited for to its end; with -o, its combined PDF too. */
async function batch(folio: Folio, out: Out, o: Options & { file: string }): Promise<number> {
  const timeoutMs = timeout(o.timeout);
  const read = await readJson(o.file, "batch");
  const items = Array.isArray(read) ? read : isObject(read) && Array.isArray(read.items) ? read.items : undefined;
  if (!items) throw new UsageError(`batch ${o.file} must hold {"items": [...]} or an array of items (each what POST /v1/renders takes)`);
  const started = Date.now();
  out.progress(`Creating a batch of ${items.length} item(s)…`);
  // why --test only on items that do not say: an item's own test flag is the file author's choice.
  const created = await folio.batches.create({ items: o.test ? items.map((i) => (isObject(i) && i.test === undefined ? { ...i, test: true } : i)) : items });
  const seconds = () => ((Date.now() - started) / 1000).toFixed(1);
  const done = await folio.batches.waitFor(created.id, { timeoutMs: Math.max(1, timeoutMs - (Date.now() - started)), onProgress: (p) => out.progress(`Batch ${created.id}: ${p} (${seconds()} s)`) });
  const failedItems = done.counts.failed + done.counts.cancelled;
  let file: { file: string; bytes: number } | undefined;
  if (failedItems === 0 && o.out) {
    out.progress(`Downloading the combined PDF of ${done.id}…`);
    file = { file: path.resolve(o.out), bytes: await downloadBatchPdf(folio, done.id, o.out) };
  }
  out.done();
  print(o.json, { ...done, ...file }, (b) => `${describeBatch(b)}${file ? `\n${o.out}: ${file.bytes} bytes` : ""}\nin ${seconds()} s`);
  if (failedItems > 0) {
    if (!o.json) console.error(`folio: ${failedItems} item(s) of batch ${done.id} failed or were cancelled${o.out ? `, so no combined PDF was written` : ""}: folio renders get <id> says why`);
    return EXIT.renderFailed;
  }
  return EXIT.ok;
}

async function batchPdf(folio: Folio, out: Out, id: string, target: string): Promise<number> {
  out.progress(`Downloading the combined PDF of ${id}…`);
  const bytes = await downloadBatchPdf(folio, id, target);
  out.done();
  print(out.json, { file: path.resolve(target), bytes }, `${target}: ${bytes} bytes (batch ${id})`);
  return EXIT.ok;
}

/** A template's newest published version: by id (tpl_…) or by exact name. */
async function newestVersion(folio: Folio, nameOrId: string): Promise<string> {
  let id = nameOrId;
  if (!nameOrId.startsWith("tpl_")) {
    const found: Template[] = [];
    let cursor: string | undefined;
    do {
      const page = await folio.templates.list({ q: nameOrId, limit: 100, cursor });
      found.push(...page.items.filter((t) => t.name === nameOrId));
      cursor = page.nextCursor;
    } while (cursor && found.length === 0);
    if (found.length === 0) throw new FolioError("NOT_FOUND", `No template is named "${nameOrId}"`, 404);
    id = found[0]!.id;
  }
  const versions = await folio.templates.versions(id, { limit: 1, order: "desc" });
  const newest = versions.items[0];
  if (!newest) throw new FolioError("NOT_FOUND", `Template ${nameOrId} has no published version: publish it first`, 404);
  return newest.id;
}

type Template = components["schemas"]["Template"];

/** The folder at `p` ("/" or "" for the top level: undefined); NOT_FOUND when missing, or made when `create`. */
async function folderAt(folio: Folio, p: string, create: boolean): Promise<string | undefined> {
  let parent: string | undefined;
  for (const name of p.split("/").filter(Boolean)) {
    const found = (await foldersIn(folio, parent)).find((f) => f.name.toLowerCase() === name.toLowerCase());
    if (found) parent = found.id;
    else if (create) parent = (await folio.post("/v1/workspace-folders", { body: { name, parentId: parent ?? null } })).id;
    else throw new FolioError("NOT_FOUND", `No folder ${p} in the workspace`, 404);
  }
  return parent;
}

async function allPages<T>(page: (cursor?: string) => Promise<{ items: T[]; nextCursor?: string }>): Promise<T[]> {
  const all: T[] = [];
  let cursor: string | undefined;
  do {
    const p = await page(cursor);
    all.push(...p.items);
    cursor = p.nextCursor;
  } while (cursor);
  return all;
}

const filesIn = (folio: Folio, folderId: string | undefined) =>
  allPages((cursor) => folio.get("/v1/workspace-files", { query: { folderId: folderId ?? "root", limit: 100, cursor } }));
const foldersIn = (folio: Folio, folderId: string | undefined) =>
  allPages((cursor) => folio.get("/v1/workspace-folders", { query: { parentId: folderId ?? "root", limit: 100, cursor } }));

async function pull(folio: Folio, out: Out, remote: string, local: string): Promise<number> {
  const written: string[] = [];
  const skipped: string[] = [];
  const walk = async (folderId: string | undefined, dir: string) => {
    await mkdir(dir, { recursive: true });
    for (const f of await filesIn(folio, folderId)) {
      if (f.kind !== "text") {
        skipped.push(path.join(dir, f.name));
        continue;
      }
      const file = await folio.get("/v1/workspace-files/{id}", { params: { id: f.id } });
      await writeFile(path.join(dir, f.name), file.content ?? "");
      written.push(path.join(dir, f.name));
      out.progress(`Pulled ${written.length} file(s)…`);
    }
    for (const sub of await foldersIn(folio, folderId)) await walk(sub.id, path.join(dir, sub.name));
  };
  await walk(await folderAt(folio, remote, false), local);
  out.done();
  print(out.json, { written, skipped }, `${written.length} file(s) written to ${local}${skipped.length ? `; ${skipped.length} uploaded file(s) left out (assets: download them from the console)` : ""}`);
  return EXIT.ok;
}

async function push(folio: Folio, out: Out, local: string, remote: string): Promise<number> {
  const created: string[] = [];
  const updated: string[] = [];
  const unchanged: string[] = [];
  const walk = async (dir: string, remotePath: string) => {
    const folderId = await folderAt(folio, remotePath, true);
    const existing = new Map((await filesIn(folio, folderId)).map((f) => [f.name.toLowerCase(), f]));
    for (const entry of (await readdir(dir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        await walk(full, `${remotePath.replace(/\/+$/, "")}/${entry.name}`);
        continue;
      }
      if (!entry.isFile()) continue;
      const content = await readFile(full, "utf8");
      const have = existing.get(entry.name.toLowerCase());
      if (!have) {
        await folio.post("/v1/workspace-files", { body: { name: entry.name, folderId: folderId ?? null, content } });
        created.push(full);
      } else {
        const current = await folio.get("/v1/workspace-files/{id}", { params: { id: have.id } });
        if (current.content === content) unchanged.push(full);
        else {
          await folio.put("/v1/workspace-files/{id}/content", { params: { id: have.id }, body: { content, expectedRevision: current.revision } });
          updated.push(full);
        }
      }
      out.progress(`Pushed ${created.length + updated.length + unchanged.length} file(s)…`);
    }
  };
  await walk(local, remote);
  out.done();
  print(out.json, { created, updated, unchanged }, `${created.length} created, ${updated.length} updated, ${unchanged.length} unchanged`);
  return EXIT.ok;
}
