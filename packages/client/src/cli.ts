// The `folio` command line (README of this package): renders to files with a progress line,
// lists, and pushes/pulls a folder of workspace files. FOLIO_API_KEY and FOLIO_URL configure it.
// Exit codes by error class (EXIT below), `--json` for programs.
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { parseArgs } from "node:util";
import { Folio } from "./client.js";
import { FolioError } from "./errors.js";
import { downloadRender } from "./node.js";
import type { Render, RenderRequest } from "./types.js";

/** Exit codes: one per class of error, so scripts can branch without parsing text. */
export const EXIT = { ok: 0, unexpected: 1, usage: 2, auth: 3, notFound: 4, invalid: 5, limited: 6, renderFailed: 7, unavailable: 8 } as const;

const USAGE = `Usage: folio <command> [options]

Commands:
  render <file.html>                       render an HTML file (its folder's relative files are not sent)
  render --template <name|id> [--data f]   render a template's newest published version with a JSON data file
      -o, --out <file>     where to write the file (default: the input's name with .pdf/.png/.jpg)
      --format pdf|png|jpeg   --test   --timeout <seconds> (default 600)
  renders list [--state <s>] [--limit <n>]
  renders get <id>
  templates list [--limit <n>]
  files pull <folder path> <local dir>     copy a workspace folder's text files to disk ("/" for the top)
  files push <local dir> <folder path>     create or update text files from disk (folders made as needed)

Options: --json (machine-readable output), --url <address> (or FOLIO_URL), -h/--help, --version.
The API key comes from FOLIO_API_KEY.`;

