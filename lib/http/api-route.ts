import type { Logger } from "pino";
import { z } from "zod";
import { requireScope, type Ctx, type Effect } from "../auth/context";
import type { Scope } from "../auth/scopes";
import { sessionCtx } from "../sessions";
import { AppError, forbidden, fromZodError, unauthorized } from "../errors";
import { IdempotencyKey } from "../idempotency";
import { authenticateKey } from "../keys";
import { hasBody, MiB, readJsonBody } from "./body";
import { Reply } from "./reply";
import { beginRequest, countApiRequest, errorAnswer, logRequest } from "./steps";
import { runAsTenant } from "../processes/tenant";

type Auth = "apiKey" | "session" | "apiKeyOrSession" | "none";

type Options<A extends Auth, B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> = {
  /** Who may call: default apiKey. "session" refuses API keys with 403 (console-only actions). */
  auth?: A;
  /** The base scope; verbs add the scopes that depend on the body. */
  scope?: Scope;
  body?: B;
  query?: Q;
  params?: P;
  /** Largest body in bytes (spec: Limits > Request bodies); default 1 MiB. */
  bodyLimit?: number;
  /** Reads the Idempotency-Key header. */
  idempotency?: boolean;
  /**
   * What the route does, for the suspension rule (lib/auth/context.ts): by default GET and HEAD
   * "read" and every other method "change"s the workspace.
   */
  effect?: Effect;
  /** The OpenAPI document's words for the operation (lib/http/openapi): a one-line summary and a description. */
  summary?: string;
  description?: string;
  /** The resource the operation belongs to: its tag in the document. */
  tag?: string;
  /**
   * What the operation answers on success, by status: a zod schema of the JSON body, or a
   * description of a non-JSON answer (a file). Read only by the document's generator and the tests.
   * why not validated here: the answer is built by our own code, and the hot path stays free of it.
   */
  responses?: Responses;
};

/** A success answer: the zod schema of its JSON body, or a non-JSON answer (content type and words). */
export type Responses = Record<number, z.ZodType | { contentType: string | string[]; description: string }>;

/** The options an apiRoute handler was made with, kept on it for the OpenAPI generator (lib/http/openapi). */
export type RouteSpec = Omit<Options<Auth, z.ZodType, z.ZodType, z.ZodType>, "body" | "query" | "params"> & {
  auth: Auth;
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
};

export type ApiHandler = ((req: Request, routeCtx?: RouteContext) => Promise<Response>) & { readonly spec: RouteSpec };

type Input<A extends Auth, B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> = {
  ctx: A extends "none" ? undefined : Ctx;
  body: z.output<B>;
  query: z.output<Q>;
  params: z.output<P>;
  req: Request;
  requestId: string;
  idempotencyKey?: string;
  log: Logger;
};

type RouteContext = { params: Promise<Record<string, string | string[]>> };

const NoBody = z.strictObject({});
const NoQuery = z.strictObject({});
const AnyParams = z.record(z.string(), z.string());

/**
 * The one wrapper of every /v1 route handler. Steps, in order: request id, rate limit,
 * authentication (with a suspended workspace's refusal), base scope, content type and body limit
 * (before reading), JSON parse, strict zod parse of body, query and params, the call, the JSON
 * answer. Any thrown error becomes the envelope.
 */
export function apiRoute<
  A extends Auth = "apiKey",
  B extends z.ZodType = typeof NoBody,
  Q extends z.ZodType = typeof NoQuery,
  P extends z.ZodType = typeof AnyParams,
>(options: Options<A, B, Q, P>, handler: (input: Input<A, B, Q, P>) => Promise<unknown> | unknown): ApiHandler {
  const serve = async (req: Request, routeCtx?: RouteContext): Promise<Response> => {
    const x = beginRequest(req.headers.get("x-request-id"));
    const url = new URL(req.url);
    let response: Response;
    try {
      await countApiRequest(req.headers);
      const effect = options.effect ?? (req.method === "GET" || req.method === "HEAD" ? "read" : "change");
      const ctx = await authenticate(req, options.auth ?? "apiKey", x.requestId, effect);
      if (options.scope && ctx) requireScope(ctx, options.scope);
      const body = (await parseBody(req, options.body ?? NoBody, options.bodyLimit ?? MiB)) as z.output<B>;
      const query = parseWith(options.query ?? NoQuery, queryObject(url), ["query"]) as z.output<Q>;
      const params = parseWith(options.params ?? AnyParams, (await routeCtx?.params) ?? {}, ["params"]) as z.output<P>;
      const idempotencyKey = options.idempotency ? idempotencyKeyOf(req) : undefined;
      const call = () => handler({
        ctx: ctx as Input<A, B, Q, P>["ctx"],
        body,
        query,
        params,
        req,
        requestId: x.requestId,
        idempotencyKey,
        log: x.log,
      });
      // Contained jobs of the call (sandbox steps, helpers) take the workspace's fair turns.
      const result = await (ctx ? runAsTenant(ctx.workspaceId, call) : call());
      response = toResponse(result);
    } catch (err) {
      response = errorAnswer(x, err);
    }
    response.headers.set("x-request-id", x.requestId);
    logRequest(x, req.method, url.pathname, response.status);
    return response;
  };
  return Object.assign(serve, { spec: { ...options, auth: options.auth ?? "apiKey" } as RouteSpec });
}

async function authenticate(req: Request, auth: Auth, requestId: string, effect: Effect): Promise<Ctx | undefined> {
  if (auth === "none") return undefined;
  const key = req.headers.get("x-api-key");
  if (auth === "session") {
    if (key !== null) throw forbidden("This action needs a person signed in to the web console; API keys cannot perform it");
    const ctx = await sessionCtx(req, requestId, effect);
    if (!ctx) throw unauthorized("Sign in to the web console to perform this action");
    return ctx;
  }
  if (key === null && auth === "apiKeyOrSession") {
    const ctx = await sessionCtx(req, requestId, effect);
    if (ctx) return ctx;
  }
  const p = await authenticateKey(key);
  return { workspaceId: p.workspaceId, actor: { type: "apiKey", keyId: p.keyId, scopes: p.scopes }, requestId };
}

async function parseBody<B extends z.ZodType>(req: Request, schema: B, limit: number): Promise<z.output<B>> {
  if (schema === (NoBody as z.ZodType) && !hasBody(req)) return {} as z.output<B>;
  return parseWith(schema, await readJsonBody(req, limit), []);
}

function parseWith<S extends z.ZodType>(schema: S, value: unknown, prefix: string[]): z.output<S> {
  const r = schema.safeParse(value);
  if (!r.success) throw fromZodError(r.error, prefix);
  return r.data;
}

function queryObject(url: URL): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) {
    if (Object.hasOwn(out, k)) {
      throw new AppError("BAD_REQUEST", `query.${k}: given more than once`, { details: [{ path: `query.${k}`, message: "given more than once" }] });
    }
    out[k] = v;
  }
  return out;
}

function idempotencyKeyOf(req: Request): string | undefined {
  const v = req.headers.get("idempotency-key");
  if (v === null) return undefined;
  const r = IdempotencyKey.safeParse(v);
  if (!r.success) {
    throw new AppError("BAD_REQUEST", `Idempotency-Key ${r.error.issues[0]?.message}`, {
      details: [{ path: "headers.idempotency-key", message: r.error.issues[0]?.message ?? "invalid" }],
    });
  }
  return v;
}

function toResponse(result: unknown): Response {
  if (result instanceof Response) return result;
  if (result instanceof Reply) return Response.json(result.body, { status: result.status, headers: result.headers });
  return Response.json(result ?? {}, { status: 200 });
}
