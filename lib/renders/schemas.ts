import { z } from "zod";
import { renderFormats, renderStates } from "../db/schema";
import { PageQuery, pageOf } from "../paging";
import { RenderDestinationInput } from "../destinations/schemas";
import { NodeDocument } from "../templates/schema";
import { CallerDocument } from "../documents/caller-document";
import { JsonObject, Locale } from "../documents/page-settings";

/** "1-3,5": page numbers from 1, each range ascending. */
export const PageRanges = z
  .string()
  .max(1000)
  .regex(/^\s*\d+\s*(-\s*\d+\s*)?(,\s*\d+\s*(-\s*\d+\s*)?)*$/, "must look like 1-3,5")
  .refine(
    (s) =>
      s.split(",").every((part) => {
        const [a, b] = part.split("-").map((x) => Number(x.trim()));
        return a! >= 1 && (b === undefined || b >= a!);
      }),
    "page numbers start at 1 and each range must ascend",
  );

/** decisions.md: Renders > preview: the template's current draft with data; needs template:read. */
export const PreviewSource = z.strictObject({
  templateId: z.string().min(1).max(128),
  data: JsonObject.optional(),
  locale: Locale.optional(),
});

/** The four sources of POST /v1/renders; exactly one is sent. */
export const renderSourceFields = ["document", "templateVersionId", "preview", "nodeDocument"] as const;

/** Which page an image shows (from 1) and at what scale (1 is 96 pixels per inch). */
export const ImageOptions = z.strictObject({
  page: z.number().int().min(1).max(10_000).default(1),
  scale: z.number().min(0.5).max(4).default(1),
});

/** The fields of a render request, before the rules that join them (renderInputRules). */
const renderFields = {
  document: CallerDocument.optional(),
  templateVersionId: z.string().min(1).max(128).optional(),
  data: JsonObject.optional(),
  preview: PreviewSource.optional(),
  nodeDocument: NodeDocument.optional(),
  format: z.enum(renderFormats).default("pdf"),
  image: ImageOptions.optional(),
  pageRanges: PageRanges.optional(),
  /** spec: Render destination: a saved storage destination to upload the file to. */
  destination: RenderDestinationInput.optional(),
  waitMs: z.number().int().min(0).max(60_000).default(0),
  test: z.boolean().default(false),
};

type RenderFieldsOutput = z.infer<z.ZodObject<Omit<typeof renderFields, "waitMs">>>;

/** The rules between a render request's fields: exactly one source, and options that fit it. */
function renderInputRules(r: RenderFieldsOutput, ctx: z.RefinementCtx) {
  const sent = renderSourceFields.filter((f) => r[f] !== undefined);
  if (sent.length !== 1) {
    ctx.addIssue({
      code: "custom",
      // Nothing sent: name document, the source most requests carry.
      path: sent.length ? [sent[1]!] : ["document"],
      message: `send exactly one of ${renderSourceFields.join(", ")}${sent.length ? ` (got ${sent.join(" and ")})` : ""}`,
    });
  }
  if (r.data !== undefined && r.templateVersionId === undefined) ctx.addIssue({ code: "custom", path: ["data"], message: "goes with templateVersionId; a preview takes preview.data" });
  // spec: Render destination: previews take no destination.
  if (r.destination && r.preview) ctx.addIssue({ code: "custom", path: ["destination"], message: "is not taken by previews; render a published template version instead" });
  if (r.image && r.format === "pdf") ctx.addIssue({ code: "custom", path: ["image"], message: "applies only to png and jpeg output" });
  if (r.pageRanges && r.format !== "pdf") ctx.addIssue({ code: "custom", path: ["pageRanges"], message: "applies only to pdf output; images take image.page" });
}

export const CreateRenderInput = z.strictObject(renderFields).superRefine(renderInputRules);

/**
 * The console's render of a published version (the version list's "Render…" dialog): the fields of
 * POST /v1/renders with templateVersionId that the dialog offers; the rest take the API's defaults.
 */
