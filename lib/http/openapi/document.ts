import { createHash } from "node:crypto";
import { z } from "zod";
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from "zod-openapi";
import pkg from "../../../package.json";
import type { ApiHandler, RouteSpec } from "../api-route";
import { typeContent, TemplateContent } from "./content";
import { examples } from "./examples";
import { extraOperations } from "./extra";
import { WebhookEvent, webhooks } from "./webhooks";
import { errorComponents, errorResponses } from "./errors";

/** A route module of app/v1 and the path it serves, as Next.js names it (app/v1/templates/[id] is /v1/templates/{id}). */
export type RouteModule = { path: string; module: Record<string, unknown> };

export const METHODS = ["GET", "PUT", "POST", "PATCH", "DELETE"] as const;

const isApiHandler = (v: unknown): v is ApiHandler => typeof v === "function" && "spec" in v && typeof (v as ApiHandler).spec === "object";

/** getTemplatesByIdVersions: the method and the path's words, an id as "By<Name>". */
export function operationIdOf(method: string, path: string): string {
  const words = path
    .split("/")
    .slice(2)
    .map((s) => (s.startsWith("{") ? `By${cap(s.slice(1, -1))}` : s.split(/[-.]/).map(cap).join("")));
  return method.toLowerCase() + words.join("");
}
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The tag of a path: its resource, the first word after /v1 in sentence case (platform/workspaces is "Platform"). */
export function tagOf(path: string): string {
  const first = path.split("/")[2] ?? "";
  if (first === "api-keys") return "API keys";
  return cap(first.replaceAll("-", " "));
}

const AUTH_WORDS: Record<RouteSpec["auth"], string> = {
  apiKey: "Needs an API key (x-api-key).",
  apiKeyOrSession: "Needs an API key (x-api-key) or a console sign-in (its session cookie).",
  session: "Needs a person signed in to the web console (its session cookie); an API key is refused with 403 FORBIDDEN.",
  none: "Needs no credential.",
};

const SECURITY: Record<RouteSpec["auth"], Record<string, string[]>[]> = {
  apiKey: [{ ApiKey: [] }],
  apiKeyOrSession: [{ ApiKey: [] }, { ConsoleSession: [] }],
  session: [{ ConsoleSession: [] }],
  none: [],
};

/** What each resource is, for the reference's sections. */
const TAG_WORDS: Record<string, string> = {
  "API keys": "Keys programs call the API with; each has scopes. Managed by a person signed in to the console.",
  Assets: "Fonts, images, stylesheets and workbooks documents use: register, then upload the bytes to the link.",
  "Audit events": "Who did what in the workspace.",
  Instance: "What this Folio instance is, and this document.",
  MCP: "The Model Context Protocol server: the same keys and verbs as tools for AI agents.",
  Platform: "Administration of every workspace, for the platform's administrators.",
  "Render limits": "The workspace's limits and how much of each is in use.",
  Renders: "Rendering documents to PDF, PNG or JPEG, one at a time or in batches.",
  Reports: "Rendering a published template by name and answering the file at once.",
  Storage: "Signed download and upload links; the link is the whole credential.",
  "Storage destinations": "S3-compatible buckets renders upload their files to.",
  "Template versions": "Published, unchangeable versions of templates.",
  Templates: "Component and Handlebars templates: drafts, revisions, versions and previews.",
  Usage: "What the workspace rendered, by day.",
  "Webhook endpoints": "Where Folio sends signed events when renders end, and the deliveries.",
  "Webhook events": "What Folio POSTs to webhook endpoints (the document's webhooks): the event bodies and their Standard Webhooks signature headers.",
  "Workspace files": "Text files (stylesheets...) and asset-backed files templates use by path.",
  "Workspace folders": "Folders that hold templates and workspace files.",
};

const RequestIdHeader = { $ref: "#/components/headers/RequestId" };

/** Names a request body that has no id of its own (every schema in the document is named). */
const named = new Map<z.ZodType, z.ZodType>();
function withId(schema: z.ZodType, id: string): z.ZodType {
  if (schema.meta()?.id) return schema;
  let n = named.get(schema);
  if (!n) named.set(schema, (n = schema.meta({ id })));
  return n;
}

