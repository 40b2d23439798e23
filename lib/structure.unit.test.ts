/**
 * The house's shape, read from the code's own imports with the TypeScript compiler (the same
 * resolution as tsc: the "@/" paths, index files): no file imports itself through others, no folder
 * imports itself through others, lib/ never imports app/ or components/, and components reach
 * server actions only through their props (they never import app/). docs/architecture.md, "Folders
 * and their order", says why. Tests and lib/testing are left out: they may reach anywhere.
 */
import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..");
const TOP = /^(lib|app|worker|components|packages)\//;

/**
 * The files besides lib/db and the repository.ts and statements.ts files that may import drizzle
 * or postgres, each with its reason (docs/architecture.md, "Boundaries").
 */
const DATA_FILES_BESIDES_REPOSITORIES: Record<string, string> = {
  "lib/renders/admission.ts": "a fragment of the render statements' SQL (one statement per move on the hot path)",
  "lib/renders/notices.ts": "a fragment of the render statements' SQL (the ended notice)",
  "lib/renders/usage.ts": "a fragment of the render statements' SQL (the usage count of an end)",
  "lib/idempotency/index.ts": "the idempotency records have no verbs but their own reads and writes",
  "lib/http/rate-limit.ts": "the rate-limit counters have no verbs but their own reads and writes",
  "lib/jobs/boss.ts": "enqueues with pg-boss inside the caller's transaction",
  "lib/instance/index.ts": "the readiness check's select 1",
};

/** Every source file of lib/, app/, worker/ and components/ with the files of this tree it imports. */
function importGraph(): Map<string, Set<string>> {
  const parsed = ts.parseJsonConfigFileContent(ts.readConfigFile(path.join(root, "tsconfig.json"), ts.sys.readFile).config, ts.sys, root);
  const isSource = (rel: string) => TOP.test(rel) && !/\.test\.tsx?$/.test(rel) && !rel.startsWith("lib/testing/");
  const graph = new Map<string, Set<string>>();
  // The plain JavaScript too (issue 33): the sandbox's host and harness and the helpers' entry are
  // .mjs and .js files that tsconfig does not list.
  const plain = ["lib", "worker", "packages"].flatMap((top) =>
    fs
      .readdirSync(path.join(root, top), { recursive: true, encoding: "utf8" })
      .filter((f) => /\.(mjs|js)$/.test(f) && !/(^|\/)(node_modules|dist)\//.test(f))
      .map((f) => path.join(root, top, f)),
  );
  for (const file of [...parsed.fileNames, ...plain]) {
    const rel = path.relative(root, file);
    if (!isSource(rel)) continue;
    const imports = new Set<string>();
    const packages = new Set<string>();
    // why all imports, `import type` too: a type is a dependency of the design even where the
    // bundle drops it, and a circle of types is a circle a reader has to hold in mind.
    for (const imported of ts.preProcessFile(fs.readFileSync(file, "utf8"), true, true).importedFiles) {
      const resolved = ts.resolveModuleName(imported.fileName, file, parsed.options, ts.sys).resolvedModule;
      if (!resolved || resolved.isExternalLibraryImport) {
        packages.add(imported.fileName);
        continue;
      }
      const target = path.relative(root, resolved.resolvedFileName);
      if (isSource(target)) imports.add(target);
    }
    graph.set(rel, imports);
    packagesOf.set(rel, packages);
  }
  return graph;
}

/** The packages (and unresolved names) each source file imports, filled by importGraph. */
const packagesOf = new Map<string, Set<string>>();

/**
 * The folder a file belongs to: lib/<name> for everything under it (lib/db/schema is lib/db), a
 * file at lib's top is its own (lib/config.ts), and elsewhere the file's own folder
 * (components/templates, app/(console)/people).
 */
function folderOf(file: string): string {
  const parts = file.split("/");
  if (parts[0] === "lib") return parts.length > 2 ? parts.slice(0, 2).join("/") : file;
  return path.posix.dirname(file);
}

/** The strongly connected components of more than one node (Tarjan): each is a circle. */
function circles(nodes: Iterable<string>, next: (n: string) => Iterable<string>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter++);
    stack.push(v);
    onStack.add(v);
    for (const w of next(v)) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const n of nodes) if (!index.has(n)) visit(n);
  return found;
}

