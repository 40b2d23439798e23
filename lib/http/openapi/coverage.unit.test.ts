/**
 * The OpenAPI document against the code: every route file and method is in it and nothing else,
 * the registry of route modules is current, and the document is well formed OpenAPI 3.1 (every
 * $ref resolves, operationIds are unique, every schema is named, examples fit their schemas).
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DOWNLOAD_PREFIX } from "../node-downloads";
import { UPLOAD_PREFIX } from "../node-uploads";
import { routeModules } from "@/app/v1/openapi.json/routes";
import { GET as openapiGet } from "@/app/v1/openapi.json/route";
import { checkAnswer } from "../../testing/openapi";
import type { ApiHandler } from "../api-route";
import { buildDocument, METHODS, type OpenApiDocument } from "./document";
import { examples } from "./examples";
import { extraOperations } from "./extra";
import { REGISTRY_FILE, registryText, routeFiles } from "./registry";

const root = path.resolve(import.meta.dirname, "../../..");
const doc = buildDocument([...routeModules, { path: "/v1/openapi.json", module: { GET: openapiGet } }], "https://folio.example.com");
const ops = (d: OpenApiDocument) =>
  Object.entries(d.paths ?? {}).flatMap(([p, item]) =>
    Object.entries(item as Record<string, { operationId?: string }>).map(([m, op]) => ({ key: `${m.toUpperCase()} ${p}`, op })),
  );

/** Every method each route file exports, read from the file's text (not from the registry). */
function exportedMethods(file: string): string[] {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  return METHODS.filter((m) => new RegExp(`export (const|async function|function) ${m}\\b|export \\{[^}]*\\b(as )?${m}\\b[^}]*\\}`).test(text));
}

const STATELESS_REFUSALS = new Set(["GET /v1/mcp", "DELETE /v1/mcp"]);

describe("the OpenAPI document", () => {
  it("registry: lists every route file of app/v1 (run `npm run openapi:routes` after adding one)", () => {
    expect(fs.readFileSync(path.join(root, REGISTRY_FILE), "utf8")).toBe(registryText(routeFiles(root)));
  });

  it("coverage: every route file's methods are operations, and every operation is a route's method", () => {
    const fromFiles = new Set<string>();
    for (const file of [...routeFiles(root), "app/v1/openapi.json/route.ts"]) {
      const p = `/${file.replace(/^app\//, "").replace(/\/route\.ts$/, "").replace(/\[(\w+)\]/g, "{$1}")}`;
      for (const m of exportedMethods(file)) fromFiles.add(`${m} ${p}`);
    }
    for (const key of Object.keys(extraOperations)) fromFiles.add(key);
    const inDoc = new Set(ops(doc).map((o) => o.key));
    expect([...fromFiles].filter((k) => !inDoc.has(k)), "routes the document lacks").toEqual([]);
    expect([...inDoc].filter((k) => !fromFiles.has(k)), "operations no route serves").toEqual([]);
    // The paths web.ts serves without Next.js are the extra operations'.
    const links = Object.keys(extraOperations).filter((k) => k.includes("{token}"));
    expect(links.map((k) => k.split(" ")[1]!.replace(/\{token\}$/, ""))).toEqual([DOWNLOAD_PREFIX, UPLOAD_PREFIX]);
  });

  it("structure: OpenAPI 3.1, unique operationIds, every $ref resolves, every schema named", () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.servers).toEqual([{ url: "https://folio.example.com", description: expect.any(String) }]);
    const ids = ops(doc).map((o) => o.op.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    const text = JSON.stringify(doc);
    expect(text).not.toMatch(/__schema\d/);
    for (const [, ref] of text.matchAll(/"\$ref":"([^"]+)"/g)) {
      const target = ref!
        .replace(/^#\//, "")
        .split("/")
        .reduce<unknown>((o, k) => (o as Record<string, unknown> | undefined)?.[k.replaceAll("~1", "/").replaceAll("~0", "~")], doc);
      expect(target, `${ref} resolves`).toBeDefined();
    }
    for (const { key, op } of ops(doc)) {
      const o = op as { summary?: string; tags?: string[]; security?: unknown; responses: Record<string, unknown>; requestBody?: { content: Record<string, { schema: { $ref?: string } }> } };
      expect(o.summary, key).toBeTruthy();
      expect(o.tags?.length, key).toBe(1);
      expect(doc.tags?.find((t) => t.name === o.tags![0])?.description, `${key}'s tag is described`).toBeTruthy();
      expect(o.security, key).toBeDefined();
      expect(o.responses.default, key).toBeDefined();
      // why not the MCP server's GET and DELETE: the protocol's session operations, which a stateless server only refuses (405).
      if (!STATELESS_REFUSALS.has(key)) expect(Object.keys(o.responses).some((s) => /^2\d\d$/.test(s)), `${key} describes its success answer (apiRoute's responses)`).toBe(true);
      const json = o.requestBody?.content["application/json"];
      if (json) expect(json.schema.$ref, `${key}'s body is a named schema`).toMatch(/^#\/components\/schemas\//);
      for (const [status, r] of Object.entries(o.responses)) {
        const s = (r as { content?: Record<string, { schema: { $ref?: string } }> }).content?.["application/json"]?.schema;
        if (s && status !== "default") expect(s.$ref, `${key} ${status} is a named schema`).toMatch(/^#\/components\/schemas\//);
      }
    }
  });

  it("examples: each is of an operation in the document, its request passes the body schema and its answers fit the document", async () => {
    const keys = new Set(ops(doc).map((o) => o.key));
    for (const [key, ex] of Object.entries(examples)) {
      expect(keys.has(key), key).toBe(true);
      const [method, path] = key.split(" ") as [string, string];
      const route = routeModules.find((r) => r.path === path)?.module[method] as ApiHandler | undefined;
      if (ex.request !== undefined) expect(route?.spec.body?.safeParse(ex.request).error, `${key} request example`).toBeUndefined();
      for (const [status, body] of Object.entries(ex.responses ?? {})) await checkAnswer(method, path, Number(status), "application/json", body);
    }
  }, 60_000);
});
