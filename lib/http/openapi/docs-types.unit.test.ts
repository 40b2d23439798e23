/**
 * docs/api.md's openapi-typescript command, run as written against this document, makes types the
 * docs' own example compiles against: a request that leaves out fields with defaults (format,
 * waitMs, test) is a valid request, so its type must not require them.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import ts from "typescript";
import { afterAll, describe, expect, it } from "vitest";
import { routeModules } from "@/app/v1/openapi.json/routes";
import { GET as openapiGet } from "@/app/v1/openapi.json/route";
import { buildDocument } from "./document";

const root = path.resolve(import.meta.dirname, "../../..");
const docs = fs.readFileSync(path.join(root, "docs", "api.md"), "utf8");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "folio-docs-types-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The fenced block of docs/api.md whose info string is `<lang> <name>`, exactly as written there. */
function docBlock(name: string): string {
  const blocks = [...docs.matchAll(/^```(\w+) ([\w-]+)\n([\s\S]*?)^```$/gm)].filter((m) => m[2] === name);
  expect(blocks, `one block named ${name} in docs/api.md`).toHaveLength(1);
  return blocks[0]![3]!;
}

/** The type errors of each file, compiled strictly together (one program), as a caller's project would. */
function typeErrors(files: string[]): string[][] {
  const program = ts.createProgram(files, { strict: true, noEmit: true, target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext, moduleResolution: ts.ModuleResolutionKind.Bundler, skipLibCheck: true, types: [] });
  const all = ts.getPreEmitDiagnostics(program);
  return files.map((f) => all.filter((d) => d.file?.fileName === f).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n")));
}

describe("docs/api.md: types from the OpenAPI document", () => {
  it("the documented openapi-typescript command makes types the documented example compiles against", () => {
    const doc = buildDocument([...routeModules, { path: "/v1/openapi.json", module: { GET: openapiGet } }], "http://localhost:3000");
    const served = path.join(dir, "openapi.json");
    fs.writeFileSync(served, JSON.stringify(doc));

    const line = docBlock("openapi-types")
      .split("\n")
      .find((l) => l.startsWith("npx openapi-typescript "));
    expect(line, "the command in docs/api.md").toBeDefined();
    const [, , url, ...flags] = line!.trim().split(/\s+/);
    expect(url).toBe("http://localhost:3000/v1/openapi.json");
    // The document as that URL serves it, written where the command's -o says (in a folder of the test's).
    const args = flags.map((f, i) => (flags[i - 1] === "-o" ? path.join(dir, f) : f));
    const cli = path.join(root, "node_modules", "openapi-typescript", "bin", "cli.js");
    execFileSync(process.execPath, [cli, served, ...args], { stdio: "pipe" });
    expect(fs.existsSync(path.join(dir, "folio-api.d.ts"))).toBe(true);

    const example = path.join(dir, "example.ts");
    fs.writeFileSync(example, docBlock("openapi-types-example"));
    // The check has teeth: a format the API does not take does not compile.
    const wrong = path.join(dir, "wrong.ts");
    fs.writeFileSync(wrong, `import type { components } from "./folio-api";\nexport const r: components["schemas"]["PostRendersBody"] = { format: "docx" };\n`);
    const [ofExample, ofWrong] = typeErrors([example, wrong]);
    expect(ofExample).toEqual([]);
    expect(ofWrong!.join("\n")).toMatch(/"docx"/);
  }, 60_000);
});
