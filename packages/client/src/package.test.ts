/**
 * @folio/client as a user gets it: `npm pack` here, `npm install <tarball>` into an empty project
 * under the system's temporary folder (outside this repository, so nothing of Folio's own
 * node_modules can stand in), then an ES module program and a CommonJS program that render
 * against the test server and download the PDF, a strict `tsc` build of a TypeScript program that
 * uses the types, and `npx folio` (--version, and a render). Each program runs on the Node that
 * runs the tests and on an older one when the machine has it (Node 20: the package's engines).
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestWorkspace } from "@/lib/testing/factories";

const packageDir = path.resolve(import.meta.dirname, "..");
const version = (bin: string) => execFileSync(bin, ["--version"], { encoding: "utf8" }).trim();

/** The Node that runs the tests, and an older one (/usr/bin/node on Folio's images) when there is one. */
const nodes = (() => {
  const found = [{ bin: process.execPath, version: process.version }];
  for (const bin of ["/usr/bin/node", "/usr/local/bin/node"]) {
    if (!fs.existsSync(bin)) continue;
    const v = version(bin);
    if (Number(v.slice(1).split(".")[0]) < Number(process.versions.node.split(".")[0])) {
      found.push({ bin, version: v });
      break;
    }
  }
  return found;
})();

let tmp: string;
let app: string;
let tarball: string;
let env: Record<string, string>;

