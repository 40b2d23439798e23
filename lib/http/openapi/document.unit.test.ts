/**
 * What the document says beyond its shape (coverage.unit.test.ts): every example in it fits the
 * schema it stands beside, template content is typed by kind, each operation lists the error
 * statuses its route can answer, and the webhooks are the events lib/webhooks sends, signed as it
 * signs them.
 */
import { Validator, type Schema } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { routeModules } from "@/app/v1/openapi.json/routes";
import { GET as openapiGet } from "@/app/v1/openapi.json/route";
import { webhookEventTypes } from "../../db/schema";
import { TEST_EVENT_TYPE } from "../../webhooks";
import { eventBody } from "../../webhooks/deliver";
import { newWebhookSecret, signDelivery } from "../../webhooks/sign";
import type { ApiHandler } from "../api-route";
import { buildDocument } from "./document";
import { OPERATION_ERRORS } from "./errors";
import { examples } from "./examples";

type Json = Record<string, unknown>;
const doc = buildDocument([...routeModules, { path: "/v1/openapi.json", module: { GET: openapiGet } }], "https://folio.example.com") as unknown as Json & {
  paths: Record<string, Record<string, Operation>>;
  webhooks: Record<string, { post: Operation }>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json> };
};
type Operation = {
  parameters?: { name: string; in: string; required?: boolean; schema: Json }[];
  requestBody?: { content: Record<string, { schema: Json; example?: unknown }> };
  responses: Record<string, { $ref?: string; content?: Record<string, { schema: Json; example?: unknown }> }>;
};

/** As the answers' check does it (lib/testing/openapi.ts): an object schema silent on other properties refuses them. */
function closed(s: unknown): unknown {
  if (Array.isArray(s)) return s.map(closed);
  if (!s || typeof s !== "object") return s;
  const o = Object.fromEntries(Object.entries(s).map(([k, v]) => [k, k === "properties" ? Object.fromEntries(Object.entries(v as Json).map(([pk, pv]) => [pk, closed(pv)])) : closed(v)])) as Json;
  if (o.type === "object" && o.properties && o.additionalProperties === undefined && o.unevaluatedProperties === undefined) o.additionalProperties = false;
  return o;
}
const defs = closed(JSON.parse(JSON.stringify(doc.components.schemas).replaceAll("#/components/schemas/", "#/$defs/"))) as Json;

/** The violations of `value` against a schema of the document (its $refs into components.schemas). */
function violations(schema: unknown, value: unknown): string[] {
  const s = closed(JSON.parse(JSON.stringify(schema).replaceAll("#/components/schemas/", "#/$defs/"))) as Json;
  const r = new Validator({ ...s, $defs: defs } as Schema, "2020-12", false).validate(value);
  return r.valid ? [] : r.errors.slice(-4).map((e) => `${e.instanceLocation}: ${e.error}`);
}

/** Keywords whose value is a schema, or a list or map of schemas (the walk must not read a property named `example` as one). */
const ONE = ["items", "additionalProperties", "not", "propertyNames", "contains", "if", "then", "else", "unevaluatedProperties", "unevaluatedItems"];
const LIST = ["anyOf", "oneOf", "allOf", "prefixItems"];
const MAP = ["properties", "patternProperties", "$defs", "dependentSchemas"];

type Found = { where: string; schema: unknown; example: unknown };

/** Every example of a schema tree: its `example` and each of its `examples`, with the schema it belongs to. */
function schemaExamples(schema: unknown, where: string, out: Found[]) {
  if (!schema || typeof schema !== "object" || Array.isArray(schema)) return;
  const s = schema as Json;
  const { example, examples: list, ...rest } = s;
  if (example !== undefined) out.push({ where: `${where} (example)`, schema: rest, example });
  if (Array.isArray(list)) list.forEach((e, i) => out.push({ where: `${where} (examples[${i}])`, schema: rest, example: e }));
  for (const k of ONE) if (s[k] !== undefined) schemaExamples(s[k], `${where}/${k}`, out);
  for (const k of LIST) if (Array.isArray(s[k])) (s[k] as unknown[]).forEach((x, i) => schemaExamples(x, `${where}/${k}/${i}`, out));
  for (const k of MAP) if (s[k] && typeof s[k] === "object") for (const [n, x] of Object.entries(s[k] as Json)) schemaExamples(x, `${where}/${k}/${n}`, out);
}

