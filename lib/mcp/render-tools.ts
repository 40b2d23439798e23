import { Readable } from "node:stream";
import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import { requireScope, type Ctx } from "../auth/context";
import * as batches from "../batches";
import type { RenderRow } from "../db/schema";
import { JsonObject } from "../documents/page-settings";
import { AppError, isAppError, notFound } from "../errors";
import { fileStore } from "../files/store";
import * as renders from "../renders";
import * as templates from "../templates";
import { exactlyOne, TemplateTarget } from "./template-tools";
import { runTool, toolResult } from "./results";

/**
 * How long a render tool waits for its render by default, and at most. why 50 s and not POST
 * /v1/renders' 60 s: MCP clients give up on a request after 60 s by default (the SDK's
 * DEFAULT_REQUEST_TIMEOUT_MSEC), so the answer must come before that, render or not.
 */
export const DEFAULT_WAIT_SECONDS = 30;
export const MAX_WAIT_SECONDS = 50;

const WaitSeconds = z
  .number()
  .int()
  .min(0)
  .max(MAX_WAIT_SECONDS)
  .default(DEFAULT_WAIT_SECONDS)
  .describe(`How long to wait for the render to end, in seconds (0 to ${MAX_WAIT_SECONDS}); a render still running then is returned as it is: ask get_render later`);

/** One render as a tool takes it: a template by name or version id with data, or caller HTML. */
const RenderItem = {
  template: templates.TemplateName.optional().describe("A template's name: renders its newest published version"),
  templateVersionId: z.string().min(1).max(128).optional().describe("A published version's id (tv_...)"),
  html: z.string().min(1).max(5_000_000).optional().describe("Your own HTML document to render instead of a template (scripts run; no network)"),
  data: JsonObject.optional().describe("The template's data (a JSON object); check_data says whether it fits"),
  settings: JsonObject.optional().describe("Page settings for html: pageSize {widthMm, heightMm}, margins {topMm, rightMm, bottomMm, leftMm}, locale, title, ..."),
  format: z.enum(["pdf", "png", "jpeg"]).default("pdf"),
  test: z.boolean().default(false).describe("A watermarked test render, counted against the test-render allowance instead of monthly documents"),
};
type RenderItem = { template?: string; templateVersionId?: string; html?: string; data?: Record<string, unknown>; settings?: Record<string, unknown>; format: "pdf" | "png" | "jpeg"; test: boolean };

/**
 * A tool's render as the body POST /v1/renders takes (validated by the verb's own schema): a name
 * becomes its newest published version's id (template:read, as the Reports API asks to render by name).
 */
async function renderBody(ctx: Ctx, item: RenderItem): Promise<Record<string, unknown>> {
  const source = exactlyOne(item, ["template", "templateVersionId", "html"]);
  const common = { format: item.format, test: item.test };
  if (source === "html") {
    if (item.data !== undefined) throw new AppError("BAD_REQUEST", "data: goes with a template; put values into the html itself", { details: [{ path: "data", message: "goes with a template" }] });
    return { ...common, document: { html: item.html, ...(item.settings ? { settings: item.settings } : {}) } };
  }
  if (item.settings !== undefined) throw new AppError("BAD_REQUEST", "settings: goes with html; a template has its own page settings", { details: [{ path: "settings", message: "goes with html" }] });
  const templateVersionId = source === "template" ? (await templates.getNewestVersionByName(ctx, item.template!)).id : item.templateVersionId;
  return { ...common, templateVersionId, data: item.data ?? {} };
}

/** What a model should read first about a render: its state and what to do next. */
function describe(r: renders.Render): string {
  switch (r.state) {
    case "succeeded":
      return r.result?.downloadUrl
        ? `Render ${r.id} succeeded (${r.result.pageCount} page${r.result.pageCount === 1 ? "" : "s"}). Download link (valid until ${r.result.expiresAt}; get_render gives a fresh one): ${r.result.downloadUrl}`
        : `Render ${r.id} succeeded; no copy was kept.`;
    case "failed":
      return `Render ${r.id} failed: ${r.error?.code} (${r.error?.diagnostic}): ${r.error?.message}`;
    case "cancelled":
      return `Render ${r.id} was cancelled.`;
    default:
      return `Render ${r.id} is still ${r.state}; call get_render with renderId ${r.id} to follow it.`;
  }
}

