import { sql } from "drizzle-orm";
import { bigint, boolean, index, integer, jsonb, pgTable, text } from "drizzle-orm/pg-core";
import { ts } from "./columns";
import { workspaces } from "./workspaces";

export const renderStates = ["queued", "processing", "succeeded", "failed", "cancelled"] as const;
export type RenderState = (typeof renderStates)[number];
export const renderFormats = ["pdf", "png", "jpeg"] as const;
export type RenderFormat = (typeof renderFormats)[number];

export type RenderErrorRecord = { code: string; diagnostic: string; message: string };
/** A diagnostic of a render that still succeeded (font_glyphs_missing: characters no font covers). */
export type RenderWarningRecord = { diagnostic: string; message: string };
/** What the worker needs besides the document: output options fixed at creation. */
export type RenderOptions = {
  image?: { page: number; scale: number };
  pageRanges?: string;
  /** An editor preview's person (docs/architecture.md, Editor previews): one waiting preview per person. */
  editor?: string;
};

export const renders = pgTable(
  "renders",
  {
    id: text("id").primaryKey(),
    workspaceId: text("workspace_id").notNull().references(() => workspaces.id, { onDelete: "cascade" }),
    state: text("state", { enum: renderStates }).notNull().default("queued"),
    test: boolean("test").notNull().default(false),
    /** decisions.md: templateVersion, preview, document, nodeDocument, report. */
    source: text("source").notNull(),
    format: text("format", { enum: renderFormats }).notNull(),
    options: jsonb("options").$type<RenderOptions>().notNull().default({}),
    /** The request id (x-request-id) of the request that created the render, for the worker's log lines about it. */
    requestId: text("request_id"),
    /** Renders of templates: the template and, for published versions, the version (no foreign key: renders outlive them). */
    templateId: text("template_id"),
    templateVersionId: text("template_version_id"),
    /** Rendering attempts started; a crashed or timed-out worker's render is retried up to 3 attempts in all. */
    attempts: integer("attempts").notNull().default(0),
    /**
     * Fair turns between workspaces (docs/architecture.md, Fair turns): workers take the queued render
     * with the lowest turn, oldest first. Set when the render is queued: one more than its workspace's
     * last queued render, and never below the lowest turn still waiting.
     */
    turn: bigint("turn", { mode: "number" }).notNull().default(0),
    /** While processing: the worker renews it; past it, the render is taken back (worker died). */
    leaseExpiresAt: ts("lease_expires_at"),
    error: jsonb("error").$type<RenderErrorRecord>(),
    /** Diagnostics of a succeeded render (shown as result.warnings). */
    warnings: jsonb("warnings").$type<RenderWarningRecord[]>(),
    pageCount: integer("page_count"),
    outputBytes: bigint("output_bytes", { mode: "number" }),
    /** Wall time of the successful attempt, in ms. */
    durationMs: integer("duration_ms"),
    /**
     * A storage destination (spec: Render destination): the saved destination (no foreign key: a
     * deleted one fails the render), its name and the full object key, fixed at creation (a later
     * prefix applies only to later renders; changed access keys apply to queued ones).
     */
    destinationId: text("destination_id"),
    destinationName: text("destination_name"),
    destinationKey: text("destination_key"),
    /** Batch items: the batch and the item's position in the request (from 0). No foreign key: retention deletes either. */
    batchId: text("batch_id"),
    batchIndex: integer("batch_index"),
    /** false: no service-side copy is kept (spec: keepCopy). */
    keepCopy: boolean("keep_copy").notNull().default(true),
    /** Key in the service-file store; null until stored, and when no copy is kept. */
    fileKey: text("file_key"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
    startedAt: ts("started_at"),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    index("renders_workspace_created_idx").on(t.workspaceId, t.createdAt.desc(), t.id.desc()),
    index("renders_lease_idx").on(t.leaseExpiresAt).where(sql`state = 'processing'`),
    // The render queue: workers take the queued render of the lowest turn, oldest first (lib/renders/statements.ts claimNextRender).
    index("renders_queued_idx").on(t.turn, t.createdAt, t.id).where(sql`state = 'queued'`),
    // A workspace's last queued turn, read when it queues another render.
    index("renders_workspace_turn_idx").on(t.workspaceId, t.turn).where(sql`state = 'queued'`),
    index("renders_created_idx").on(t.createdAt),
    index("renders_batch_idx").on(t.batchId, t.batchIndex).where(sql`batch_id is not null`),
    // Admission (spec: maxActiveRenders): a workspace's queued and processing renders.
    index("renders_active_idx").on(t.workspaceId, t.test).where(sql`state in ('queued', 'processing')`),
  ],
);

/** The caller's input, apart from the row so lists never read megabytes of HTML. */
export const renderInputs = pgTable("render_inputs", {
  renderId: text("render_id")
    .primaryKey()
    .references(() => renders.id, { onDelete: "cascade" }),
  payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
});

export type RenderRow = typeof renders.$inferSelect;