/** Every example of an operation: its parameters', its body's and its answers' (inline ones; shared answers are walked once). */
function operationExamples(op: Operation, where: string, out: Found[]) {
  for (const p of op.parameters ?? []) schemaExamples(p.schema, `${where} parameter ${p.name}`, out);
  for (const [type, m] of Object.entries(op.requestBody?.content ?? {})) {
    if (m.example !== undefined) out.push({ where: `${where} body ${type}`, schema: m.schema, example: m.example });
    schemaExamples(m.schema, `${where} body ${type} schema`, out);
  }
  for (const [status, r] of Object.entries(op.responses)) {
    for (const [type, m] of Object.entries(r.content ?? {})) {
      if (m.example !== undefined) out.push({ where: `${where} ${status} ${type}`, schema: m.schema, example: m.example });
      schemaExamples(m.schema, `${where} ${status} ${type} schema`, out);
    }
  }
}

function allExamples(): Found[] {
  const out: Found[] = [];
  for (const [path, item] of Object.entries(doc.paths)) for (const [m, op] of Object.entries(item)) operationExamples(op, `${m.toUpperCase()} ${path}`, out);
  for (const [name, item] of Object.entries(doc.webhooks)) operationExamples(item.post, `webhook ${name}`, out);
  for (const [name, s] of Object.entries(doc.components.schemas)) schemaExamples(s, `#/components/schemas/${name}`, out);
  for (const [name, r] of Object.entries(doc.components.responses)) operationExamples({ responses: { [name]: r as Operation["responses"][string] } }, "#/components/responses", out);
  return out;
}

const operations = () =>
  Object.entries(doc.paths).flatMap(([path, item]) => Object.entries(item).map(([m, op]) => ({ method: m.toUpperCase(), path, op })));
const handlerOf = (method: string, path: string) => routeModules.find((r) => r.path === path)?.module[method] as ApiHandler | undefined;

describe("the OpenAPI document's examples", () => {
  it("every example in the document fits the schema beside it (bodies, answers, parameters, schemas, webhooks)", () => {
    const found = allExamples();
    const bad = found.map((f) => ({ ...f, errors: violations(f.schema, f.example) })).filter((f) => f.errors.length);
    expect(bad.map((b) => `${b.where}: ${b.errors.join("; ")}`)).toEqual([]);
    // The walk finds them: the ones examples.ts adds, and the schemas' own (webhook events, components).
    expect(found.length).toBeGreaterThan(100);
  });

  it("the main operations show a request and an answer", () => {
    const main = [
      "POST /v1/renders", "GET /v1/renders/{id}", "GET /v1/renders", "POST /v1/renders/batch", "GET /v1/renders/batch/{id}",
      "POST /v1/templates", "PUT /v1/templates/{id}/draft", "POST /v1/templates/{id}/versions", "POST /v1/templates/{id}/preview",
      "POST /v1/reports/render", "POST /v1/assets", "POST /v1/webhook-endpoints", "GET /v1/webhook-endpoints", "PATCH /v1/webhook-endpoints/{id}",
      "POST /v1/api-keys", "GET /v1/api-keys",
    ];
    for (const key of main) {
      const [method, path] = key.split(" ") as [string, string];
      const op = doc.paths[path]![method.toLowerCase()]!;
      if (op.requestBody) expect(op.requestBody.content["application/json"]!.example, `${key}: a request example`).toBeDefined();
      const json = Object.entries(op.responses).filter(([s, r]) => /^2/.test(s) && r.content?.["application/json"]);
      for (const [status, r] of json) expect(r.content!["application/json"]!.example, `${key} ${status}: an answer example`).toBeDefined();
      expect(examples[key], key).toBeDefined();
    }
  });
});