type Out = { json: boolean; progress: (line: string) => void; done: () => void };

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
        timeout: { type: "string" },
        state: { type: "string" },
        limit: { type: "string" },
        help: { type: "boolean", short: "h", default: false },
        version: { type: "boolean", default: false },
      },
    });
  } catch (e) {
    return usage((e as Error).message);
  }
  const { values: o, positionals: args } = parsed;
  if (o.version) return print(o.json, { version: "0.1.0" }, "folio 0.1.0"), EXIT.ok;
  if (o.help || args.length === 0) return console.log(USAGE), o.help ? EXIT.ok : EXIT.usage;
  if (!env.FOLIO_API_KEY) return usage("FOLIO_API_KEY is not set: create an API key in the console (API keys) and export it");
  const folio = new Folio({ apiKey: env.FOLIO_API_KEY, baseUrl: o.url ?? env.FOLIO_URL });
  const out = output(o.json);
  try {
    const [command, sub, ...rest] = args;
    if (command === "render") return await render(folio, out, { file: sub, ...o });
    if (command === "renders" && sub === "list") return print(o.json, await folio.renders.list({ state: o.state, limit: o.limit } as never), (p) => table(p.items.map((r) => [r.id, r.state, r.format, r.test ? "test" : "", r.createdAt]))), EXIT.ok;
    if (command === "renders" && sub === "get" && rest[0]) return print(o.json, await folio.renders.get(rest[0]), (r) => describeRender(r)), EXIT.ok;
    if (command === "templates" && sub === "list") return print(o.json, (await folio.templates.list({ limit: o.limit } as never)) as unknown as Page<TemplateItem>, (p) => table(p.items.map((t) => [t.id, t.kind ?? "", t.name]))), EXIT.ok;
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

const table = (rows: string[][]) => (rows.length ? rows.map((r) => r.join("  ")).join("\n") : "(none)");

const describeRender = (r: Render) =>
  [`${r.id}  ${r.state}  ${r.format}${r.test ? "  test" : ""}`, r.error ? `error: ${r.error.code}: ${r.error.message}` : "", r.result ? `${r.result.pageCount} page(s), ${r.result.outputBytes} bytes` : ""].filter(Boolean).join("\n");

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

const extensions: Record<string, string> = { pdf: "pdf", png: "png", jpeg: "jpg" };

async function render(folio: Folio, out: Out, o: { file?: string; template?: string; data?: string; out?: string; format?: string; test?: boolean; timeout?: string; json: boolean }): Promise<number> {
  const format = o.format ?? "pdf";
  if (!(format in extensions)) return usage(`--format must be pdf, png or jpeg, not ${format}`);
  if (!o.file && !o.template) return usage("render needs an HTML file or --template <name|id>");
  if (o.file && o.template) return usage("render takes an HTML file or --template, not both");
  const timeoutMs = o.timeout === undefined ? 600_000 : Number(o.timeout) * 1000;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) return usage("--timeout is a number of seconds");
  const target = o.out ?? `${path.basename(o.file ?? o.template!).replace(/\.[^.]*$/, "")}.${extensions[format]}`;
  let body: RenderRequest;
  if (o.file) {
    body = { document: { html: await readFile(o.file, "utf8") }, format, test: o.test } as RenderRequest;
  } else {
    const data = o.data === undefined ? {} : JSON.parse(await readFile(o.data, "utf8"));
    out.progress(`Finding template ${o.template}…`);
    body = { templateVersionId: await newestVersion(folio, o.template!), data, format, test: o.test } as RenderRequest;
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

/** A template's newest published version: by id (tpl_…) or by exact name. */
async function newestVersion(folio: Folio, nameOrId: string): Promise<string> {
  let id = nameOrId;
  if (!nameOrId.startsWith("tpl_")) {
    const found: TemplateItem[] = [];
    let cursor: string | undefined;
    do {
      const page = (await folio.templates.list({ q: nameOrId, limit: 100, cursor } as never)) as unknown as Page<TemplateItem>;
      found.push(...page.items.filter((t) => t.name === nameOrId));
      cursor = page.nextCursor;
    } while (cursor && found.length === 0);
    if (found.length === 0) throw new FolioError("NOT_FOUND", `No template is named "${nameOrId}"`, 404);
    id = found[0]!.id;
  }
  const versions = (await folio.templates.versions(id, { limit: 1, order: "desc" } as never)) as unknown as Page<{ id: string }>;
  const newest = versions.items[0];
  if (!newest) throw new FolioError("NOT_FOUND", `Template ${nameOrId} has no published version: publish it first`, 404);
  return newest.id;
}

type Page<T> = { items: T[]; nextCursor?: string };
type TemplateItem = { id: string; name: string; kind?: string };
type Folder = { id: string; name: string; path: string };
type FileItem = { id: string; name: string; kind: string; revision: number };

/** The folder at `p` ("/" or "" for the top level: undefined); NOT_FOUND when missing, or made when `create`. */
async function folderAt(folio: Folio, p: string, create: boolean): Promise<string | undefined> {
  let parent: string | undefined;
  for (const name of p.split("/").filter(Boolean)) {
    const children = await allPages<Folder>((cursor) => folio.get("/v1/workspace-folders", { query: { parentId: parent ?? "root", limit: 100, cursor } as never }) as never);
    const found = children.find((f) => f.name.toLowerCase() === name.toLowerCase());
    if (found) parent = found.id;
    else if (create) parent = ((await folio.post("/v1/workspace-folders", { body: { name, parentId: parent ?? null } as never })) as Folder).id;
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
  allPages<FileItem>((cursor) => folio.get("/v1/workspace-files", { query: { folderId: folderId ?? "root", limit: 100, cursor } as never }) as never);
const foldersIn = (folio: Folio, folderId: string | undefined) =>
  allPages<Folder>((cursor) => folio.get("/v1/workspace-folders", { query: { parentId: folderId ?? "root", limit: 100, cursor } as never }) as never);

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
      const file = (await folio.get("/v1/workspace-files/{id}", { params: { id: f.id } })) as { content?: string };
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
        await folio.post("/v1/workspace-files", { body: { name: entry.name, folderId: folderId ?? null, content } as never });
        created.push(full);
      } else {
        const current = (await folio.get("/v1/workspace-files/{id}", { params: { id: have.id } })) as { content?: string; revision: number };
        if (current.content === content) unchanged.push(full);
        else {
          await folio.put("/v1/workspace-files/{id}/content", { params: { id: have.id }, body: { content, expectedRevision: current.revision } as never });
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

// Run when executed (bin/folio.mjs imports this module), not when a test imports main().
const entry = process.argv[1] ? path.resolve(process.argv[1]) : "";
if (entry.endsWith(`${path.sep}folio.mjs`) || entry.endsWith(`${path.sep}cli.ts`) || entry.endsWith(`${path.sep}cli.js`)) {
  main(process.argv.slice(2)).then((code) => (process.exitCode = code));
}
