import { z } from "zod";
import type { CreateDocumentOptions } from "zod-openapi";
import { PreviewInput } from "../../reports";
import { HandlebarsContent } from "../../templates/handlebars-schema";
import { ComponentContent } from "../../templates/schema";
import { WorkbookContent } from "../../templates/workbook";
import { CreateTemplateInput, Draft, SaveDraftInput } from "../../templates/schemas";

/**
 * A template's content in the document: one of the three kinds' content schemas, the very zod
 * schemas a save validates with (parseContentOf). why a oneOf without a discriminator: content has
 * no `kind` of its own (the template has it), and the kinds cannot be confused: each is a closed
 * object, requiring `composition`, `templateHtml` or `workbook`.
 */
export const TemplateContent = z
  .union([
    ComponentContent.meta({ id: "ComponentTemplateContent" }),
    HandlebarsContent.meta({ id: "HandlebarsTemplateContent" }),
    WorkbookContent.meta({ id: "WorkbookTemplateContent" }),
  ])
  .meta({
    id: "TemplateContent",
    description:
      "A template's content, as its kind has it: a component template's composition and settings (ComponentTemplateContent), a Handlebars template's sources and settings (HandlebarsTemplateContent), or a workbook template's uploaded workbook and code (WorkbookTemplateContent). The template's `kind` says which; a save is checked against that one.",
    override: ({ jsonSchema }) => {
      // why oneOf: exactly one kind fits any content (zod writes a union as anyOf).
      jsonSchema.oneOf = jsonSchema.anyOf;
      delete jsonSchema.anyOf;
    },
  });

const REF = "#/components/schemas/TemplateContent";

/**
 * The zod schemas that stand for a template's content where the route's schema does not type it:
 * the inputs take `z.unknown()` (the verb parses it by the template's kind), the answers a record.
 */
const contentSlots = new Set<unknown>([
  CreateTemplateInput.shape.content,
  SaveDraftInput.shape.content,
  PreviewInput.shape.content.unwrap(),
  // Draft, Revision, Template.draft and TemplateVersion.content share this one schema.
  Draft.shape.content,
]);

/** The generator's override: a content slot becomes a reference to TemplateContent, keeping its own description. */
export const typeContent: NonNullable<CreateDocumentOptions["override"]> = ({ zodSchema, jsonSchema }) => {
  if (!contentSlots.has(zodSchema)) return;
  for (const key of Object.keys(jsonSchema)) if (key !== "description") delete jsonSchema[key];
  jsonSchema.$ref = REF;
};