describe("template content", () => {
  const schemas = doc.components.schemas;
  const ref = { $ref: "#/components/schemas/TemplateContent" };

  it("is a oneOf of the kinds' content wherever a template's content is, never an untyped object", () => {
    expect(schemas.TemplateContent!.oneOf).toEqual([{ $ref: "#/components/schemas/ComponentTemplateContent" }, { $ref: "#/components/schemas/HandlebarsTemplateContent" }, { $ref: "#/components/schemas/WorkbookTemplateContent" }]);
    const slots = [
      (schemas.PostTemplatesBody!.properties as Json).content,
      (schemas.PutTemplatesByIdDraftBody!.properties as Json).content,
      (schemas.PostTemplatesByIdPreviewBody!.properties as Json).content,
      (schemas.Template!.properties as Json).draft,
      (schemas.Draft!.properties as Json).content,
      (schemas.Revision!.properties as Json).content,
      (schemas.TemplateVersion!.properties as Json).content,
    ];
    for (const slot of slots) expect(slot).toMatchObject(ref);
    expect(schemas.ComponentTemplateContent!.required).toContain("composition");
    expect(schemas.HandlebarsTemplateContent!.required).toContain("templateHtml");
  });

  it("takes each kind's content and refuses a mix, as the save does", () => {
    const component = { composition: { root: { type: "text", text: "Hello" } } };
    const handlebars = { templateHtml: "<p>{{name}}</p>", helpers: "function up(s) { return s.toUpperCase(); }" };
    expect(violations(ref, component)).toEqual([]);
    expect(violations(ref, handlebars)).toEqual([]);
    expect(violations(ref, { ...component, templateHtml: "<p></p>" })).not.toEqual([]);
    expect(violations(ref, {})).not.toEqual([]);
  });
});

describe("error answers", () => {
  const status = (op: Operation, s: string) => op.responses[s];

  it("list the statuses each route's options imply, each in the error envelope", () => {
    for (const { method, path, op } of operations()) {
      const spec = handlerOf(method, path)?.spec;
      if (!spec) continue; // the extra operations (extra.ts) list theirs by hand
      const key = `${method} ${path}`;
      for (const [s, r] of Object.entries(op.responses)) {
        if (/^[45]\d\d$|^default$/.test(s)) {
          const resolved = r.$ref ? doc.components.responses[r.$ref.split("/").pop()!]! : r;
          expect((resolved as Operation["responses"][string]).content?.["application/json"]?.schema, `${key} ${s}`).toEqual({ $ref: "#/components/schemas/Error" });
        }
      }
      expect(status(op, "default"), key).toBeDefined();
      if (spec.body) {
        expect(status(op, "413"), `${key}: a body has a limit`).toBeDefined();
        expect(status(op, "415"), `${key}: a body must be JSON`).toBeDefined();
      } else expect(status(op, "413"), key).toBeUndefined();
      if (spec.idempotency) expect(status(op, "409"), `${key}: Idempotency-Key reuse`).toBeDefined();
      if (path.includes("{")) expect(status(op, "404"), key).toBeDefined();
    }
  });

  it("name the body limit of each route (spec: Limits > Request bodies)", () => {
    const limit = (key: string) => {
      const [m, p] = key.split(" ") as [string, string];
      return (doc.paths[p]![m.toLowerCase()]!.responses["413"] as { description: string }).description;
    };
    expect(limit("POST /v1/renders")).toContain("11 MiB");
    expect(limit("POST /v1/renders/batch")).toContain("32 MiB");
    expect(limit("POST /v1/renders/string")).toContain("1,000,000 bytes");
    expect(limit("POST /v1/reports/render")).toContain("10 MiB");
    expect(limit("POST /v1/templates/{id}/preview")).toContain("30 MiB");
    expect(limit("POST /v1/webhook-endpoints")).toContain("1 MiB");
    expect(limit("POST /v1/reports/import")).toContain("30 MiB");
    expect(limit("POST /v1/reports/import/inspect")).toContain("30 MiB");
    expect(limit("POST /v1/workspace-folders/import")).toContain("60 MiB");
  });

  it("402 where renders or stored files are created, 422 and 504 where the answer waits for the file", () => {
    const statuses = (key: string) => {
      const [m, p] = key.split(" ") as [string, string];
      return Object.keys(doc.paths[p]![m.toLowerCase()]!.responses);
    };
    for (const key of ["POST /v1/renders", "POST /v1/renders/batch", "POST /v1/reports/render", "POST /v1/templates/{id}/preview", "POST /v1/assets"]) expect(statuses(key), key).toContain("402");
    for (const key of ["POST /v1/renders/string", "GET /v1/renders", "POST /v1/templates"]) expect(statuses(key), key).not.toContain("402");
    for (const key of ["POST /v1/reports/render", "POST /v1/templates/{id}/preview"]) expect(statuses(key), key).toEqual(expect.arrayContaining(["422", "504"]));
    for (const key of ["POST /v1/renders", "POST /v1/renders/batch"]) expect(statuses(key), key).not.toContain("504");
    for (const key of ["PUT /v1/templates/{id}/draft", "POST /v1/templates/{id}/versions", "POST /v1/storage-destinations", "POST /v1/webhook-endpoints", "GET /v1/renders/batch/{id}/pdf", "POST /v1/renders/{id}/cancel"]) {
      expect(statuses(key), key).toContain("409");
    }
    expect(statuses("GET /v1/renders")).not.toContain("409");
  });

  it("OPERATION_ERRORS names only operations of the document", () => {
    const keys = new Set(operations().map((o) => `${o.method} ${o.path}`));
    expect(Object.keys(OPERATION_ERRORS).filter((k) => !keys.has(k))).toEqual([]);
  });
});

