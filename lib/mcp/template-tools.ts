import type { McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";
import type { Ctx } from "../auth/context";
import { JsonObject } from "../documents/page-settings";
import { invalidValue, isAppError, type ErrorDetail } from "../errors";
import * as templates from "../templates";
import { dataViolations } from "../templates/data-check";
import { MAX_DATA_ERRORS } from "../templates/data-errors";
import { fromDraft, fromTemplateVersion } from "../templates/prepare";
import { runTool, toolResult } from "./results";

const Id = z.string().min(1).max(128);
const Name = templates.TemplateName;

/** Which template a tool means: by name (its newest published version), by template id (its draft), or one version. */
export const TemplateTarget = {
  template: Name.optional().describe("A template's name: its newest published version (what a render by name uses)"),
  templateId: Id.optional().describe("A template's id (tpl_...): its current draft"),
  templateVersionId: Id.optional().describe("A published version's id (tv_...)"),
};
type TemplateTarget = { template?: string; templateId?: string; templateVersionId?: string };

/** Exactly one of the fields, as POST /v1/renders asks of its sources; 400 naming the field otherwise. */
export function exactlyOne<T extends object>(value: T, fields: readonly (keyof T & string)[]): keyof T & string {
  const sent = fields.filter((f) => value[f] !== undefined);
  if (sent.length !== 1) {
    throw invalidValue(sent[1] ?? fields[0]!, `send exactly one of ${fields.join(", ")}${sent.length ? ` (got ${sent.join(" and ")})` : ""}`);
  }
  return sent[0]!;
}

/** The data schema a target checks data against, and what it belongs to (template:read). */
async function dataSchemaOf(ctx: Ctx, target: TemplateTarget) {
  switch (exactlyOne(target, ["template", "templateId", "templateVersionId"])) {
    case "template": {
      const v = await templates.getNewestVersionByName(ctx, target.template!);
      return { schema: await templates.getVersionDataSchema(ctx, v.id), of: { templateId: v.templateId, templateVersionId: v.id, version: v.version } };
    }
    case "templateId":
      return { schema: await templates.getDraftDataSchema(ctx, target.templateId!), of: { templateId: target.templateId!, draft: true } };
    default: {
      const v = await templates.getVersion(ctx, target.templateVersionId!);
      return { schema: await templates.getVersionDataSchema(ctx, v.id), of: { templateId: v.templateId, templateVersionId: v.id, version: v.version } };
    }
  }
}

/** A template with the data schema a render of it by name checks: the newest published version's, else the draft's. */
async function withDataSchema(ctx: Ctx, t: templates.Template) {
  const base = { id: t.id, name: t.name, description: t.description, kind: t.kind, draftRevision: t.draftRevision, updatedAt: t.updatedAt };
  if (t.publishedVersion === undefined) return { ...base, dataSchemaOf: "draft" as const, dataSchema: await templates.getDraftDataSchema(ctx, t.id) };
  const [v] = (await templates.listVersions(ctx, t.id, { limit: 1, order: "desc" })).items;
  if (!v) return { ...base, dataSchemaOf: "draft" as const, dataSchema: await templates.getDraftDataSchema(ctx, t.id) };
  return { ...base, publishedVersion: v.version, newestVersionId: v.id, dataSchemaOf: "newestVersion" as const, dataSchema: await templates.getVersionDataSchema(ctx, v.id) };
}

/** A template as the folio://templates/{id} resource reads it: the template with its draft, data schema and newest version. */
export async function templateResource(ctx: Ctx, id: string) {
  const t = await templates.getTemplate(ctx, id);
  const [newest] = (await templates.listVersions(ctx, id, { limit: 1, order: "desc" })).items;
  return { ...t, dataSchema: await templates.getDraftDataSchema(ctx, id), ...(newest ? { newestVersion: newest } : {}) };
}

const Violation = z.object({ path: z.string().optional(), message: z.string() });

type Target = Awaited<ReturnType<typeof dataSchemaOf>>["of"];

/**
 * Every problem a render of `of` with `data` would be refused for before it renders, without
 * rendering: the data schema's violations (all of them), then, when there are none, the template
 * prepared exactly as the render prepares it (lib/templates/prepare: a component template expanded,
 * a Handlebars one run in the sandbox), whose 400 BAD_REQUEST names the values the template needs
 * and the data lacks or has of the wrong type ("Missing value at lines.0.quantity"). Any other
 * refusal (a limit, an unusable file) is thrown as the render would answer it.
 */
async function renderProblems(ctx: Ctx, of: Target, schema: Record<string, unknown> | undefined, data: Record<string, unknown>): Promise<{ violations: ErrorDetail[]; more: boolean }> {
  const checked = await dataViolations(schema, data);
  if (checked.violations.length) return checked;
  try {
    if ("draft" in of) await fromDraft(ctx, of.templateId, data, undefined);
    else await fromTemplateVersion(ctx, of.templateVersionId, data);
    return { violations: [], more: false };
  } catch (err) {
    if (!isAppError(err) || err.code !== "BAD_REQUEST") throw err;
    // why the message: an expansion that stops at MAX_DATA_ERRORS says "More than 100 values ..." (data-errors.ts).
    return { violations: err.details?.length ? err.details : [{ message: err.message }], more: err.message.startsWith(`More than ${MAX_DATA_ERRORS} `) };
  }
}

export function registerTemplateTools(server: McpServer, ctx: Ctx) {
  server.registerTool(
    "list_templates",
    {
      title: "List templates",
      description:
        "Lists the workspace's templates, newest first, each with the JSON Schema its data must match (dataSchema; {} accepts any object). " +
        "dataSchemaOf says whose schema it is: the newest published version's (what render with template=<name> uses) or, before the first publish, the draft's. Needs template:read.",
      inputSchema: z.object({
        q: z.string().min(1).max(120).optional().describe("Only templates whose name contains this (any letter case)"),
        limit: z.number().int().min(1).max(100).default(25),
        cursor: z.string().min(1).max(512).optional().describe("nextCursor of the previous page"),
      }),
      outputSchema: z.looseObject({ items: z.array(z.looseObject({ id: z.string(), name: z.string() })), nextCursor: z.string().optional() }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    runTool(ctx, async ({ q, limit, cursor }) => {
      const page = await templates.listTemplates(ctx, { limit, cursor, q });
      const items = [];
      for (const t of page.items) items.push(await withDataSchema(ctx, t));
      return toolResult({ items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) });
    }),
  );

  server.registerTool(
    "get_template_data_schema",
    {
      title: "Get a template's data schema",
      description: "The JSON Schema a template's data must match ({} accepts any object). Give exactly one of template (name), templateId (the draft) or templateVersionId. Needs template:read.",
      inputSchema: z.object(TemplateTarget),
      outputSchema: z.looseObject({ schema: z.record(z.string(), z.unknown()), of: z.record(z.string(), z.unknown()) }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    runTool(ctx, async (target) => toolResult(await dataSchemaOf(ctx, target))),
  );

  server.registerTool(
    "check_data",
    {
      title: "Check data against a template",
      description:
        "Checks data as render does before rendering, without rendering anything: applies the template's data schema and lists EVERY violation with its dot-joined path (up to 100); " +
        "data that fits the schema is then expanded into the template as a render expands it, which lists every value the template needs that the data lacks or has of the wrong type. " +
        "valid is true exactly when render would take the data. Use it before render to fix all problems at once. Give exactly one of template (name), templateId (the draft) or templateVersionId, and data. Needs template:read.",
      inputSchema: z.object({ ...TemplateTarget, data: JsonObject.describe("The data to check (a JSON object)") }),
      outputSchema: z.looseObject({ valid: z.boolean(), violations: z.array(Violation), more: z.boolean() }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    runTool(ctx, async ({ data, ...target }) => {
      const { schema, of } = await dataSchemaOf(ctx, target);
      const { violations, more } = await renderProblems(ctx, of, schema, data);
      const summary = violations.length
        ? `The data has ${more ? "more than " : ""}${violations.length} problem${violations.length === 1 ? "" : "s"}:\n${violations.map((v) => `- ${v.path ?? "(data)"}: ${v.message}`).join("\n")}`
        : "The data matches the template's data schema and has every value the template uses: render takes it.";
      return toolResult({ valid: violations.length === 0, violations, more, of }, summary);
    }),
  );
}