/** A circle in words: its members, then each import that ties two of them (file -> file). */
function describeCircle(members: string[], ties: (a: string, b: string) => string[]): string {
  const lines = [`circle: ${members.join(", ")}`];
  for (const a of members) for (const b of members) if (a !== b) for (const t of ties(a, b)) lines.push(`  ${t}`);
  return lines.join("\n");
}

describe("the import graph of lib/, app/, worker/ and components/", () => {
  const graph = importGraph();

  it("reads the tree (a check that read nothing would pass)", () => {
    expect(graph.size).toBeGreaterThan(300);
    expect(graph.get("lib/server/web.ts")).toContain("lib/http/create-render.ts");
  });

  it("reads the plain JavaScript files too: the sandbox's host and harness, the helpers' entry", () => {
    expect(graph.has("lib/sandbox/harness.js")).toBe(true);
    expect([...packagesOf.get("lib/sandbox/host.mjs")!]).toContain("isolated-vm");
    expect([...packagesOf.get("lib/helper-process/entry.mjs")!]).toContain("node:url");
  });

  it("has no circle of files", () => {
    const found = circles(graph.keys(), (f) => graph.get(f) ?? []);
    const ties = (a: string, b: string) => (graph.get(a)?.has(b) ? [`${a} -> ${b}`] : []);
    expect(found.map((c) => describeCircle(c, ties))).toEqual([]);
  });

  it("has no circle of folders: a folder imports only folders below it", () => {
    const between = new Map<string, Map<string, string[]>>();
    for (const [from, targets] of graph) {
      for (const to of targets) {
        const [a, b] = [folderOf(from), folderOf(to)];
        if (a === b) continue;
        const row = between.get(a) ?? new Map<string, string[]>();
        between.set(a, row);
        row.set(b, [...(row.get(b) ?? []), `${from} -> ${to}`]);
      }
    }
    const folders = new Set([...graph.keys()].map(folderOf));
    const found = circles(folders, (f) => between.get(f)?.keys() ?? []);
    expect(found.map((c) => describeCircle(c, (a, b) => between.get(a)?.get(b) ?? []))).toEqual([]);
  });

  it("only lib/db, repository.ts and statements.ts files (and the few files named above, each with its reason) import drizzle or postgres", () => {
    const isData = (f: string) => f.startsWith("lib/db/") || /\/(repository|statements)\.ts$/.test(f) || f in DATA_FILES_BESIDES_REPOSITORIES;
    const offenders = [...packagesOf]
      .filter(([file, packages]) => !isData(file) && [...packages].some((p) => p === "postgres" || p === "drizzle-orm" || p.startsWith("drizzle-orm/")))
      .map(([file]) => file);
    expect(offenders).toEqual([]);
    // The list holds only files that still need it.
    const unneeded = Object.keys(DATA_FILES_BESIDES_REPOSITORIES).filter((f) => ![...(packagesOf.get(f) ?? [])].some((p) => p.startsWith("drizzle-orm")));
    expect(unneeded).toEqual([]);
  });

  it("no file of the server imports Handlebars or isolated-vm: a caller's template code runs only in the sandbox process (lib/sandbox/host.mjs)", () => {
    const offenders = [...packagesOf]
      .filter(([file, packages]) => file !== "lib/sandbox/host.mjs" && [...packages].some((p) => p === "handlebars" || p.startsWith("handlebars/") || p === "isolated-vm"))
      .map(([file]) => file);
    expect(offenders).toEqual([]);
  });

  it("lib/ imports neither app/ nor components/, and components/ does not import app/ (pages hand server actions to components as props)", () => {
    const upward = [...graph].flatMap(([from, targets]) =>
      [...targets]
        .filter((to) => (from.startsWith("lib/") && /^(app|components)\//.test(to)) || (from.startsWith("components/") && to.startsWith("app/")))
        .map((to) => `${from} -> ${to}`),
    );
    expect(upward).toEqual([]);
  });

  it("packages/client, published apart, imports only its own files and Node's built-ins: it reaches Folio over HTTP only", () => {
    const files = [...graph.keys()].filter((f) => f.startsWith("packages/client/"));
    expect(files).toContain("packages/client/src/client.ts");
    const outside = files.flatMap((f) => [...graph.get(f)!].filter((to) => !to.startsWith("packages/client/")).map((to) => `${f} -> ${to}`));
    const packages = files.flatMap((f) => [...packagesOf.get(f)!].filter((p) => !p.startsWith("node:") && p !== "tsx/esm/api").map((p) => `${f} -> ${p}`));
    expect([...outside, ...packages]).toEqual([]);
  });
});