describe("webhooks", () => {
  it("describe every event type an endpoint subscribes to, and the test event", () => {
    expect(Object.keys(doc.webhooks).sort()).toEqual([...webhookEventTypes, TEST_EVENT_TYPE].sort());
    for (const [name, { post }] of Object.entries(doc.webhooks)) {
      const headers = (post.parameters ?? []).filter((p) => p.in === "header" && p.required).map((p) => p.name);
      expect(headers, name).toEqual(expect.arrayContaining(["webhook-id", "webhook-timestamp", "webhook-signature"]));
      expect(post.requestBody!.content["application/json"]!.schema, name).toHaveProperty("$ref");
    }
  });

  it("the bodies lib/webhooks sends fit them, and another event type's body does not", () => {
    const body = (name: string) => doc.webhooks[name]!.post.requestBody!.content["application/json"]!.schema;
    // The stored payloads as insertDeliveriesFor builds them (jsonb_strip_nulls: errorCode only on a failure).
    const payload = (status: string, errorCode?: string) => ({
      id: "evt_4kQ9xT2mZbP7cW1nR8vLdY",
      type: `render.${status}`,
      createdAt: "2026-11-27T04:00:00.412Z",
      data: { renderId: "rnd_4kQ9xT2mZbP7cW1nR8vLdY", status, test: true, ...(errorCode ? { errorCode } : {}) },
    });
    const sent = {
      "render.succeeded": JSON.parse(eventBody(payload("succeeded"))),
      "render.failed": JSON.parse(eventBody(payload("failed", "LIMIT_EXCEEDED"))),
      "render.cancelled": JSON.parse(eventBody(payload("cancelled"))),
    };
    for (const [type, b] of Object.entries(sent)) expect(violations(body(type), b), type).toEqual([]);
    expect(violations(body("render.succeeded"), sent["render.failed"])).not.toEqual([]);
    // The test event as sendTestEvent writes it.
    const test = { id: "evt_4kQ9xT2mZbP7cW1nR8vLdY", type: TEST_EVENT_TYPE, createdAt: "2026-11-27T04:00:00.000Z", data: { endpointId: "whe_4kQ9xT2mZbP7cW1nR8vLdY", test: true } };
    expect(violations(body(TEST_EVENT_TYPE), test)).toEqual([]);
    // One schema for every event, told apart by type.
    for (const b of [...Object.values(sent), test]) expect(violations({ $ref: "#/components/schemas/WebhookEvent" }, b)).toEqual([]);
  });

  it("the headers signDelivery writes fit the header parameters (two signatures during a rotation)", () => {
    const signed = signDelivery("msg_4kQ9xT2mZbP7cW1nR8vLdY", "{}", [newWebhookSecret(), newWebhookSecret()], new Date("2026-11-27T04:00:00Z"));
    for (const { post } of Object.values(doc.webhooks)) {
      for (const p of post.parameters ?? []) {
        const value = signed[p.name as keyof typeof signed];
        expect(value, p.name).toBeDefined();
        expect(violations(p.schema, value), p.name).toEqual([]);
      }
    }
  });
});
