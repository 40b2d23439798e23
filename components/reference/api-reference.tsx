// The console's API reference: the OpenAPI document the server serves at GET /v1/openapi.json,
// read as a page: operations by tag, each with its credential, scopes, parameters, body and
// answers, the webhook events Folio sends (the document's `webhooks`) among them; then every named
// schema. Server-rendered, no script of its own.
import { Badge } from "@/components/ui/badge";
import { SchemaView, schemaAnchor, TypeLabel, type JsonSchema } from "./schema-view";

type Parameter = { name: string; in: string; required?: boolean; description?: string; schema?: JsonSchema };
type Content = Record<string, { schema?: JsonSchema; example?: unknown }>;
type ResponseObject = { $ref?: string; description?: string; content?: Content };
export type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Content };
  responses?: Record<string, ResponseObject>;
  "x-folio-auth"?: string;
  "x-folio-scopes"?: string[];
};
export type OpenApiDocument = {
  info: { title: string; version: string; description?: string };
  paths: Record<string, Record<string, Operation>>;
  /** OpenAPI 3.1 webhooks: what Folio POSTs to a workspace's endpoints, by event name. */
  webhooks?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, JsonSchema>; responses?: Record<string, ResponseObject> };
};

const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const methodTone: Record<string, string> = {
  get: "bg-sky-50 text-sky-800 ring-sky-200",
  post: "bg-emerald-50 text-emerald-800 ring-emerald-200",
  put: "bg-amber-50 text-amber-900 ring-amber-200",
  patch: "bg-amber-50 text-amber-900 ring-amber-200",
  delete: "bg-red-50 text-red-800 ring-red-200",
};

export const tagAnchor = (tag: string) => `tag-${tag.toLowerCase().replace(/[^a-z0-9]+/g, "-")}`;
const operationAnchor = (method: string, path: string, op: Operation) => op.operationId ?? `${method}-${path.replace(/[^a-zA-Z0-9]+/g, "-")}`;

const authWords: Record<string, string> = {
  apiKey: "API key",
  apiKeyOrSession: "API key or console sign-in",
  session: "console sign-in only",
  none: "no credential",
};

/** One operation as the page lists it; `webhook`: an event Folio sends, named by `path`. */
type Listed = { method: string; path: string; op: Operation; webhook?: boolean };

/** Operations and webhook events grouped by their first tag, tags sorted by name. */
export function operationsByTag(doc: OpenApiDocument): [string, Listed[]][] {
  const groups = new Map<string, Listed[]>();
  const add = (items: Record<string, Record<string, Operation>>, webhook: boolean) => {
    for (const [path, item] of Object.entries(items)) {
      for (const method of METHODS) {
        const op = item[method];
        if (!op) continue;
        const tag = op.tags?.[0] ?? "Other";
        groups.set(tag, [...(groups.get(tag) ?? []), { method, path, op, ...(webhook ? { webhook } : {}) }]);
      }
    }
  };
  add(doc.paths, false);
  add(doc.webhooks ?? {}, true);
  return [...groups].sort(([a], [b]) => a.localeCompare(b));
}