export const RenderVersionInput = z.strictObject({
  templateVersionId: z.string().min(1).max(128),
  data: JsonObject.default({}),
  format: z.enum(renderFormats).default("pdf"),
  test: z.boolean().default(false),
});
export type RenderVersionInput = z.infer<typeof RenderVersionInput>;
export type CreateRenderInput = z.infer<typeof CreateRenderInput>;

/**
 * GET /v1/renders/{id} and GET /v1/renders/batch/{id}: `waitMs` (0 to 60,000, as POST /v1/renders
 * takes it) holds the answer until the render (every item of the batch) has ended or the time is
 * up, woken by the render's end, so clients wait without polling (docs/api.md, Waiting for a render).
 */
export const WaitQuery = z.strictObject({
  waitMs: z.coerce.number({ error: "must be a whole number of milliseconds" }).int().min(0).max(60_000).default(0),
});
export type WaitQuery = z.infer<typeof WaitQuery>;

/** spec: POST /v1/renders/batch: each item is anything a single render request takes except waitMs. */
const { waitMs: _waitMs, ...itemFields } = renderFields;
export const BatchItemInput = z.strictObject(itemFields).superRefine(renderInputRules);
export type BatchItemInput = z.infer<typeof BatchItemInput>;

/** Where a render's document came from (lib/templates/prepared-source.ts). */
export const renderSources = ["document", "templateVersion", "preview", "editorPreview", "nodeDocument", "report"] as const;

/** GET /v1/renders: a page, optionally only renders in one state and of one kind (test or not). */
export const RenderListQuery = PageQuery.extend({
  state: z.enum(renderStates).optional(),
  /** Only the items of one batch. */
  batchId: z.string().min(1).max(128).optional(),
  test: z
    .enum(["true", "false"], { error: "must be true or false" })
    .transform((v) => v === "true")
    .optional(),
  /** Only renders of one source; without it, every source but editorPreview (docs/api.md, GET /v1/renders). */
  source: z.enum(renderSources).optional(),
});
export type RenderListQuery = z.infer<typeof RenderListQuery>;
/** The filters of a render list, apart from paging. */
export type RenderFilter = { state?: RenderListQuery["state"]; test?: boolean; batchId?: string; source?: RenderListQuery["source"] };

const Timestamp = z.iso.datetime();

export const RenderResult = z.object({
  downloadUrl: z.url().optional().meta({ description: "A five-minute link to the file (absent when the file is not kept)" }),
  expiresAt: Timestamp.optional(),
  pageCount: z.number().int(),
  outputBytes: z.number().int(),
  durationMs: z.number().int(),
  /** Where the file was uploaded: the destination's name and the full object key. */
  destination: z.object({ name: z.string(), key: z.string() }).optional().meta({ description: "Where the file was uploaded: the destination's name and the full object key" }),
  /** Diagnostics of a render that still succeeded (font_glyphs_missing); absent when none. */
  warnings: z.array(z.object({ diagnostic: z.string(), message: z.string() })).optional(),
});
export type RenderResult = z.infer<typeof RenderResult>;

/** The API view of a render (lib/renders toRender). */
export const Render = z
  .object({
    id: z.string(),
    state: z.enum(["queued", "processing", "succeeded", "failed", "cancelled"]),
    test: z.boolean(),
    source: z.enum(renderSources).meta({ description: "Where the document came from" }),
    format: z.enum(["pdf", "png", "jpeg"]),
    templateId: z.string().optional(),
    templateVersionId: z.string().optional(),
    batchId: z.string().optional(),
    batchIndex: z.number().int().optional(),
    createdAt: Timestamp,
    updatedAt: Timestamp,
    startedAt: Timestamp.optional(),
    finishedAt: Timestamp.optional(),
    result: RenderResult.optional().meta({ description: "Set once the render succeeded" }),
    error: z
      .object({ code: z.string().meta({ description: "One of the error codes (RENDER_FAILED, RENDER_TIMEOUT...)" }), diagnostic: z.string().meta({ description: "What failed, in a fixed word (docs/api.md)" }), message: z.string() })
      .optional()
      .meta({ description: "Set once the render failed" }),
  })
  .meta({ id: "Render", description: "A render: its state and, once it ended, its result or error." });
export type Render = z.infer<typeof Render>;

export const RenderPage = pageOf(Render, "RenderPage");