/**
 * The render tools' structured output: the render as the API answers it (lib/renders Render),
 * every field, so a client that reads the output schema knows result.downloadUrl, error and the
 * rest. why a copy of the shape: Render carries the document's id, and a schema with an id becomes
 * a bare $ref to $defs in the tool's JSON Schema, which some hosts do not follow.
 */
const RenderOutput = z.object(renders.Render.shape);
const BatchOutput = z.object(batches.BatchSummary.shape);

async function fileBytes(row: RenderRow): Promise<Buffer> {
  const file = row.fileKey ? await fileStore().get(row.fileKey) : null;
  if (!file) throw notFound("file for render", row.id);
  if (!(file.body instanceof Readable)) return Buffer.from(file.body);
  const chunks: Buffer[] = [];
  for await (const c of file.body) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

export function registerRenderTools(server: McpServer, ctx: Ctx) {
  server.registerTool(
    "render",
    {
      title: "Render a document",
      description:
        "Renders a PDF (or png/jpeg) from a published template (template = its name, or templateVersionId) with data, or from your own html. " +
        "Waits for the render to end (waitSeconds, default 30) and returns the render with a download link valid five minutes; a render still running is returned as it is (call get_render). " +
        "Needs render:create (and template:read to name a template). Counts as POST /v1/renders does.",
      inputSchema: z.object({ ...RenderItem, waitSeconds: WaitSeconds }),
      outputSchema: RenderOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    runTool(ctx, async ({ waitSeconds, ...item }) => {
      requireScope(ctx, "render:create");
      const input = renders.CreateRenderInput.parse(await renderBody(ctx, item));
      const { render } = await renders.createRender(ctx, renders.renderRequest(ctx, input), undefined, waitSeconds * 1000);
      const r = renders.toRender(render);
      return toolResult(r, describe(r));
    }),
  );

  server.registerTool(
    "get_render",
    {
      title: "Get a render",
      description: "A render's state and, once it succeeded, a fresh download link (valid five minutes); a failed render's error says why. Needs render:read.",
      inputSchema: z.object({ renderId: z.string().min(1).max(128).describe("The render's id (rnd_...)") }),
      outputSchema: RenderOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    runTool(ctx, async ({ renderId }) => {
      const r = await renders.getRender(ctx, renderId);
      return toolResult(r, describe(r));
    }),
  );

  server.registerTool(
    "list_renders",
    {
      title: "List renders",
      description: "The workspace's renders, newest first, optionally only one state, one batch's items, or test renders. Needs render:read.",
      inputSchema: z.object({
        state: z.enum(["queued", "processing", "succeeded", "failed", "cancelled"]).optional(),
        batchId: z.string().min(1).max(128).optional(),
        test: z.boolean().optional(),
        limit: z.number().int().min(1).max(100).default(25),
        cursor: z.string().min(1).max(512).optional().describe("nextCursor of the previous page"),
      }),
      outputSchema: z.object({ items: z.array(RenderOutput), nextCursor: z.string().optional().describe("Pass as cursor for the next page; absent on the last page") }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    runTool(ctx, async ({ test, ...rest }) => {
      const query = renders.RenderListQuery.parse({ ...stripUndefined(rest), ...(test === undefined ? {} : { test: String(test) }) });
      return toolResult(await renders.listRenders(ctx, query));
    }),
  );

  server.registerTool(
    "preview",
    {
      title: "Preview a page as an image",
      description:
        "Renders one page of a template with data as a PNG image you can look at: templateId renders the current draft, template (name) or templateVersionId a published version. " +
        "Always a watermarked test render (counted against the test-render allowance, never against monthly documents). Needs render:create and template:read.",
      inputSchema: z.object({
        ...TemplateTarget,
        data: JsonObject.optional().describe("The template's data (a JSON object)"),
        page: z.number().int().min(1).max(10_000).default(1),
        scale: z.number().min(0.5).max(2).default(1).describe("1 is 96 pixels per inch"),
        waitSeconds: WaitSeconds,
      }),
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: false },
    },
    runTool(ctx, async ({ data, page, scale, waitSeconds, ...target }) => {
      requireScope(ctx, "render:create", "preview templates");
      requireScope(ctx, "template:read", "preview templates");
      const source = exactlyOne(target, ["template", "templateId", "templateVersionId"]);
      const common = { format: "png", image: { page, scale }, test: true };
      const body =
        source === "templateId"
          ? { ...common, preview: { templateId: target.templateId, data: data ?? {} } }
          : { ...common, templateVersionId: source === "template" ? (await templates.getNewestVersionByName(ctx, target.template!)).id : target.templateVersionId, data: data ?? {} };
      const input = renders.CreateRenderInput.parse(body);
      const { render } = await renders.createRender(ctx, renders.renderRequest(ctx, input), undefined, waitSeconds * 1000);
      const r = renders.toRender(render);
      if (r.state === "queued" || r.state === "processing") {
        throw new AppError("RENDER_TIMEOUT", `The preview ${r.id} was not ready within ${waitSeconds} s; it continues: get_render with renderId ${r.id} gives its download link later`, { renderId: r.id });
      }
      if (r.state !== "succeeded") throw new AppError("RENDER_FAILED", describe(r), { renderId: r.id });
      const png = await fileBytes(render);
      return {
        content: [
          { type: "image", data: png.toString("base64"), mimeType: "image/png" },
          { type: "text", text: `Page ${page} of ${r.result?.pageCount ?? "?"} (test render ${r.id}, watermarked TEST).` },
        ],
      };
    }),
  );

  server.registerTool(
    "create_batch",
    {
      title: "Create a batch of renders",
      description:
        "Creates up to 100 renders at once, all or none (each item as render takes it: template or templateVersionId with data, or html). " +
        "Returns the batch summary at once without waiting; follow it with get_batch, and each item's file with get_render. Needs render:create.",
      inputSchema: z.object({ items: z.array(z.object(RenderItem)).min(1).max(100) }),
      outputSchema: BatchOutput,
      annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
    },
    runTool(ctx, async ({ items }) => {
      requireScope(ctx, "render:create");
      const bodies: Record<string, unknown>[] = [];
      for (const [i, item] of items.entries()) bodies.push(await renderBody(ctx, item).catch((err: unknown) => Promise.reject(itemError(i, err))));
      const { summary } = await batches.createBatch(ctx, bodies, undefined);
      return toolResult(summary, `Batch ${summary.id} created with ${summary.total} render${summary.total === 1 ? "" : "s"}; get_batch with batchId ${summary.id} follows it.`);
    }),
  );

  server.registerTool(
    "get_batch",
    {
      title: "Get a batch",
      description: "A batch's summary: how many items are queued, processing, succeeded, failed or cancelled, and each item's render id and state. Needs render:read.",
      inputSchema: z.object({ batchId: z.string().min(1).max(128).describe("The batch's id (bat_...)") }),
      outputSchema: BatchOutput,
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    runTool(ctx, async ({ batchId }) => toolResult(await batches.getBatch(ctx, batchId))),
  );
}

/** decisions.md: Response conventions: errors about one batch item start with "Batch item N:". */
function itemError(index: number, err: unknown): unknown {
  if (!isAppError(err)) return err;
  return new AppError(err.code, `Batch item ${index}: ${err.message}`, {
    status: err.status,
    details: err.details?.map((d) => ({ ...d, path: d.path ? `items.${index}.${d.path}` : `items.${index}` })),
  });
}

function stripUndefined<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