function Paragraphs({ text }: { text?: string }) {
  if (!text) return null;
  return (
    <div className="space-y-2 text-sm text-gray-700">
      {text.split(/\n\s*\n/).map((p, i) => (
        <p key={i} className="break-words whitespace-pre-line">
          {p.replace(/`([^`]+)`/g, "$1")}
        </p>
      ))}
    </div>
  );
}

function resolveResponse(doc: OpenApiDocument, r: ResponseObject): ResponseObject {
  if (!r.$ref) return r;
  return doc.components?.responses?.[r.$ref.split("/").pop() ?? ""] ?? r;
}

function OperationView({ doc, method, path, op, webhook }: { doc: OpenApiDocument } & Listed) {
  const body = op.requestBody?.content?.["application/json"]?.schema;
  const params = op.parameters ?? [];
  const answers = Object.entries(op.responses ?? {});
  return (
    <section id={operationAnchor(method, path, op)} aria-labelledby={`${operationAnchor(method, path, op)}-title`} className="scroll-mt-20 rounded-lg border border-gray-200 bg-white p-4 sm:p-5">
      <h3 id={`${operationAnchor(method, path, op)}-title`} className="flex flex-wrap items-center gap-2 text-base font-semibold text-gray-900">
        <span className={`rounded px-1.5 py-0.5 font-mono text-xs uppercase ring-1 ring-inset ${methodTone[method] ?? ""}`}>{method}</span>
        <code className="font-mono text-sm break-all">{path}</code>
        {webhook && <span className="text-sm font-normal text-gray-600">event Folio sends to your endpoint</span>}
      </h3>
      {op.summary && <p className="mt-1 text-sm font-medium text-gray-800">{op.summary}</p>}
      <div className="mt-2 flex flex-wrap gap-2">
        {op["x-folio-auth"] && <Badge tone="neutral">{authWords[op["x-folio-auth"]] ?? op["x-folio-auth"]}</Badge>}
        {(op["x-folio-scopes"] ?? []).map((s) => (
          <Badge key={s} tone="accent">
            {s}
          </Badge>
        ))}
      </div>
      <div className="mt-3">
        <Paragraphs text={op.description} />
      </div>
      {params.length > 0 && (
        <div className="mt-4">
          <h4 className="mb-1 text-sm font-semibold text-gray-900">Parameters</h4>
          <ul className="space-y-1 text-sm">
            {params.map((p) => (
              <li key={`${p.in}-${p.name}`} className="break-words text-gray-700">
                <code className="font-mono text-xs text-gray-900">{p.name}</code> <span className="text-xs text-gray-600">({p.in}{p.required ? ", required" : ""})</span>: <TypeLabel schema={p.schema} />
                {(p.description ?? p.schema?.description) && <span> · {p.description ?? p.schema?.description}</span>}
              </li>
            ))}
          </ul>
        </div>
      )}
      {body && (
        <div className="mt-4">
          <h4 className="mb-1 text-sm font-semibold text-gray-900">Body</h4>
          <SchemaView schema={body.$ref ? (doc.components?.schemas?.[body.$ref.split("/").pop() ?? ""] ?? body) : body} />
        </div>
      )}
      <div className="mt-4">
        <h4 className="mb-1 text-sm font-semibold text-gray-900">Answers</h4>
        <ul className="space-y-1 text-sm">
          {answers.map(([status, raw]) => {
            const r = resolveResponse(doc, raw);
            const schema = r.content?.["application/json"]?.schema;
            return (
              <li key={status} className="break-words text-gray-700">
                <span className="font-mono text-xs font-semibold text-gray-900">{status}</span> {r.description?.startsWith(`${status} `) ? r.description.slice(status.length + 1) : r.description}
                {schema && (
                  <>
                    {" "}
                    · <TypeLabel schema={schema} />
                  </>
                )}
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}

export function ApiReference({ doc }: { doc: OpenApiDocument }) {
  const groups = operationsByTag(doc);
  const schemas = Object.entries(doc.components?.schemas ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div className="lg:grid lg:grid-cols-[12rem_minmax(0,1fr)] lg:gap-8">
      <nav aria-label="Resources" className="mb-6 lg:sticky lg:top-4 lg:mb-0 lg:self-start">
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm lg:block lg:space-y-1">
          {groups.map(([tag]) => (
            <li key={tag}>
              <a href={`#${tagAnchor(tag)}`} className="text-accent hover:underline">
                {tag}
              </a>
            </li>
          ))}
          <li>
            <a href="#schemas" className="text-accent hover:underline">
              Schemas
            </a>
          </li>
        </ul>
      </nav>
      <div className="min-w-0 space-y-10">
        {groups.map(([tag, ops]) => (
          <section key={tag} id={tagAnchor(tag)} aria-labelledby={`${tagAnchor(tag)}-title`} className="scroll-mt-20 space-y-4">
            <h2 id={`${tagAnchor(tag)}-title`} className="text-lg font-semibold text-gray-900">
              {tag}
            </h2>
            {ops.map((o) => (
              <OperationView key={`${o.webhook ? "webhook" : o.method} ${o.path}`} doc={doc} {...o} />
            ))}
          </section>
        ))}
        <section id="schemas" aria-labelledby="schemas-title" className="scroll-mt-20 space-y-4">
          <h2 id="schemas-title" className="text-lg font-semibold text-gray-900">
            Schemas
          </h2>
          {schemas.map(([name, schema]) => (
            <section key={name} id={schemaAnchor(name)} aria-label={name} className="scroll-mt-20 rounded-lg border border-gray-200 bg-white p-4">
              <h3 className="mb-2 font-mono text-sm font-semibold break-all text-gray-900">{name}</h3>
              {schema.description && <p className="mb-2 text-sm text-gray-700">{schema.description}</p>}
              <SchemaView schema={schema} />
            </section>
          ))}
        </section>
      </div>
    </div>
  );
}
