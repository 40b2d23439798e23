import { Validator, type Schema } from "@cfworker/json-schema";
import { inject } from "vitest";

/**
 * Checks the test suite's real answers against the OpenAPI document: the one GET /v1/openapi.json
 * served when the integration tests' servers started (lib/testing/global-setup.ts), or, in unit
 * tests, one built here from the same route modules. Each JSON answer, success or error, must fit the schema of its path,
 * method and status, or the test fails naming them and the violation. This is the proof that the
 * document is true. why strict here: every object of a response schema gets
 * `additionalProperties: false` (where it says nothing else), so an answer's field the document
 * lacks fails a test and the document stays complete. why fetched once at set-up and not by each
 * test: a test that stops the database would see GET /v1/openapi.json refused (its rate limit counts
 * in the database).
 */

type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas?: Record<string, unknown>; responses?: Record<string, Response> };
};
type Operation = { responses: Record<string, Response | { $ref: string }> };
type Response = { content?: Record<string, { schema?: unknown }> };

type Compiled = { doc: Doc; routes: { method: string; template: string; re: RegExp; literal: number }[]; defs: Record<string, unknown>; validators: Map<string, Validator> };

let document: Promise<Compiled> | undefined;

function compile(doc: Doc): Compiled {
  const routes = Object.entries(doc.paths).flatMap(([template, item]) =>
    Object.keys(item).map((method) => ({
      method: method.toUpperCase(),
      template,
      re: new RegExp(`^${template.replace(/[.]/g, "\\.").replace(/\{\w+\}/g, "[^/]+")}$`),
      literal: template.split("/").filter((s) => !s.startsWith("{")).length,
    })),
  );
  // A named segment wins over a placeholder, as Next.js routes.
  routes.sort((a, b) => b.literal - a.literal);
  const defs = strict(JSON.parse(JSON.stringify(doc.components.schemas ?? {}).replaceAll("#/components/schemas/", "#/$defs/"))) as Record<string, unknown>;
  return { doc, routes, defs, validators: new Map() };
}

/** Every object schema that says nothing of other properties refuses them. */
function strict(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(strict);
  if (!s || typeof s !== "object") return s;
  const o = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, k === "properties" || k === "$defs" ? Object.fromEntries(Object.entries(v as object).map(([pk, pv]) => [pk, strict(pv)])) : strict(v)]));
  if (o.type === "object" && o.properties && o.additionalProperties === undefined && o.unevaluatedProperties === undefined) o.additionalProperties = false;
  return o;
}

/** The document, built once per test process (its first use imports every route module: seconds). */
export async function documentOf(): Promise<Compiled> {
  document ??= (async () => {
    const served = inject("openapiDocument");
    if (served) return compile(JSON.parse(served) as Doc);
    const [{ buildDocument }, { routeModules }, { GET }] = await Promise.all([
      import("../http/openapi/document"),
      import("@/app/v1/openapi.json/routes"),
      import("@/app/v1/openapi.json/route"),
    ]);
    return compile(buildDocument([...routeModules, { path: "/v1/openapi.json", module: { GET } }], "http://folio.test") as unknown as Doc);
  })();
  return document;
}

/**
 * Throws when a JSON answer does not fit the document. `path` is the request's path (query left
 * out); answers of paths outside /v1 and of HEAD are not checked.
 */
export async function checkAnswer(method: string, path: string, status: number, contentType: string | null, body: unknown): Promise<void> {
  if (!path.startsWith("/v1/") || method === "HEAD" || method === "OPTIONS") return;
  const c = await documentOf();
  const route = c.routes.find((r) => r.method === method && r.re.test(path));
  const where = `${method} ${path} (${route ? route.template : "no operation"}) answered ${status}`;
  if (!route) {
    // Unknown endpoints (and paths that do not decode) answer the error envelope; a success is an operation the document lacks.
    if (status >= 400) return validate(c, "#/$defs/Error", body, where);
    throw new Error(`OpenAPI: ${where}, but the document has no such operation`);
  }
  const op = c.doc.paths[route.template]![method.toLowerCase()]!;
  let response = op.responses[String(status)] ?? op.responses.default;
  if (response && "$ref" in response) response = c.doc.components.responses![response.$ref.split("/").pop()!]!;
  if (!response || (status < 300 && !op.responses[String(status)])) throw new Error(`OpenAPI: ${where}, a status the document does not list (it lists ${Object.keys(op.responses).join(", ")})`);
  if (!contentType?.includes("application/json")) return;
  const schema = (response as Response).content?.["application/json"]?.schema;
  if (!schema) throw new Error(`OpenAPI: ${where} with JSON, but the document gives no JSON schema for it`);
  const ref = (schema as { $ref?: string }).$ref?.replace("#/components/schemas/", "#/$defs/");
  return validate(c, ref ?? JSON.stringify(schema), body, where);
}

function validate(c: Compiled, key: string, body: unknown, where: string) {
  let v = c.validators.get(key);
  if (!v) {
    const schema = key.startsWith("#/") ? { $ref: key } : (strict(JSON.parse(key.replaceAll("#/components/schemas/", "#/$defs/"))) as object);
    v = new Validator({ ...schema, $defs: c.defs } as Schema, "2020-12", false);
    c.validators.set(key, v);
  }
  const r = v.validate(body);
  if (!r.valid) {
    const errors = r.errors
      .filter((e) => !/^(#\/\$ref|.*\/(anyOf|allOf|oneOf|\$ref|properties|items))$/.test(e.keywordLocation) || r.errors.length < 3)
      .slice(0, 6)
      .map((e) => `  ${e.instanceLocation}: ${e.error === "False boolean schema." ? "a field the document does not name" : e.error} (${e.keywordLocation})`)
      .join("\n");
    throw new Error(`OpenAPI: ${where}, which does not fit the document:\n${errors}\nbody: ${JSON.stringify(body).slice(0, 600)}`);
  }
}