function pathParams(path: string, given?: z.ZodType): z.ZodType | undefined {
  const names = [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
  if (!names.length) return undefined;
  // The default params schema of apiRoute is any record: name each placeholder of the path as a string.
  if (given instanceof z.ZodObject) return given;
  return z.object(Object.fromEntries(names.map((n) => [n, z.string().min(1).meta({ description: `The ${n === "id" ? "resource's" : n} id` })])));
}

/** One operation of the document from an apiRoute's options. */
export function operationOf(method: string, path: string, spec: RouteSpec): ZodOpenApiOperationObject {
  const operationId = operationIdOf(method, path);
  const key = `${method} ${path}`;
  const ex = examples[key];
  const words = [spec.description, AUTH_WORDS[spec.auth], spec.scope ? `Needs the scope \`${spec.scope}\`.` : undefined];
  const op: ZodOpenApiOperationObject = {
    operationId,
    summary: spec.summary ?? key,
    description: words.filter(Boolean).join("\n\n"),
    tags: [spec.tag ?? tagOf(path)],
    security: SECURITY[spec.auth],
    "x-folio-auth": spec.auth,
    "x-folio-scopes": spec.scope ? [spec.scope] : [],
    responses: {},
  };
  const params = pathParams(path, spec.params);
  const requestParams: NonNullable<ZodOpenApiOperationObject["requestParams"]> = {};
  if (params) requestParams.path = params as never;
  if (spec.query) requestParams.query = spec.query as never;
  if (spec.idempotency) requestParams.header = z.object({ "Idempotency-Key": IdempotencyKeyHeader.optional() }) as never;
  if (Object.keys(requestParams).length) op.requestParams = requestParams;
  if (spec.body) {
    op.requestBody = {
      required: true,
      content: { "application/json": { schema: withId(spec.body, `${cap(operationId)}Body`), ...(ex?.request ? { example: ex.request } : {}) } },
    };
  }
  for (const [status, answer] of Object.entries(spec.responses ?? {})) {
    const example = ex?.responses?.[Number(status)];
    op.responses[status as "200"] =
      answer instanceof z.ZodType
        ? {
            description: answer.meta()?.description ?? `${status} ${statusWords(Number(status))}`,
            headers: { "x-request-id": RequestIdHeader },
            content: { "application/json": { schema: answer, ...(example !== undefined ? { example } : {}) } },
          }
        : {
            description: answer.description,
            headers: { "x-request-id": RequestIdHeader },
            content: Object.fromEntries([answer.contentType].flat().map((t) => [t, { schema: { type: "string", contentMediaType: t } }])),
          };
  }
  Object.assign(op.responses, errorResponses(method, path, spec));
  return op;
}

const statusWords = (s: number) => ({ 200: "OK", 201: "Created", 202: "Accepted", 204: "No Content" })[s] ?? "";

const IdempotencyKeyHeader = z.string().min(1).max(255).meta({
  description: "Makes a retry of the same request answer the first one's result instead of doing it twice (spec: Idempotency).",
  example: "order-4711-invoice",
});

export type OpenApiDocument = ReturnType<typeof createDocument>;

/** The OpenAPI 3.1 document of /v1, from the apiRoute options of every route module given. */
export function buildDocument(routes: RouteModule[], publicUrl: string): OpenApiDocument {
  const paths: ZodOpenApiPathsObject = {};
  for (const { path, module } of [...routes].sort((a, b) => a.path.localeCompare(b.path))) {
    for (const method of METHODS) {
      const handler = module[method];
      if (!isApiHandler(handler)) continue;
      (paths[path] ??= {})[method.toLowerCase() as "get"] = operationOf(method, path, handler.spec);
    }
  }
  for (const [key, op] of Object.entries(extraOperations)) {
    const [method, path] = key.split(" ") as [string, string];
    (paths[path] ??= {})[method.toLowerCase() as "get"] = op;
  }
  const tags = [...new Set([...Object.values(paths), ...Object.values(webhooks)].flatMap((item) => Object.values(item as Record<string, { tags?: string[] }>).flatMap((o) => o.tags ?? [])))].sort();
  return createDocument(
    {
      openapi: "3.1.0",
      info: {
        title: "Folio API",
        version: pkg.version,
        description:
          "Folio renders documents (PDF, PNG, JPEG) from HTML, templates and data. Every answer carries an `x-request-id` header; every error answers the envelope `Error`. " +
          "`x-folio-auth` says which credential an operation takes, `x-folio-scopes` the scopes an API key needs for it (verbs may need more, said in the description).",
      },
      servers: [{ url: publicUrl.replace(/\/$/, ""), description: "This Folio instance" }],
      tags: tags.map((name) => ({ name, ...(TAG_WORDS[name] ? { description: TAG_WORDS[name] } : {}) })),
      paths,
      webhooks,
      components: {
        schemas: { TemplateContent, WebhookEvent },
        securitySchemes: {
          ApiKey: { type: "apiKey", in: "header", name: "x-api-key", description: "A workspace's API key; its scopes decide what it may do." },
          ConsoleSession: {
            type: "apiKey",
            in: "cookie",
            // why these names: next-auth v4's session cookie, as the sign-in at /api/auth sets it (useSecureCookies follows PUBLIC_URL's scheme).
            name: "next-auth.session-token",
            description:
              "A person signed in to the web console at /sign-in (its role decides the scopes). The cookie is next-auth.session-token; " +
              "where Folio's PUBLIC_URL is https, it is __Secure-next-auth.session-token instead.",
          },
        },
        headers: {
          RequestId: { description: "The request's id (the caller's x-request-id when well formed); quote it when reporting a problem.", schema: { type: "string" } },
          RetryAfter: { description: "Seconds to wait before retrying.", schema: { type: "integer", minimum: 0 } },
        },
        responses: errorComponents,
      },
    },
    {
      outputIdSuffix: "Output",
      // why: zod writes a long regular expression beside format date-time; the format says it, and readers of the reference need no regex.
      override: (ctx) => {
        if (ctx.jsonSchema.format === "date-time") delete ctx.jsonSchema.pattern;
        typeContent(ctx);
      },
    },
  ) as OpenApiDocument;
}

/** The document as served: built once per process, with its ETag. */
let served: { json: string; etag: string } | undefined;
export function servedDocument(build: () => OpenApiDocument): { json: string; etag: string } {
  if (!served) {
    const json = JSON.stringify(build());
    served = { json, etag: `"${createHash("sha256").update(json).digest("base64url").slice(0, 27)}"` };
  }
  return served;
}