/** Runs a command in the installed project; fails the test with its output unless it exits 0. */
function run(command: string, args: string[], options: { node?: string; cwd?: string } = {}) {
  // why PATH first with the chosen node's folder: `npx` and the `folio` bin start `node` from PATH.
  const PATH = [...(options.node ? [path.dirname(options.node)] : []), process.env.PATH].join(path.delimiter);
  const r = spawnSync(command, args, { cwd: options.cwd ?? app, env: { ...process.env, ...env, PATH }, encoding: "utf8", timeout: 180_000 });
  expect(r.status, `${command} ${args.join(" ")}${r.error ? ` (${r.error.message})` : ""}\n${r.stdout}\n${r.stderr}`).toBe(0);
  return r.stdout;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "folio-client-package-"));
  app = path.join(tmp, "app");
  fs.mkdirSync(app);
  const hadDist = fs.existsSync(path.join(packageDir, "dist"));
  try {
    // npm pack runs prepack, the package's own build.
    const packed = run("npm", ["pack", "--pack-destination", tmp, "--json"], { cwd: packageDir });
    tarball = path.join(tmp, (JSON.parse(packed) as { filename: string }[])[0]!.filename);
  } finally {
    // why: a dist/ left in the checkout would be read by the repository's lint and typecheck.
    if (!hadDist) fs.rmSync(path.join(packageDir, "dist"), { recursive: true, force: true });
  }
  fs.writeFileSync(path.join(app, "package.json"), JSON.stringify({ name: "folio-user", private: true }));
  // typescript and @types/node are the user's, for the tsc build: Node 20's types, the oldest the engines allow.
  run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", tarball, "typescript@5.9.3", "@types/node@20"]);
  const w = await createTestWorkspace();
  env = { FOLIO_API_KEY: w.key, FOLIO_URL: inject("baseUrl") };
}, 300_000);

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe("the packed @folio/client", () => {
  it("ships the built ESM and CommonJS code and a bin that runs built JavaScript, with no dependency", () => {
    const installed = path.join(app, "node_modules/@folio/client");
    const manifest = JSON.parse(fs.readFileSync(path.join(installed, "package.json"), "utf8")) as Record<string, unknown>;
    expect(manifest.dependencies).toBeUndefined();
    for (const f of ["dist/index.js", "dist/index.d.ts", "dist/node.js", "dist/cli.js", "dist/bin.js", "dist/cjs/index.js", "dist/cjs/index.d.ts", "dist/cjs/node.js", "dist/cjs/package.json", "bin/folio.mjs"]) {
      expect(fs.existsSync(path.join(installed, f)), f).toBe(true);
    }
    expect(fs.existsSync(path.join(installed, "src"))).toBe(false);
    expect(fs.readFileSync(path.join(installed, "bin/folio.mjs"), "utf8")).not.toMatch(/tsx/);
  });

  it.each(nodes)("an ES module program renders and downloads a PDF on Node $version", ({ bin }) => {
    fs.writeFileSync(
      path.join(app, "render.mjs"),
      `import { Folio } from "@folio/client";
import { downloadRender } from "@folio/client/node";
const folio = new Folio();
const r = await folio.renders.createAndWait({ document: { html: "<h1>From an ES module</h1>" } });
const bytes = await downloadRender(folio, r.id, "esm.pdf");
console.log(JSON.stringify({ state: r.state, bytes }));
`,
    );
    const out = JSON.parse(run(bin, ["render.mjs"])) as { state: string; bytes: number };
    expect(out.state).toBe("succeeded");
    expect(fs.readFileSync(path.join(app, "esm.pdf")).subarray(0, 5).toString()).toBe("%PDF-");
  });

  it.each(nodes)("a CommonJS program require()s it and renders on Node $version", ({ bin }) => {
    fs.writeFileSync(
      path.join(app, "render.cjs"),
      `const { Folio, FolioError } = require("@folio/client");
const { downloadRender } = require("@folio/client/node");
(async () => {
  const folio = new Folio();
  const r = await folio.renders.createAndWait({ document: { html: "<h1>From CommonJS</h1>" } });
  const bytes = await downloadRender(folio, r.id, "cjs.pdf");
  const missing = await folio.renders.get("rnd_none").catch((e) => e);
  console.log(JSON.stringify({ state: r.state, bytes, notFound: missing instanceof FolioError && missing.code, loaded: require.resolve("@folio/client") }));
})();
`,
    );
    const out = JSON.parse(run(bin, ["render.cjs"])) as { state: string; notFound: string; loaded: string };
    expect(out).toMatchObject({ state: "succeeded", notFound: "NOT_FOUND" });
    // The CommonJS build, not require(esm): Node 20 before 20.19 has no require(esm).
    expect(out.loaded).toBe(path.join(app, "node_modules/@folio/client/dist/cjs/index.js"));
    expect(fs.readFileSync(path.join(app, "cjs.pdf")).subarray(0, 5).toString()).toBe("%PDF-");
  });

  it("a strict tsc build of a TypeScript program uses its types (ESM and CommonJS resolution)", () => {
    const project = path.join(app, "ts");
    fs.mkdirSync(project, { recursive: true });
    fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ type: "module" }));
    // why no skipLibCheck: the package's own .d.ts files must compile in a user's strict build.
    const compilerOptions = { target: "ES2022", module: "NodeNext", moduleResolution: "NodeNext", strict: true, noEmit: true, types: ["node"] };
    fs.writeFileSync(path.join(project, "tsconfig.json"), JSON.stringify({ compilerOptions, include: ["*.ts", "*.cts"] }));
    fs.writeFileSync(
      path.join(project, "main.ts"),
      `import { Folio, FolioError, type Render } from "@folio/client";
import { downloadRender } from "@folio/client/node";

const folio = new Folio({ apiKey: "folio_x" });
export async function run(): Promise<void> {
  const r: Render = await folio.renders.createAndWait({ document: { html: "<p>x</p>" } });
  const pdf: Uint8Array = await folio.post("/v1/reports/render", { body: { format: "pdf", template: { name: "Invoice" } } });
  const page = await folio.get("/v1/renders", { query: { limit: 10, state: "failed" } });
  // @ts-expect-error an unknown query parameter
  await folio.get("/v1/renders", { query: { colour: "red" } });
  // @ts-expect-error the path parameter id is missing
  await folio.get("/v1/renders/{id}");
  // @ts-expect-error templates take no Idempotency-Key
  await folio.post("/v1/templates", { body: { name: "x", content: {} }, idempotencyKey: "k" });
  await downloadRender(folio, r.id, "out.pdf");
  console.log(pdf.byteLength, page.items.length, page.nextCursor, FolioError.name);
}
`,
    );
    fs.writeFileSync(path.join(project, "legacy.cts"), `import { Folio } from "@folio/client";\nexport const list = () => new Folio().renders.list({ limit: 1 });\n`);
    run(process.execPath, [path.join(app, "node_modules/typescript/bin/tsc"), "-p", project]);
  });

  it.each(nodes)("npx folio --version and npx folio render work on Node $version", ({ bin, version: v }) => {
    expect(run("npx", ["--no-install", "folio", "--version"], { node: bin }).trim()).toBe("folio 0.1.0");
    // The bin's `#!/usr/bin/env node` starts the node PATH names first: the one asked for.
    expect(run("node", ["--version"], { node: bin }).trim()).toBe(v);
    fs.writeFileSync(path.join(app, "page.html"), "<h1>From npx folio</h1>");
    const out = run("npx", ["--no-install", "folio", "render", "page.html", "-o", "npx.pdf", "--json"], { node: bin });
    expect(JSON.parse(out)).toMatchObject({ state: "succeeded", file: path.join(app, "npx.pdf") });
    expect(fs.readFileSync(path.join(app, "npx.pdf")).subarray(0, 5).toString()).toBe("%PDF-");
    expect(JSON.parse(run("npx", ["--no-install", "folio", "reports", "list", "--json"], { node: bin }))).toEqual({ items: expect.any(Array) });
    // The workspace out to a zip and, inspected, back: nothing would change.
    expect(JSON.parse(run("npx", ["--no-install", "folio", "export", "-o", "ws.zip", "--json"], { node: bin }))).toMatchObject({ file: path.join(app, "ws.zip") });
    const inspected = JSON.parse(run("npx", ["--no-install", "folio", "import", "ws.zip", "--inspect", "--json"], { node: bin }));
    expect(inspected.applied).toBe(false);
    expect([...inspected.templates, ...inspected.files].every((x: { action: string }) => x.action === "skip")).toBe(true);
  });
});
